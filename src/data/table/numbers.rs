//! A number column as it was read: the pieces its chunks arrived in, kept where they are. A
//! chunk's column of f64 with no nulls is polars' own array, shared rather than copied (issue
//! 32: copying every chunk into one whole column was a fifth of a Parquet pair's load, and one
//! X of fresh pages); any other column (integers, text read as numbers, nulls) is converted
//! into a vector of its own. The design is filled from the pieces in one pass ([`Numbers::at`]).

use polars::prelude::*;

/// One number column in file order: NaN is a missing cell (null, empty, NA or NaN in the file:
/// all four are missing, and no present value is NaN).
#[derive(Clone, Default)]
pub struct Numbers {
    pieces: Vec<Piece>,
    /// Where each piece ends in the column (cumulative lengths).
    ends: Vec<usize>,
}

#[derive(Debug, Clone)]
enum Piece {
    Owned(Vec<f64>),
    /// One chunk, no nulls: its values are a slice ([`ChunkedArray::cont_slice`]).
    Read(Float64Chunked),
}

impl Piece {
    fn values(&self) -> &[f64] {
        match self {
            Piece::Owned(v) => v,
            // Made only from one chunk without nulls (`Numbers::read`), so never empty.
            Piece::Read(ca) => ca.cont_slice().unwrap_or_default(),
        }
    }
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

    fn push(&mut self, piece: Piece) {
        let len = piece.values().len();
        if len > 0 {
            self.ends.push(self.len() + len);
            self.pieces.push(piece);
        }
    }

    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The next chunk's cells after these, moved rather than copied.
    pub fn append(&mut self, next: Numbers) {
        next.pieces.into_iter().for_each(|p| self.push(p));
    }

    /// The pieces' values in order.
    pub fn slices(&self) -> impl Iterator<Item = &[f64]> {
        self.pieces.iter().map(Piece::values)
    }

    pub fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        self.slices().flat_map(|s| s.iter().copied())
    }

    /// Cell `i`.
    pub fn get(&self, i: usize) -> f64 {
        let k = self.ends.partition_point(|&e| e <= i);
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        self.pieces[k].values()[i - start]
    }

    /// The cells of `rows`, in their order: a walk through the pieces when the rows ascend (as
    /// the loader's do), a search only when a row goes back.
    pub fn at<'a>(&'a self, rows: &'a [usize]) -> impl Iterator<Item = f64> + 'a {
        let mut piece: (usize, usize, &[f64]) = (0, 0, &[]);
        rows.iter().map(move |&i| {
            if i < piece.0 || i >= piece.1 {
                let k = self.ends.partition_point(|&e| e <= i);
                let start = if k == 0 { 0 } else { self.ends[k - 1] };
                piece = (start, self.ends[k], self.pieces[k].values());
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
