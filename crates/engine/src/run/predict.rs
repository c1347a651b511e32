//! The prediction pass: every predictive of the given runs on each chunk of test rows, its
//! held-out metrics accumulated as the rows go by, and its rows handed to the predictions sink
//! (the table in memory, or predictions.csv on disk for a streamed source).
//!
//! When the predictions are kept (always in memory; for a streamed binary target when they fit
//! beside the working set) the metrics are the whole-vector ones, with AUC, any binning and the
//! bootstrap interval of the ECE; otherwise the running sums give the same log-loss, Brier,
//! accuracy and equal-width calibration without AUC.

use super::event::{Event, ScoringStep};
use super::metrics::evaluate;
use super::monitor::Events;
use super::sink::Sink;
use super::source::Source;
use crate::config::Plan;
use bayeslab_core::error::Result;
use bayeslab_core::metrics::running::Running;
use bayeslab_core::model::method::{Fitted, Probabilities};
use bayeslab_core::model::predictive::PredictiveSettings;
use bayeslab_core::model::PredictiveKind;
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{PredictionColumn, Rows, RunRecord, Scores};
use bayeslab_data::{DesignRows, PassStats};

/// One predictive of one run during the pass.
struct Column {
    run: usize,
    kind: PredictiveKind,
    settings: PredictiveSettings,
    stream: rng::Stream,
    running: Running,
    /// Every row's predictions, when kept.
    kept: Option<Scores>,
    mcse: Vec<f64>,
    non_finite: bool,
}

/// Predict the test rows of `source` with the fitted runs `which` (indices into `runs` and
/// `fitted`), fill in their predictives, and hand their rows to `sink`. `keep` says whether
/// every prediction is kept for the whole-vector metrics.
#[allow(clippy::too_many_arguments)]
pub fn predict(
    plan: &Plan,
    source: Source<'_>,
    runs: &mut [RunRecord],
    fitted: &[Option<Fitted>],
    which: &[usize],
    keep: bool,
    sink: &mut Sink,
    events: Events<'_>,
) -> Result<Option<PassStats>> {
    let k = source.classes();
    let mut columns = prediction_columns(plan, fitted, which, keep, k);
    let mut labels: Vec<f64> = Vec::new();
    let mut data_rows: Vec<usize> = Vec::new();
    let mut row = 0usize;
    let key = source.key();
    let in_memory = source.whole().is_some();
    let stats = source.each_test_rows(Some(events), &mut |design| {
        let (y, places) = (design.y, design.source_rows);
        let mut chunk: Vec<PredictionColumn> = Vec::with_capacity(columns.len());
        for c in columns.iter_mut() {
            let id = &plan.methods[c.run].id;
            if in_memory {
                events.send(Event::Scoring {
                    run: id.clone(),
                    predictive: c.kind,
                    rows: y.len(),
                    step: ScoringStep::Predict,
                });
            }
            let fit = fitted[c.run].as_ref().expect("only fitted runs");
            let scored = c.score(fit, &design, row, k, sink.keeps_values());
            chunk.push(PredictionColumn {
                run: id.clone(),
                predictive: c.kind.name().to_string(),
                scores: scored.0,
                mcse: scored.1,
            });
        }
        let keys = key.map(|(_, values)| &values[row..row + y.len()]);
        let rows = Rows {
            first: row,
            y,
            data_rows: places,
            keys,
        };
        sink.rows(&rows, key.map(|k| k.0), &chunk)?;
        if keep {
            labels.extend_from_slice(y);
            data_rows.extend_from_slice(places);
        }
        row += y.len();
        Ok(())
    })?;
    let mut table = Vec::new();
    for c in columns {
        let run = &mut runs[c.run];
        if let Some(column) = c.finish(plan, run, &labels, sink.keeps_values(), events) {
            table.push(column);
        }
    }
    for &r in which {
        if runs[r].error.is_some() {
            runs[r].predictives.clear();
            runs[r].khat = None;
        }
    }
    table.retain(|(r, _)| runs[*r].error.is_none());
    let rows = Rows {
        first: 0,
        y: &labels,
        data_rows: &data_rows,
        keys: key.map(|k| k.1),
    };
    sink.columns(
        &rows,
        key.map(|k| k.0),
        table.into_iter().map(|(_, c)| c).collect(),
    );
    Ok(stats)
}

