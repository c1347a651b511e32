//! predictions.csv and trace.csv. Every value is a number or a validated id, so no quoting
//! is needed; floats use Rust's shortest round-trip form.

use std::fmt::Write;

use crate::record::ExperimentRecord;

/// `row,y,<run>/<predictive>...` with p(y = 1) per test row.
pub fn predictions(record: &ExperimentRecord) -> String {
    let cols: Vec<(String, &[f64])> = record
        .runs
        .iter()
        .flat_map(|r| {
            r.predictives
                .iter()
                .map(move |p| (format!("{}/{}", r.id, p.name), p.probabilities.as_slice()))
        })
        .collect();
    let mut out = String::from("row,y");
    for (name, _) in &cols {
        out.push(',');
        out.push_str(name);
    }
    out.push('\n');
    for (i, y) in record.test_y.iter().enumerate() {
        let _ = write!(out, "{i},{y}");
        for (_, p) in &cols {
            let _ = write!(out, ",{}", p[i]);
        }
        out.push('\n');
    }
    out
}

/// `run,iteration,objective,grad_norm,step,elapsed_s`, one line per observed iterate.
pub fn trace(record: &ExperimentRecord) -> String {
    let mut out = String::from("run,iteration,objective,grad_norm,step,elapsed_s\n");
    for t in &record.trace {
        let i = &t.iterate;
        let _ = writeln!(
            out,
            "{},{},{},{},{},{}",
            t.run, i.iteration, i.objective, i.grad_norm, i.step, i.elapsed_s
        );
    }
    out
}
