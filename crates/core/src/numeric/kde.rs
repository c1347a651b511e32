//! A 2-D Gaussian kernel density estimate with Scott's bandwidth (docs/maths.md §19), as
//! `scipy.stats.gaussian_kde` computes it by default: the kernel is N(0, f^2 S) with S the
//! points' sample covariance and f = n^(-1/6), so that it has the points' correlation. The
//! levels of its highest-density regions come from the points themselves: the level holding a
//! fraction m of the points is the (1 - m) quantile of their leave-one-out densities (a point's
//! own kernel left out, which would otherwise raise its density by (f^2 n)^-1 of the peak).

use rayon::prelude::*;

/// The estimate from `points`.
pub struct Kde2 {
    points: Vec<[f64; 2]>,
    /// The kernel covariance's Cholesky factor [l11, l21, l22].
    chol: [f64; 3],
}

impl Kde2 {
    /// Scott's rule; `None` below three points or for points on a line (no 2-D density).
    pub fn scott(points: Vec<[f64; 2]>) -> Option<Kde2> {
        let n = points.len();
        if n < 3 {
            return None;
        }
        let nf = n as f64;
        let mean = points
            .iter()
            .fold([0.0, 0.0], |m, p| [m[0] + p[0] / nf, m[1] + p[1] / nf]);
        let mut s = [0.0; 3];
        for p in &points {
            let (u, v) = (p[0] - mean[0], p[1] - mean[1]);
            s = [s[0] + u * u, s[1] + u * v, s[2] + v * v];
        }
        let f2 = nf.powf(-1.0 / 3.0) / (nf - 1.0);
        let h = [s[0] * f2, s[1] * f2, s[2] * f2];
        let l11 = h[0].sqrt();
        let l21 = h[1] / l11;
        let l22sq = h[2] - l21 * l21;
        if !(l11 > 0.0 && l22sq > 0.0 && l22sq.is_finite()) {
            return None;
        }
        Some(Kde2 {
            points,
            chol: [l11, l21, l22sq.sqrt()],
        })
    }

    /// The kernel's standard deviation along each axis.
    pub fn bandwidth(&self) -> [f64; 2] {
        let [l11, l21, l22] = self.chol;
        [l11, (l21 * l21 + l22 * l22).sqrt()]
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// exp(-|L^-1 (z - p)|^2 / 2), the kernel without its constant.
    fn kernel(&self, z: [f64; 2], p: [f64; 2]) -> f64 {
        let [l11, l21, l22] = self.chol;
        let a = (z[0] - p[0]) / l11;
        let b = (z[1] - p[1] - l21 * a) / l22;
        (-0.5 * (a * a + b * b)).exp()
    }

    /// The kernel's normalising constant 1 / (2 pi |L|).
    fn constant(&self) -> f64 {
        1.0 / (std::f64::consts::TAU * self.chol[0] * self.chol[2])
    }

    /// The estimate at `z`.
    pub fn density(&self, z: [f64; 2]) -> f64 {
        let sum: f64 = self.points.iter().map(|p| self.kernel(z, *p)).sum();
        self.constant() * sum / self.len() as f64
    }

    /// The estimate on every point of `grid`, in parallel.
    pub fn on(&self, grid: &[[f64; 2]]) -> Vec<f64> {
        grid.par_iter().map(|z| self.density(*z)).collect()
    }

    /// Each point's density from the other n - 1 points.
    pub fn leave_one_out(&self) -> Vec<f64> {
        let c = self.constant() / (self.len() - 1) as f64;
        (0..self.len())
            .into_par_iter()
            .map(|i| {
                let z = self.points[i];
                let sum: f64 = self.points.iter().map(|p| self.kernel(z, *p)).sum();
                c * (sum - 1.0)
            })
            .collect()
    }

    /// The density levels whose superlevel sets hold the fractions `ms` of the points: the
    /// (1 - m) quantile of the leave-one-out densities (the lower order statistic).
    pub fn hdr_levels(&self, ms: &[f64]) -> Vec<f64> {
        let mut d = self.leave_one_out();
        d.sort_by(f64::total_cmp);
        let n = d.len();
        ms.iter()
            .map(|m| {
                let k = (((1.0 - m) * n as f64).floor() as usize).min(n - 1);
                d[k]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};

    /// n draws of N(0, [[1, r], [r, 1]]) from seed `seed`.
    fn gaussian(n: usize, r: f64, seed: u64) -> Vec<[f64; 2]> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let a: f64 = StandardNormal.sample(&mut rng);
                let b: f64 = StandardNormal.sample(&mut rng);
                [a, r * a + (1.0 - r * r).sqrt() * b]
            })
            .collect()
    }

    /// The draws-based 90 % region holds 0.90 of an independent set of draws from the same
    /// Gaussian, within 4 Monte-Carlo standard errors: the level's own binomial error from
    /// n = 2000 draws, sqrt(0.9 * 0.1 / 2000) = 0.0067, and the check set's from 20000,
    /// 0.0021 (together 0.0070; 4 of them 0.028).
    #[test]
    fn the_draws_90_percent_region_holds_90_percent_of_independent_draws() {
        let kde = Kde2::scott(gaussian(2000, 0.7, 11)).unwrap();
        let levels = kde.hdr_levels(&[0.5, 0.9, 0.99]);
        assert!(levels[0] > levels[1] && levels[1] > levels[2]);
        let check = gaussian(20000, 0.7, 12);
        let dens = kde.on(&check);
        for (m, level) in [0.5_f64, 0.9].iter().zip(&levels) {
            let held = dens.iter().filter(|d| **d >= *level).count() as f64 / check.len() as f64;
            let se = (m * (1.0 - m) / 2000.0 + m * (1.0 - m) / 20000.0).sqrt();
            assert!(
                (held - m).abs() < 4.0 * se,
                "m = {m}: the region holds {held} of the independent draws (4 se = {})",
                4.0 * se
            );
        }
    }

    /// Scott's bandwidth is n^(-1/6) times the sample standard deviation on each axis.
    #[test]
    fn the_bandwidth_is_scotts_rule() {
        let pts = gaussian(1000, 0.3, 5);
        let kde = Kde2::scott(pts.clone()).unwrap();
        let n = pts.len() as f64;
        for axis in 0..2 {
            let mean = pts.iter().map(|p| p[axis]).sum::<f64>() / n;
            let var = pts.iter().map(|p| (p[axis] - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let want = var.sqrt() * n.powf(-1.0 / 6.0);
            assert!((kde.bandwidth()[axis] - want).abs() < 1e-12 * want);
        }
    }

    /// The estimate integrates to 1 (a tensor grid over +-8 sd) and matches a direct sum of
    /// normal densities at a point.
    #[test]
    fn the_estimate_is_a_density() {
        let kde = Kde2::scott(gaussian(200, -0.5, 3)).unwrap();
        let (m, h) = (161, 16.0 / 160.0);
        let grid: Vec<[f64; 2]> = (0..m * m)
            .map(|c| [-8.0 + (c % m) as f64 * h, -8.0 + (c / m) as f64 * h])
            .collect();
        let total: f64 = kde.on(&grid).iter().sum::<f64>() * h * h;
        assert!((total - 1.0).abs() < 1e-6, "integral {total}");
        let loo = kde.leave_one_out();
        let full = kde.density(kde.points[0]);
        let n = kde.len() as f64;
        let own = kde.constant() / n;
        assert!((full - (loo[0] * (n - 1.0) / n + own)).abs() < 1e-12);
    }
}
