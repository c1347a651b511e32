//! Coefficients people read: each weight's posterior mean, sd, central 95 % interval and
//! P(w > 0), on the design's scale and back-transformed to the data's original units, with
//! odds ratios for logistic models (docs/maths.md §13).
//!
//! The design column j (not the intercept) is z_j = (x_j - c_j) / s_j, so
//! w_0 + sum_j w_j z_j = (w_0 - sum_j w_j c_j / s_j) + sum_j (w_j / s_j) x_j: the weights in
//! original units are beta = A w, a linear map, and a Gaussian N(m, S) over w is the Gaussian
//! N(A m, A S A^T) over beta. The intercept's variance needs the full covariance.

use bayeslab_core::catalog::Likelihood;
use bayeslab_core::numeric::special::norm_cdf;
use bayeslab_core::record::{ColumnScaling, ExperimentRecord, RunRecord};
use bayeslab_data::INTERCEPT;

/// z of the central 95 % interval of a Normal: Phi^{-1}(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The scale a coefficient is read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// The design matrix's columns (standardised, when `[data] standardize` is on).
    Design,
    /// The data's own units: the standardisation undone, the intercept included.
    Original,
}

impl Scale {
    /// The scale's name in a table's caption.
    pub fn name(self, standardised: bool) -> &'static str {
        match (self, standardised) {
            (Scale::Design, true) => {
                "design scale (standardised: per training-row sd of each column)"
            }
            (Scale::Design, false) => "design scale (the data's units: nothing was standardised)",
            (Scale::Original, _) => "original units (the standardisation undone)",
        }
    }
}

/// One weight's summary on one scale. Without a posterior only `mean` (the point estimate) is
/// known; `sd` is NaN when the full covariance it needs was not kept.
#[derive(Debug, Clone, PartialEq)]
pub struct Coefficient {
    pub column: String,
    pub mean: f64,
    pub sd: Option<f64>,
}

impl Coefficient {
    /// The central 95 % interval of N(mean, sd²).
    pub fn interval(&self) -> Option<[f64; 2]> {
        let sd = self.sd.filter(|s| s.is_finite())?;
        Some([self.mean - Z95 * sd, self.mean + Z95 * sd])
    }

    /// P(w > 0) = Phi(mean / sd) under N(mean, sd²).
    pub fn p_positive(&self) -> Option<f64> {
        let sd = self.sd.filter(|s| s.is_finite())?;
        Some(if sd > 0.0 {
            norm_cdf(self.mean / sd)
        } else if self.mean > 0.0 {
            1.0
        } else {
            0.0
        })
    }

    /// exp(w): the odds ratio of a unit step in the column (logistic models), its median
    /// exp(mean) and its central 95 % interval, exact for a Gaussian w (a log-normal).
    pub fn odds_ratio(&self) -> (f64, Option<[f64; 2]>) {
        (
            self.mean.exp(),
            self.interval().map(|[a, b]| [a.exp(), b.exp()]),
        )
    }
}

/// Whether the run's likelihood is the logistic one, whose exp(w) is an odds ratio.
pub fn has_odds(run: &RunRecord) -> bool {
    run.kind.likelihood(1.0) == Some(Likelihood::Logistic)
}

/// A run's posterior mean, its covariance when it has one, and its standard deviations when
/// it has those alone.
type Moments = (Vec<f64>, Option<Vec<Vec<f64>>>, Option<Vec<f64>>);

/// The run's binary weights (one per design column): the posterior's mean and covariance, or
/// the point estimate alone. `None` for a run without one weight per design column (softmax's
/// class blocks, generative kinds, failed runs).
fn moments(r: &ExperimentRecord, run: &RunRecord) -> Option<Moments> {
    let d = r.dataset.columns.len();
    match &run.posterior {
        Some(p) if p.mean.len() == d => {
            Some((p.mean.clone(), p.cov.clone(), Some(p.cov_diag.clone())))
        }
        None if run.weights.len() == d && run.error.is_none() => {
            Some((run.weights.clone(), None, None))
        }
        _ => None,
    }
}

/// The coefficients of `run` on `scale`; `None` when the run has no binary weights, or (on
/// the original scale) when the design columns have no original units: a feature map made
/// them, or they were centred without an intercept to absorb the centring.
pub fn coefficients(
    r: &ExperimentRecord,
    run: &RunRecord,
    scale: Scale,
) -> Option<Vec<Coefficient>> {
    let (mean, cov, diag) = moments(r, run)?;
    let columns = &r.dataset.columns;
    let sd = |v: f64| v.max(0.0).sqrt();
    if scale == Scale::Design {
        return Some(
            columns
                .iter()
                .enumerate()
                .map(|(j, c)| Coefficient {
                    column: c.clone(),
                    mean: mean[j],
                    sd: diag.as_ref().map(|d| sd(d[j])),
                })
                .collect(),
        );
    }
    let a = back_transform(columns, r.dataset.standardisation.as_deref()?)?;
    let beta = apply(&a, &mean);
    let var: Option<Vec<f64>> = match (&cov, &diag) {
        (Some(s), _) => Some(congruence_diag(&a, s)),
        // Without the full covariance only the columns that are not the intercept have a
        // variance: (A S A^T)_jj = S_jj / s_j² needs no off-diagonal term.
        (None, Some(d)) => Some(
            a.iter()
                .map(|row| {
                    let nz: Vec<(usize, f64)> = row
                        .iter()
                        .copied()
                        .enumerate()
                        .filter(|(_, v)| *v != 0.0)
                        .collect();
                    match nz.as_slice() {
                        [(k, v)] => v * v * d[*k],
                        _ => f64::NAN,
                    }
                })
                .collect(),
        ),
        (None, None) => None,
    };
    Some(
        columns
            .iter()
            .enumerate()
            .map(|(j, c)| Coefficient {
                column: c.clone(),
                mean: beta[j],
                sd: var
                    .as_ref()
                    .map(|v| if v[j].is_nan() { f64::NAN } else { sd(v[j]) }),
            })
            .collect(),
    )
}

