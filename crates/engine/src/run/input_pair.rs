//! Which features the input-space picture draws (docs/maths.md §17): the default pair is the two
//! design columns of largest |posterior mean weight| on the standardised scale (|w_j| times the
//! column's training sd, which is |w_j| itself for a standardised column), leaving out the
//! intercept, constant columns and near-constant ones (one value in at least
//! [`NEAR_CONSTANT`] of the training rows: a corner pixel of digits_1v8, blank in all but a few
//! images, would draw as a line of points). The one place that choice is made: the reports and
//! the workbench read the pair from the record.

use bayeslab_core::numeric::linalg::View;
use bayeslab_core::record::PairChoice;

/// A column is near-constant when one value fills at least this share of the training rows.
pub const NEAR_CONSTANT: f64 = 0.9;

/// One design column as the choice sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub column: usize,
    /// The training rows' standard deviation (population: divided by n).
    pub sd: f64,
    /// The share of the training rows holding the value more than half of them hold (1 when
    /// constant; 0 when no value holds more than half).
    pub majority_share: f64,
}

impl Candidate {
    fn near_constant(&self) -> bool {
        self.majority_share >= NEAR_CONSTANT
    }
}

/// The columns from `first` (after the intercept) that are not constant.
pub fn candidates(x: View<'_>, first: usize) -> Vec<Candidate> {
    use rayon::prelude::*;
    // Every column on any thread, read in place (issue 32: copying each of a million rows
    // first was most of this).
    (first..x.ncols())
        .into_par_iter()
        .map(|j| {
            let col = column(x, j);
            Candidate {
                column: j,
                sd: sd(&col),
                majority_share: majority_share(&col),
            }
        })
        .filter(|c| c.majority_share < 1.0 && c.sd > 0.0)
        .collect()
}

