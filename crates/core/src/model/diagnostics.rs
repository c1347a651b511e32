//! MCMC convergence diagnostics of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), as
//! ArviZ computes them (docs/maths.md §8, §14): the rank-normalised split R-hat (the larger of
//! the bulk and the folded one), bulk ESS and tail ESS. Ranks make them behave for heavy
//! tails; chains are split in half so that a drifting chain shows up as two disagreeing halves.

use statrs::distribution::{ContinuousCDF, Normal};

/// The average rank (from 1, ties sharing the mean of their ranks) of every draw among all
/// chains' draws pooled, keeping the chain structure.
fn pooled_ranks(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let mut all: Vec<(f64, usize, usize)> = chains
        .iter()
        .enumerate()
        .flat_map(|(c, v)| v.iter().enumerate().map(move |(i, &x)| (x, c, i)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<Vec<f64>> = chains.iter().map(|v| vec![0.0; v.len()]).collect();
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j + 1 < all.len() && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &(_, c, k) in &all[i..=j] {
            out[c][k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Rank-normalise the pooled draws: z = Phi^{-1}((r - 3/8) / (S + 1/4)) with average ranks for
/// ties, keeping the chain structure.
fn rank_normalise(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let s = chains.iter().map(Vec::len).sum::<usize>() as f64;
    let normal = Normal::new(0.0, 1.0).expect("the standard normal exists");
    pooled_ranks(chains)
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|r| normal.inverse_cdf((r - 0.375) / (s + 0.25)))
                .collect()
        })
        .collect()
}

/// The rank plot's histograms (ArviZ's `plot_rank`, Vehtari et al. 2021 §4.2): for each chain,
/// how many of its draws have their pooled rank in each of `bins` equal bins of 1..=S, S the
/// draws of every chain. Chains that have mixed give flat histograms, each bin near
/// n / bins for n draws per chain; a chain stuck apart piles up at one end.
pub fn rank_counts(chains: &[Vec<f64>], bins: usize) -> Vec<Vec<usize>> {
    let s = chains.iter().map(Vec::len).sum::<usize>() as f64;
    let bins = bins.max(1);
    pooled_ranks(chains)
        .into_iter()
        .map(|c| {
            let mut counts = vec![0; bins];
            for r in c {
                // rank r in 1..=S falls in bin floor((r - 1) bins / S)
                let b = (((r - 1.0) * bins as f64 / s) as usize).min(bins - 1);
                counts[b] += 1;
            }
            counts
        })
        .collect()
}

/// Each chain split into its first and second half (an odd middle draw is dropped).
fn split(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    chains
        .iter()
        .flat_map(|v| {
            let h = v.len() / 2;
            [v[..h].to_vec(), v[v.len() - h..].to_vec()]
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn var(v: &[f64]) -> f64 {
    let m = mean(v);
    v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)
}

/// R-hat of chains as they are: sqrt(var+ / W) with W the mean within-chain variance and
/// var+ = (n - 1)/n W + B/n (BDA3 11.4).
fn rhat_of(chains: &[Vec<f64>]) -> f64 {
    let n = chains[0].len() as f64;
    let w = chains.iter().map(|c| var(c)).sum::<f64>() / chains.len() as f64;
    let means: Vec<f64> = chains.iter().map(|c| mean(c)).collect();
    let b = n * var(&means);
    (((n - 1.0) / n * w + b / n) / w).sqrt()
}

/// Whether there is anything to diagnose: every chain at least 4 draws, all finite.
fn valid(chains: &[Vec<f64>]) -> bool {
    !chains.is_empty()
        && chains
            .iter()
            .all(|c| c.len() >= 4 && c.iter().all(|v| v.is_finite()))
}

/// The rank-normalised split R-hat of Vehtari et al. (2021), as ArviZ's `summary` (and R's
/// `posterior`) computes it: the larger of the bulk R-hat (split chains, rank-normalised) and
/// the tail R-hat (the same of |x - median|, the median over every draw, folded before the
/// split). NaN with fewer than two chains or four draws, or when the draws do not vary.
pub fn split_rhat(chains: &[Vec<f64>]) -> f64 {
    if chains.len() < 2 || !valid(chains) {
        return f64::NAN;
    }
    let bulk = rhat_of(&rank_normalise(&split(chains)));
    let mut pooled: Vec<f64> = chains.iter().flatten().copied().collect();
    pooled.sort_by(f64::total_cmp);
    let median = quantile_sorted(&pooled, 0.5);
    let folded: Vec<Vec<f64>> = chains
        .iter()
        .map(|c| c.iter().map(|x| (x - median).abs()).collect())
        .collect();
    let tail = rhat_of(&rank_normalise(&split(&folded)));
    // NaN (draws that do not vary) propagates, as numpy's max does.
    if bulk.is_nan() || tail.is_nan() {
        f64::NAN
    } else {
        bulk.max(tail)
    }
}

/// Bulk effective sample size: [`ess`] of the split, rank-normalised chains.
pub fn bulk_ess(chains: &[Vec<f64>]) -> f64 {
    if !valid(chains) {
        return f64::NAN;
    }
    ess(&rank_normalise(&split(chains)))
}

/// Tail effective sample size: the smaller ESS of the indicators I(x <= q) at the 5 % and 95 %
/// quantiles (type 7, over every draw), on split chains.
pub fn tail_ess(chains: &[Vec<f64>]) -> f64 {
    if !valid(chains) {
        return f64::NAN;
    }
    let mut pooled: Vec<f64> = chains.iter().flatten().copied().collect();
    pooled.sort_by(f64::total_cmp);
    let at = |p: f64| {
        let q = quantile_sorted(&pooled, p);
        let below: Vec<Vec<f64>> = chains
            .iter()
            .map(|c| c.iter().map(|&x| if x <= q { 1.0 } else { 0.0 }).collect())
            .collect();
        ess(&split(&below))
    };
    at(0.05).min(at(0.95))
}

/// The type-7 quantile (R's default, numpy's `linear`) of sorted values.
fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let (lo, frac) = (h.floor() as usize, h - h.floor());
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + frac * (sorted[hi] - sorted[lo])
}

/// The autocovariance of `c` at lag t, divisor n (the biased estimate ArviZ's FFT computes).
fn autocov(c: &[f64], m: f64, t: usize) -> f64 {
    let n = c.len();
    (0..n - t).map(|i| (c[i] - m) * (c[i + t] - m)).sum::<f64>() / n as f64
}

/// The effective sample size of M chains of n draws (Vehtari et al. 2021, eqs. 10-11, as ArviZ's
/// `_ess` computes it): rho_t = 1 - (W - mean_c acov_c(t)) / var+, summed over Geyer's initial
/// positive sequence of pairs made monotone, tau = -1 + 2 sum rho_t, ESS = M n / tau with tau
/// at least 1 / log10(M n).
fn ess(chains: &[Vec<f64>]) -> f64 {
    let (m, n) = (chains.len(), chains[0].len());
    let total = (m * n) as f64;
    let (lo, hi) = chains
        .iter()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if hi - lo < 1e-15 {
        return total;
    }
    let means: Vec<f64> = chains.iter().map(|c| mean(c)).collect();
    let acov = |t: usize| {
        chains
            .iter()
            .zip(&means)
            .map(|(c, &mu)| autocov(c, mu, t))
            .sum::<f64>()
            / m as f64
    };
    let nf = n as f64;
    let mean_var = acov(0) * nf / (nf - 1.0);
    let mut var_plus = mean_var * (nf - 1.0) / nf;
    if m > 1 {
        var_plus += var(&means);
    }
    let rho = |t: usize| 1.0 - (mean_var - acov(t)) / var_plus;
    let mut r = vec![0.0; n];
    r[0] = 1.0;
    let (mut even, mut odd) = (1.0, rho(1));
    r[1] = odd;
    let mut t = 1;
    while t + 3 < n && even + odd > 0.0 {
        even = rho(t + 1);
        odd = rho(t + 2);
        if even + odd >= 0.0 {
            r[t + 1] = even;
            r[t + 2] = odd;
        }
        t += 2;
    }
    // As signed numbers: without a single pair past lag 1, max_t is -1 (ArviZ's indexing).
    let max_t = t as isize - 2;
    let next = (max_t + 1) as usize;
    if even > 0.0 {
        r[next] = even;
    }
    let mut t = 1;
    while t as isize + 2 <= max_t {
        if r[t + 1] + r[t + 2] > r[t - 1] + r[t] {
            r[t + 1] = (r[t - 1] + r[t]) / 2.0;
            r[t + 2] = r[t + 1];
        }
        t += 2;
    }
    let tau = -1.0 + 2.0 * r[..next].iter().sum::<f64>() + r[next];
    let ess = total / tau.max(1.0 / total.log10());
    if r.iter().any(|v| v.is_nan()) {
        f64::NAN
    } else {
        ess
    }
}

/// Every weight's R-hat, bulk ESS and tail ESS.
#[derive(Debug, Clone, PartialEq)]
pub struct PerWeight {
    pub rhat: Vec<f64>,
    pub ess_bulk: Vec<f64>,
    pub ess_tail: Vec<f64>,
}

impl PerWeight {
    /// The diagnostics of every weight of `chains` (each a list of draws, each draw a weight
    /// vector).
    pub fn of(chains: &[Vec<Vec<f64>>]) -> Self {
        let d = chains.first().and_then(|c| c.first()).map_or(0, Vec::len);
        let (mut rhat, mut ess_bulk, mut ess_tail) = (Vec::new(), Vec::new(), Vec::new());
        for j in 0..d {
            let cj: Vec<Vec<f64>> = chains
                .iter()
                .map(|c| c.iter().map(|w| w[j]).collect())
                .collect();
            rhat.push(split_rhat(&cj));
            ess_bulk.push(bulk_ess(&cj));
            ess_tail.push(tail_ess(&cj));
        }
        PerWeight {
            rhat,
            ess_bulk,
            ess_tail,
        }
    }

    /// The largest finite R-hat, at least 1.
    pub fn rhat_max(&self) -> f64 {
        self.rhat
            .iter()
            .filter(|r| r.is_finite())
            .fold(1.0, |a, &b| a.max(b))
    }

    /// The smallest finite value of `ess`, if any.
    pub fn min(ess: &[f64]) -> Option<f64> {
        ess.iter()
            .filter(|e| e.is_finite())
            .copied()
            .reduce(f64::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::rng::stream;
    use rand_distr::{Distribution, StandardNormal};

    fn ar1(phi: f64, chains: usize, n: usize, shift: &dyn Fn(usize) -> f64) -> Vec<Vec<f64>> {
        (0..chains)
            .map(|c| {
                let mut rng = stream(9, &format!("ar{c}"));
                let mut x = 0.0;
                (0..n)
                    .map(|_| {
                        let e: f64 = StandardNormal.sample(&mut rng);
                        x = phi * x + (1.0 - phi * phi).sqrt() * e;
                        x + shift(c)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn rank_counts_are_flat_when_mixed_and_piled_up_when_a_chain_is_apart() {
        // Two chains interleaved exactly: ranks 1, 3, 5, .. and 2, 4, 6, ..; four bins of 2.
        let mixed = vec![vec![1.0, 3.0, 5.0, 7.0], vec![2.0, 4.0, 6.0, 8.0]];
        assert_eq!(rank_counts(&mixed, 4), [[1, 1, 1, 1], [1, 1, 1, 1]]);
        // A chain entirely above the other takes the top half of the ranks.
        let apart = vec![vec![10.0, 11.0, 12.0, 13.0], vec![0.0, 1.0, 2.0, 3.0]];
        assert_eq!(rank_counts(&apart, 4), [[0, 0, 2, 2], [2, 2, 0, 0]]);
        // Ties share their mean rank: all equal draws sit in the middle bin.
        assert_eq!(
            rank_counts(&[vec![1.0; 3], vec![1.0; 3]], 3),
            [[0, 3, 0], [0, 3, 0]]
        );
        // AR(1) chains of one stationary law: every bin within 4 sd of its binomial mean.
        let chains = ar1(0.3, 4, 2000, &|_| 0.0);
        for c in rank_counts(&chains, 20) {
            assert_eq!(c.iter().sum::<usize>(), 2000);
            for n in c {
                assert!((n as f64 - 100.0).abs() < 4.0 * 100f64.sqrt() * 1.6, "{n}");
            }
        }
    }

    #[test]
    fn independent_draws_have_rhat_one_and_full_ess() {
        let c = ar1(0.0, 4, 1000, &|_| 0.0);
        assert!((split_rhat(&c) - 1.0).abs() < 0.01);
        let ess = bulk_ess(&c);
        assert!((ess / 4000.0 - 1.0).abs() < 0.15, "{ess}");
    }

    #[test]
    fn autocorrelation_lowers_ess_as_theory_says() {
        // For AR(1) with coefficient phi, tau = (1 + phi) / (1 - phi): 19 at phi = 0.9.
        let c = ar1(0.9, 4, 5000, &|_| 0.0);
        let ess = bulk_ess(&c);
        let want = 20_000.0 / 19.0;
        assert!((ess / want - 1.0).abs() < 0.3, "{ess} vs {want}");
    }

    #[test]
    fn chains_that_disagree_have_a_large_rhat() {
        let c = ar1(0.5, 4, 500, &|c| c as f64);
        assert!(split_rhat(&c) > 1.5);
    }
}
