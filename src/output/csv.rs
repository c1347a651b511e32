//! predictions.csv and trace.csv. Every value is a number or a validated id, so no quoting
//! is needed; floats use Rust's shortest round-trip form.

use std::fmt::Write;

use crate::record::ExperimentRecord;

/// `row,y,<run>/<predictive>...` with p(y = 1) per test row; for more than two classes one
/// column `<run>/<predictive>/p<k>` per class k instead (y is then the class index). A sampling
/// method's predictive is followed by its Monte-Carlo standard error, `<run>/<predictive>_mcse`.
pub fn predictions(record: &ExperimentRecord) -> String {
    let mut cols: Vec<(String, Vec<f64>)> = Vec::new();
    for r in &record.runs {
        for p in &r.predictives {
            if p.class_probabilities.is_empty() {
                cols.push((format!("{}/{}", r.id, p.name), p.probabilities.clone()));
                if !p.mcse.is_empty() {
                    cols.push((format!("{}/{}_mcse", r.id, p.name), p.mcse.clone()));
                }
            } else {
                let k = p.class_probabilities.first().map_or(0, Vec::len);
                for c in 0..k {
                    cols.push((
                        format!("{}/{}/p{c}", r.id, p.name),
                        p.class_probabilities.iter().map(|row| row[c]).collect(),
                    ));
                }
            }
        }
    }
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
