//! The rows of the Posterior screen's weight list: one per weight, named by its design column,
//! and for a multiclass run one block per class with free weights under a heading naming the
//! class (all K classes, or classes 1..K with `reference_class`, whose class 0 is fixed at
//! zero). The scale is shared by every run of the record.

use crate::widget::names;
use crate::widget::whiskers::{self, Whisker, WhiskerRow};
use bayeslab_core::record::{ExperimentRecord, RunRecord};

/// Means and standard deviations of `run`'s weights: the posterior's, else the point estimate.
fn moments(run: &RunRecord) -> (Vec<f64>, Vec<Option<f64>>) {
    match &run.posterior {
        Some(p) => (
            p.mean.clone(),
            p.cov_diag.iter().map(|v| Some(v.max(0.0).sqrt())).collect(),
        ),
        None => (run.weights.clone(), vec![None; run.weights.len()]),
    }
}

/// One whisker per weight of `run`, named by design column, unshortened.
fn whiskers_of(run: &RunRecord, columns: &[String]) -> Vec<Whisker> {
    let (means, sds) = moments(run);
    let d = columns.len().max(1);
    means
        .iter()
        .zip(sds)
        .enumerate()
        .map(|(j, (&mean, sd))| Whisker {
            name: columns
                .get(j % d)
                .cloned()
                .unwrap_or_else(|| format!("w{j}")),
            mean,
            sd,
        })
        .collect()
}

/// The scale every run of the record is drawn on.
pub fn shared_extent(record: &ExperimentRecord) -> (f64, f64) {
    let all: Vec<Whisker> = record
        .runs
        .iter()
        .flat_map(|r| whiskers_of(r, &record.dataset.columns))
        .collect();
    whiskers::extent(&all)
}

/// The class each block of weights belongs to: with K classes and B blocks, class b when
/// B = K, class b + 1 when B = K − 1 (class 0 the reference).
fn block_class(classes: &[String], blocks: usize, b: usize) -> String {
    let k = if blocks + 1 == classes.len() {
        b + 1
    } else {
        b
    };
    classes
        .get(k)
        .cloned()
        .unwrap_or_else(|| format!("block {b}"))
}

/// The list rows of `run` and the width of their names, shortened to at most `max_label`
/// characters and still distinct.
pub fn rows(
    record: &ExperimentRecord,
    run: &RunRecord,
    max_label: usize,
) -> (Vec<WhiskerRow>, usize) {
    let columns = &record.dataset.columns;
    let mut weights = whiskers_of(run, columns);
    let longest = columns.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let label = longest.clamp(6, max_label.max(6));
    let refs: Vec<&str> = columns.iter().map(String::as_str).collect();
    let fitted = names::fit(&refs, label);
    let d = columns.len().max(1);
    for (j, w) in weights.iter_mut().enumerate() {
        if let Some(n) = fitted.get(j % d) {
            w.name = n.clone();
        }
    }
    let blocks = weights.len() / d;
    if blocks <= 1 {
        return (weights.into_iter().map(WhiskerRow::Weight).collect(), label);
    }
    let classes = &record.dataset.classes;
    let mut out = Vec::new();
    if blocks + 1 == classes.len() {
        out.push(WhiskerRow::Heading(format!(
            "class {}: the reference class, its weights fixed at 0",
            classes[0]
        )));
    }
    for (j, w) in weights.into_iter().enumerate() {
        if j % d == 0 {
            let class = block_class(classes, blocks, j / d);
            out.push(WhiskerRow::Heading(format!("class {class}")));
        }
        out.push(WhiskerRow::Weight(w));
    }
    (out, label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_named_by_class_with_or_without_a_reference() {
        let classes: Vec<String> = ["setosa", "versicolor", "virginica"]
            .map(String::from)
            .to_vec();
        assert_eq!(block_class(&classes, 3, 0), "setosa");
        assert_eq!(block_class(&classes, 3, 2), "virginica");
        assert_eq!(block_class(&classes, 2, 0), "versicolor");
        assert_eq!(block_class(&classes, 2, 1), "virginica");
    }
}
