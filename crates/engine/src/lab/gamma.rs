//! Gamma(shape, rate) on its own, below [`super::dist::Dist`]: statrs for small shapes,
//! [`super::gamma_large`] from [`LARGE_SHAPE`] on. [`super::beta_lopsided`] needs a Gamma
//! and [`super::dist::Dist::Gamma`] is this one, so both call here.

use statrs::distribution::{Continuous, ContinuousCDF, Gamma};

use super::bisection::polish;
use super::gamma_large::{self, LARGE_SHAPE};

const SUPPORT: (f64, f64) = (0.0, f64::INFINITY);

pub fn ln_pdf(shape: f64, rate: f64, x: f64) -> f64 {
    if !(x > SUPPORT.0 && x < SUPPORT.1) {
        return f64::NEG_INFINITY;
    }
    if shape >= LARGE_SHAPE {
        gamma_large::ln_pdf(shape, rate, x)
    } else {
        Gamma::new(shape, rate)
            .expect("validated: shape, rate > 0")
            .ln_pdf(x)
    }
}

pub fn cdf(shape: f64, rate: f64, x: f64) -> f64 {
    if x <= SUPPORT.0 {
        return 0.0;
    }
    if x >= SUPPORT.1 {
        return 1.0;
    }
    if shape >= LARGE_SHAPE {
        gamma_large::cdf(shape, rate, x)
    } else {
        Gamma::new(shape, rate).expect("validated").cdf(x)
    }
}

/// statrs' inverse CDF can be far off in the tails (Gamma(0.5, 4) at 1e-10 returns a point
/// with CDF 7e-5), so it only starts the bisection.
pub fn quantile(shape: f64, rate: f64, p: f64) -> f64 {
    if shape >= LARGE_SHAPE {
        return gamma_large::quantile(shape, rate, p);
    }
    let start = Gamma::new(shape, rate).expect("validated").inverse_cdf(p);
    polish(|x| cdf(shape, rate, x), SUPPORT, p, start)
}
