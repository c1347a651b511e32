//! The target values of a file read in chunks: each distinct value once, with its counts, and
//! its class once the whole column has been seen.

use super::{by_name, counted};
use crate::read::table::Labels;

/// The distinct target values of a file read in chunks, in order of first appearance, with
/// how often each occurs on training and on test rows. [`classes`] and [`by_name`] run on the
/// distinct values, weighted by their counts (so every label decision and message is the
/// in-memory one) and
/// [`LabelSet::code`] maps each chunk through the result.
#[derive(Debug, Clone)]
pub struct LabelSet {
    column: String,
    values: Option<Labels>,
    index: std::collections::HashMap<LabelKey, usize>,
    /// Occurrences per distinct value: (training rows, test rows).
    pub counts: Vec<(usize, usize)>,
    /// Class index per distinct value, once [`LabelSet::resolve`] has run.
    class_of: Vec<f64>,
}

/// More distinct target values than this end a streamed read: the column is not a label.
pub const MAX_DISTINCT: usize = 1_000_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum LabelKey {
    Number(u64),
    Text(String),
    Bool(bool),
}

impl Labels {
    fn kind(&self) -> &'static str {
        match self {
            Labels::Numeric(_) => "numbers",
            Labels::Text(_) => "text",
            Labels::Bool(_) => "booleans",
        }
    }

    fn len(&self) -> usize {
        match self {
            Labels::Numeric(v) => v.len(),
            Labels::Text(v) => v.len(),
            Labels::Bool(v) => v.len(),
        }
    }

    /// Row `i`'s key (`None` when missing); +0.0 and -0.0 are one number.
    fn key(&self, i: usize) -> Option<LabelKey> {
        match self {
            Labels::Numeric(v) => v[i].map(|x| LabelKey::Number((x + 0.0).to_bits())),
            Labels::Text(v) => v[i].clone().map(LabelKey::Text),
            Labels::Bool(v) => v[i].map(LabelKey::Bool),
        }
    }

    fn empty_like(&self) -> Labels {
        match self {
            Labels::Numeric(_) => Labels::Numeric(Vec::new()),
            Labels::Text(_) => Labels::Text(Vec::new()),
            Labels::Bool(_) => Labels::Bool(Vec::new()),
        }
    }

    fn push_from(&mut self, other: &Labels, i: usize) {
        match (self, other) {
            (Labels::Numeric(a), Labels::Numeric(b)) => a.push(b[i]),
            (Labels::Text(a), Labels::Text(b)) => a.push(b[i].clone()),
            (Labels::Bool(a), Labels::Bool(b)) => a.push(b[i]),
            _ => unreachable!("kinds are checked before pushing"),
        }
    }
}

impl LabelSet {
    pub fn new(column: &str) -> Self {
        LabelSet {
            column: column.to_string(),
            values: None,
            index: Default::default(),
            counts: Vec::new(),
            class_of: Vec::new(),
        }
    }

    /// The distinct value of each row of `chunk` (`None` when missing), adding new values.
    /// `first_row` is the chunk's first data row, for the message when the type changes.
    pub fn observe(
        &mut self,
        chunk: &Labels,
        first_row: usize,
    ) -> Result<Vec<Option<usize>>, String> {
        let mut out = Vec::with_capacity(chunk.len());
        for i in 0..chunk.len() {
            let Some(key) = chunk.key(i) else {
                out.push(None);
                continue;
            };
            if let Some(&d) = self.index.get(&key) {
                out.push(Some(d));
                continue;
            }
            let values = self.values.get_or_insert_with(|| chunk.empty_like());
            if std::mem::discriminant(values) != std::mem::discriminant(chunk) {
                return Err(format!(
                    "target column \"{}\" holds {} up to data row {} but {} at data row {}: streaming infers each chunk's \
                     types on its own, so make the column one type (or set [data] streaming = false)",
                    self.column,
                    values.kind(),
                    first_row,
                    chunk.kind(),
                    first_row + i
                ));
            }
            if self.counts.len() >= MAX_DISTINCT {
                return Err(format!(
                    "target column \"{}\" has more than {MAX_DISTINCT} distinct values: it is not a class label; choose another [data] target",
                    self.column
                ));
            }
            values.push_from(chunk, i);
            self.index.insert(key, self.counts.len());
            self.counts.push((0, 0));
            out.push(Some(self.counts.len() - 1));
        }
        Ok(out)
    }

    /// The class names, as the in-memory loader finds them from the whole column (`known`: the
    /// training file's classes when this is a separate test file), and fixes each distinct
    /// value's class.
    pub fn resolve(
        &mut self,
        positive: Option<&str>,
        known: Option<&[String]>,
    ) -> Result<Vec<String>, String> {
        let values = self.values.clone().unwrap_or(Labels::Numeric(Vec::new()));
        let (y, names) = match known {
            Some(names) if names.len() > 2 => {
                (by_name(&values, names, &self.column)?, names.to_vec())
            }
            _ => {
                let rows: Vec<usize> = self.counts.iter().map(|(a, b)| a + b).collect();
                counted(&values, Some(&rows), positive, &self.column)?
            }
        };
        self.class_of = y.into_iter().map(|c| c.unwrap_or(f64::NAN)).collect();
        Ok(names)
    }

    /// The class index of distinct value `d` (after [`LabelSet::resolve`]).
    /// The distinct labels seen, as class names, in byte order.
    pub fn names(&self) -> Vec<String> {
        self.values
            .as_ref()
            .map(super::values::label_names)
            .unwrap_or_default()
    }

    pub fn class(&self, d: usize) -> f64 {
        self.class_of[d]
    }
}
