//! Which class each block of a run's weights belongs to, for the weights table and figure.
//!
//! The record stores weights flat: a binary linear model has one block (the log-odds of the
//! second class against the first), softmax stacks one block per class (K blocks), or with
//! `reference_class = true` one per class but the first, whose weights are fixed at zero
//! (K − 1 blocks). The block count of each run's weights, against the number of design
//! columns and classes, tells the layouts apart without reading the experiment again.

use bayeslab_core::record::{ExperimentRecord, RunRecord};

/// Where the weight of one class and design column is in a run's weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    At(usize),
    /// The reference class of a softmax with `reference_class`: fixed at zero, not fitted.
    Reference,
    /// The run has no weights, or a layout these rules do not know.
    Missing,
}

/// The class blocks every report shows for one experiment.
#[derive(Debug, Clone)]
pub struct ClassBlocks {
    pub columns: Vec<String>,
    /// Class names in index order.
    pub classes: Vec<String>,
    pub target: String,
    /// Whether blocks are labelled by class: more than two classes, or a two-class softmax
    /// with a block per class. A binary model's one block stays unlabelled.
    pub labelled: bool,
}

impl ClassBlocks {
    pub fn of(r: &ExperimentRecord) -> ClassBlocks {
        let d = r.dataset.columns.len().max(1);
        let k = r.dataset.classes.len();
        let labelled = k > 2 || r.runs.iter().any(|run| run.weights.len() > d);
        ClassBlocks {
            columns: r.dataset.columns.clone(),
            classes: r.dataset.classes.clone(),
            target: r.dataset.target.clone(),
            labelled,
        }
    }

    /// The classes shown, one block each: every class when labelled, else only the second
    /// (the binary model's log-odds of class 1).
    pub fn shown(&self) -> std::ops::Range<usize> {
        if self.labelled {
            0..self.classes.len()
        } else {
            1..2
        }
    }

    /// "y = setosa": the block's class as the target's value.
    pub fn label(&self, class: usize) -> String {
        let name = self.classes.get(class).map_or("?", String::as_str);
        format!("{} = {name}", self.target)
    }

    /// Where `run` keeps the weight of `class` on design column `column`.
    pub fn slot(&self, run: &RunRecord, class: usize, column: usize) -> Slot {
        let d = self.columns.len();
        let n = run.weights.len();
        if d == 0 || n == 0 || !n.is_multiple_of(d) || column >= d {
            return Slot::Missing;
        }
        let blocks = n / d;
        let k = self.classes.len().max(2);
        if blocks == k {
            Slot::At(class * d + column)
        } else if blocks + 1 == k {
            match class {
                0 => Slot::Reference,
                c => Slot::At((c - 1) * d + column),
            }
        } else {
            Slot::Missing
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{record, run};

    #[test]
    fn softmax_blocks_are_classes_and_a_reference_run_skips_class_zero() {
        let cols = ["intercept", "x"];
        let r = record(
            &cols,
            &["setosa", "versicolor", "virginica"],
            vec![
                run("softmax", &[0.0, 1.0, 10.0, 11.0, 20.0, 21.0], None, None),
                run("reference", &[10.0, 11.0, 20.0, 21.0], None, None),
            ],
        );
        let b = ClassBlocks::of(&r);
        assert!(b.labelled);
        assert_eq!(b.shown(), 0..3);
        assert_eq!(b.label(2), "y = virginica");
        let (softmax, reference) = (&r.runs[0], &r.runs[1]);
        // the same class and column name the same weight in both layouts
        for (class, column) in [(1, 0), (1, 1), (2, 0), (2, 1)] {
            let at = |run| match b.slot(run, class, column) {
                Slot::At(i) => run.weights[i],
                s => panic!("{s:?}"),
            };
            assert_eq!(at(softmax), at(reference));
        }
        assert_eq!(b.slot(reference, 0, 1), Slot::Reference);
        assert_eq!(b.slot(softmax, 0, 1), Slot::At(1));
    }

    #[test]
    fn a_binary_model_is_one_unlabelled_block() {
        let r = record(
            &["intercept", "x"],
            &["0", "1"],
            vec![run("laplace", &[0.5, 1.5], Some(0.1), None)],
        );
        let b = ClassBlocks::of(&r);
        assert!(!b.labelled);
        assert_eq!(b.shown(), 1..2);
        assert_eq!(b.slot(&r.runs[0], 1, 1), Slot::At(1));
    }
}
