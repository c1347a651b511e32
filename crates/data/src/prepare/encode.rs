//! Raw columns into design columns (issue 17), as R's `model.matrix` with treatment contrasts
//! and scikit-learn's `SimpleImputer` do it: a numeric feature is one column (its missing cells
//! filled with the training mean or median), a categorical one is one 0/1 column `column=level`
//! per level but the reference (the first in sorted order unless `[data] reference` names
//! another), and `missing_indicator` adds a 0/1 column `column=missing` after each imputed
//! feature. Everything is learnt from the training rows ([`learn`]); the in-memory loader and
//! the streamed passes both call [`Encoder::encode`], so they make the same numbers.

mod learn;
mod tally;
#[cfg(test)]
mod tests;

pub use learn::learn;
pub use tally::ColumnTally;

use crate::read::table::Cells;
use bayeslab_core::record::EncodingInfo;

pub use bayeslab_core::record::ColumnCode;

/// The learnt encoding of a table's feature columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoder {
    pub codes: Vec<ColumnCode>,
    /// Design column names, in order.
    pub names: Vec<String>,
    /// Per design column: the index of the raw column it comes from.
    pub source: Vec<usize>,
    /// Per design column: a 0/1 indicator (a level or a missing-cell marker), not a number.
    pub indicator: Vec<bool>,
    /// What the record shows.
    pub info: EncodingInfo,
    /// Notes for the user (levels met only in the test rows, rows dropped for their target).
    pub notes: Vec<String>,
}

impl Encoder {
    /// An encoder of stored `codes` (a run's `dataset.preparation`): enough to encode columns;
    /// names and record entries are the run's own.
    pub fn from_codes(codes: Vec<ColumnCode>) -> Self {
        Encoder {
            codes,
            names: Vec::new(),
            source: Vec::new(),
            indicator: Vec::new(),
            info: EncodingInfo::default(),
            notes: Vec::new(),
        }
    }

    /// Whether the design columns are the raw numeric columns themselves (no level, no fill):
    /// then the loaders keep today's numbers bit for bit.
    pub fn is_identity(&self) -> bool {
        self.codes.iter().all(|c| {
            matches!(
                c,
                ColumnCode::Number {
                    fill: None,
                    indicator: false
                }
            )
        })
    }

    /// The design columns of rows `rows` of the raw `cells` (one per raw column, in order).
    pub fn encode(&self, cells: &[&Cells], rows: &[usize]) -> Vec<Vec<f64>> {
        let mut out = Vec::with_capacity(self.names.len());
        for (j, cells) in cells.iter().enumerate() {
            out.extend(self.encode_column(j, cells, rows));
        }
        out
    }

    /// The design columns that raw column `j` (its `cells`) makes for rows `rows`: the
    /// in-memory loader encodes one column at a time, releasing each as it goes. A level
    /// without a column (the reference, or one unseen in training under
    /// `unseen_levels = "zero"`) is a row of zeros.
    pub fn encode_column(&self, j: usize, cells: &Cells, rows: &[usize]) -> Vec<Vec<f64>> {
        let mut out = vec![vec![0.0; rows.len()]; self.codes[j].width()];
        let mut slices: Vec<&mut [f64]> = out.iter_mut().map(|c| &mut c[..]).collect();
        self.encode_column_into(j, cells, rows, &mut slices);
        out
    }

    /// [`Self::encode_column`] written into `out`, one slice of `rows.len()` values per design
    /// column of raw column `j`: the in-memory loader writes straight into the design.
    pub fn encode_column_into(
        &self,
        j: usize,
        cells: &Cells,
        rows: &[usize],
        out: &mut [&mut [f64]],
    ) {
        let write = |out: &mut [f64], value: &dyn Fn(usize) -> f64| {
            for (o, &i) in out.iter_mut().zip(rows) {
                *o = value(i);
            }
        };
        match (&self.codes[j], cells) {
            (ColumnCode::Number { fill, indicator }, Cells::Numbers(v)) => {
                let f = fill.unwrap_or(f64::NAN);
                v.gather(rows, out[0], |x| if x.is_nan() { f } else { x });
                if *indicator {
                    v.gather(rows, out[1], |x| flag(x.is_nan()));
                }
            }
            (
                ColumnCode::Levels {
                    levels,
                    reference,
                    fill,
                    indicator,
                },
                Cells::Levels(v),
            ) => {
                let value = |i: usize| v[i].as_deref().or(fill.as_deref());
                let mut columns = out.iter_mut();
                let others = levels.iter().enumerate().filter(|(k, _)| k != reference);
                for ((_, level), c) in others.zip(&mut columns) {
                    write(c, &|i| flag(value(i) == Some(level)));
                }
                if *indicator {
                    if let Some(c) = columns.next() {
                        write(c, &|i| flag(v[i].is_none()));
                    }
                }
            }
            // A column read as numbers in one file and as levels in another cannot
            // happen: the test file is read with the training file's categorical columns.
            _ => out.iter_mut().for_each(|c| c.fill(f64::NAN)),
        }
    }

    /// (mean, sd) to standardise each design column with, from the training statistics
    /// `stats`: the indicators keep their 0/1 values (mean 0, sd 1) unless `standardise_indicators`.
    pub fn standardisation(
        &self,
        stats: &[(f64, f64)],
        standardise_indicators: bool,
    ) -> Vec<(f64, f64)> {
        stats
            .iter()
            .enumerate()
            .map(|(d, &s)| self.scaling(d, s, standardise_indicators))
            .collect()
    }

    /// [`Encoder::standardisation`] of design column `d` alone, whose training statistics are `stats`.
    pub fn scaling(&self, d: usize, stats: (f64, f64), standardise_indicators: bool) -> (f64, f64) {
        if self.indicator[d] && !standardise_indicators {
            (0.0, 1.0)
        } else {
            stats
        }
    }
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}
