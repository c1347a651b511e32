//! `bayeslab check`: validate an experiment file and load its data as a run would, then say
//! what the run would fit: the rows, and the design columns in weight order with what the
//! encodings made of each raw column (a categorical column's indicators with its levels and
//! reference, an imputed column's fill value and indicator), so a user sees the model's inputs
//! before fitting anything.

use std::path::Path;

use bayeslab::data::EncodingInfo;
use bayeslab::output::tables::design_listing;
use bayeslab::{config, Error};

/// Plain numeric columns are packed onto lines of about this many characters.
const LINE_CHARS: usize = 96;

pub fn check(path: &Path) -> Result<i32, Error> {
    let plan = config::load(path)?;
    if let (Some(data), false) = (&plan.data, plan.methods.is_empty()) {
        if data.streaming.is_some() {
            // One statistics pass in chunks, with the memory budget checked first.
            let d = bayeslab::data::StreamedData::open(data)?;
            config::limits::check_design(&plan, d.columns.len(), d.rows_test)?;
            println!(
                "{}: ok — {} method(s), streamed in chunks of {} rows; {} training and {} test rows, {} design columns",
                path.display(),
                plan.methods.len(),
                d.streaming.chunk_rows,
                d.rows_train,
                d.rows_test,
                d.columns.len()
            );
            for note in &d.notes {
                println!("note: {note}");
            }
            print_design(&d.columns, &d.encoding);
        } else {
            let data = bayeslab::data::load(data)?;
            config::limits::check_design(&plan, data.columns.len(), data.test.rows())?;
            println!(
                "{}: ok — {} method(s); {} training and {} test rows, {} design columns",
                path.display(),
                plan.methods.len(),
                data.train.rows(),
                data.test.rows(),
                data.columns.len()
            );
            for note in &data.notes {
                println!("note: {note}");
            }
            print_design(&data.columns, &data.encoding);
        }
    }
    for p in &plan.posteriors {
        let obs = bayeslab::lab::observations::load(p)?;
        println!(
            "{}: ok — posterior \"{}\" ({}), {} data point(s)",
            path.display(),
            p.id,
            p.kind.name(),
            obs.len()
        );
    }
    Ok(0)
}

/// The design-columns section: encoded columns one line each with their encoding, runs of
/// plain columns packed onto shared lines.
fn print_design(columns: &[String], encoding: &EncodingInfo) {
    println!("design columns ({}), in weight order:", columns.len());
    for line in pack(design_listing(columns, encoding)) {
        println!("  {line}");
    }
}

/// Runs of lines without an encoding note joined with ", " up to [`LINE_CHARS`].
fn pack(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in lines {
        let plain = !line.contains('←');
        match out.last_mut() {
            Some(last)
                if plain
                    && open
                    && last.chars().count() + 2 + line.chars().count() <= LINE_CHARS =>
            {
                last.push_str(", ");
                last.push_str(&line);
            }
            Some(last) if plain && open => {
                // The run of plain columns goes on: say so at the line's end.
                last.push(',');
                out.push(line);
            }
            _ => out.push(line),
        }
        open = plain;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_columns_share_lines_and_encoded_ones_keep_their_own() {
        let lines = ["intercept", "x", "c=b  ← c, 2 levels", "y", "z"];
        let packed = pack(lines.iter().map(|s| s.to_string()).collect());
        assert_eq!(packed, ["intercept, x", "c=b  ← c, 2 levels", "y, z"]);
        let many: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        let packed = pack(many);
        assert!(packed.len() > 1 && packed.iter().all(|l| l.chars().count() <= LINE_CHARS));
        assert!(packed[..packed.len() - 1].iter().all(|l| l.ends_with(',')));
        assert_eq!(packed.join(" ").split(", ").count(), 40);
    }
}
