//! The design matrices filled straight from the raw columns, one raw column at a time: each
//! column is encoded, its training statistics taken, and its values written standardised into
//! their place in the final matrices, which are allocated once (the intercept column first);
//! the raw column is then released. So loading holds the design plus the raw columns not yet
//! copied, never a second and third copy of the design (issue 19: 6 × X before, where the
//! encoded columns, the standardised matrix, the mapped one and its intercept copy were all
//! alive at once).

use std::sync::Mutex;

use faer::Mat;
use rayon::prelude::*;

use crate::prepare::dataset::effective_scaling;
use crate::prepare::encode::Encoder;
use crate::prepare::moments::column_stats;
use crate::prepare::standardise_all;
use crate::read::table::Cells;
use bayeslab_core::record::FeatureSummary;

use crate::read::release::Release;
use bayeslab_core::numeric::linalg::SharedColumns;

/// The raw columns of the training file and, for a separate test file, of the test file; and
/// each file's design when its columns were decoded in place ([`in_place`]: its raw columns are
/// then released, and the fill only standardises).
pub(super) struct RawColumns<'a> {
    pub(super) train: &'a mut [Cells],
    pub(super) test: Option<&'a mut [Cells]>,
    pub(super) placed: [Option<Mat<f64>>; 2],
}

