//! The design matrices filled straight from the raw columns, one raw column at a time: each
//! column is encoded, its training statistics taken, and its values written standardised into
//! their place in the final matrices, which are allocated once (the intercept column first);
//! the raw column is then released. So loading holds the design plus the raw columns not yet
//! copied, never a second and third copy of the design (issue 19: 6 × X before, where the
//! encoded columns, the standardised matrix, the mapped one and its intercept copy were all
//! alive at once).

use faer::Mat;

use crate::data::dataset::{effective_scaling, FeatureSummary};
use crate::data::encode::Encoder;
use crate::data::prepare::{mean_sd, standardise};
use crate::data::table::Cells;

use crate::data::release::Release;

/// The raw columns of the training file and, for a separate test file, of the test file.
pub(super) struct RawColumns<'a> {
    pub(super) train: &'a mut [Cells],
    pub(super) test: Option<&'a mut [Cells]>,
}

/// How the columns are written: standardised (with the encoder's per-column scaling) or not,
/// and whether a leading column of ones comes first.
pub(super) struct Layout {
    pub(super) standardize: bool,
    pub(super) standardise_indicators: bool,
    pub(super) intercept: bool,
}

pub(super) struct Filled {
    pub(super) train: Mat<f64>,
    pub(super) test: Mat<f64>,
    /// One per design column but the intercept.
    pub(super) summaries: Vec<FeatureSummary>,
    /// (centre, scale) of each design column but the intercept (`effective_scaling`).
    pub(super) scaling: Vec<(f64, f64)>,
}

/// A matrix grown a column at a time inside the allocation it ends in. Its pages are touched
/// only as columns are written, so memory grows as the raw columns shrink.
struct Growing {
    x: Mat<f64>,
    rows: usize,
}

impl Growing {
    fn new(rows: usize, cols: usize) -> Self {
        Growing {
            x: Mat::with_capacity(rows, cols),
            rows,
        }
    }

    fn push(&mut self, value: impl Fn(usize) -> f64) {
        let next = self.x.ncols() + 1;
        self.x.resize_with(self.rows, next, |i, _| value(i));
    }
}

/// Fill the training and test designs of `encoder`'s columns for rows `train_rows` of the
/// training file and `test_rows` of the test file (the training file when there is none),
/// releasing every raw column once it is written. The values are those of
/// `prepare::design` over `Encoder::encode`, bit for bit.
pub(super) fn fill(
    encoder: &Encoder,
    raw: RawColumns<'_>,
    train_rows: &[usize],
    test_rows: &[usize],
    layout: &Layout,
) -> Filled {
    let width = encoder.names.len() + usize::from(layout.intercept);
    let mut train = Growing::new(train_rows.len(), width);
    let mut test = Growing::new(test_rows.len(), width);
    if layout.intercept {
        train.push(|_| 1.0);
        test.push(|_| 1.0);
    }
    let mut summaries = Vec::with_capacity(encoder.names.len());
    let mut scaling = Vec::with_capacity(encoder.names.len());
    let mut release = Release::default();
    let RawColumns {
        train: train_cells,
        test: mut test_cells,
    } = raw;
    for j in 0..train_cells.len() {
        let missing = train_cells[j].missing();
        let train_cols = encoder.encode_column(j, &train_cells[j], train_rows);
        let test_cols = match test_cells.as_deref_mut() {
            Some(cells) => {
                let cols = encoder.encode_column(j, &cells[j], test_rows);
                release.freed(cells[j].bytes());
                cells[j] = Cells::released();
                cols
            }
            None => encoder.encode_column(j, &train_cells[j], test_rows),
        };
        release.freed(train_cells[j].bytes());
        train_cells[j] = Cells::released();
        for (tr, te) in train_cols.into_iter().zip(test_cols) {
            let d = summaries.len();
            let (mean, sd) = mean_sd(&tr);
            summaries.push(FeatureSummary {
                name: encoder.names[d].clone(),
                mean,
                sd,
                min: tr.iter().copied().fold(f64::INFINITY, f64::min),
                max: tr.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                missing,
            });
            if layout.standardize {
                let (mean, sd) = encoder.scaling(d, (mean, sd), layout.standardise_indicators);
                scaling.push(effective_scaling(Some((mean, sd))));
                train.push(|i| standardise(tr[i], mean, sd));
                test.push(|i| standardise(te[i], mean, sd));
            } else {
                scaling.push(effective_scaling(None));
                train.push(|i| tr[i]);
                test.push(|i| te[i]);
            }
        }
    }
    Filled {
        train: train.x,
        test: test.x,
        summaries,
        scaling,
    }
}
