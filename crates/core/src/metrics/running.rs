//! The held-out metrics accumulated row by row, for test rows that arrive in chunks: the same
//! per-row terms and per-bin sums as [`super::evaluate`] and [`super::multiclass::evaluate`],
//! added in the same row order, so the results are the in-memory ones. Calibration bins are the
//! equal-width ones (equal-mass bins sort every prediction). AUC ranks every prediction: it is
//! computed only when the caller keeps the predictions (`keep`), exactly as in memory.

use super::{auc, equal_width_bin, equal_width_edges, multiclass, BinSums, Metrics, Reliability};

#[derive(Debug, Clone)]
pub struct Running {
    rows: usize,
    log_loss: f64,
    brier: f64,
    hits: usize,
    bins: usize,
    sums: BinSums,
    /// p(y = 1) of every row so far, for AUC.
    kept: Option<Vec<f64>>,
}

impl Running {
    /// `bins` equal-width calibration bins; `keep`: keep binary predictions for AUC.
    pub fn new(bins: usize, keep: bool) -> Self {
        Running {
            rows: 0,
            log_loss: 0.0,
            brier: 0.0,
            hits: 0,
            bins,
            sums: BinSums::new(bins),
            kept: keep.then(Vec::new),
        }
    }

    /// One row of a binary predictive: p(y = 1) and the label (0/1).
    pub fn push_binary(&mut self, p: f64, y: f64) {
        self.rows += 1;
        self.log_loss += super::log_loss_term(p, y);
        self.brier += super::brier_term(p, y);
        self.hits += usize::from(super::hit(p, y));
        self.sums.add(equal_width_bin(p, self.bins), p, y);
        if let Some(kept) = &mut self.kept {
            kept.push(p);
        }
    }

    /// One row of a K-class predictive (K > 2) and its class index: top-label calibration.
    pub fn push_classes(&mut self, row: &[f64], y: f64) {
        self.rows += 1;
        self.log_loss += multiclass::log_loss_term(row, y);
        self.brier += multiclass::brier_term(row, y);
        let (top, hit) = multiclass::top_hit(row, y);
        self.hits += usize::from(hit == 1.0);
        self.sums.add(equal_width_bin(top, self.bins), top, hit);
    }

    /// The predictions kept for AUC, if any.
    pub fn kept(&self) -> Option<&[f64]> {
        self.kept.as_deref()
    }

    /// The metrics; `labels` are every test label in row order (needed for AUC, with kept
    /// predictions; AUC is `null` without them, as for more than two classes).
    pub fn finish(self, labels: Option<&[f64]>) -> (Metrics, Reliability) {
        let n = self.rows as f64;
        let rel = self.sums.finish(equal_width_edges(self.bins), self.rows);
        let auc = match (&self.kept, labels) {
            (Some(p), Some(y)) => auc(p, y),
            _ => None,
        };
        let metrics = Metrics {
            log_loss: self.log_loss / n,
            brier: self.brier / n,
            accuracy: self.hits as f64 / n,
            auc,
            ece: rel.ece,
            mce: rel.mce,
        };
        (metrics, rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{evaluate, Binning};

    #[test]
    fn running_metrics_equal_the_whole_vector_ones() {
        let p: Vec<f64> = (0..97)
            .map(|i| ((i * 37 % 101) as f64 + 0.5) / 101.0)
            .collect();
        let y: Vec<f64> = (0..97).map(|i| f64::from(u8::from(i % 3 != 1))).collect();
        let mut r = Running::new(7, true);
        for (&p, &y) in p.iter().zip(&y) {
            r.push_binary(p, y);
        }
        assert_eq!(r.finish(Some(&y)), evaluate(&p, &y, 7, Binning::EqualWidth));
        let rows: Vec<Vec<f64>> = p.iter().map(|&p| vec![p * 0.5, 1.0 - p, p * 0.5]).collect();
        let k: Vec<f64> = (0..97).map(|i| (i % 3) as f64).collect();
        let mut r = Running::new(5, false);
        for (row, &y) in rows.iter().zip(&k) {
            r.push_classes(row, y);
        }
        assert_eq!(
            r.finish(None),
            multiclass::evaluate(&rows, &k, 5, Binning::EqualWidth)
        );
    }
}
