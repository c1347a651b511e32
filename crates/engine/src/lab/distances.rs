//! How far an approximation q is from the exact posterior p (docs/maths.md 4): KL(p || q),
//! total variation and Hellinger distance, by Simpson's rule on the range between p's
//! 1e-10 and 1 - 1e-10 quantiles, the grid halved until no figure changes by more than 1e-6.
//! The families pass p and q on a working scale (log theta, logit theta, log sigma²; see
//! [`super::distance_scale::DistanceScale`]) where p is smooth, since all three are invariant under
//! a monotone change of variable.
//!
//! - KL(p || q) = ∫ p log(p / q)
//! - TV = 1/2 ∫ |p - q|; outside the range p is (to 2e-10) zero, so that part is q's mass
//!   there, taken from q's CDF rather than integrated.
//! - Hellinger H = sqrt(1 - ∫ sqrt(p q)) (the convention with H² = 1/2 ∫ (√p - √q)², so
//!   0 <= H <= 1).

use serde::Serialize;

use super::dist::Dist;
use super::integrate::refine;
use bayeslab_core::record::Integration;

pub const TOLERANCE: f64 = 1e-6;
/// p puts at most this mass on each side of the integration range.
pub const TAIL: f64 = 1e-10;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Distances {
    pub kl: f64,
    pub tv: f64,
    pub hellinger: f64,
    pub integration: Integration,
}

/// The integration range for p: its TAIL and 1 - TAIL quantiles.
pub fn range(p: &Dist) -> (f64, f64) {
    (p.quantile(TAIL), p.quantile(1.0 - TAIL))
}

pub fn distances(p: &Dist, q: &Dist) -> Distances {
    let (lo, hi) = range(p);
    let integrand = |x: f64| -> [f64; 3] {
        let lp = p.ln_pdf(x);
        let lq = q.ln_pdf(x);
        if lp == f64::NEG_INFINITY {
            return [0.0, lq.exp(), 0.0];
        }
        let (dp, dq) = (lp.exp(), lq.exp());
        let kl = if dp == 0.0 { 0.0 } else { dp * (lp - lq) };
        [kl, (dp - dq).abs(), (0.5 * (lp + lq)).exp()]
    };
    let ([kl, abs_diff, bc], integration) = refine(lo, hi, TOLERANCE, &integrand);
    let q_outside = (q.cdf(lo) + (1.0 - q.cdf(hi))).max(0.0);
    Distances {
        kl: kl.max(0.0),
        tv: (0.5 * (abs_diff + q_outside)).clamp(0.0, 1.0),
        hellinger: (1.0 - bc).max(0.0).sqrt(),
        integration,
    }
}

/// The mass q puts outside the support of p.
pub fn mass_outside(p: &Dist, q: &Dist) -> f64 {
    let (lo, hi) = p.support();
    let below = if lo.is_finite() { q.cdf(lo) } else { 0.0 };
    let above = if hi.is_finite() { 1.0 - q.cdf(hi) } else { 0.0 };
    below + above
}

#[cfg(test)]
mod tests {
    use super::*;
    use bayeslab_core::numeric::special::norm_cdf;

    #[test]
    fn identical_densities_are_at_distance_zero() {
        for p in [
            Dist::Normal { mean: 3.0, sd: 0.5 },
            Dist::Gamma {
                shape: 4.0,
                rate: 2.0,
            },
            Dist::Beta { a: 7.0, b: 4.0 },
        ] {
            let d = distances(&p, &p);
            assert!(
                d.kl.abs() < 1e-9 && d.tv < 1e-9 && d.hellinger < 1e-4,
                "{d:?}"
            );
            assert!(d.integration.converged);
        }
    }

    #[test]
    fn two_normals_match_their_closed_forms() {
        // KL(N(m1,s1²) || N(m2,s2²)) = ln(s2/s1) + (s1² + (m1-m2)²)/(2 s2²) - 1/2;
        // H² = 1 - sqrt(2 s1 s2/(s1²+s2²)) exp(-(m1-m2)²/(4(s1²+s2²))).
        let (m1, s1, m2, s2) = (1.0, 1.0, 1.7, 1.4);
        let d = distances(
            &Dist::Normal { mean: m1, sd: s1 },
            &Dist::Normal { mean: m2, sd: s2 },
        );
        let kl = (s2 / s1).ln() + (s1 * s1 + (m1 - m2) * (m1 - m2)) / (2.0 * s2 * s2) - 0.5;
        let v = s1 * s1 + s2 * s2;
        let h2 = 1.0 - (2.0 * s1 * s2 / v).sqrt() * (-(m1 - m2) * (m1 - m2) / (4.0 * v)).exp();
        assert!((d.kl - kl).abs() < 1e-6, "kl {} vs {kl}", d.kl);
        assert!((d.hellinger - h2.sqrt()).abs() < 1e-6);
        // Equal variances: TV = 2Φ(|Δ|/(2s)) - 1.
        let d = distances(
            &Dist::Normal { mean: 0.0, sd: 2.0 },
            &Dist::Normal { mean: 1.0, sd: 2.0 },
        );
        let tv = 2.0 * norm_cdf(1.0 / 4.0) - 1.0;
        assert!((d.tv - tv).abs() < 1e-6, "tv {} vs {tv}", d.tv);
        assert!((d.kl - 1.0 / 8.0).abs() < 1e-6);
    }

    #[test]
    fn mass_outside_is_the_normal_tail_below_zero() {
        let p = Dist::Gamma {
            shape: 2.0,
            rate: 1.0,
        };
        let q = Dist::Normal { mean: 1.0, sd: 1.0 };
        assert!((mass_outside(&p, &q) - norm_cdf(-1.0)).abs() < 1e-9);
        assert_eq!(
            mass_outside(
                &p,
                &Dist::LogNormal {
                    mu: 0.0,
                    sigma: 1.0
                }
            ),
            0.0
        );
    }
}
