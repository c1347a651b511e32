//! Posterior predictives p(y = 1 | x) for a binary model with a Gaussian posterior over
//! the weights (MATH.md 1.4). All of them only need the activation's mean and variance.

use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

use super::gaussian::Activations;
use crate::numeric::quadrature::GaussHermite;
use crate::numeric::special::{norm_cdf, sigmoid};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PredictiveKind {
    /// sigma(mu_a): the point estimate plugged in.
    Plugin,
    /// (1/S) sum_s sigma(a_s), a_s ~ N(mu_a, s2_a).
    Mc,
    /// Phi(mu_a / sqrt(t^-2 + s2_a)), t^2 = pi / 8.
    Probit,
    /// sigma(kappa mu_a), kappa = (1 + pi s2_a / 8)^{-1/2}.
    Mackay,
    /// The integral of sigma(a) N(a | mu_a, s2_a), to about 1e-12 (see [`logistic_normal`]).
    Exact,
}

impl PredictiveKind {
    pub const ALL: [PredictiveKind; 5] = [
        PredictiveKind::Plugin,
        PredictiveKind::Mc,
        PredictiveKind::Probit,
        PredictiveKind::Mackay,
        PredictiveKind::Exact,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PredictiveKind::Plugin => "plugin",
            PredictiveKind::Mc => "mc",
            PredictiveKind::Probit => "probit",
            PredictiveKind::Mackay => "mackay",
            PredictiveKind::Exact => "exact",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Settings of the sampling and quadrature predictives.
#[derive(Debug, Clone, Copy)]
pub struct PredictiveSettings {
    pub mc_samples: usize,
    pub quadrature_nodes: usize,
}

/// p(y = 1 | x_n) for every row under the predictive `kind`. Only `Mc` draws from `rng`.
pub fn predict<R: Rng + ?Sized>(
    kind: PredictiveKind,
    act: &Activations,
    settings: PredictiveSettings,
    rng: &mut R,
) -> Vec<f64> {
    let rows = act.mean.iter().zip(&act.var);
    match kind {
        PredictiveKind::Plugin => act.mean.iter().map(|&m| sigmoid(m)).collect(),
        PredictiveKind::Mc => rows
            .map(|(&m, &v)| mc_one(m, v, settings.mc_samples, rng))
            .collect(),
        PredictiveKind::Probit => rows.map(|(&m, &v)| probit_approx(m, v)).collect(),
        PredictiveKind::Mackay => rows.map(|(&m, &v)| mackay(m, v)).collect(),
        PredictiveKind::Exact => {
            let gh = GaussHermite::new(settings.quadrature_nodes);
            rows.map(|(&m, &v)| logistic_normal(m, v, &gh)).collect()
        }
    }
}

/// Monte-Carlo estimate for one row by sampling the 1-D activation (O(S), not O(S D)).
pub fn mc_one<R: Rng + ?Sized>(mean: f64, var: f64, samples: usize, rng: &mut R) -> f64 {
    let sd = var.max(0.0).sqrt();
    let total: f64 = (0..samples)
        .map(|_| {
            let z: f64 = StandardNormal.sample(rng);
            sigmoid(mean + sd * z)
        })
        .sum();
    total / samples as f64
}

/// Activation variance up to which Gauss-Hermite in a is used for `exact`.
const GH_MAX_VAR: f64 = 1.0;

/// E[sigma(a)] for a ~ N(mean, var). Gauss-Hermite in a is fast and accurate while the
/// Gaussian is narrow (64 nodes: ~1e-13 at var <= 1) but converges slowly once sigma(a) is a
/// steep step on the Gaussian's scale (1e-4 error at var = 50 with 100 nodes). There the same
/// integral is taken in the logistic variable instead: sigma(a) = P(L < a) for L ~ Logistic(0, 1),
/// so E[sigma(a)] = E_L[Phi((mean - L) / sd)] = int Phi((mean - l)/sd) sigma(l) sigma(-l) dl, an
/// integrand analytic in the strip |Im l| < pi and decaying like e^{-|l|}, for which the
/// trapezoid rule with step 1/4 on [-40, 40] is exact to rounding (error ~ e^{-2 pi^2 / h}).
pub fn logistic_normal(mean: f64, var: f64, gh: &GaussHermite) -> f64 {
    let p = if var <= GH_MAX_VAR {
        gh.expect_normal(mean, var, sigmoid)
    } else {
        let sd = var.sqrt();
        let h = 0.25;
        (-160..=160)
            .map(|k| {
                let l = f64::from(k) * h;
                norm_cdf((mean - l) / sd) * sigmoid(l) * sigmoid(-l)
            })
            .sum::<f64>()
            * h
    };
    // Both rules sum hundreds of terms: far in the tails they can overshoot [0, 1] by an ulp
    // (found by tests/properties.rs), and a probability must not.
    p.clamp(0.0, 1.0)
}

/// The probit approximation sigma(a) ~ Phi(t a), t^2 = pi/8, integrated exactly.
pub fn probit_approx(mean: f64, var: f64) -> f64 {
    norm_cdf(mean / (8.0 / std::f64::consts::PI + var).sqrt())
}

/// MacKay's pi/8 moderation sigma(kappa mu_a).
pub fn mackay(mean: f64, var: f64) -> f64 {
    sigmoid(mean / (1.0 + std::f64::consts::PI * var / 8.0).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::rng::stream;

    fn acts() -> Activations {
        Activations {
            mean: vec![-3.0, -1.0, -0.2, 0.0, 0.5, 2.0, 4.0],
            var: vec![0.1, 2.0, 0.5, 4.0, 1.0, 9.0, 0.3],
        }
    }

    #[test]
    fn monte_carlo_converges_to_quadrature() {
        let a = acts();
        let exact = predict(
            PredictiveKind::Exact,
            &a,
            PredictiveSettings {
                mc_samples: 0,
                quadrature_nodes: 100,
            },
            &mut stream(0, "x"),
        );
        let mut previous_err = f64::INFINITY;
        for s in [1_000, 100_000] {
            let mc = predict(
                PredictiveKind::Mc,
                &a,
                PredictiveSettings {
                    mc_samples: s,
                    quadrature_nodes: 1,
                },
                &mut stream(3, "mc"),
            );
            let err = mc
                .iter()
                .zip(&exact)
                .map(|(m, e)| (m - e).abs())
                .fold(0.0, f64::max);
            // sd(sigma(a)) <= 0.5, so 5 sigma of the MC error is below 2.5 / sqrt(S)
            assert!(err < 2.5 / (s as f64).sqrt(), "S = {s}: max error {err}");
            assert!(err < previous_err);
            previous_err = err;
        }
    }

    #[test]
    fn exact_matches_a_fine_riemann_sum_at_every_variance() {
        // Independent computation: midpoint rule over +-15 sd with 400k cells.
        let gh = GaussHermite::new(64);
        for (m, v) in [
            (0.7, 3.0),
            (-2.0, 0.25),
            (1.0, 1.0),
            (1.0, 1.0 + 1e-9),
            (0.5, 50.0),
            (-3.0, 400.0),
        ] {
            let q = logistic_normal(m, v, &gh);
            let sd: f64 = f64::sqrt(v);
            let cells = 400_000;
            let h = 30.0 * sd / cells as f64;
            let riemann: f64 = (0..cells)
                .map(|i| {
                    let a = m - 15.0 * sd + (i as f64 + 0.5) * h;
                    sigmoid(a) * crate::numeric::special::norm_pdf((a - m) / sd) / sd * h
                })
                .sum();
            assert!(
                (q - riemann).abs() < 1e-10,
                "m={m}, v={v}: {q} vs {riemann}"
            );
        }
    }

    #[test]
    fn mackay_and_probit_stay_close_to_exact() {
        let a = acts();
        let settings = PredictiveSettings {
            mc_samples: 0,
            quadrature_nodes: 64,
        };
        let exact = predict(PredictiveKind::Exact, &a, settings, &mut stream(0, ""));
        for kind in [PredictiveKind::Mackay, PredictiveKind::Probit] {
            let p = predict(kind, &a, settings, &mut stream(0, ""));
            for (x, e) in p.iter().zip(&exact) {
                assert!((x - e).abs() < 0.02, "{kind:?}: {x} vs {e}");
            }
        }
    }

    #[test]
    fn zero_variance_reduces_to_the_plugin() {
        let a = Activations {
            mean: vec![-1.3, 0.4],
            var: vec![0.0, 0.0],
        };
        let settings = PredictiveSettings {
            mc_samples: 10,
            quadrature_nodes: 20,
        };
        let plug = predict(PredictiveKind::Plugin, &a, settings, &mut stream(0, ""));
        for kind in PredictiveKind::ALL {
            let p = predict(kind, &a, settings, &mut stream(0, ""));
            for (x, e) in p.iter().zip(&plug) {
                // the probit approximation differs from sigma itself by at most ~0.02 at s2 = 0
                let tol = if kind == PredictiveKind::Probit {
                    0.02
                } else {
                    1e-12
                };
                assert!((x - e).abs() < tol, "{kind:?}");
            }
        }
    }
}
