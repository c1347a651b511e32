//! Held-out evaluation of K-class predictive probabilities (docs/maths.md section 5, "More
//! than two classes"): log-loss over the true class, the multiclass Brier score, accuracy of the most probable
//! class, and top-label calibration (the reliability of max_k p_k against "the top class is right").

use super::{calibration::reliability, Binning, Metrics, Reliability, CLIP};

/// Every metric for rows of class probabilities `p` and class indices `y`. AUC is `null`
/// (it is a two-class measure).
pub fn evaluate(
    p: &[Vec<f64>],
    y: &[f64],
    bins: usize,
    binning: Binning,
) -> (Metrics, Reliability) {
    let n = p.len() as f64;
    let log_loss = p
        .iter()
        .zip(y)
        .map(|(row, &y)| log_loss_term(row, y))
        .sum::<f64>()
        / n;
    let brier = p
        .iter()
        .zip(y)
        .map(|(row, &y)| brier_term(row, y))
        .sum::<f64>()
        / n;
    let (top, hit): (Vec<f64>, Vec<f64>) = p.iter().zip(y).map(|(row, &y)| top_hit(row, y)).unzip();
    let accuracy = hit.iter().sum::<f64>() / n;
    let rel = reliability(&top, &hit, bins, binning);
    let metrics = Metrics {
        log_loss,
        brier,
        accuracy,
        auc: None,
        ece: rel.ece,
        mce: rel.mce,
    };
    (metrics, rel)
}

/// One row's log-loss: -ln p(true class), clipped.
pub fn log_loss_term(row: &[f64], y: f64) -> f64 {
    -row[y as usize].clamp(CLIP, 1.0 - CLIP).ln()
}

/// One row's Brier score: sum_k (p_k - [y = k])^2.
pub fn brier_term(row: &[f64], y: f64) -> f64 {
    row.iter()
        .enumerate()
        .map(|(k, &pk)| (pk - f64::from(u8::from(k == y as usize))).powi(2))
        .sum::<f64>()
}

/// The top-label calibration point of a row: (max_k p_k, 1 when that class is right else 0).
pub fn top_hit(row: &[f64], y: f64) -> (f64, f64) {
    let k = argmax(row);
    (row[k], f64::from(u8::from(k == y as usize)))
}

/// The most probable class (the first on ties).
pub fn argmax(row: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in row.iter().enumerate() {
        if v > row[best] {
            best = k;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_three_class_case() {
        let p = vec![
            vec![0.7, 0.2, 0.1],
            vec![0.1, 0.3, 0.6],
            vec![0.5, 0.4, 0.1],
        ];
        let y = [0.0, 1.0, 1.0];
        let (m, _) = evaluate(&p, &y, 10, Binning::EqualWidth);
        let ll = -(0.7f64.ln() + 0.3f64.ln() + 0.4f64.ln()) / 3.0;
        assert!((m.log_loss - ll).abs() < 1e-15);
        // (0.09 + 0.04 + 0.01) + (0.01 + 0.49 + 0.36) + (0.25 + 0.36 + 0.01) = 1.62
        assert!((m.brier - 1.62 / 3.0).abs() < 1e-12);
        assert!((m.accuracy - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(m.auc, None);
    }
}
