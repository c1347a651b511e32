//! A predictive's record from its predictions: the held-out metrics, the reliability bins and,
//! with a seeded stream, the bootstrap interval of the ECE.

use crate::config::Evaluation;
use bayeslab_core::metrics::{self, running::Running};
use bayeslab_core::model::PredictiveKind;
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{PredictiveRecord, Scores};

/// Binary predictions get the binary metrics, more classes the multiclass ones (top-label
/// calibration). With a `stream`, the record also gets the 95 % bootstrap interval of its ECE:
/// for K classes the top-label ECE, a function of each row's (max_k p_k, top class right), so the
/// same bootstrap over rows.
pub fn evaluate(
    kind: PredictiveKind,
    p: &Scores,
    y: &[f64],
    eval: &Evaluation,
    stream: Option<&mut rng::Stream>,
) -> PredictiveRecord {
    let (bins, binning) = (eval.calibration_bins, eval.binning);
    let (metrics, reliability, ece_ci) = match p {
        Scores::Binary(p) => {
            let (metrics, reliability) = metrics::evaluate(p, y, bins, binning);
            let ece_ci =
                stream.map(|s| metrics::ece_bootstrap(p, y, bins, binning, eval.resamples, s));
            (metrics, reliability, ece_ci)
        }
        Scores::Classes(rows) => {
            let (metrics, reliability) = metrics::multiclass::evaluate(rows, y, bins, binning);
            let (top, hit): (Vec<f64>, Vec<f64>) = rows
                .iter()
                .zip(y)
                .map(|(r, &y)| metrics::multiclass::top_hit(r, y))
                .unzip();
            let ece_ci = stream
                .map(|s| metrics::ece_bootstrap(&top, &hit, bins, binning, eval.resamples, s));
            (metrics, reliability, ece_ci)
        }
    };
    PredictiveRecord {
        name: kind,
        metrics,
        calibration: reliability.bins,
        ece_ci: ece_ci.map(|b| b.interval),
        ece_debiased: ece_ci.map(|b| b.debiased),
    }
}

/// The record from running sums alone (predictions not kept): no AUC, no ECE interval.
pub fn running(kind: PredictiveKind, running: Running) -> PredictiveRecord {
    let (metrics, reliability) = running.finish(None);
    PredictiveRecord {
        name: kind,
        metrics,
        calibration: reliability.bins,
        ece_ci: None,
        ece_debiased: None,
    }
}