/// The matrix A (one row per design column, intercept first when present) with beta = A w.
/// `None` when a column is centred but there is no intercept to take the shift.
pub fn back_transform(columns: &[String], scaling: &[ColumnScaling]) -> Option<Vec<Vec<f64>>> {
    let d = columns.len();
    let intercept = columns.first().is_some_and(|c| c == INTERCEPT);
    let shift = usize::from(intercept);
    if scaling.len() + shift != d {
        return None;
    }
    if !intercept && scaling.iter().any(|s| s.centre != 0.0) {
        return None;
    }
    let mut a = vec![vec![0.0; d]; d];
    if intercept {
        a[0][0] = 1.0;
    }
    for (k, s) in scaling.iter().enumerate() {
        let j = k + shift;
        a[j][j] = 1.0 / s.scale;
        if intercept {
            a[0][j] = -s.centre / s.scale;
        }
    }
    Some(a)
}

/// A v.
pub fn apply(a: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    a.iter()
        .map(|row| row.iter().zip(v).map(|(x, y)| x * y).sum())
        .collect()
}

/// diag(A S A^T): (A S A^T)_ii = a_i^T S a_i.
fn congruence_diag(a: &[Vec<f64>], s: &[Vec<f64>]) -> Vec<f64> {
    a.iter()
        .map(|row| {
            let sa = apply(s, row);
            row.iter().zip(&sa).map(|(x, y)| x * y).sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use bayeslab_core::record::PosteriorRecord;

    fn scaled(centre: [f64; 2], scale: [f64; 2], cov: Vec<Vec<f64>>) -> ExperimentRecord {
        let mut run = fixture::run("a", &[0.3, -1.2, 0.7], Some(1.0), None);
        let diag = (0..3).map(|i| cov[i][i]).collect();
        run.posterior = Some(PosteriorRecord {
            mean: vec![0.3, -1.2, 0.7],
            cov_diag: diag,
            cov: Some(cov),
            precision_factor: None,
            log_evidence: None,
        });
        let mut r = fixture::record(&["intercept", "u", "v"], &["0", "1"], vec![run]);
        r.dataset.standardisation = Some(
            ["u", "v"]
                .iter()
                .enumerate()
                .map(|(k, c)| ColumnScaling {
                    column: c.to_string(),
                    centre: centre[k],
                    scale: scale[k],
                })
                .collect(),
        );
        r
    }

    fn cov() -> Vec<Vec<f64>> {
        vec![
            vec![0.5, 0.1, -0.2],
            vec![0.1, 0.8, 0.3],
            vec![-0.2, 0.3, 0.6],
        ]
    }

    #[test]
    fn original_units_give_the_same_activation_and_its_variance_at_every_row() {
        let r = scaled([2.0, -5.0], [0.5, 4.0], cov());
        let run = &r.runs[0];
        let w = coefficients(&r, run, Scale::Design).unwrap();
        let b = coefficients(&r, run, Scale::Original).unwrap();
        // At x = 0 the activation is the original intercept; its variance there is z^T S z
        // with the design row z = (1, -c/s): both from the design scale alone.
        let z = [1.0, -2.0 / 0.5, 5.0 / 4.0];
        let mean: f64 = z.iter().zip(&w).map(|(z, c)| z * c.mean).sum();
        let s = cov();
        let var: f64 = (0..3)
            .flat_map(|i| (0..3).map(move |j| (i, j)))
            .map(|(i, j)| z[i] * s[i][j] * z[j])
            .sum();
        assert!((b[0].mean - mean).abs() < 1e-12);
        assert!((b[0].sd.unwrap() - var.sqrt()).abs() < 1e-12);
        // A unit step in u is a step of 1/s in its design column.
        assert!((b[1].mean - w[1].mean / 0.5).abs() < 1e-12);
        assert!((b[2].sd.unwrap() - w[2].sd.unwrap() / 4.0).abs() < 1e-12);
        // At any x the two scales predict the same activation.
        let x = [1.7, -3.1];
        let design = w[0].mean + w[1].mean * (x[0] - 2.0) / 0.5 + w[2].mean * (x[1] + 5.0) / 4.0;
        let original = b[0].mean + b[1].mean * x[0] + b[2].mean * x[1];
        assert!((design - original).abs() < 1e-12);
    }

    #[test]
    fn intervals_probabilities_and_odds_follow_the_normal() {
        let c = Coefficient {
            column: "u".into(),
            mean: 0.4,
            sd: Some(0.2),
        };
        let [lo, hi] = c.interval().unwrap();
        assert!((norm_cdf((hi - 0.4) / 0.2) - 0.975).abs() < 1e-12);
        assert!((lo + hi - 0.8).abs() < 1e-12);
        assert!((c.p_positive().unwrap() - norm_cdf(2.0)).abs() < 1e-15);
        let (median, ci) = c.odds_ratio();
        assert_eq!(median, 0.4f64.exp());
        assert_eq!(ci.unwrap(), [lo.exp(), hi.exp()]);
    }

    #[test]
    fn centring_without_an_intercept_has_no_original_units() {
        let s = |c: f64| {
            vec![ColumnScaling {
                column: "u".into(),
                centre: c,
                scale: 2.0,
            }]
        };
        assert!(back_transform(&["u".into()], &s(1.0)).is_none());
        assert_eq!(
            back_transform(&["u".into()], &s(0.0)).unwrap(),
            vec![vec![0.5]]
        );
    }
}
