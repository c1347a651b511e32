//! One row's likelihood as EP sees it: from the cavity N(t; m, v) of t = y_i w^T phi_i, the
//! moment-matched site (a, b) of exp(a t - b t^2 / 2) and the tilted normaliser
//! ln Z_i = ln int p(t) N(t; m, v) dt that the evidence needs (docs/maths.md §2 and §6.3).
//! The probit has both in closed form (Herbrich's updates, with the noise beta); the logistic
//! sigma(t) has neither, so its tilted normaliser, mean and variance are 1-D integrals, taken by
//! quadrature as R's EPGLM does (`EPlogit`), and the site follows from natural parameters:
//! b = 1/v_tilted - 1/v, a = m_tilted/v_tilted - m/v.

use crate::error::NumericError;
use crate::numeric::quadrature::GaussHermite;
use crate::numeric::special::{inv_mills, log_norm_cdf, log_sigmoid, norm_cdf, norm_pdf, sigmoid};

/// Gauss-Hermite nodes for the logistic tilted moments while the cavity is narrow.
const LOGISTIC_NODES: usize = 64;

/// Cavity variance (in t) up to which the logistic moments use Gauss-Hermite; above it
/// sigma(t) is a steep step on the cavity's scale and the trapezoid rule in the logistic
/// variable takes over (the same split as the `exact` predictive, model/predictive.rs).
const GH_MAX_VAR: f64 = 1.0;

/// The likelihood of one row in t = y_i w^T phi_i.
pub enum Site {
    /// Phi(t / beta).
    Probit { beta: f64 },
    /// sigma(t), with the Gauss-Hermite rule for its tilted moments.
    Logistic { gh: GaussHermite },
}

impl Site {
    pub fn probit(beta: f64) -> Self {
        Site::Probit { beta }
    }

    pub fn logistic() -> Self {
        Site::Logistic {
            gh: GaussHermite::new(LOGISTIC_NODES),
        }
    }

    /// The undamped moment-matched site (a, b) for the cavity N(m, v), v > 0.
    pub fn matched(&self, m: f64, v: f64) -> Result<(f64, f64), NumericError> {
        match self {
            Site::Probit { beta } => {
                let bb = beta * beta;
                let s2 = v + bb;
                let s = s2.sqrt();
                let t = m / s;
                let iv = inv_mills(t);
                let w = (iv * (iv + t)).clamp(0.0, 1.0 - 1e-15);
                let tau = (s * iv + m * w) / (s2 * (1.0 - w));
                let rho = w / (s2 * (1.0 - w));
                Ok((tau / (1.0 + rho * bb), rho / (1.0 + rho * bb)))
            }
            Site::Logistic { gh } => {
                let (_, mean, var) = logistic_tilted(gh, m, v);
                if !(var > 0.0 && var.is_finite() && mean.is_finite()) {
                    return Err(NumericError::NonFinite(format!(
                        "EP: the tilted moments of a logistic site are not finite (cavity mean {m}, variance {v}); \
                         set `damping` below 1 or use a larger [prior] precision"
                    )));
                }
                // sigma is log-concave, so the tilted variance is below the cavity's and b >= 0;
                // rounding may not break that.
                Ok((mean / var - m / v, (1.0 / var - 1.0 / v).max(0.0)))
            }
        }
    }

    /// ln int p(t) N(t; m, v) dt.
    pub fn log_normaliser(&self, m: f64, v: f64) -> f64 {
        match self {
            Site::Probit { beta } => log_norm_cdf(m / (v + beta * beta).sqrt()),
            Site::Logistic { gh } => logistic_tilted(gh, m, v).0,
        }
    }
}

/// (ln Z, mean, variance) of the tilted distribution sigma(t) N(t; m, v) / Z.
pub fn logistic_tilted(gh: &GaussHermite, m: f64, v: f64) -> (f64, f64, f64) {
    if v > GH_MAX_VAR {
        if let Some(moments) = logistic_tilted_wide(m, v) {
            return moments;
        }
    }
    // Gauss-Hermite in log space: the weights w_i sigma(t_i) are normalised through their
    // largest, so a cavity deep in the tail (Z ~ e^-700) keeps its moments.
    let scale = (2.0 * v).sqrt();
    let points: Vec<(f64, f64)> = gh
        .nodes()
        .iter()
        .zip(gh.weights())
        .map(|(x, w)| {
            let t = m + scale * x;
            (t, w.ln() + log_sigmoid(t))
        })
        .collect();
    let top = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = points.iter().map(|p| (p.1 - top).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mean = points
        .iter()
        .zip(&weights)
        .map(|(p, w)| w * p.0)
        .sum::<f64>()
        / total;
    let var = points
        .iter()
        .zip(&weights)
        .map(|(p, w)| w * (p.0 - mean).powi(2))
        .sum::<f64>()
        / total;
    let log_z = top + total.ln() - 0.5 * std::f64::consts::PI.ln();
    (log_z, mean, var)
}

/// The tilted moments of a wide cavity by writing sigma(t) = P(L < t), L ~ Logistic(0, 1):
/// Z = int sigma'(l) Phi(u) dl, E[t; t > l] = m Phi(u) + s N(u), E[t^2; t > l] =
/// (m^2 + v) Phi(u) + s (m + l) N(u), u = (m - l)/s, each integrand analytic in a strip and
/// decaying like e^-|l|, so the trapezoid rule with step 1/4 on [-40, 40] is exact to rounding.
/// `None` when Z underflows (a cavity far on the wrong side), for the log-space rule to take.
fn logistic_tilted_wide(m: f64, v: f64) -> Option<(f64, f64, f64)> {
    let s = v.sqrt();
    let h = 0.25;
    let (mut z, mut m1, mut m2) = (0.0, 0.0, 0.0);
    for k in -160..=160 {
        let l = f64::from(k) * h;
        let density = sigmoid(l) * sigmoid(-l);
        let u = (m - l) / s;
        let (cdf, pdf) = (norm_cdf(u), norm_pdf(u));
        z += density * cdf;
        m1 += density * (m * cdf + s * pdf);
        m2 += density * ((m * m + v) * cdf + s * (m + l) * pdf);
    }
    if z < 1e-200 {
        return None;
    }
    let mean = m1 / z;
    let var = m2 / z - mean * mean;
    (var > 0.0).then(|| ((z * h).ln(), mean, var))
}
