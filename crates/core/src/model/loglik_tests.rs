use faer::{mat, Mat, MatRef};

use super::*;
use crate::model::fit::Probabilities;
use crate::model::predictive::{PredictiveKind, PredictiveSettings};
use crate::numeric::rng::{stream, Stream};
use crate::numeric::special::norm_cdf;

/// A posterior that is only a Gaussian: what [`PosteriorDraws::of`] reads of an approximation.
struct Gaussian(Vec<f64>, Mat<f64>);

impl Predictor for Gaussian {
    fn predict(
        &self,
        _: PredictiveKind,
        _: MatRef<'_, f64>,
        _: PredictiveSettings,
        _: &mut Stream,
    ) -> Probabilities {
        unreachable!("the log likelihood never predicts")
    }

    fn gaussian(&self) -> Option<(Vec<f64>, Mat<f64>)> {
        Some((self.0.clone(), self.1.clone()))
    }
}

#[test]
fn a_row_log_likelihood_is_the_log_of_its_probability() {
    for (a, y) in [(0.7_f64, 1.0), (0.7, 0.0), (-3.0, 1.0)] {
        let p1 = 1.0 / (1.0 + (-a).exp());
        let p = if y == 1.0 { p1 } else { 1.0 - p1 };
        assert!((row_log_lik(Likelihood::Logistic, a, y) - p.ln()).abs() < 1e-14);
        let q1 = norm_cdf(a / 2.0);
        let q = if y == 1.0 { q1 } else { 1.0 - q1 };
        assert!((row_log_lik(Likelihood::Probit { noise: 2.0 }, a, y) - q.ln()).abs() < 1e-13);
    }
}

#[test]
fn the_correction_is_the_log_joint_minus_the_log_proposal_up_to_one_constant() {
    let x = mat![[1.0, 0.5], [1.0, -1.2], [1.0, 2.0]];
    let y = [1.0, 0.0, 1.0];
    let cov = mat![[0.5, 0.1], [0.1, 0.3]];
    let mean = vec![0.2, 0.4];
    let precision = 2.0;
    let predictor = Gaussian(mean.clone(), cov.clone());
    let mut rng = stream(11, "loglik-test");
    let draws = PosteriorDraws::of(&predictor, 50, &mut rng, "test")
        .unwrap()
        .unwrap();
    assert!(!draws.exact);
    let ll = log_lik(Likelihood::Logistic, x.as_ref(), &y, &draws, precision);
    // ln q(w) by the inverse of the 2 x 2 covariance, written out.
    let det = 0.5 * 0.3 - 0.1 * 0.1;
    let inv = [[0.3 / det, -0.1 / det], [-0.1 / det, 0.5 / det]];
    let c = ll.correction.as_ref().unwrap();
    let offsets: Vec<f64> = (0..50)
        .map(|s| {
            let w = [draws.w[(0, s)], draws.w[(1, s)]];
            let d = [w[0] - mean[0], w[1] - mean[1]];
            let quad: f64 = (0..2)
                .map(|i| (0..2).map(|j| d[i] * inv[i][j] * d[j]).sum::<f64>())
                .sum();
            let log_lik: f64 = (0..3)
                .map(|i| {
                    row_log_lik(
                        Likelihood::Logistic,
                        x[(i, 0)] * w[0] + x[(i, 1)] * w[1],
                        y[i],
                    )
                })
                .sum();
            let log_joint = log_lik - 0.5 * precision * (w[0] * w[0] + w[1] * w[1]);
            c[s] - (log_joint + 0.5 * quad)
        })
        .collect();
    assert!(
        offsets.iter().all(|o| (o - offsets[0]).abs() < 1e-10),
        "{offsets:?}"
    );
    // Row 1's values are its log likelihood at each draw.
    let a = x[(1, 0)] * draws.w[(0, 7)] + x[(1, 1)] * draws.w[(1, 7)];
    assert!((ll.row(1)[7] - row_log_lik(Likelihood::Logistic, a, 0.0)).abs() < 1e-14);
}
