//! A number column as it was read: the pieces its chunks arrived in, kept where they are. A
//! chunk's column of f64 with no nulls is polars' own array, shared rather than copied (issue
//! 32: copying every chunk into one whole column was a fifth of a Parquet pair's load, and one
//! X of fresh pages); any other column (integers, text read as numbers, nulls) is converted
//! into a vector of its own. The design is filled from the pieces in one pass
//! ([`Numbers::gather`]).

use std::sync::Arc;

use faer::Mat;
use polars::prelude::*;

/// One number column in file order: NaN is a missing cell (null, empty, NA or NaN in the file:
/// all four are missing, and no present value is NaN).
#[derive(Clone, Default)]
pub struct Numbers {
    pieces: Vec<Piece>,
    /// Where each piece ends in the column (cumulative lengths).
    ends: Vec<usize>,
    /// NaN cells, counted as each piece came: the loader asks for them more than once, and a
    /// pass over a large column is a pass over memory.
    missing: usize,
    /// Whether a cell is infinite (an error the reader reports, naming the first).
    infinite: bool,
}

#[derive(Debug, Clone)]
enum Piece {
    Owned(Vec<f64>),
    /// One chunk, no nulls: its values are a slice ([`ChunkedArray::cont_slice`]).
    Read(Float64Chunked),
    /// A whole column decoded in place (column `.1` of the matrix): its cells are the design's
    /// own memory until the design takes the matrix ([`Placed`]).
    Placed(Arc<Placed>, usize),
}

/// A matrix of number columns decoded straight from a Parquet file into their place in the
/// design (issue 32, `place::columns`), shared by those columns' cells; the design fill
/// takes it whole ([`Arc::try_unwrap`]) once the cells are dropped, when the design's rows and
/// columns are the file's.
#[derive(Debug)]
pub struct Placed {
    pub x: Mat<f64>,
}

impl Piece {
    fn values(&self) -> &[f64] {
        match self {
            Piece::Owned(v) => v,
            // Made only from one chunk without nulls (`Numbers::read`): the slice is there.
            Piece::Read(ca) => ca.cont_slice().unwrap_or_default(),
            Piece::Placed(m, j) => m.x.col_as_slice(*j),
        }
    }
}

/// The NaN cells of `values` and whether one is infinite: one pass for both, without an early
/// exit, so that it runs a vector at a time.
pub fn missing_and_infinite(values: &[f64]) -> (usize, bool) {
    values.iter().fold((0, false), |(m, inf), &x| {
        (m + usize::from(x.is_nan()), inf | x.is_infinite())
    })
}

impl From<Vec<f64>> for Numbers {
    fn from(values: Vec<f64>) -> Self {
        let mut n = Numbers::default();
        n.push(Piece::Owned(values));
        n
    }
}

/// The values, as a vector of them would show: how a column was cut into pieces is not its
/// content.
impl std::fmt::Debug for Numbers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Numbers {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .zip(other.iter())
                .all(|(a, b)| a == b || a.is_nan() && b.is_nan())
    }
}

impl Numbers {
    /// The column of f64 `ca`: shared when it is one chunk without nulls, else copied with
    /// NaN for each null.
    pub(super) fn read(ca: &Float64Chunked) -> Self {
        if ca.cont_slice().is_ok() {
            let mut n = Numbers::default();
            n.push(Piece::Read(ca.clone()));
            return n;
        }
        let mut values = Vec::with_capacity(ca.len());
        for arr in ca.downcast_iter() {
            let start = values.len();
            values.extend_from_slice(arr.values().as_slice());
            if let Some(validity) = arr.validity().filter(|v| v.unset_bits() > 0) {
                for (v, valid) in values[start..].iter_mut().zip(validity.iter()) {
                    if !valid {
                        *v = f64::NAN;
                    }
                }
            }
        }
        values.into()
    }

    /// Column `j` of `placed`, holding `missing` NaN cells and an infinite one or not.
    pub fn placed(placed: &Arc<Placed>, j: usize, missing: usize, infinite: bool) -> Self {
        let mut n = Numbers {
            missing,
            infinite,
            ..Numbers::default()
        };
        n.add(Piece::Placed(Arc::clone(placed), j));
        n
    }