/// The design `loaded`'s features were decoded into, taken from its cells (each released), when
/// it is the design these rows and this encoding make: every row of the file in order, the
/// identity encoding (each feature its own column, unchanged), and each cell column `j` of the
/// matrix at `offset + j` (the intercept's column first when `offset` is 1).
pub(super) fn in_place(
    loaded: &mut crate::load::loaded::Loaded,
    rows: &[usize],
    encoder: &Encoder,
    offset: usize,
) -> Option<Mat<f64>> {
    let placed = loaded.placed.as_ref()?;
    let all_rows = rows.len() == placed.x.nrows() && rows.iter().enumerate().all(|(r, &i)| r == i);
    let columns = loaded
        .cols
        .iter()
        .enumerate()
        .all(|(j, c)| matches!(c, Cells::Numbers(n) if n.is_placed(placed, offset + j)));
    let only = std::sync::Arc::strong_count(placed) == loaded.cols.len() + 1;
    if !(all_rows && columns && only && encoder.is_identity()) {
        return None;
    }
    loaded.cols.iter_mut().for_each(|c| *c = Cells::released());
    let placed = std::sync::Arc::try_unwrap(loaded.placed.take()?).ok()?;
    Some(placed.x)
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
/// only as columns are written, so memory grows as the raw columns shrink. Or a matrix whose
/// columns are all there already (decoded in place), standardised where they lie.
struct Growing {
    x: Mat<f64>,
    rows: usize,
    /// The columns it was allocated for.
    capacity: usize,
    full: bool,
}

impl Growing {
    fn new(rows: usize, cols: usize, placed: Option<Mat<f64>>) -> Self {
        match placed {
            Some(x) => Growing {
                rows: x.nrows(),
                capacity: x.ncols(),
                x,
                full: true,
            },
            None => Growing {
                x: Mat::with_capacity(rows, cols),
                rows,
                capacity: cols,
                full: false,
            },
        }
    }

    /// A column written by `value` (the intercept's, which a full matrix has).
    fn push(&mut self, value: impl Fn(usize) -> f64) {
        if self.full {
            return;
        }
        let next = self.x.ncols() + 1;
        self.x.resize_with(self.rows, next, |i, _| value(i));
    }

    /// Where the columns not yet in the matrix are written ([`Self::grown`] takes them in).
    fn shared(&mut self) -> SharedColumns {
        SharedColumns::of(&mut self.x, self.capacity)
    }

    /// Take in the next `columns` columns, written through [`Self::shared`].
    ///
    /// # Safety
    /// Every element of those columns was written.
    unsafe fn grown(&mut self, columns: usize) {
        if self.full {
            return;
        }
        let cols = self.x.ncols() + columns;
        assert!(cols <= self.capacity);
        // SAFETY: within the allocation (checked), and written (the caller's promise).
        unsafe { self.x.set_dims(self.rows, cols) };
    }
}

/// Fill the training and test designs of `encoder`'s columns for rows `train_rows` of the
/// training file and `test_rows` of the test file (the training file when there is none),
/// releasing every raw column once it is written. The values are those of
/// `prepare::design` over `Encoder::encode`, bit for bit. The raw columns are encoded and
/// standardised a thread's worth at a time, in parallel, and written in order: at most that
/// many raw columns' encoded copies are alive beside the design.
pub(super) fn fill(
    encoder: &Encoder,
    raw: RawColumns<'_>,
    train_rows: &[usize],
    test_rows: &[usize],
    layout: &Layout,
) -> Filled {
    let width = encoder.names.len() + usize::from(layout.intercept);
    let RawColumns {
        train: train_cells,
        test: mut test_cells,
        placed: [train_placed, test_placed],
    } = raw;
    let encode = [train_placed.is_none(), test_placed.is_none()];
    let mut train = Growing::new(train_rows.len(), width, train_placed);
    let mut test = Growing::new(test_rows.len(), width, test_placed);
    if layout.intercept {
        train.push(|_| 1.0);
        test.push(|_| 1.0);
    }
    let mut summaries = Vec::with_capacity(encoder.names.len());
    let mut scaling = Vec::with_capacity(encoder.names.len());
    let release = Mutex::new(Release::default());
    // A task takes GROUP raw columns, whose statistics it takes in lockstep.
    let batch = GROUP * rayon::current_num_threads().max(1);
    let mut from = 0;
    while from < train_cells.len() {
        let to = (from + batch).min(train_cells.len());
        let columns = Columns {
            encoder,
            train_rows,
            test_rows,
            layout,
            at: [train.shared(), test.shared()],
            encode,
            release: &release,
        };
        let take = |cells: &mut [Cells], js: std::ops::Range<usize>| -> Vec<Cells> {
            js.map(|j| std::mem::replace(&mut cells[j], Cells::released()))
                .collect()
        };
        let groups: Vec<Group> = (from..to)
            .step_by(GROUP)
            .map(|g| {
                let js = g..(g + GROUP).min(to);
                Group {
                    train: take(train_cells, js.clone()),
                    test: test_cells.as_deref_mut().map(|t| take(t, js.clone())),
                    js,
                }
            })
            .collect();
        let written: Vec<Written> = groups
            .into_par_iter()
            .flat_map_iter(|g| columns.write(g))
            .collect();
        let added = written.iter().map(|w| w.summaries.len()).sum();
        // SAFETY: Columns::write wrote every row of each of its design columns, and the
        // batch's raw columns make the next `added` design columns.
        unsafe {
            train.grown(added);
            test.grown(added);
        }
        for w in written {
            summaries.extend(w.summaries);
            scaling.extend(w.scaling);
        }
        from = to;
    }
    Filled {
        train: train.x,
        test: test.x,
        summaries,
        scaling,
    }
}

/// Raw columns per task: their statistics are taken in lockstep ([`column_stats`]).
const GROUP: usize = crate::prepare::moments::LOCKSTEP;

/// How the raw columns are written, and where: the training and test matrices' columns (with
/// the room each was allocated for), each design column written by the one thread that
/// encodes its raw column; and the memory released as each raw column is dropped.
struct Columns<'a> {
    encoder: &'a Encoder,
    train_rows: &'a [usize],
    test_rows: &'a [usize],
    layout: &'a Layout,
    at: [SharedColumns; 2],
    /// Whether a matrix's columns are to be encoded into it (not when decoded in place).
    encode: [bool; 2],
    release: &'a Mutex<Release>,
}

/// A task's raw columns `js`, taken out of the raw columns: the training file's and the test
/// file's when there is one (else the test rows are the training file's).
struct Group {
    js: std::ops::Range<usize>,
    train: Vec<Cells>,
    test: Option<Vec<Cells>>,
}

/// One raw column's design columns' summaries and scalings.
struct Written {
    summaries: Vec<FeatureSummary>,
    scaling: Vec<(f64, f64)>,
}

