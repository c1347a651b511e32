//! The class probabilities. Under a Dirichlet(alpha_1..alpha_K) prior (Beta(a, b) for K = 2)
//! the posterior predictive is p(y = c | y_1..y_N) = (alpha_c + N_c) / (sum_k alpha_k + N)
//! (docs/maths.md section 3); the plug-in baselines use the frequencies N_c / N.

/// ln p(y = c | data) under the Dirichlet posterior.
pub fn posterior_predictive(alphas: &[f64], counts: &[usize]) -> Vec<f64> {
    let total: f64 = alphas.iter().sum::<f64>() + counts.iter().sum::<usize>() as f64;
    alphas
        .iter()
        .zip(counts)
        .map(|(a, &n)| ((a + n as f64) / total).ln())
        .collect()
}

/// ln (N_c / N); a class without training rows gets probability 0 (ln = -inf is kept finite
/// by the log-sum-exp normalisation, which then gives it p = 0).
pub fn plugin(counts: &[usize]) -> Vec<f64> {
    let n = counts.iter().sum::<usize>() as f64;
    counts
        .iter()
        .map(|&c| if c == 0 { -1e300 } else { (c as f64 / n).ln() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_posterior_predictive_by_hand() {
        // pi = p(y = 1) ~ Beta(a = 2, b = 3), i.e. alpha = [b, a] = [3, 2]; 4 of 10 rows in
        // class 1: p(y = 1 | y) = (a + 4) / (a + b + 10) = 6/15, p(y = 0 | y) = 9/15.
        let lp = posterior_predictive(&[3.0, 2.0], &[6, 4]);
        assert!((lp[1].exp() - 6.0 / 15.0).abs() < 1e-15);
        assert!((lp[0].exp() - 9.0 / 15.0).abs() < 1e-15);
    }
}