    /// Whether the cells are exactly column `j` of `placed`.
    pub fn is_placed(&self, placed: &Arc<Placed>, j: usize) -> bool {
        matches!(self.pieces.as_slice(), [Piece::Placed(m, k)] if Arc::ptr_eq(m, placed) && *k == j)
    }

    fn push(&mut self, piece: Piece) {
        let (missing, infinite) = missing_and_infinite(piece.values());
        self.missing += missing;
        self.infinite |= infinite;
        self.add(piece);
    }

    /// Put `piece` after the others, its cells already counted; an empty one adds nothing.
    fn add(&mut self, piece: Piece) {
        let len = piece.values().len();
        if len > 0 {
            self.ends.push(self.len() + len);
            self.pieces.push(piece);
        }
    }

    /// The piece holding cell `i`: its index, and where it starts and ends in the column.
    fn locate(&self, i: usize) -> (usize, usize, usize) {
        let k = self.ends.partition_point(|&e| e <= i);
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        (k, start, self.ends[k])
    }

    /// The missing (NaN) cells.
    pub fn missing(&self) -> usize {
        self.missing
    }

    /// The first infinite cell, if any.
    pub fn first_infinite(&self) -> Option<usize> {
        self.infinite
            .then(|| self.position(f64::is_infinite))
            .flatten()
    }

    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The next chunk's cells after these, moved rather than copied.
    pub fn append(&mut self, next: Numbers) {
        self.missing += next.missing;
        self.infinite |= next.infinite;
        next.pieces.into_iter().for_each(|p| self.add(p));
    }

    /// The pieces' values in order.
    pub fn slices(&self) -> impl Iterator<Item = &[f64]> {
        self.pieces.iter().map(Piece::values)
    }

