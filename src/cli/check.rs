//! `bayeslab check`: validate an experiment file and load its data as a run would, then say
//! what the run would fit: the rows, and the design columns in weight order with what the
//! encodings made of each raw column (a categorical column's indicators with its levels and
//! reference, an imputed column's fill value and indicator), so a user sees the model's inputs
//! before fitting anything.

use std::path::Path;

use bayeslab_core::record::EncodingInfo;
use bayeslab_core::Error;
use bayeslab_engine::config;
use bayeslab_report::tables::{design_listing, DesignGroup};

/// Plain numeric columns are packed onto lines of about this many characters.
const LINE_CHARS: usize = 96;

pub fn check(path: &Path) -> Result<i32, Error> {
    let plan = config::load(path)?;
    if let (Some(data), false) = (&plan.data, plan.methods.is_empty()) {
        if data.streaming.is_some() {
            // One statistics pass in chunks, with the memory budget checked first.
            let d = bayeslab_data::StreamedData::open(data)?;
            config::limits::check_design(&plan, d.columns.len(), d.rows_test)?;
            println!(
                "{}: ok — {} method(s), streamed in chunks of {} rows ({}); {} training and {} test rows, {} design columns",
                path.display(),
                plan.methods.len(),
                d.streaming.chunk_rows,
                if d.streaming.cache {
                    "passes after the first read a cache of the design rows"
                } else {
                    "every pass reads the file: cache = false"
                },
                d.rows_train,
                d.rows_test,
                d.columns.len()
            );
            for note in &d.notes {
                println!("note: {note}");
            }
            print_design(&d.columns, &d.encoding);
        } else {
            let data = bayeslab_data::load(data)?;
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
        let obs = bayeslab_engine::lab::observations::load(p)?;
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

/// The design-columns section: an encoded column's design columns on a line with what the
/// encoding made of it on the next, runs of plain columns packed onto shared lines.
fn print_design(columns: &[String], encoding: &EncodingInfo) {
    println!("design columns ({}), in weight order:", columns.len());
    for line in lines(design_listing(columns, encoding)) {
        println!("  {line}");
    }
}

/// The section's lines, unindented but for the notes.
fn lines(groups: Vec<DesignGroup>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Whether the last line is a run of plain columns that may take more.
    let mut open = false;
    for g in groups {
        let names = g.columns.join(", ");
        let plain = g.notes.is_empty();
        match out.last_mut() {
            Some(last) if plain && open => {
                if last.chars().count() + 2 + names.chars().count() <= LINE_CHARS {
                    last.push_str(", ");
                    last.push_str(&names);
                } else {
                    // The run of plain columns goes on: say so at the line's end.
                    last.push(',');
                    out.push(names);
                }
            }
            _ => out.push(names),
        }
        out.extend(g.notes.iter().map(|n| format!("    ← {n}")));
        open = plain;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(columns: &[&str], notes: &[&str]) -> DesignGroup {
        DesignGroup {
            columns: columns.iter().map(|s| s.to_string()).collect(),
            notes: notes.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn plain_columns_share_lines_and_encoded_ones_keep_their_own() {
        let groups = vec![
            group(&["intercept"], &[]),
            group(&["x"], &[]),
            group(&["c=b", "c=c"], &["c, 3 levels"]),
            group(&["y"], &[]),
            group(&["z"], &[]),
        ];
        assert_eq!(
            lines(groups),
            ["intercept, x", "c=b, c=c", "    ← c, 3 levels", "y, z"]
        );
        let many: Vec<DesignGroup> = (0..40).map(|i| group(&[&format!("p{i}")], &[])).collect();
        let packed = lines(many);
        assert!(packed.len() > 1 && packed.iter().all(|l| l.chars().count() <= LINE_CHARS));
        assert!(packed[..packed.len() - 1].iter().all(|l| l.ends_with(',')));
        assert_eq!(packed.join(" ").split(", ").count(), 40);
    }
}
