//! Held-out evaluation of binary predictive probabilities (docs/maths.md section 5).

mod calibration;
pub mod loo;
pub mod multiclass;
pub mod running;

pub use calibration::{
    ece_bootstrap, equal_width_bin, equal_width_edges, percentile, reliability, Bin, BinSums,
    Binning, EceBootstrap, Reliability, Resampler,
};

use serde::Serialize;

/// Probabilities are clipped to [CLIP, 1 - CLIP] inside the log-loss, so one confident
/// mistake costs at most -ln(1e-15) = 34.5 instead of infinity.
pub const CLIP: f64 = 1e-15;

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Metrics {
    pub log_loss: f64,
    pub brier: f64,
    pub accuracy: f64,
    /// ROC AUC; `null` when the test set holds only one class.
    pub auc: Option<f64>,
    pub ece: f64,
    pub mce: f64,
}

/// Every metric for predictions `p` of labels `y` (0/1) with `bins` calibration bins.
pub fn evaluate(p: &[f64], y: &[f64], bins: usize, binning: Binning) -> (Metrics, Reliability) {
    let rel = reliability(p, y, bins, binning);
    let metrics = Metrics {
        log_loss: log_loss(p, y),
        brier: brier(p, y),
        accuracy: accuracy(p, y),
        auc: auc(p, y),
        ece: rel.ece,
        mce: rel.mce,
    };
    (metrics, rel)
}

/// One row's log-loss, p clipped to [CLIP, 1 - CLIP].
pub fn log_loss_term(p: f64, y: f64) -> f64 {
    let p = p.clamp(CLIP, 1.0 - CLIP);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// One row's Brier score.
pub fn brier_term(p: f64, y: f64) -> f64 {
    (p - y).powi(2)
}

/// Whether the prediction at threshold 0.5 equals the label (p = 0.5 predicts 1).
pub fn hit(p: f64, y: f64) -> bool {
    (p >= 0.5) == (y == 1.0)
}

pub fn log_loss(p: &[f64], y: &[f64]) -> f64 {
    let total: f64 = p.iter().zip(y).map(|(&p, &y)| log_loss_term(p, y)).sum();
    total / p.len() as f64
}

pub fn brier(p: &[f64], y: &[f64]) -> f64 {
    p.iter()
        .zip(y)
        .map(|(&p, &y)| brier_term(p, y))
        .sum::<f64>()
        / p.len() as f64
}

/// Fraction of rows where the prediction at threshold 0.5 equals the label (p = 0.5 predicts 1).
pub fn accuracy(p: &[f64], y: &[f64]) -> f64 {
    let hits = p.iter().zip(y).filter(|(&p, &y)| hit(p, y)).count();
    hits as f64 / p.len() as f64
}

/// ROC AUC as the Mann-Whitney statistic: the probability that a random positive scores
/// above a random negative, ties counted half (average ranks).
pub fn auc(p: &[f64], y: &[f64]) -> Option<f64> {
    let n1 = y.iter().filter(|&&y| y == 1.0).count();
    let n0 = y.len() - n1;
    if n1 == 0 || n0 == 0 {
        return None;
    }
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut rank_sum_pos = 0.0;
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && p[order[j + 1]] == p[order[i]] {
            j += 1;
        }
        let avg_rank = (i + j) as f64 / 2.0 + 1.0;
        rank_sum_pos += order[i..=j].iter().filter(|&&k| y[k] == 1.0).count() as f64 * avg_rank;
        i = j + 1;
    }
    let (n1, n0) = (n1 as f64, n0 as f64);
    Some((rank_sum_pos - n1 * (n1 + 1.0) / 2.0) / (n1 * n0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_case() {
        let p = [0.9, 0.2, 0.6, 0.4];
        let y = [1.0, 0.0, 0.0, 1.0];
        // log-loss = -(ln .9 + ln .8 + ln .4 + ln .4) / 4
        let want = -(0.9f64.ln() + 0.8f64.ln() + 0.4f64.ln() + 0.4f64.ln()) / 4.0;
        assert!((log_loss(&p, &y) - want).abs() < 1e-15);
        // Brier = (.01 + .04 + .36 + .36) / 4 = 0.1925
        assert!((brier(&p, &y) - 0.1925).abs() < 1e-15);
        assert_eq!(accuracy(&p, &y), 0.5);
        // positive scores {.9, .4}, negative {.2, .6}: pairs won: (.9>.2), (.9>.6), (.4>.2) = 3 of 4
        assert_eq!(auc(&p, &y), Some(0.75));
    }

    #[test]
    fn auc_counts_ties_half_and_needs_both_classes() {
        assert_eq!(auc(&[0.5, 0.5], &[1.0, 0.0]), Some(0.5));
        assert_eq!(
            auc(&[0.1, 0.3, 0.3, 0.8], &[0.0, 1.0, 0.0, 1.0]),
            Some(0.875)
        );
        assert_eq!(auc(&[0.2, 0.4], &[1.0, 1.0]), None);
    }

    #[test]
    fn log_loss_is_clipped() {
        let ll = log_loss(&[0.0], &[1.0]);
        assert!((ll + CLIP.ln()).abs() < 1e-12);
    }
}
