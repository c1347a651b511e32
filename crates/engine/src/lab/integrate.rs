//! Composite Simpson's rule on a uniform grid, refined by halving the spacing until no
//! integral changes by more than a tolerance. Used for the distances and for moments that
//! have no closed form.

use bayeslab_core::record::Integration;

pub const START_INTERVALS: usize = 256;
/// 2^22 intervals: the refinement gives up (and says so) beyond this.
pub const MAX_INTERVALS: usize = 1 << 22;

/// Simpson's rule for K integrands at once on `n` (even) intervals of [lo, hi].
pub fn simpson<const K: usize>(
    lo: f64,
    hi: f64,
    n: usize,
    f: &dyn Fn(f64) -> [f64; K],
) -> [f64; K] {
    let h = (hi - lo) / n as f64;
    let mut acc = [0.0; K];
    for i in 0..=n {
        let w = if i == 0 || i == n {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let v = f(lo + h * i as f64);
        for k in 0..K {
            acc[k] += w * v[k];
        }
    }
    acc.map(|a| a * h / 3.0)
}

/// Integrate on [lo, hi], halving the spacing from [`START_INTERVALS`] until every figure
/// changes by at most `tolerance` (absolute).
pub fn refine<const K: usize>(
    lo: f64,
    hi: f64,
    tolerance: f64,
    f: &dyn Fn(f64) -> [f64; K],
) -> ([f64; K], Integration) {
    let mut n = START_INTERVALS;
    let mut prev = simpson(lo, hi, n, f);
    loop {
        n *= 2;
        let next = simpson(lo, hi, n, f);
        let change = prev
            .iter()
            .zip(&next)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        let converged = change <= tolerance;
        if converged || n >= MAX_INTERVALS || !change.is_finite() {
            return (
                next,
                Integration {
                    intervals: n,
                    last_change: change,
                    converged,
                },
            );
        }
        prev = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simpson_is_exact_for_cubics_and_refinement_converges() {
        let [v] = simpson(0.0, 2.0, 2, &|x| [x * x * x - x]);
        assert!((v - 2.0).abs() < 1e-14);
        let ([v], how) = refine(0.0, std::f64::consts::PI, 1e-10, &|x| [x.sin()]);
        assert!((v - 2.0).abs() < 1e-10 && how.converged);
    }
}
