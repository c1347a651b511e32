//! Posterior predictives p(y = 1 | x) for a binary model with a Gaussian posterior over
//! the weights (docs/maths.md 1.4). All of them only need the activation's mean and variance.

use rand::Rng;

use crate::numeric::rng::Stream;
use rand_distr::{Distribution, StandardNormal};

use super::gaussian::Activations;
use crate::numeric::quadrature::GaussHermite;
use crate::numeric::special::{norm_cdf, sigmoid};

pub use crate::catalog::PredictiveKind;

/// Settings of the sampling and quadrature predictives.
#[derive(Debug, Clone, Copy)]
pub struct PredictiveSettings {
    pub mc_samples: usize,
    pub quadrature_nodes: usize,
    /// The position of the first row predicted in the whole test set (a streamed chunk starts
    /// past 0): the Monte-Carlo predictive seeds its row blocks by position in the test set,
    /// so a chunk's predictions equal the in-memory ones.
    pub first_row: usize,
}

/// p(y = 1 | x_n) for every row under the predictive `kind`. Only `Mc` draws from `rng`.
pub fn predict(
    kind: PredictiveKind,
    act: &Activations,
    settings: PredictiveSettings,
    rng: &mut Stream,
) -> Vec<f64> {
    let rows = act.mean.iter().zip(&act.var);
    match kind {
        PredictiveKind::Plugin => act.mean.iter().map(|&m| sigmoid(m)).collect(),
        // The base seed is read without advancing the stream, so every chunk of a streamed
        // test set uses the same one.
        PredictiveKind::Mc => mc_rows(
            &act.mean,
            &act.var,
            settings.mc_samples,
            rng.clone().next_u64(),
            settings.first_row,
        ),
        PredictiveKind::Probit => rows.map(|(&m, &v)| probit_approx(m, v)).collect(),
        PredictiveKind::Mackay => rows.map(|(&m, &v)| mackay(m, v)).collect(),
        PredictiveKind::Exact => {
            let gh = GaussHermite::new(settings.quadrature_nodes);
            rows.map(|(&m, &v)| logistic_normal(m, v, &gh)).collect()
        }
    }
}

/// Rows per block of the Monte-Carlo predictive; each block has its own seeded stream.
const MC_BLOCK: usize = 256;

/// The Monte-Carlo predictive of every row: (1/S) sum_s sigma(mu_n + s_n z_s) with the 1-D
/// activation sampled, not the weights (O(S) per row, not O(S D); docs/maths.md 1.4). The rows are
/// cut into blocks of [`MC_BLOCK`] by their position in the whole test set (`first_row` is the
/// position of `mean[0]`); block b draws its S standard normals z_s from
/// `substream(base, b)` and shares them between its rows (common random numbers: each row's
/// estimate is an ordinary S-sample Monte-Carlo estimate, and rows of a block err together, as
/// rows do when whole weight vectors are sampled). Blocks run in parallel; the result does not
/// depend on the number of threads.
pub fn mc_rows(mean: &[f64], var: &[f64], samples: usize, base: u64, first_row: usize) -> Vec<f64> {
    use rayon::prelude::*;
    // The pieces of these rows that fall in one block of the whole test set.
    let n = mean.len();
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < n {
        let block = (first_row + start) / MC_BLOCK;
        let end = ((block + 1) * MC_BLOCK - first_row).min(n);
        pieces.push((block, start, end));
        start = end;
    }
    let parts: Vec<Vec<f64>> = pieces
        .par_iter()
        .map(|&(block, start, end)| {
            let mut rng = crate::numeric::rng::substream(base, block as u64);
            let z: Vec<f64> = (0..samples)
                .map(|_| StandardNormal.sample(&mut rng))
                .collect();
            let mut out = vec![0.0; end - start];
            mc_block(&mean[start..end], &var[start..end], &z, &mut out);
            out
        })
        .collect();
    parts.concat()
}

/// [`mc_block_with`] on the widest vector instructions the CPU has.
fn mc_block(mean: &[f64], var: &[f64], z: &[f64], out: &mut [f64]) {
    crate::unchecked::widest(McBlock { mean, var, z, out })
}

/// The arguments of [`mc_block_with`], for [`crate::unchecked::widest`].
struct McBlock<'a> {
    mean: &'a [f64],
    var: &'a [f64],
    z: &'a [f64],
    out: &'a mut [f64],
}

impl crate::unchecked::Kernel for McBlock<'_> {
    type Output = ();

    #[inline(always)]
    fn run<const FMA: bool>(self) {
        mc_block_with::<FMA>(self.mean, self.var, self.z, self.out)
    }
}

/// The mean of sigma(m + s z) over `z` for every row, with eight running sums per row so the
/// loop vectorises (the order of the additions is fixed, so the result is deterministic).
#[inline(always)]
fn mc_block_with<const FMA: bool>(mean: &[f64], var: &[f64], z: &[f64], out: &mut [f64]) {
    use crate::numeric::special::sigmoid_poly;
    const LANES: usize = 8;
    let rest = &z[z.len() - z.len() % LANES..];
    for ((o, &m), &v) in out.iter_mut().zip(mean).zip(var) {
        let sd = v.max(0.0).sqrt();
        let mut acc = [0.0; LANES];
        for c in z.chunks_exact(LANES) {
            for k in 0..LANES {
                acc[k] += sigmoid_poly::<FMA>(m + sd * c[k]);
            }
        }
        let mut total = acc.iter().sum::<f64>();
        for &zs in rest {
            total += sigmoid_poly::<FMA>(m + sd * zs);
        }
        *o = total / z.len() as f64;
    }
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
    // (found by tests/it/properties.rs), and a probability must not.
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
#[path = "predictive_tests.rs"]
mod tests;
