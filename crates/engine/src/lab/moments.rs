//! Mean and sd of a [`Dist`]: closed forms where they exist, otherwise Simpson's rule on the
//! range between the 1e-12 and 1 - 1e-12 quantiles, refined until the moments change by less
//! than 1e-10 (the logit-normal and the Cauchy posterior). The Gini distributions are
//! integrated on log sigma^2 instead ([`gini_mean_sd`]).

use super::dist::Dist;
use super::integrate::refine;
use bayeslab_core::numeric::special::norm_cdf;

pub fn mean_sd(d: &Dist) -> (f64, f64) {
    if let Some(m) = d.closed_moments() {
        return m;
    }
    match d {
        Dist::GiniExact { nu, s2 } => {
            return gini_mean_sd(&Dist::LogScaledInvChi2 { nu: *nu, s2: *s2 })
        }
        Dist::GiniNormal { mu, sd } => return gini_mean_sd(&Dist::Normal { mean: *mu, sd: *sd }),
        _ => {}
    }
    let (lo, hi) = (d.quantile(1e-12), d.quantile(1.0 - 1e-12));
    let f = |x: f64| {
        let p = d.ln_pdf(x).exp();
        [p, x * p, x * x * p]
    };
    let ([z, m1, m2], _) = refine(lo, hi, 1e-10, &f);
    let mean = m1 / z;
    (mean, (m2 / z - mean * mean).max(0.0).sqrt())
}

/// Mean and sd of G = 1 - u, u = 2 Phi(-sigma / sqrt 2), sigma = e^{eta/2}, when
/// eta = log sigma^2 has the distribution `eta`. G's own range collapses to the single double
/// 1 once sigma > 12 (large spreads of log incomes, such as values 1e-50, 1e50, 1), where
/// quadrature on G divides 0 by 0; eta's range never does, and u keeps the distance from 1.
fn gini_mean_sd(eta: &Dist) -> (f64, f64) {
    let (lo, hi) = (eta.quantile(1e-12), eta.quantile(1.0 - 1e-12));
    let f = |e: f64| {
        let p = eta.ln_pdf(e).exp();
        let u = 2.0 * norm_cdf(-(0.5 * e).exp() / std::f64::consts::SQRT_2);
        [p, u * p, u * u * p]
    };
    let ([z, m1, m2], _) = refine(lo, hi, 1e-10, &f);
    let u = m1 / z;
    (1.0 - u, (m2 / z - u * u).max(0.0).sqrt())
}

/// The 2.5 %, 50 % and 97.5 % quantiles.
pub fn quantiles(d: &Dist) -> [f64; 3] {
    [d.quantile(0.025), d.quantile(0.5), d.quantile(0.975)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numerical_moments_agree_with_closed_forms() {
        // The quadrature path against the log-normal's closed form.
        let d = Dist::LogNormal {
            mu: 0.3,
            sigma: 0.4,
        };
        let (m, s) = d.closed_moments().unwrap();
        let (lo, hi) = (d.quantile(1e-12), d.quantile(1.0 - 1e-12));
        let ([z, m1, m2], _) = refine(lo, hi, 1e-10, &|x: f64| {
            let p = d.ln_pdf(x).exp();
            [p, x * p, x * x * p]
        });
        assert!((m1 / z - m).abs() < 1e-8);
        assert!(((m2 / z - (m1 / z).powi(2)).sqrt() - s).abs() < 1e-8);
        // The logit-normal's mean lies between its median sigmoid(mu) and 1/2.
        let (lm, _) = mean_sd(&Dist::LogitNormal {
            mu: 1.0,
            sigma: 1.0,
        });
        assert!(lm > 0.5 && lm < bayeslab_core::numeric::special::sigmoid(1.0));
    }

    #[test]
    fn gini_moments_are_finite_when_every_g_rounds_to_one() {
        // values = [1e-50, 1e50, 1]: log incomes -115.1, 115.1, 0, so nu = 2 and
        // s2 = 115.13^2 = 13254.7, and every G = 1 - erfc(sigma / 2) rounds to 1 unless
        // sigma < 12; the mean used to be 0/0 on the collapsed range of G. Bound: for any t,
        // E[1 - G] <= P(sigma < t) + erfc(t / 2), and sd(G) <= sqrt(E[(1 - G)^2])
        // <= sqrt(E[1 - G]). Exactly, X = nu s2 / sigma^2 ~ chi^2_2 (P(X > x) = e^{-x/2}), so
        // P(sigma < t) = e^{-s2 / t^2}; under the normal approximation at the mode,
        // log sigma^2 ~ N(log(2 s2 / 3), 2/3) and P(sigma < t) = Phi((2 ln t - mu) / sd).
        let x = [-(1e50f64.ln()), 1e50f64.ln(), 0.0];
        let s2 = x.iter().map(|v| v * v).sum::<f64>() / 2.0;
        let t: f64 = 20.0;
        let tail = 2.0 * norm_cdf(-t / std::f64::consts::SQRT_2); // erfc(t / 2)
        let (mu, sd) = ((2.0 * s2 / 3.0).ln(), (2.0f64 / 3.0).sqrt());
        for (d, bound) in [
            (
                Dist::GiniExact { nu: 2.0, s2 },
                (-s2 / (t * t)).exp() + tail,
            ),
            (
                Dist::GiniNormal { mu, sd },
                norm_cdf((2.0 * t.ln() - mu) / sd) + tail,
            ),
        ] {
            let (m, sd) = mean_sd(&d);
            assert!(
                (0.0..=bound).contains(&(1.0 - m)),
                "{d:?}: mean {m}, bound {bound}"
            );
            assert!((0.0..=bound.sqrt()).contains(&sd), "{d:?}: sd {sd}");
        }
    }

    #[test]
    fn gini_moments_on_log_sigma_squared_equal_those_on_g() {
        // Where G's range is wide (the CPS1985 sample's nu, s2 from gini.rs), quadrature on
        // G itself and on log sigma^2 are two routes to the same integral.
        for d in [
            Dist::GiniExact { nu: 11.0, s2: 0.2 },
            Dist::GiniNormal { mu: -1.7, sd: 0.4 },
        ] {
            let (lo, hi) = (d.quantile(1e-12), d.quantile(1.0 - 1e-12));
            let ([z, m1, m2], _) = refine(lo, hi, 1e-10, &|x: f64| {
                let p = d.ln_pdf(x).exp();
                [p, x * p, x * x * p]
            });
            let (m, sd) = mean_sd(&d);
            assert!((m - m1 / z).abs() < 1e-8, "{d:?}: {m} vs {}", m1 / z);
            let want = (m2 / z - (m1 / z).powi(2)).sqrt();
            assert!((sd - want).abs() < 1e-8, "{d:?}: {sd} vs {want}");
        }
    }
}