impl Columns<'_> {
    /// Write raw columns `js`' design columns in their places, standardised as the layout says
    /// (straight into the matrices: no copy of a column on its way, issue 32); their training
    /// statistics are taken together ([`column_stats`]).
    fn write(&self, group: Group) -> Vec<Written> {
        let Group { js, train, test } = group;
        let mut test = test.map(|t| t.into_iter());
        // Each raw column dropped as soon as it is written: the design's pages come as the raw
        // columns' go (issue 32: dropped a batch at a time, two batches of eight columns
        // would have held 16 raw columns beside their design columns, peak 1.49 × X).
        let mut placed: Vec<Placed> = js
            .zip(train)
            .map(|(j, cells)| {
                let test_cells = test.as_mut().and_then(Iterator::next);
                let placed = self.place(j, &cells, test_cells.as_ref().unwrap_or(&cells));
                let bytes = cells.bytes() + test_cells.as_ref().map_or(0, Cells::bytes);
                drop((cells, test_cells));
                self.release.lock().expect("no task panicked").freed(bytes);
                placed
            })
            .collect();
        let train: Vec<&[f64]> = placed
            .iter()
            .flat_map(|p| p.train.iter().map(|c| &**c))
            .collect();
        let mut stats = column_stats(&train).into_iter();
        placed
            .iter_mut()
            .map(|p| {
                let width = p.train.len();
                let mut out = Written {
                    summaries: Vec::with_capacity(width),
                    scaling: Vec::with_capacity(width),
                };
                let columns = p.train.iter_mut().zip(p.test.iter_mut());
                for (k, (tr, te)) in columns.enumerate() {
                    let d = p.first + k;
                    let s = stats.next().expect("one statistic per design column");
                    out.summaries.push(FeatureSummary {
                        name: self.encoder.names[d].clone(),
                        mean: s.mean,
                        sd: s.sd,
                        min: s.min,
                        max: s.max,
                        missing: p.missing,
                    });
                    if self.layout.standardize {
                        let (mean, sd) = self.encoder.scaling(
                            d,
                            (s.mean, s.sd),
                            self.layout.standardise_indicators,
                        );
                        out.scaling.push(effective_scaling(Some((mean, sd))));
                        standardise_all(tr, mean, sd);
                        standardise_all(te, mean, sd);
                    } else {
                        out.scaling.push(effective_scaling(None));
                    }
                }
                out
            })
            .collect()
    }

    /// Encode raw column `j` (`cells`, and `test_cells` for the test rows) into its design
    /// columns' places.
    fn place(&self, j: usize, cells: &Cells, test_cells: &Cells) -> Placed<'_> {
        let encoder = self.encoder;
        // The design column of this raw column's first: the design columns come in raw order.
        let first = encoder.source.iter().position(|&s| s == j).unwrap_or(0);
        let at = first + usize::from(self.layout.intercept);
        let width = encoder.codes[j].width();
        let slices = |m: usize, rows: usize| -> Vec<&mut [f64]> {
            (at..at + width)
                // SAFETY: `column` refuses a column past the allocation, and only this call
                // writes column c: raw column j alone makes design columns at..at + width.
                .map(|c| unsafe { std::slice::from_raw_parts_mut(self.at[m].column(c), rows) })
                .collect()
        };
        let (mut train, mut test) = (
            slices(0, self.train_rows.len()),
            slices(1, self.test_rows.len()),
        );
        if self.encode[0] {
            encoder.encode_column_into(j, cells, self.train_rows, &mut train);
        }
        if self.encode[1] {
            encoder.encode_column_into(j, test_cells, self.test_rows, &mut test);
        }
        Placed {
            first,
            missing: cells.missing(),
            train,
            test,
        }
    }
}

/// One raw column's design columns, written but not yet standardised.
struct Placed<'a> {
    /// Its first design column (the intercept not counted).
    first: usize,
    /// Missing cells of the raw training column.
    missing: usize,
    train: Vec<&'a mut [f64]>,
    test: Vec<&'a mut [f64]>,
}
