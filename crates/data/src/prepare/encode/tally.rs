//! What one raw column holds over the rows used, counted in file order: the in-memory loader
//! counts a whole file at once, the streamed statistics pass chunk by chunk, with the same
//! pushes in the same order, so the learnt encodings (and the fill values) are equal.

use std::collections::BTreeMap;

use crate::prepare::moments::Moments;
use crate::read::table::Cells;

/// One raw column's counts and training statistics.
#[derive(Debug, Clone, Default)]
pub struct ColumnTally {
    /// Present numbers of the training rows (the mean fill value).
    pub moments: Moments,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// Present numbers of the training rows, kept only for the median.
    pub values: Option<Vec<f64>>,
    /// Rows of each level among the (train, test) rows used.
    pub levels: BTreeMap<String, (usize, usize)>,
    /// Missing cells among the (train, test) rows used.
    pub missing: (usize, usize),
    /// Missing cells in every row of the file, used or not (as the feature summary counts them).
    pub file_missing: usize,
    /// The column's cells were levels.
    pub categorical: bool,
}

impl ColumnTally {
    /// A tally that keeps the training values when the median will be needed.
    pub fn new(keep_values: bool) -> Self {
        ColumnTally {
            values: keep_values.then(Vec::new),
            ..Default::default()
        }
    }

    /// Count cell `i` of `cells`, a row used on the `test` side.
    pub fn push(&mut self, cells: &Cells, i: usize, test: bool) {
        match cells {
            Cells::Numbers(v) => self.push_number(v.get(i), test),
            Cells::Levels(v) => self.push_level(&v[i], test),
        }
    }

    /// [`Self::push`] for each of `rows`, in order.
    pub fn push_rows(&mut self, cells: &Cells, rows: &[usize], test: bool) {
        match cells {
            Cells::Numbers(v) => v.at(rows).for_each(|x| self.push_number(x, test)),
            Cells::Levels(v) => rows.iter().for_each(|&i| self.push_level(&v[i], test)),
        }
    }

    fn push_number(&mut self, x: f64, test: bool) {
        if x.is_nan() {
            side(&mut self.missing, test);
        } else if !test {
            self.moments.push(x);
            self.min = Some(self.min.map_or(x, |m| m.min(x)));
            self.max = Some(self.max.map_or(x, |m| m.max(x)));
            if let Some(values) = &mut self.values {
                values.push(x);
            }
        }
    }

    fn push_level(&mut self, cell: &Option<String>, test: bool) {
        self.categorical = true;
        match cell {
            None => side(&mut self.missing, test),
            Some(level) => match self.levels.get_mut(level) {
                Some(pair) => side(pair, test),
                None => {
                    let mut pair = (0, 0);
                    side(&mut pair, test);
                    self.levels.insert(level.clone(), pair);
                }
            },
        }
    }

    /// Add the test rows of a separate test file's tally (its levels and missing cells).
    pub fn add_test_side(&mut self, test: &ColumnTally) {
        self.missing.1 += test.missing.1;
        for (level, c) in &test.levels {
            self.levels.entry(level.clone()).or_insert((0, 0)).1 += c.1;
        }
        self.categorical |= test.categorical;
    }

    /// Count the missing cells of every row of a file (used or not).
    pub fn push_file(&mut self, cells: &Cells) {
        self.file_missing += cells.missing();
        self.categorical |= matches!(cells, Cells::Levels(_));
    }
}

/// Count one more row on the `test` side of `pair` (train, test).
fn side(pair: &mut (usize, usize), test: bool) {
    if test {
        pair.1 += 1
    } else {
        pair.0 += 1
    }
}

/// The median of `values` (the mean of the middle two for an even count); NaN for none.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => 0.5 * v[n / 2 - 1] + 0.5 * v[n / 2],
    }
}
