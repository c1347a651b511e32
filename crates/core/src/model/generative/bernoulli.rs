//! Multivariate Bernoulli naive Bayes with Beta(a, b) on each feature probability per class
//! (docs/maths.md section 3): p(x_j = 1 | y = c, data) = (a + count_cj) / (a + b + N_c), and
//! ln p(x | y = c, data) = sum_j [x_j ln p_cj + (1 - x_j) ln(1 - p_cj)].

use faer::{Mat, MatRef};

use super::{rows_by_class, ClassDensity};

/// Values above this are 1 when no `binarize` threshold is set (the identity on 0/1 data).
const BINARY_SPLIT: f64 = 0.5;

/// The design turned into 0/1: thresholded at `binarize`, or checked to be 0/1 already.
pub fn binary_features(
    x: MatRef<'_, f64>,
    binarize: Option<f64>,
    names: &[String],
) -> Result<Mat<f64>, String> {
    binary_features_at(x, binarize, names, 0)
}

/// [`binary_features`] of a block of training rows whose first row is training row `first_row`
/// (streaming checks each chunk; the message names the row among all training rows).
pub fn binary_features_at(
    x: MatRef<'_, f64>,
    binarize: Option<f64>,
    names: &[String],
    first_row: usize,
) -> Result<Mat<f64>, String> {
    if binarize.is_none() {
        for j in 0..x.ncols() {
            if let Some(i) = (0..x.nrows()).find(|&i| x[(i, j)] != 0.0 && x[(i, j)] != 1.0) {
                return Err(format!(
                    "feature column \"{}\" holds the value {} (training row {i}), but bernoulli-naive-bayes needs 0/1 features; \
                     set `binarize = <threshold>` on the method (values above it become 1, in the design's units: \
                     standardised unless [data] standardize = false), or set [data] standardize = false if the column is already 0/1",
                    names.get(j).map_or("?", String::as_str),
                    x[(i, j)],
                    i = first_row + i
                ));
            }
        }
    }
    let t = binarize.unwrap_or(BINARY_SPLIT);
    Ok(Mat::from_fn(x.nrows(), x.ncols(), |i, j| {
        f64::from(u8::from(x[(i, j)] > t))
    }))
}

pub struct NaiveBernoulli {
    /// (ln p_cj, ln(1 - p_cj)) per class and feature.
    log_p: Vec<Vec<(f64, f64)>>,
    threshold: f64,
}

impl NaiveBernoulli {
    /// `x` must be 0/1 (see [`binary_features`]); test rows are thresholded at `binarize`.
    pub fn fit(
        x: MatRef<'_, f64>,
        y: &[f64],
        k: usize,
        a: f64,
        b: f64,
        binarize: Option<f64>,
    ) -> Self {
        let by_class = rows_by_class(y, k);
        let counts: Vec<Vec<f64>> = by_class
            .iter()
            .map(|rows| {
                (0..x.ncols())
                    .map(|j| rows.iter().map(|&i| x[(i, j)]).sum())
                    .collect()
            })
            .collect();
        let sizes: Vec<usize> = by_class.iter().map(Vec::len).collect();
        Self::from_counts(&counts, &sizes, a, b, binarize)
    }

    /// From the sufficient statistics: `counts[c][j]` training rows of class c with x_j = 1,
    /// and `sizes[c]` = N_c (streaming accumulates them chunk by chunk).
    pub fn from_counts(
        counts: &[Vec<f64>],
        sizes: &[usize],
        a: f64,
        b: f64,
        binarize: Option<f64>,
    ) -> Self {
        let log_p = counts
            .iter()
            .zip(sizes)
            .map(|(row, &n)| {
                row.iter()
                    .map(|&count| {
                        let p = (a + count) / (a + b + n as f64);
                        (p.ln(), (1.0 - p).ln())
                    })
                    .collect()
            })
            .collect();
        NaiveBernoulli {
            log_p,
            threshold: binarize.unwrap_or(BINARY_SPLIT),
        }
    }

    /// p(x_j = 1 | y = c, data).
    pub fn probability(&self, class: usize, feature: usize) -> f64 {
        self.log_p[class][feature].0.exp()
    }
}

impl ClassDensity for NaiveBernoulli {
    fn log_densities(&self, x: MatRef<'_, f64>) -> Vec<Vec<f64>> {
        (0..x.nrows())
            .map(|n| {
                self.log_p
                    .iter()
                    .map(|feats| {
                        feats
                            .iter()
                            .enumerate()
                            .map(|(j, &(l1, l0))| if x[(n, j)] > self.threshold { l1 } else { l0 })
                            .sum()
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_bernoulli_predictive_matches_the_closed_form() {
        // Class 0: rows (1,0), (1,1), (0,0); class 1: row (0,1). Beta(a = 2, b = 1):
        // p(x_0 = 1 | c = 0) = (2 + 2)/(3 + 3) = 2/3, p(x_1 = 1 | c = 0) = (2 + 1)/6 = 1/2,
        // p(x_0 = 1 | c = 1) = (2 + 0)/(3 + 1) = 1/2, p(x_1 = 1 | c = 1) = (2 + 1)/4 = 3/4.
        let x = Mat::<f64>::from_fn(4, 2, |i, j| {
            [[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 1.0]][i][j]
        });
        let y = [0.0, 0.0, 0.0, 1.0];
        let nb = NaiveBernoulli::fit(x.as_ref(), &y, 2, 2.0, 1.0, None);
        for (c, j, want) in [(0, 0, 2.0 / 3.0), (0, 1, 0.5), (1, 0, 0.5), (1, 1, 0.75)] {
            assert!((nb.probability(c, j) - want).abs() < 1e-15);
        }
        // ln p(x = (1, 1) | c = 1) = ln(1/2 * 3/4)
        let t = Mat::<f64>::from_fn(1, 2, |_, _| 1.0);
        let d = nb.log_densities(t.as_ref());
        assert!((d[0][1] - (0.375f64).ln()).abs() < 1e-15);
        assert!((d[0][0] - (1.0f64 / 3.0).ln()).abs() < 1e-15);
    }

    #[test]
    fn non_binary_features_need_binarize() {
        let x = Mat::<f64>::from_fn(2, 1, |i, _| i as f64 * 0.7);
        let e = binary_features(x.as_ref(), None, &["px".to_string()]).unwrap_err();
        assert!(e.contains("\"px\"") && e.contains("binarize"), "{e}");
        let b = binary_features(x.as_ref(), Some(0.5), &["px".to_string()]).unwrap();
        assert_eq!((b[(0, 0)], b[(1, 0)]), (0.0, 1.0));
    }
}
