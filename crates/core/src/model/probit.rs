//! Probit regression with a Gaussian prior: MAP by Newton with the exact Hessian and the
//! Laplace approximation (docs/maths.md 1.2). With z_n = (2 y_n - 1) a_n and
//! r_n = N(z_n) / Phi(z_n):
//! E(w) = -sum_n ln Phi(z_n) + lambda/2 ||w||^2, g = -X^T ((2y - 1) .* r) + lambda w,
//! H = X^T diag(r_n (z_n + r_n)) X + lambda I. ln Phi and r use the tail-stable forms.

use super::fit::{FitInput, Fitted};
use super::glm::{GlmLink, GlmObjective};
use super::linear::LinearPredictor;
use crate::catalog::Link;
use crate::error::Result;
use crate::numeric::special::{inv_mills, log_norm_cdf};
use crate::optim::{Curvature, Objective, Observer};

/// The probit link: l(a, y) = -ln Phi((2y - 1) a).
pub struct ProbitLink;

impl GlmLink for ProbitLink {
    fn row_terms(a: f64, y: f64) -> (f64, f64, f64) {
        row_terms(a, y)
    }
}

pub type ProbitObjective<'a> = GlmObjective<'a, ProbitLink>;

/// One row's -ln Phi(z), z = (2y - 1) a, with its first and second derivatives in a:
/// -(2y - 1) r and r (z + r), r = N(z) / Phi(z) the inverse Mills ratio.
pub fn row_terms(a: f64, y: f64) -> (f64, f64, f64) {
    let sign = 2.0 * y - 1.0;
    let z = sign * a;
    let r = inv_mills(z);
    // r (z + r) lies in (0, 1); rounding can push it a hair outside far in the tails
    (-log_norm_cdf(z), -sign * r, (r * (z + r)).clamp(0.0, 1.0))
}

/// `probit-laplace`: MAP, then N(w_MAP, H^{-1}) with its Laplace log evidence.
pub fn fit_method(input: &FitInput<'_>, observer: &mut dyn Observer) -> Result<Fitted> {
    let objective = ProbitObjective::new(input.x, input.y, input.precision);
    let (weights, outcome) = super::laplace::minimise(
        &objective,
        input.method,
        Curvature::for_columns(input.x.ncols()),
        crate::optim::Start::at(vec![0.0; input.x.ncols()]),
        input.cancel,
        observer,
    )?;
    let posterior =
        super::laplace::approximate(&objective, &weights, input.precision, input.run())?;
    let predictor = LinearPredictor {
        weights: weights.clone(),
        posterior: Some(posterior),
        link: Link::Probit,
    };
    Ok(Fitted {
        pass_times: None,
        steps: None,
        objective: Some(objective.value(&weights)),
        weights,
        outcome,
        posterior: predictor.summary(),
        predictor: Box::new(predictor),
    })
}

#[cfg(test)]
mod tests {
    use faer::Mat;

    use super::*;

    #[test]
    fn gradient_and_hessian_match_central_differences() {
        let x = Mat::<f64>::from_fn(15, 3, |i, j| match j {
            0 => 1.0,
            1 => (i as f64 * 0.9).sin() * 2.5,
            _ => (i as f64 * 0.4).cos() * 3.0,
        });
        let y: Vec<f64> = (0..15).map(|i| f64::from(u8::from(i % 3 != 0))).collect();
        let obj = ProbitObjective::new(x.as_ref(), &y, 0.3);
        // large weights put some margins deep in the tail (z < -3), exercising the stable branch
        for w in [[0.2, -0.5, 0.7], [1.0, 2.0, -1.5]] {
            let g = obj.gradient(&w);
            let h = obj.hessian(&w);
            let eps = 1e-5;
            for j in 0..3 {
                let (mut wp, mut wm) = (w, w);
                wp[j] += eps;
                wm[j] -= eps;
                let fd = (obj.value(&wp) - obj.value(&wm)) / (2.0 * eps);
                assert!(
                    (fd - g[j]).abs() < 1e-6 * (1.0 + g[j].abs()),
                    "g[{j}]: {fd} vs {}",
                    g[j]
                );
                let (gp, gm) = (obj.gradient(&wp), obj.gradient(&wm));
                for i in 0..3 {
                    let fd = (gp[i] - gm[i]) / (2.0 * eps);
                    assert!(
                        (fd - h[(i, j)]).abs() < 1e-6 * (1.0 + h[(i, j)].abs()),
                        "H[{i},{j}]"
                    );
                }
            }
        }
    }

    #[test]
    fn laplace_evidence_is_close_to_numerical_integration_in_one_dimension() {
        // p(y | X) = int prod_n Phi((2 y_n - 1) x_n w) N(w | 0, 1/lambda) dw by a midpoint rule
        // against -E(w*) + (1/2) ln lambda - (1/2) ln H: equal up to the Laplace error, small for
        // this nearly Gaussian posterior (the test pins the constants, as for logistic).
        let x = Mat::<f64>::from_fn(40, 1, |i, _| ((i as f64) * 0.37).sin() * 1.5);
        let y: Vec<f64> = (0..40)
            .map(|i| f64::from(u8::from((i * 7) % 5 < 3)))
            .collect();
        let lambda = 2.0;
        let obj = ProbitObjective::new(x.as_ref(), &y, lambda);
        let mut w = [0.0];
        for _ in 0..50 {
            w[0] -= obj.gradient(&w)[0] / obj.hessian(&w)[(0, 0)];
        }
        let post = crate::model::laplace::approximate(&obj, &w, lambda, "t").unwrap();
        let nll = ProbitObjective::new(x.as_ref(), &y, 0.0);
        let h = 1e-4;
        let integral: f64 = (0..100_000)
            .map(|k| {
                let v = -5.0 + (k as f64 + 0.5) * h;
                let prior =
                    (lambda / (2.0 * std::f64::consts::PI)).sqrt() * (-0.5 * lambda * v * v).exp();
                (-nll.value(&[v])).exp() * prior * h
            })
            .sum();
        let laplace = post.log_evidence.unwrap();
        assert!(
            (laplace - integral.ln()).abs() < 0.01,
            "{laplace} vs {}",
            integral.ln()
        );
    }
}
