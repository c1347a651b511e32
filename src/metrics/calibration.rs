//! Reliability tables, ECE and MCE on B equal-width bins of the predicted probability
//! (bin b holds lower <= p < upper; the last bin also holds p = 1).

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    pub lower: f64,
    pub upper: f64,
    pub count: usize,
    /// Mean prediction in the bin; `null` for an empty bin.
    pub mean_predicted: Option<f64>,
    /// Fraction of positives in the bin; `null` for an empty bin.
    pub observed_frequency: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reliability {
    pub bins: Vec<Bin>,
    /// sum_b (n_b / N) |freq_b - meanp_b|
    pub ece: f64,
    /// max_b |freq_b - meanp_b| over non-empty bins
    pub mce: f64,
}

pub fn reliability(p: &[f64], y: &[f64], bins: usize) -> Reliability {
    let mut count = vec![0usize; bins];
    let mut sum_p = vec![0.0; bins];
    let mut sum_y = vec![0.0; bins];
    for (&p, &y) in p.iter().zip(y) {
        let b = ((p * bins as f64).floor() as usize).min(bins - 1);
        count[b] += 1;
        sum_p[b] += p;
        sum_y[b] += y;
    }
    let n = p.len() as f64;
    let mut ece = 0.0;
    let mut mce: f64 = 0.0;
    let bins: Vec<Bin> = (0..bins)
        .map(|b| {
            let (mean_predicted, observed_frequency) = if count[b] > 0 {
                let c = count[b] as f64;
                let gap = (sum_y[b] / c - sum_p[b] / c).abs();
                ece += c / n * gap;
                mce = mce.max(gap);
                (Some(sum_p[b] / c), Some(sum_y[b] / c))
            } else {
                (None, None)
            };
            Bin {
                lower: b as f64 / bins as f64,
                upper: (b + 1) as f64 / bins as f64,
                count: count[b],
                mean_predicted,
                observed_frequency,
            }
        })
        .collect();
    Reliability { bins, ece, mce }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_bins() {
        // two bins: [0, .5) holds .1, .2, .3 with labels 0, 0, 1; [.5, 1] holds .8, 1.0 with 1, 1
        let p = [0.1, 0.2, 0.3, 0.8, 1.0];
        let y = [0.0, 0.0, 1.0, 1.0, 1.0];
        let r = reliability(&p, &y, 2);
        assert_eq!(r.bins[0].count, 3);
        assert_eq!(r.bins[1].count, 2);
        let gap0 = (1.0f64 / 3.0 - 0.2).abs();
        let gap1 = (1.0f64 - 0.9).abs();
        assert!((r.ece - (0.6 * gap0 + 0.4 * gap1)).abs() < 1e-15);
        assert!((r.mce - gap0.max(gap1)).abs() < 1e-15);
        assert_eq!(r.bins[1].upper, 1.0);
    }

    #[test]
    fn empty_bins_are_null_and_perfect_calibration_is_zero() {
        let r = reliability(&[0.25, 0.25, 0.25, 0.25], &[1.0, 0.0, 0.0, 0.0], 10);
        assert_eq!(r.bins.iter().filter(|b| b.count > 0).count(), 1);
        assert!(r.bins[0].mean_predicted.is_none());
        assert!(r.ece.abs() < 1e-15);
    }
}
