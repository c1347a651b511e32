//! The report's tables, built once from the record and rendered by both report.md and
//! report.html, so the two can never disagree.

use crate::metrics::Metrics;
use crate::record::{ExperimentRecord, PredictiveRecord, RunRecord};

/// A table of text cells, some marked: the best value of a column, or a warning.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub headers: Vec<String>,
    /// Per column: right-aligned (numbers) or not.
    pub numeric: Vec<bool>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub mark: Mark,
}

/// What a marked cell says: report.md makes both bold; report.html colours the best value
/// green and a warning (k-hat above 0.7, chains not mixed, a worse verdict) red.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Plain,
    Best,
    Warn,
}

impl Mark {
    pub fn best_if(yes: bool) -> Mark {
        if yes {
            Mark::Best
        } else {
            Mark::Plain
        }
    }

    pub fn warn_if(yes: bool) -> Mark {
        if yes {
            Mark::Warn
        } else {
            Mark::Plain
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Cell {
            text,
            mark: Mark::Plain,
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Cell::from(text.to_string())
    }
}

pub fn num(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.4}"),
        Some(v) => v.to_string(),
        None => "–".into(),
    }
}

/// Metric columns: (header, accessor, lower is better).
type MetricColumn = (&'static str, fn(&Metrics) -> Option<f64>, bool);

pub const METRICS: [MetricColumn; 6] = [
    ("log-loss", |m| Some(m.log_loss), true),
    ("Brier", |m| Some(m.brier), true),
    ("accuracy", |m| Some(m.accuracy), false),
    ("AUC", |m| m.auc, false),
    ("ECE", |m| Some(m.ece), true),
    ("MCE", |m| Some(m.mce), true),
];

/// (run, predictive) pairs in record order.
pub fn predictive_rows(r: &ExperimentRecord) -> Vec<(&RunRecord, &PredictiveRecord)> {
    r.runs
        .iter()
        .flat_map(|run| run.predictives.iter().map(move |p| (run, p)))
        .collect()
}

/// One row per run and predictive; the best value per column (as displayed) is strong.
pub fn metrics(r: &ExperimentRecord) -> Table {
    let rows = predictive_rows(r);
    let best: Vec<String> = METRICS
        .iter()
        .map(|(_, get, lower)| {
            let vals = rows.iter().filter_map(|(_, p)| get(&p.metrics));
            num(if *lower {
                vals.reduce(f64::min)
            } else {
                vals.reduce(f64::max)
            })
        })
        .collect();
    let mut headers = vec!["run".to_string(), "predictive".to_string()];
    headers.extend(
        METRICS
            .iter()
            .map(|(h, _, lower)| format!("{h} {}", if *lower { "↓" } else { "↑" })),
    );
    headers.push("ECE 95% CI".into());
    let mut numeric = vec![false, false];
    numeric.extend([true; 7]);
    let rows = rows
        .iter()
        .map(|(run, p)| {
            let mut cells: Vec<Cell> = vec![run.id.as_str().into(), p.name.as_str().into()];
            for ((_, get, _), b) in METRICS.iter().zip(&best) {
                let text = num(get(&p.metrics));
                let mark = Mark::best_if(text != "–" && &text == b);
                cells.push(Cell { text, mark });
            }
            cells.push(match p.ece_ci {
                Some([lo, hi]) => format!("[{lo:.4}, {hi:.4}]").into(),
                None => "–".into(),
            });
            cells
        })
        .collect();
    Table {
        headers,
        numeric,
        rows,
    }
}

/// One sentence per sampling run: its split-R-hat and bulk ESS, flagged when R-hat > 1.01.
pub fn sampler_diagnostics(r: &ExperimentRecord) -> Vec<(String, bool)> {
    r.runs
        .iter()
        .filter_map(|run| {
            let d = run.diagnostics?;
            let text = if d.mixed() {
                format!("{}: split-R-hat at most {:.4}, bulk ESS at least {:.0} over the weights (chains mixed)", run.id, d.rhat_max, d.ess_min)
            } else {
                format!(
                    "{}: NOT MIXED — split-R-hat {:.4} > {} (bulk ESS at least {:.0}); run longer chains (`draws`, `burn_in`) before trusting this run",
                    run.id,
                    d.rhat_max,
                    crate::record::Diagnostics::RHAT_LIMIT,
                    d.ess_min
                )
            };
            Some((text, !d.mixed()))
        })
        .collect()
}

/// The approximation-error table (one row per run and predictive against its gold run), or
/// `None` when the experiment has no successful gold run.
pub fn approximation_error(r: &ExperimentRecord) -> Option<Table> {
    if r.approximation_error.is_empty() {
        return None;
    }
    let headers = [
        "run",
        "predictive",
        "gold",
        "mean abs Δp",
        "max abs Δp",
        "mean KL",
        "Δ log-loss",
        "Δ ECE",
        "max abs Δmean / sd",
        "sd ratio",
        "k-hat",
    ];
    let signed = |v: f64| format!("{v:+.4}");
    let rows = r
        .approximation_error
        .iter()
        .map(|e| {
            vec![
                e.run.as_str().into(),
                e.predictive.as_str().into(),
                e.reference.as_str().into(),
                num(Some(e.mean_abs_diff)).into(),
                num(Some(e.max_abs_diff)).into(),
                format!("{:.2e}", e.mean_kl).into(),
                signed(e.log_loss_diff).into(),
                signed(e.ece_diff).into(),
                num(e.mean_err_sd_units).into(),
                num(e.sd_ratio_max).into(),
                Cell {
                    text: khat_text(e.khat),
                    mark: Mark::warn_if(
                        e.khat
                            .is_some_and(|k| k > crate::model::importance::KHAT_LIMIT),
                    ),
                },
            ]
        })
        .collect();
    Some(Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: (0..headers.len()).map(|i| i >= 3).collect(),
        rows,
    })
}

