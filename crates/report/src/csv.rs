//! predictions.csv and trace.csv. Every value is a number or a validated id, so no quoting
//! is needed; floats use Rust's shortest round-trip form.

use std::fmt::Write;

use bayeslab_core::record::ExperimentRecord;

/// `row,y,<run>/<predictive>...` with p(y = 1) per test row; for more than two classes one
/// column `<run>/<predictive>/p<k>` per class k instead (y is then the class index). A sampling
/// method's predictive is followed by its Monte-Carlo standard error, `<run>/<predictive>_mcse`.
/// The text comes from the predictions table's own writer, the one a streamed run uses.
pub fn predictions(record: &ExperimentRecord) -> String {
    record.predictions.csv()
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
