//! What a target's classes must be: two at least, and, for a binary method, a say in which
//! of two arbitrary labels is class 1.

use std::path::Path;

use crate::plan::DataPlan;
use bayeslab_core::error::{Error, Result};

/// A target needs two classes at least, and exactly two for binary methods.
pub(crate) fn check_classes(path: &Path, plan: &DataPlan, classes: &[String]) -> Result<()> {
    if classes.len() < 2 {
        return Err(Error::data(
            path,
            format!(
                "target column \"{}\" has a single class ({}): a classifier needs at least two; check [data] target",
                plan.target,
                classes.join(", ")
            ),
        ));
    }
    let inferred = plan.positive.is_none() && classes != ["0", "1"];
    if let (true, Some(method)) = (classes.len() == 2 && inferred, &plan.binary_method) {
        // Two arbitrary labels: which one is class 1 decides the sign of every weight and what
        // predictions.csv reports, so a binary method asks rather than guessing.
        return Err(Error::data(
            path,
            format!(
                "target column \"{}\" has the labels {}: say which is class 1 for method {method} with [data] positive = \"{}\"",
                plan.target,
                classes.join(", "),
                classes[1]
            ),
        ));
    }
    if let (true, Some(method)) = (classes.len() > 2, &plan.binary_method) {
        return Err(Error::data(
            path,
            format!(
                "target column \"{}\" has the labels {} ({} classes) but method {method} handles two: \
                 set [data] positive = \"{}\" to make that class 1 and the rest 0, or use a multiclass kind \
                 (softmax-laplace, gaussian-generative, gaussian-naive-bayes, bernoulli-naive-bayes, lda, qda)",
                plan.target,
                classes.join(", "),
                classes.len(),
                classes.last().cloned().unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// The training rows hold `classes` (their class indices, in any order, repeated): a
/// classifier needs two of them. `rows` training rows in all, `names` the classes' names.
pub(crate) fn check_training_classes(
    path: &Path,
    plan: &DataPlan,
    classes: impl IntoIterator<Item = f64>,
    names: &[String],
    rows: usize,
) -> Result<()> {
    let mut classes = classes.into_iter();
    let Some(first) = classes.next() else {
        return Ok(());
    };
    if classes.all(|c| c == first) {
        return Err(Error::data(
            path,
            format!(
                "the training set has only class {} ({rows} rows of target \"{}\"): a classifier needs at least two; \
                 check [data] target, positive and split",
                names.get(first as usize).cloned().unwrap_or_default(),
                plan.target
            ),
        ));
    }
    Ok(())
}
