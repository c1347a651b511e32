//! One chain of the sampler: the sweep of each model and the truncated-normal draw that
//! Albert & Chib's sweep needs.

use std::sync::atomic::{AtomicBool, Ordering};

use faer::Mat;
use rand::RngExt;
use rand_distr::{Distribution, Exp1, StandardNormal};

use super::feed::Feed;
use super::predictor::Draws;
use crate::error::NumericError;
use crate::numeric::glm;
use crate::numeric::linalg::{mat_t_vec, mat_vec_sequential, Cholesky};
use crate::numeric::polya_gamma::PolyaGamma;
use crate::numeric::rng::{stream, Stream};
use crate::optim::Schedule;

/// The sampled model: the Pólya-Gamma sweep needs X^T kappa (and the PG sampler's table), the
/// Albert-Chib sweep the one Cholesky factor of X^T X + lambda I.
pub(super) enum Sweep {
    Logistic { xt_kappa: Vec<f64>, pg: PolyaGamma },
    Probit { factor: Cholesky },
}

/// What one chain needs; shared read-only between the chain threads.
pub(super) struct Problem<'a> {
    /// The design, owned so that its columns are contiguous (probit: already divided by beta).
    pub(super) x: &'a Mat<f64>,
    pub(super) y: &'a [f64],
    pub(super) sweep: Sweep,
    pub(super) precision: f64,
    pub(super) schedule: Schedule,
    pub(super) seed: u64,
    pub(super) id: &'a str,
    pub(super) cancel: Option<&'a AtomicBool>,
}

impl Problem<'_> {
    /// One step of the chain from `w`.
    pub(super) fn step(
        &self,
        w: &[f64],
        rng: &mut Stream,
    ) -> std::result::Result<Vec<f64>, NumericError> {
        // The chains are the parallel unit: everything here stays on the chain's own core.
        let mut a = vec![0.0; self.x.nrows()];
        mat_vec_sequential(self.x, w, &mut a);
        match &self.sweep {
            Sweep::Logistic { xt_kappa, pg } => {
                let omega: Vec<f64> = a.iter().map(|&a| pg.sample(a, rng)).collect();
                let mut h = glm::weighted_gram_sequential(self.x.as_ref(), &omega);
                for i in 0..h.nrows() {
                    h[(i, i)] += self.precision;
                }
                let what = format!("precision of w | omega in {}", self.id);
                let factor = Cholesky::factor(h.as_ref(), &what)?;
                Ok(factor.sample_inverse(&factor.solve(xt_kappa), rng))
            }
            Sweep::Probit { factor } => {
                let z: Vec<f64> = a
                    .iter()
                    .zip(self.y)
                    .map(|(&m, &y)| {
                        if y == 1.0 {
                            positive_normal(m, rng)
                        } else {
                            -positive_normal(-m, rng)
                        }
                    })
                    .collect();
                Ok(factor.sample_inverse(&factor.solve(&mat_t_vec(self.x.as_ref(), &z)), rng))
            }
        }
    }

    /// One chain's kept draws (draws x D); `None` when cancelled. Every sweep goes to `feed`.
    pub(super) fn chain(
        &self,
        c: usize,
        feed: &mut Feed<'_>,
    ) -> std::result::Result<Option<Draws>, NumericError> {
        let mut rng = stream(self.seed, &format!("{}/gibbs/chain{c}", self.id));
        // Over-dispersed starts, so that R-hat can see chains that have not met yet.
        let mut w: Vec<f64> = (0..self.x.ncols())
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                2.0 * z
            })
            .collect();
        let mut kept = Vec::with_capacity(self.schedule.draws);
        for sweep in 1..=self.schedule.sweeps() {
            if self.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            w = self.step(&w, &mut rng)?;
            feed.sweep(sweep, &w);
            if self.schedule.keeps(sweep) {
                kept.push(w.clone());
            }
        }
        feed.flush();
        Ok(Some(kept))
    }
}

/// One draw from N(m, 1) truncated to (0, inf): plain rejection while that keeps at least a
/// third of the mass (m > -0.5), else Robert's (1995) exponential proposal with the optimal
/// rate alpha = (a + sqrt(a^2 + 4)) / 2 for the standardised bound a = -m.
pub(super) fn positive_normal(m: f64, rng: &mut Stream) -> f64 {
    if m > -0.5 {
        loop {
            let z: f64 = StandardNormal.sample(rng);
            if m + z > 0.0 {
                return m + z;
            }
        }
    }
    let a = -m;
    let alpha = 0.5 * (a + (a * a + 4.0).sqrt());
    loop {
        let e: f64 = Exp1.sample(rng);
        let z = a + e / alpha;
        if rng.random::<f64>() <= (-0.5 * (z - alpha) * (z - alpha)).exp() {
            return m + z;
        }
    }
}
