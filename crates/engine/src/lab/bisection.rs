//! Quantiles by bisection on a CDF: the polish after a start that may be far off in the tails
//! (statrs' inverse CDFs), shared by [`super::dist::Dist`] and by the Gamma below it
//! ([`super::gamma`]), so that neither has to reach the other.

use super::map::Map;

/// Solve F(x) = p by bisection, starting from `guess`, for a distribution with CDF `cdf`
/// and support `(lo, hi)`. The search runs on log x for a support (0, ∞) and on logit x for
/// (0, 1), so that tails near an edge are resolved.
pub fn polish(cdf: impl Fn(f64) -> f64, (lo, hi): (f64, f64), p: f64, guess: f64) -> f64 {
    let map = match (lo, hi) {
        (0.0, f64::INFINITY) => Some(Map::Log),
        (0.0, 1.0) => Some(Map::Logit),
        _ => None,
    };
    let to_x = |u: f64| map.map_or(u, |m| m.inverse(u).0);
    let g = if guess.is_finite() && guess > lo && guess < hi {
        map.map_or(guess, |m| m.forward(guess))
    } else {
        map.map_or(0.0, |m| m.forward(if hi == 1.0 { 0.5 } else { 1.0 }))
    };
    let (mut a, mut b) = (g, g);
    let mut width = 1e-6 * (1.0 + g.abs());
    while cdf(to_x(a)) > p && width < 1e6 {
        a -= width;
        width *= 2.0;
    }
    width = 1e-6 * (1.0 + g.abs());
    while cdf(to_x(b)) < p && width < 1e6 {
        b += width;
        width *= 2.0;
    }
    for _ in 0..300 {
        let mid = 0.5 * (a + b);
        if b - a <= 1e-14 * (1.0 + mid.abs()) {
            break;
        }
        if cdf(to_x(mid)) < p {
            a = mid;
        } else {
            b = mid;
        }
    }
    to_x(0.5 * (a + b))
}