/// Column `j` of `x`: its own slice when it is stored contiguously (a design always is), else
/// a copy.
pub fn column(x: View<'_>, j: usize) -> std::borrow::Cow<'_, [f64]> {
    match x.col(j).try_as_col_major() {
        Some(c) => std::borrow::Cow::Borrowed(c.as_slice()),
        None => std::borrow::Cow::Owned(x.col(j).iter().copied().collect()),
    }
}

/// The columns to draw, best first, at most `max`: those not near-constant by decreasing
/// |w_j|·sd_j (column order without weights, and on ties), then the near-constant ones the
/// same way, so that a design of few columns still has a pair. The first two are the default
/// pair.
pub fn ranked(candidates: &[Candidate], weights: Option<&[f64]>, max: usize) -> Vec<usize> {
    let mut order: Vec<&Candidate> = candidates.iter().collect();
    let score = |c: &Candidate| weights.map_or(0.0, |w| (w[c.column] * c.sd).abs());
    order.sort_by(|a, b| {
        a.near_constant()
            .cmp(&b.near_constant())
            .then(score(b).total_cmp(&score(a)))
            .then(a.column.cmp(&b.column))
    });
    order.into_iter().take(max).map(|c| c.column).collect()
}

/// Why the default pair was drawn, for the record: `None` when there was no choice (two
/// candidate columns only).
pub fn choice(
    candidates: &[Candidate],
    drawn: &[usize],
    weights: Option<(&str, &[f64])>,
) -> Option<PairChoice> {
    if candidates.len() <= 2 || drawn.len() < 2 {
        return None;
    }
    // near-constant columns that the default pair does not draw
    let near_constant = candidates
        .iter()
        .filter(|c| c.near_constant() && !drawn[..2].contains(&c.column))
        .count();
    let sd = |j: usize| {
        candidates
            .iter()
            .find(|c| c.column == j)
            .map_or(0.0, |c| c.sd)
    };
    Some(match weights {
        Some((run, w)) => PairChoice::LargestWeights {
            run: run.to_string(),
            weights: [0, 1].map(|k| (w[drawn[k]] * sd(drawn[k])).abs()),
            near_constant,
        },
        None => PairChoice::FirstColumns { near_constant },
    })
}

/// The population sd, as the standardisation divides by (so a standardised column's is 1 and
/// its score is |w_j| itself).
fn sd(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    if v.is_empty() {
        return 0.0;
    }
    let mean = v.iter().sum::<f64>() / n;
    (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The share of the rows holding the value that more than half of them hold (1 when
/// constant), or 0 when no value does: the choice asks only whether a column is constant or
/// near-constant ([`NEAR_CONSTANT`] > 1/2). Boyer and Moore's majority vote finds the only
/// candidate in one pass and a second counts it, so a column of a million rows costs two
/// passes, not a sort (issue 32: sorting every column was a tenth of a large run).
fn majority_share(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 1.0;
    }
    let (mut candidate, mut lead) = (v[0], 0usize);
    for &x in v {
        if lead == 0 {
            (candidate, lead) = (x, 1);
        } else if x == candidate {
            lead += 1;
        } else {
            lead -= 1;
        }
    }
    let count = v.iter().filter(|&&x| x == candidate).count();
    if 2 * count > v.len() {
        count as f64 / v.len() as f64
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bayeslab_core::numeric::linalg::matrix;

    #[test]
    fn the_largest_standardised_weights_make_the_pair_and_near_constant_columns_wait() {
        // columns: intercept, a near-constant column (one 1 in 20 rows), two spread columns,
        // a constant column, a third spread column
        let x = matrix(20, 6, |i, j| match j {
            0 => 1.0,
            1 => f64::from(u8::from(i == 3)),
            2 => i as f64,
            3 => ((i * 7) % 20) as f64 / 4.0,
            4 => 5.0,
            _ => ((i * 3) % 20) as f64 * 10.0,
        });
        let c = candidates(x.as_ref(), 1);
        // the constant column 4 is no candidate; column 1 is near-constant (19 of 20 rows)
        assert_eq!(c.iter().map(|c| c.column).collect::<Vec<_>>(), [1, 2, 3, 5]);
        assert!((c[0].majority_share - 0.95).abs() < 1e-12);
        // |w|·sd: column 5 has the smallest weight but the largest sd (values to 190), so it
        // leads; column 1's weight is the largest of all, but it is near-constant: last
        let w = [0.3, 50.0, 0.2, 0.9, 7.0, 0.05];
        let sds: Vec<f64> = c.iter().map(|c| c.sd).collect();
        let score = |k: usize| (w[c[k].column] * sds[k]).abs();
        assert!(score(3) > score(2) && score(2) > score(1), "{sds:?}");
        assert_eq!(ranked(&c, Some(&w), 4), [5, 3, 2, 1]);
        assert_eq!(ranked(&c, Some(&w), 2), [5, 3]);
        // without weights: column order, the near-constant column last
        assert_eq!(ranked(&c, None, 4), [2, 3, 5, 1]);
        let Some(PairChoice::LargestWeights {
            run,
            weights,
            near_constant,
        }) = choice(&c, &[5, 3], Some(("laplace", &w)))
        else {
            panic!("a choice among four columns");
        };
        assert_eq!((run.as_str(), near_constant), ("laplace", 1));
        assert!((weights[0] - score(3)).abs() < 1e-12 && (weights[1] - score(2)).abs() < 1e-12);
    }

    #[test]
    fn two_columns_are_no_choice_and_the_sd_and_share_are_the_textbook_ones() {
        let x = matrix(4, 3, |i, j| [1.0, i as f64, [2.0, 2.0, 2.0, 3.0][i]][j]);
        let c = candidates(x.as_ref(), 1);
        assert_eq!(c.len(), 2);
        assert_eq!(choice(&c, &[1, 2], None), None);
        // the population sd of 0, 1, 2, 3 is sqrt(5/4), where no value holds a majority; 2 of
        // the column 2, 2, 2, 3 is three rows in four
        assert!((c[0].sd - 1.25f64.sqrt()).abs() < 1e-12);
        assert_eq!(c[0].majority_share, 0.0);
        assert_eq!(c[1].majority_share, 0.75);
    }

    #[test]
    fn the_majority_share_is_the_counted_share_of_the_most_common_value_above_one_half() {
        // Columns of few values in a scrambled order, against counting every value.
        for seed in 0..200u64 {
            let len = 1 + (seed % 37) as usize;
            let values = 1 + seed % 4;
            let v: Vec<f64> = (0..len as u64)
                .map(|i| ((i * 2_654_435_761 + seed * 97) >> 3) % values)
                .map(|k| {
                    if k == 0 || seed % 3 == 0 {
                        7.0
                    } else {
                        k as f64
                    }
                })
                .collect();
            let most = v
                .iter()
                .map(|a| v.iter().filter(|b| *b == a).count())
                .max()
                .unwrap();
            let counted = most as f64 / len as f64;
            let want = if 2 * most > len { counted } else { 0.0 };
            assert_eq!(majority_share(&v), want, "{v:?}");
        }
        assert_eq!(majority_share(&[]), 1.0);
    }
}