    pub fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        self.slices().flat_map(|s| s.iter().copied())
    }

    /// The first cell for which `pred` holds.
    pub fn position(&self, pred: impl Fn(f64) -> bool) -> Option<usize> {
        let mut before = 0;
        for s in self.slices() {
            if let Some(i) = s.iter().position(|&x| pred(x)) {
                return Some(before + i);
            }
            before += s.len();
        }
        None
    }

    /// `f` of the cells of `rows` into `out`, one for one: where the rows run on consecutively
    /// (all of them, when no row was dropped and there is no split) a piece's values are read
    /// straight through; elsewhere row by row.
    pub fn gather(&self, rows: &[usize], out: &mut [f64], f: impl Fn(f64) -> f64) {
        assert_eq!(rows.len(), out.len(), "one place per row");
        let mut r = 0;
        while r < rows.len() {
            let i = rows[r];
            let (k, start, end) = self.locate(i);
            let values = self.pieces[k].values();
            let m = (end - i).min(rows.len() - r);
            // The last row first (a split's rows fail there at once), then every row, without
            // an early exit so that the comparison runs a vector at a time.
            let consecutive = rows[r + m - 1] == i + m - 1
                && rows[r..r + m]
                    .iter()
                    .zip(i..)
                    .fold(true, |all, (&a, b)| all & (a == b));
            if consecutive {
                let from = &values[i - start..i - start + m];
                for (o, &x) in out[r..r + m].iter_mut().zip(from) {
                    *o = f(x);
                }
                r += m;
            } else {
                while r < rows.len() && (start..end).contains(&rows[r]) {
                    out[r] = f(values[rows[r] - start]);
                    r += 1;
                }
            }
        }
    }

    /// Cell `i`.
    pub fn get(&self, i: usize) -> f64 {
        let (k, start, _) = self.locate(i);
        self.pieces[k].values()[i - start]
    }

    /// The cells of `rows`, in their order: a walk through the pieces when the rows ascend (as
    /// the loader's do), a search only when a row goes back.
    pub fn at<'a>(&'a self, rows: &'a [usize]) -> impl Iterator<Item = f64> + 'a {
        let mut piece: (usize, usize, &[f64]) = (0, 0, &[]);
        rows.iter().map(move |&i| {
            if i < piece.0 || i >= piece.1 {
                let (k, start, end) = self.locate(i);
                piece = (start, end, self.pieces[k].values());
            }
            piece.2[i - piece.0]
        })
    }

    /// Bytes held (a shared chunk counted at its length).
    pub fn bytes(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Owned(v) => 8 * v.capacity(),
                Piece::Read(ca) => 8 * ca.len(),
                Piece::Placed(m, _) => 8 * m.x.nrows(),
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0, 1, …, 9 in pieces of 3, 0, 4 and 3 values: one copied, three shared.
    fn pieces() -> Numbers {
        let shared = |v: Vec<f64>| Numbers::read(&Float64Chunked::from_vec("x".into(), v));
        let mut n = Numbers::from(vec![0.0, 1.0, 2.0]);
        n.append(shared(vec![]));
        n.append(shared(vec![3.0, 4.0, 5.0, 6.0]));
        n.append(shared(vec![7.0, 8.0, 9.0]));
        n
    }

    #[test]
    fn a_column_of_pieces_reads_as_the_values_in_file_order() {
        let n = pieces();
        assert_eq!(n.len(), 10);
        assert_eq!(
            n.iter().collect::<Vec<_>>(),
            (0..10).map(f64::from).collect::<Vec<_>>()
        );
        assert!((0..10).all(|i| n.get(i) == i as f64));
        // The empty chunk adds no piece; the others are whole.
        assert_eq!(n.slices().map(<[f64]>::len).collect::<Vec<_>>(), [3, 4, 3]);
        assert_eq!(n.bytes(), 8 * 10);
        assert_eq!((n.missing(), n.first_infinite()), (0, None));
    }

    #[test]
    fn missing_and_infinite_cells_are_counted_as_the_pieces_come() {
        let shared = |v: Vec<f64>| Numbers::read(&Float64Chunked::from_vec("x".into(), v));
        let mut n = Numbers::from(vec![f64::NAN, 1.0]);
        n.append(shared(vec![2.0, f64::NAN, f64::NAN]));
        n.append(shared(vec![f64::NEG_INFINITY, 3.0, f64::INFINITY]));
        assert_eq!(n.missing(), 3);
        assert_eq!(n.iter().filter(|x| x.is_nan()).count(), 3);
        assert_eq!(n.first_infinite(), Some(5));
        assert_eq!(n.len(), 8);
    }

    #[test]
    fn rows_are_found_whether_they_ascend_skip_or_go_back() {
        let n = pieces();
        let rows = [0, 2, 3, 6, 7, 9, 1, 5, 5, 8, 0];
        let got: Vec<f64> = n.at(&rows).collect();
        let want: Vec<f64> = rows.iter().map(|&i| i as f64).collect();
        assert_eq!(got, want);
        assert_eq!(n.at(&[]).count(), 0);
    }

    #[test]
    fn gathered_rows_equal_the_cells_one_by_one_across_pieces_and_gaps() {
        let n = pieces();
        let cases: [&[usize]; 6] = [
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[2, 3, 4, 5, 6, 7],
            &[0, 2, 3, 4, 6, 7, 9],
            &[9, 8, 1, 1, 5],
            &[5],
            &[],
        ];
        for rows in cases {
            let mut out = vec![f64::NAN; rows.len()];
            n.gather(rows, &mut out, |x| 10.0 * x);
            let want: Vec<f64> = rows.iter().map(|&i| 10.0 * n.get(i)).collect();
            assert_eq!(out, want, "{rows:?}");
        }
        assert_eq!(n.position(|x| x > 3.5), Some(4));
        assert_eq!(n.position(|x| x > 9.0), None);
    }

    #[test]
    fn a_chunk_without_nulls_is_shared_and_one_with_nulls_is_copied_with_nan() {
        let whole = Float64Chunked::from_vec("x".into(), vec![1.5, 2.5]);
        let n = Numbers::read(&whole);
        // The same memory as polars' array: nothing was copied.
        let theirs = whole.cont_slice().unwrap().as_ptr();
        assert_eq!(n.slices().next().unwrap().as_ptr(), theirs);
        let gaps = Float64Chunked::from_slice_options("x".into(), &[Some(1.0), None, Some(3.0)]);
        let n = Numbers::read(&gaps);
        let v: Vec<f64> = n.iter().collect();
        assert_eq!((v[0], v[2]), (1.0, 3.0));
        assert!(v[1].is_nan());
        // NaN equals NaN between two columns: both are a missing cell.
        assert_eq!(n, Numbers::from(vec![1.0, f64::NAN, 3.0]));
        assert_ne!(n, Numbers::from(vec![1.0, 2.0, 3.0]));
    }
}
