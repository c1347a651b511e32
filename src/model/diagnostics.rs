//! MCMC convergence diagnostics of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021):
//! split-R-hat and bulk effective sample size, both on rank-normalised draws, so they behave
//! for heavy tails too. Chains are split in half so that a drifting chain shows up as two
//! disagreeing halves.

use statrs::distribution::{ContinuousCDF, Normal};

/// Rank-normalise the pooled draws: z = Phi^{-1}((r - 3/8) / (S + 1/4)) with average ranks for
/// ties, keeping the chain structure.
fn rank_normalise(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let mut all: Vec<(f64, usize, usize)> = chains
        .iter()
        .enumerate()
        .flat_map(|(c, v)| v.iter().enumerate().map(move |(i, &x)| (x, c, i)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let s = all.len() as f64;
    let normal = Normal::new(0.0, 1.0).expect("the standard normal exists");
    let mut out: Vec<Vec<f64>> = chains.iter().map(|v| vec![0.0; v.len()]).collect();
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j + 1 < all.len() && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        let z = normal.inverse_cdf((rank - 0.375) / (s + 0.25));
        for &(_, c, k) in &all[i..=j] {
            out[c][k] = z;
        }
        i = j + 1;
    }
    out
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

/// (W, var+): mean within-chain variance and the pooled variance estimate (BDA3 11.3).
fn variances(chains: &[Vec<f64>]) -> (f64, f64) {
    let n = chains[0].len() as f64;
    let w = chains.iter().map(|c| var(c)).sum::<f64>() / chains.len() as f64;
    let means: Vec<f64> = chains.iter().map(|c| mean(c)).collect();
    let b = n * var(&means);
    (w, (n - 1.0) / n * w + b / n)
}

/// Split-R-hat of one scalar over chains of equal length (at least 4 draws each).
pub fn split_rhat(chains: &[Vec<f64>]) -> f64 {
    let z = split(&rank_normalise(chains));
    let (w, var_plus) = variances(&z);
    if w <= 0.0 {
        return f64::NAN;
    }
    (var_plus / w).sqrt()
}

/// Bulk effective sample size: M n / tau with tau = -1 + 2 sum_t rho_t, the autocorrelations
/// estimated by the variogram (BDA3 11.5) on split, rank-normalised chains and summed over
/// Geyer's initial positive, monotone sequence of pairs.
pub fn bulk_ess(chains: &[Vec<f64>]) -> f64 {
    let z = split(&rank_normalise(chains));
    let (m, n) = (z.len(), z[0].len());
    let (_, var_plus) = variances(&z);
    if var_plus <= 0.0 {
        return f64::NAN;
    }
    let rho = |t: usize| {
        let v: f64 = z
            .iter()
            .map(|c| (t..n).map(|i| (c[i] - c[i - t]).powi(2)).sum::<f64>())
            .sum::<f64>()
            / (m * (n - t)) as f64;
        1.0 - v / (2.0 * var_plus)
    };
    let mut tau = -1.0;
    let mut previous = f64::INFINITY;
    let mut t = 0;
    while t + 1 < n {
        let pair = rho(t) + rho(t + 1);
        if pair <= 0.0 {
            break;
        }
        let pair = pair.min(previous);
        tau += 2.0 * pair;
        previous = pair;
        t += 2;
    }
    (m * n) as f64 / tau.max(1.0 / ((m * n) as f64).ln().max(1.0))
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