/// k-hat with its PSIS verdict: good below 0.5, ok to 0.7, untrustworthy above.
pub fn khat_text(k: Option<f64>) -> String {
    match k {
        None => "–".into(),
        Some(k) => format!("{k:.2} {}", crate::model::importance::khat_verdict(k)),
    }
}

/// What the approximation-error table's columns mean (both reports print it under the table).
pub const APPROXIMATION_ERROR_NOTE: &str = "Each approximation against the exact posterior sampled in this experiment (the gold run's `exact` predictive): \
Δp is p(y = 1) minus the gold p(y = 1) over test rows, KL is KL(gold ‖ approximation) per row in nats, Δ log-loss and Δ ECE are this predictive's minus the gold's. \
For runs of the gold's own model (likelihood, noise and prior): the largest error of a posterior mean in gold sds, and the ratio of posterior sds farthest from 1 (below 1: over-confident). \
k-hat: the Pareto shape of the importance weights when the run's Gaussian posterior is used as a proposal for its model's exact posterior \
(PSIS; below 0.5 good, 0.5–0.7 usable, above 0.7 the approximation should not be trusted; bold).";

pub fn convergence(r: &ExperimentRecord) -> Table {
    let headers = [
        "run",
        "kind",
        "termination",
        "iterations",
        "objective",
        "final gradient norm",
        "fit seconds",
        "log evidence",
    ];
    let rows = r
        .runs
        .iter()
        .map(|run| {
            let last = r
                .trace
                .iter()
                .rev()
                .find(|t| t.run == run.id)
                .map(|t| t.iterate.grad_norm);
            // A sampler does not converge to a point: its row says whether its chains mixed
            // and counts sweeps per chain; the gradient at its last draw means nothing.
            let sampled = run
                .diagnostics
                .as_ref()
                .filter(|_| run.termination.is_some());
            let termination = match (sampled, run.termination) {
                (Some(d), _) if d.mixed() => "sampled, mixed".to_string(),
                (Some(_), _) => "sampled, NOT MIXED".to_string(),
                (None, Some(t)) => t.to_string(),
                (None, None) => "failed".to_string(),
            };
            let iterations = match sampled {
                Some(_) => format!("{} sweeps per chain", run.iterations),
                None => run.iterations.to_string(),
            };
            vec![
                run.id.as_str().into(),
                run.kind.as_str().into(),
                Cell {
                    text: termination,
                    mark: Mark::warn_if(sampled.is_some_and(|d| !d.mixed())),
                },
                iterations.into(),
                num(run.objective).into(),
                last.filter(|_| sampled.is_none())
                    .map(|g| format!("{g:.2e}"))
                    .unwrap_or_else(|| "–".into())
                    .into(),
                format!("{:.3}", run.fit_seconds).into(),
                num(run.posterior.as_ref().and_then(|p| p.log_evidence)).into(),
            ]
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, false, true, true, true, true, true],
        rows,
    }
}

