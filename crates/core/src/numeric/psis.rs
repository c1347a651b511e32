//! Pareto-smoothed importance sampling (PSIS; Vehtari, Simpson, Gelman, Yao & Gabry 2024,
//! "Pareto smoothed importance sampling", JMLR 25(72), section 3; docs/maths.md §11.1).
//!
//! Given S log importance ratios, the largest M = ceil(min(S/5, 3 sqrt S)) are replaced by the
//! expected order statistics of a generalised Pareto distribution fitted to them (Zhang &
//! Stephens 2009, with the weakly informative prior on k that `loo` and ArviZ use), the
//! smoothed weights are truncated at the largest raw weight and normalised. The fitted shape k
//! says how far the estimate can be trusted ([`KClass`]). The steps follow ArviZ's `psislw`
//! and R's `loo::psis` line by line (relative efficiency 1), so their numbers agree to
//! rounding (tests/it/psis_reference.rs).

pub use super::special::log_sum_exp;

/// The generalised Pareto fit of `exceedances` (positive, sorted ascending, at least 5) by
/// the profile-posterior method of Zhang & Stephens (2009): the shape k (shrunk towards 1/2
/// with weight 10 / (n + 10), the prior of PSIS) and the scale sigma (from the unshrunk k).
pub fn gpd_fit(exceedances: &[f64]) -> (f64, f64) {
    let x = exceedances;
    let n = x.len();
    let nf = n as f64;
    let m = 30 + (nf.sqrt() as usize);
    let quartile = x[((nf / 4.0 + 0.5).floor() as usize).clamp(1, n) - 1];
    let largest = x[n - 1];
    // Candidate theta = -b on a grid that Zhang & Stephens derive from the sample quartile.
    let thetas: Vec<f64> = (1..=m)
        .map(|j| {
            let b = 1.0 - (m as f64 / (j as f64 - 0.5)).sqrt();
            b / (3.0 * quartile) + 1.0 / largest
        })
        .collect();
    // For each theta the profile k(theta) = mean ln(1 - theta x) and the profile log likelihood.
    let log_liks: Vec<f64> = thetas
        .iter()
        .map(|&b| {
            let k = x.iter().map(|&v| (-b * v).ln_1p()).sum::<f64>() / nf;
            nf * ((-b / k).ln() - k - 1.0)
        })
        .collect();
    // Posterior weights of the thetas, w_j = 1 / sum_i exp(L_i - L_j), computed stably; the
    // negligible ones (below 10 machine epsilons) are dropped as ArviZ does.
    let kept: Vec<(f64, f64)> = thetas
        .iter()
        .zip(&log_liks)
        .map(|(&b, &lj)| {
            (
                b,
                1.0 / log_liks.iter().map(|li| (li - lj).exp()).sum::<f64>(),
            )
        })
        .filter(|&(_, w)| w >= 10.0 * f64::EPSILON)
        .collect();
    let total: f64 = kept.iter().map(|(_, w)| w).sum();
    let theta: f64 = kept.iter().map(|(b, w)| b * w / total).sum();
    let k = x.iter().map(|&v| (-theta * v).ln_1p()).sum::<f64>() / nf;
    let sigma = -k / theta;
    let a = 10.0;
    (k * nf / (nf + a) + a * 0.5 / (nf + a), sigma)
}

/// The quantile function of the generalised Pareto distribution with shape k and scale sigma.
fn gpd_quantile(p: f64, k: f64, sigma: f64) -> f64 {
    if k.abs() < f64::EPSILON {
        -sigma * (-p).ln_1p()
    } else {
        sigma * (-k * (-p).ln_1p()).exp_m1() / k
    }
}

/// The number of ratios in the fitted tail, M = ceil(min(S/5, 3 sqrt S)) (PSIS, section 3.2,
/// with relative efficiency 1).
pub fn tail_length(draws: usize) -> usize {
    let s = draws as f64;
    (0.2 * s).min(3.0 * s.sqrt()).ceil() as usize
}

/// Normalised log weights (their exponentials sum to 1) and the Pareto k of their tail.
#[derive(Debug, Clone, PartialEq)]
pub struct Smoothed {
    pub log_weights: Vec<f64>,
    /// Infinite when the tail holds 4 ratios or fewer, or its fit failed: then the weights are
    /// the raw ones, unsmoothed.
    pub k: f64,
}

/// Pareto-smooth the log importance ratios `log_ratios` (any additive constant).
pub fn smooth(log_ratios: &[f64]) -> Smoothed {
    let s = log_ratios.len();
    let max = log_ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut x: Vec<f64> = log_ratios.iter().map(|l| l - max).collect();
    let mut order: Vec<usize> = (0..s).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let m = tail_length(s);
    let mut k = f64::INFINITY;
    if m < s {
        let cutoff = x[order[s - m - 1]].max(f64::MIN_POSITIVE.ln());
        let exp_cutoff = cutoff.exp();
        // The tail is every ratio strictly above the cutoff, in ascending order.
        let tail: Vec<usize> = order.iter().copied().filter(|&i| x[i] > cutoff).collect();
        let len = tail.len();
        if len > 4 {
            let exceed: Vec<f64> = tail.iter().map(|&i| x[i].exp() - exp_cutoff).collect();
            let (shape, sigma) = gpd_fit(&exceed);
            if shape.is_finite() && sigma > 0.0 {
                k = shape;
                for (j, &i) in tail.iter().enumerate() {
                    let p = (j as f64 + 0.5) / len as f64;
                    x[i] = (gpd_quantile(p, shape, sigma) + exp_cutoff).ln().min(0.0);
                }
            }
        }
    }
    let total = log_sum_exp(&x);
    x.iter_mut().for_each(|v| *v -= total);
    Smoothed { log_weights: x, k }
}

/// What a Pareto k says about an importance-sampling estimate from S draws (Vehtari et al.
/// 2024, section 3.2.4, as `loo` 2.6 and later report it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KClass {
    /// k <= min(1 - 1/log10 S, 0.7): the estimate and its Monte-Carlo error are reliable.
    Good,
    /// min(1 - 1/log10 S, 0.7) < k <= 0.7: not reliable with these S draws, more draws (S
    /// above 2,200) may make it so.
    MoreDraws,
    /// 0.7 < k <= 1: not reliable, and more draws do not help.
    Bad,
    /// k > 1 (or no fit): the mean itself may not exist.
    VeryBad,
}

/// The largest k still good for S draws: min(1 - 1/log10 S, 0.7).
pub fn good_k(draws: usize) -> f64 {
    (1.0 - 1.0 / (draws.max(2) as f64).log10()).min(0.7)
}

/// k above which an estimate is bad whatever the number of draws.
pub const BAD_K: f64 = 0.7;

impl KClass {
    pub const ALL: [KClass; 4] = [
        KClass::Good,
        KClass::MoreDraws,
        KClass::Bad,
        KClass::VeryBad,
    ];

    pub fn of(k: f64, draws: usize) -> KClass {
        if k <= good_k(draws) {
            KClass::Good
        } else if k <= BAD_K {
            KClass::MoreDraws
        } else if k <= 1.0 {
            KClass::Bad
        } else {
            KClass::VeryBad
        }
    }

    /// The word shown beside a k: "good", "more draws", "BAD", "VERY BAD".
    pub fn label(self) -> &'static str {
        match self {
            KClass::Good => "good",
            KClass::MoreDraws => "more draws",
            KClass::Bad => "BAD",
            KClass::VeryBad => "VERY BAD",
        }
    }
}

#[cfg(test)]
#[path = "psis_tests.rs"]
mod tests;