/// One column per predictive of every fitted run of `which`, each with its own random stream.
fn prediction_columns(
    plan: &Plan,
    fitted: &[Option<Fitted>],
    which: &[usize],
    keep: bool,
    k: usize,
) -> Vec<Column> {
    let bins = plan.evaluation.calibration_bins;
    let mut columns: Vec<Column> = Vec::new();
    for &r in which {
        let (method, Some(_)) = (&plan.methods[r], &fitted[r]) else {
            continue;
        };
        for &kind in &method.predictives {
            columns.push(Column {
                run: r,
                kind,
                settings: PredictiveSettings {
                    mc_samples: method.mc_samples,
                    quadrature_nodes: method.quadrature_nodes,
                    first_row: 0,
                },
                stream: rng::stream(plan.seed, &format!("{}/{}", method.id, kind.name())),
                running: Running::new(bins, false),
                kept: keep.then(|| empty_like(k)),
                mcse: Vec::new(),
                non_finite: false,
            });
        }
    }
    columns
}

impl Column {
    /// Score one chunk of test rows (the first is test row `row`): its scores kept or summed,
    /// its Monte-Carlo errors kept when `keep_mcse`; the chunk's scores and errors.
    fn score(
        &mut self,
        fit: &Fitted,
        rows: &DesignRows<'_>,
        row: usize,
        k: usize,
        keep_mcse: bool,
    ) -> (Scores, Vec<f64>) {
        let settings = PredictiveSettings {
            first_row: row,
            ..self.settings
        };
        let (x, y) = (rows.x, rows.y);
        let predictor = &fit.predictor;
        let scores = scores(
            predictor.predict(self.kind, x, settings, &mut self.stream),
            k,
        );
        self.non_finite |= !finite(&scores);
        // Kept predictions get the whole-vector metrics; only the others need running sums.
        match &mut self.kept {
            Some(kept) => extend(kept, &scores),
            None => push(&mut self.running, &scores, y),
        }
        let mcse = predictor.mcse(self.kind, x).unwrap_or_default();
        if keep_mcse {
            self.mcse.extend_from_slice(&mcse);
        }
        (scores, mcse)
    }

    /// The pass is over: the predictive's record into `run` (a run whose predictions were not
    /// finite fails instead), and its kept column for the sink's table when `table` is asked for.
    fn finish(
        self,
        plan: &Plan,
        run: &mut RunRecord,
        labels: &[f64],
        table: bool,
        events: Events<'_>,
    ) -> Option<(usize, PredictionColumn)> {
        let method = &plan.methods[self.run];
        if self.non_finite && run.error.is_none() {
            run.error = Some(super::failure::non_finite(method, self.kind.name()));
        }
        let record = match &self.kept {
            // NaN predictions have no metrics; the run is failed and its predictives cleared
            // by the caller.
            _ if self.non_finite => return None,
            Some(kept) => {
                let resamples = plan.evaluation.resamples;
                let step = ScoringStep::Metrics { resamples };
                events.send(Event::Scoring {
                    run: method.id.clone(),
                    predictive: self.kind,
                    rows: labels.len(),
                    step,
                });
                let label = format!("{}/{}/ece", method.id, self.kind.name());
                let mut ece = rng::stream(plan.seed, &label);
                evaluate(self.kind, kept, labels, &plan.evaluation, Some(&mut ece))
            }
            None => super::metrics::running(self.kind, self.running),
        };
        run.predictives.push(record);
        let (true, Some(scores)) = (table, self.kept) else {
            return None;
        };
        let column = PredictionColumn {
            run: method.id.clone(),
            predictive: self.kind.name().to_string(),
            scores,
            mcse: self.mcse,
        };
        Some((self.run, column))
    }
}

fn empty_like(k: usize) -> Scores {
    if k > 2 {
        Scores::Classes(Vec::new())
    } else {
        Scores::Binary(Vec::new())
    }
}

/// A predictive's output as the table stores it: two-class rows become p(y = 1).
pub(super) fn scores(p: Probabilities, k: usize) -> Scores {
    match p {
        Probabilities::Binary(v) => Scores::Binary(v),
        Probabilities::Classes(rows) if k <= 2 => {
            Scores::Binary(rows.iter().map(|r| r[1]).collect())
        }
        Probabilities::Classes(rows) => Scores::Classes(rows),
    }
}

fn finite(s: &Scores) -> bool {
    match s {
        Scores::Binary(v) => v.iter().all(|p| p.is_finite()),
        Scores::Classes(rows) => rows.iter().flatten().all(|p| p.is_finite()),
    }
}

fn push(running: &mut Running, s: &Scores, y: &[f64]) {
    match s {
        Scores::Binary(v) => v
            .iter()
            .zip(y)
            .for_each(|(&p, &y)| running.push_binary(p, y)),
        Scores::Classes(rows) => rows
            .iter()
            .zip(y)
            .for_each(|(r, &y)| running.push_classes(r, y)),
    }
}

fn extend(kept: &mut Scores, s: &Scores) {
    // A column's chunks all have the same shape (both follow the number of classes).
    match (kept, s) {
        (Scores::Binary(a), Scores::Binary(b)) => a.extend_from_slice(b),
        (Scores::Classes(a), Scores::Classes(b)) => a.extend_from_slice(b),
        _ => {}
    }
}