pub fn features(r: &ExperimentRecord) -> Table {
    let rows = r
        .dataset
        .summaries
        .iter()
        .map(|f| {
            vec![
                f.name.as_str().into(),
                format!("{:.4}", f.mean).into(),
                format!("{:.4}", f.sd).into(),
                f.min.to_string().into(),
                f.max.to_string().into(),
                f.missing.to_string().into(),
            ]
        })
        .collect();
    Table {
        headers: ["feature", "mean", "sd", "min", "max", "missing"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![false, true, true, true, true, true],
        rows,
    }
}

/// Weights per design column: mean ± 2 sd for posteriors, else the point estimate. Softmax
/// weights are stacked in blocks of one per class with free weights, labelled `[block k]`.
pub fn weights(r: &ExperimentRecord) -> Option<Table> {
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.weights.is_empty())
        .collect();
    if runs.is_empty() {
        return None;
    }
    let d = r.dataset.columns.len().max(1);
    let n = runs.iter().map(|run| run.weights.len()).max().unwrap_or(0);
    let mut headers = vec!["column".to_string()];
    headers.extend(runs.iter().map(|run| run.id.clone()));
    let rows = (0..n)
        .map(|j| {
            let col = r.dataset.columns.get(j % d).map_or("?", String::as_str);
            let label = if n > d {
                format!("{col} [block {}]", j / d)
            } else {
                col.to_string()
            };
            let mut cells: Vec<Cell> = vec![label.into()];
            cells.extend(
                runs.iter()
                    .map(|run| match (&run.posterior, run.weights.get(j)) {
                        (_, None) => "–".into(),
                        (Some(p), Some(_)) => {
                            format!("{:.4} ± {:.4}", p.mean[j], 2.0 * p.cov_diag[j].sqrt()).into()
                        }
                        (None, Some(w)) => format!("{w:.4}").into(),
                    }),
            );
            cells
        })
        .collect();
    let numeric = std::iter::once(false)
        .chain(runs.iter().map(|_| true))
        .collect();
    Some(Table {
        headers,
        numeric,
        rows,
    })
}

pub fn calibration(p: &PredictiveRecord) -> Table {
    let rows = p
        .calibration
        .iter()
        .map(|b| {
            let close = if b.upper >= 1.0 { "]" } else { ")" };
            vec![
                format!("[{:.3}, {:.3}{close}", b.lower, b.upper).into(),
                b.count.to_string().into(),
                num(b.mean_predicted).into(),
                num(b.observed_frequency).into(),
            ]
        })
        .collect();
    Table {
        headers: ["bin", "count", "mean predicted", "observed frequency"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![false, true, true, true],
        rows,
    }
}

/// The paired-bootstrap comparison of two runs, one row per run, predictive and metric.
pub fn comparison(rows: &[crate::compare::Comparison]) -> Table {
    let headers = [
        "run",
        "predictive",
        "metric",
        "A",
        "B",
        "B − A",
        "95% CI",
        "verdict",
    ];
    let rows = rows
        .iter()
        .map(|c| {
            vec![
                c.run.as_str().into(),
                c.predictive.as_str().into(),
                c.metric.as_str().into(),
                format!("{:.4}", c.a).into(),
                format!("{:.4}", c.b).into(),
                format!("{:+.4}", c.diff).into(),
                format!("[{:+.4}, {:+.4}]", c.ci_low, c.ci_high).into(),
                Cell {
                    text: c.verdict.name().into(),
                    mark: match c.verdict {
                        crate::compare::Verdict::Improved => Mark::Best,
                        crate::compare::Verdict::Worse => Mark::Warn,
                        crate::compare::Verdict::WithinNoise => Mark::Plain,
                    },
                },
            ]
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, false, true, true, true, true, false],
        rows,
    }
}

/// Per run with `precision = "evidence"`: the evidence curve beside the held-out log-loss.
pub fn evidence(r: &ExperimentRecord) -> Vec<(&RunRecord, Table)> {
    r.runs
        .iter()
        .filter(|run| !run.evidence_curve.is_empty())
        .map(|run| {
            let best = run.prior_precision;
            let rows = run
                .evidence_curve
                .iter()
                .map(|p| {
                    vec![
                        Cell {
                            text: format!("{:.3e}", p.precision),
                            mark: Mark::best_if(Some(p.precision) == best),
                        },
                        p.log_evidence
                            .map_or("not converged".to_string(), |v| format!("{v:.4}"))
                            .into(),
                        format!("{:.4}", p.test_log_loss).into(),
                    ]
                })
                .collect();
            let table = Table {
                headers: vec![
                    "lambda".into(),
                    "log evidence".into(),
                    "test log-loss".into(),
                ],
                numeric: vec![true, true, true],
                rows,
            };
            (run, table)
        })
        .collect()
}

pub fn data_files(r: &ExperimentRecord) -> Table {
    Table {
        headers: vec!["data file".into(), "SHA-256".into()],
        numeric: vec![false, false],
        rows: r
            .provenance
            .data_sha256
            .iter()
            .map(|(f, h)| vec![f.as_str().into(), h.as_str().into()])
            .collect(),
    }
}
