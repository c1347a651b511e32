//! report.md: the experiment, the dataset, the metrics table (best value per column in
//! bold), convergence, posterior weights and the calibration tables.

use std::fmt::Write;

use crate::record::{ExperimentRecord, RunRecord};

/// Metric columns of the summary table: (header, accessor, lower is better).
type Column = (
    &'static str,
    fn(&crate::metrics::Metrics) -> Option<f64>,
    bool,
);

const COLUMNS: [Column; 6] = [
    ("log-loss", |m| Some(m.log_loss), true),
    ("Brier", |m| Some(m.brier), true),
    ("accuracy", |m| Some(m.accuracy), false),
    ("AUC", |m| m.auc, false),
    ("ECE", |m| Some(m.ece), true),
    ("MCE", |m| Some(m.mce), true),
];

fn num(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.4}"),
        Some(v) => v.to_string(),
        None => "–".into(),
    }
}

pub fn report(r: &ExperimentRecord) -> String {
    let mut s = String::new();
    let e = &r.experiment;
    let _ = writeln!(s, "# bayeslab report: {}\n", e.name);
    if let Some(d) = &e.description {
        let _ = writeln!(s, "{d}\n");
    }
    let _ = writeln!(s, "- experiment file: `{}`", e.file);
    let _ = writeln!(s, "- seed: {}", e.seed);
    if e.prior_evidence {
        let _ = writeln!(
            s,
            "- prior: w ~ N(0, lambda^-1 I), lambda chosen per run by maximising the Laplace evidence"
        );
    } else {
        let _ = writeln!(s, "- prior: w ~ N(0, {}^-1 I)", e.prior_precision);
    }
    let _ = writeln!(s, "- calibration bins: {}\n", e.calibration_bins);
    dataset(&mut s, r);
    metrics_table(&mut s, r);
    convergence(&mut s, r);
    weights(&mut s, r);
    evidence(&mut s, r);
    calibration(&mut s, r);
    s
}

/// Under `precision = "evidence"`: the chosen lambda and the evidence curve beside the
/// held-out log-loss, per run.
fn evidence(s: &mut String, r: &ExperimentRecord) {
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.evidence_curve.is_empty())
        .collect();
    if runs.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "## Evidence\n\nThe Laplace log evidence and the held-out log-loss (plug-in) over lambda; \
         the chosen lambda maximises the evidence.\n"
    );
    for run in runs {
        let _ = writeln!(
            s,
            "### {}: lambda = {:.4e}\n\n| lambda | log evidence | test log-loss |\n|---:|---:|---:|",
            run.id,
            run.prior_precision.unwrap_or(f64::NAN)
        );
        for p in &run.evidence_curve {
            let ev = p
                .log_evidence
                .map_or("not converged".to_string(), |v| format!("{v:.4}"));
            let _ = writeln!(s, "| {:.2e} | {ev} | {:.4} |", p.precision, p.test_log_loss);
        }
        s.push('\n');
    }
}

fn dataset(s: &mut String, r: &ExperimentRecord) {
    let d = &r.dataset;
    let _ = writeln!(s, "## Dataset\n");
    let _ = writeln!(
        s,
        "- files: {}",
        d.files
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, "- target: `{}`", d.target);
    if d.classes.len() > 2 {
        let _ = writeln!(
            s,
            "- classes ({}): {}",
            d.classes.len(),
            d.classes.join(", ")
        );
        let _ = writeln!(s, "- training rows: {}", d.rows_train);
        let _ = writeln!(s, "- test rows: {}", d.rows_test);
    } else {
        let _ = writeln!(
            s,
            "- training rows: {} ({} positive)",
            d.rows_train, d.positives_train
        );
        let _ = writeln!(
            s,
            "- test rows: {} ({} positive)",
            d.rows_test, d.positives_test
        );
    }
    let _ = writeln!(
        s,
        "- design columns ({}): {}",
        d.columns.len(),
        d.columns.join(", ")
    );
    for n in &d.notes {
        let _ = writeln!(s, "- note: {n}");
    }
    let _ = writeln!(
        s,
        "\n| feature | mean | sd | min | max | missing |\n|---|---:|---:|---:|---:|---:|"
    );
    for f in &d.summaries {
        let _ = writeln!(
            s,
            "| {} | {:.4} | {:.4} | {} | {} | {} |",
            f.name, f.mean, f.sd, f.min, f.max, f.missing
        );
    }
    s.push('\n');
}

fn metrics_table(s: &mut String, r: &ExperimentRecord) {
    let _ = writeln!(s, "## Test-set metrics\n");
    let rows: Vec<(&RunRecord, &crate::record::PredictiveRecord)> = r
        .runs
        .iter()
        .flat_map(|run| run.predictives.iter().map(move |p| (run, p)))
        .collect();
    if rows.is_empty() {
        let _ = writeln!(s, "No run produced predictions.\n");
        return;
    }
    let best: Vec<Option<f64>> = COLUMNS
        .iter()
        .map(|(_, get, lower)| {
            let vals = rows.iter().filter_map(|(_, p)| get(&p.metrics));
            if *lower {
                vals.reduce(f64::min)
            } else {
                vals.reduce(f64::max)
            }
        })
        .collect();
    let _ = write!(s, "| run | predictive |");
    for (h, _, lower) in COLUMNS {
        let _ = write!(s, " {h} {} |", if lower { "↓" } else { "↑" });
    }
    let _ = writeln!(s, "\n|---|---|{}", "---:|".repeat(COLUMNS.len()));
    for (run, p) in &rows {
        let _ = write!(s, "| {} | {} |", run.id, p.name);
        for ((_, get, _), b) in COLUMNS.iter().zip(&best) {
            let v = get(&p.metrics);
            let cell = num(v);
            // compare as displayed, so rows that print the same value are all marked
            if v.is_some() && cell == num(*b) {
                let _ = write!(s, " **{cell}** |");
            } else {
                let _ = write!(s, " {cell} |");
            }
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "\nBold marks the best value per column. Log-loss clips p to [1e-15, 1 - 1e-15].\n"
    );
}

fn convergence(s: &mut String, r: &ExperimentRecord) {
    let _ = writeln!(s, "## Convergence\n");
    let _ = writeln!(
        s,
        "| run | kind | termination | iterations | objective | final gradient norm | fit seconds | log evidence |\n|---|---|---|---:|---:|---:|---:|---:|"
    );
    for run in &r.runs {
        let last = r
            .trace
            .iter()
            .rev()
            .find(|t| t.run == run.id)
            .map(|t| t.iterate.grad_norm);
        let term = run
            .termination
            .map(|t| t.to_string())
            .unwrap_or_else(|| "failed".into());
        let ev = run.posterior.as_ref().and_then(|p| p.log_evidence);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.3} | {} |",
            run.id,
            run.kind,
            term,
            run.iterations,
            num(run.objective),
            last.map(|g| format!("{g:.2e}"))
                .unwrap_or_else(|| "–".into()),
            run.fit_seconds,
            num(ev)
        );
    }
    for run in r.failed_runs() {
        let _ = writeln!(
            s,
            "\n**{} failed:** {}",
            run.id,
            run.error.as_deref().unwrap_or("")
        );
    }
    s.push('\n');
}

fn weights(s: &mut String, r: &ExperimentRecord) {
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.weights.is_empty())
        .collect();
    if runs.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "## Weights\n\nPoint estimates; for runs with a posterior, mean ± 2 sd."
    );
    let d = r.dataset.columns.len().max(1);
    let rows = runs.iter().map(|run| run.weights.len()).max().unwrap_or(0);
    if rows > d {
        let _ = writeln!(
            s,
            "Softmax weights are stacked in blocks of {d}, one per class with free weights \
             (block k is class k, or class k + 1 with `reference_class = true`)."
        );
    }
    let _ = write!(s, "\n| column |");
    for run in &runs {
        let _ = write!(s, " {} |", run.id);
    }
    let _ = writeln!(s, "\n|---|{}", "---:|".repeat(runs.len()));
    for j in 0..rows {
        let col = r.dataset.columns.get(j % d).map_or("?", String::as_str);
        if rows > d {
            let _ = write!(s, "| {col} [block {}] |", j / d);
        } else {
            let _ = write!(s, "| {col} |");
        }
        for run in &runs {
            match (&run.posterior, run.weights.get(j)) {
                (_, None) => {
                    let _ = write!(s, " – |");
                }
                (Some(p), Some(_)) => {
                    let _ = write!(s, " {:.4} ± {:.4} |", p.mean[j], 2.0 * p.cov_diag[j].sqrt());
                }
                (None, Some(w)) => {
                    let _ = write!(s, " {w:.4} |");
                }
            }
        }
        s.push('\n');
    }
    s.push('\n');
}

fn calibration(s: &mut String, r: &ExperimentRecord) {
    let _ = writeln!(s, "## Calibration\n");
    for run in &r.runs {
        for p in &run.predictives {
            let _ = writeln!(s, "### {} / {}\n", run.id, p.name);
            let _ = writeln!(
                s,
                "| bin | count | mean predicted | observed frequency |\n|---|---:|---:|---:|"
            );
            for b in &p.calibration {
                let _ = writeln!(
                    s,
                    "| [{:.2}, {:.2}{} | {} | {} | {} |",
                    b.lower,
                    b.upper,
                    if b.upper >= 1.0 { "]" } else { ")" },
                    b.count,
                    num(b.mean_predicted),
                    num(b.observed_frequency)
                );
            }
            let _ = writeln!(s, "\nECE {:.4}, MCE {:.4}\n", p.metrics.ece, p.metrics.mce);
        }
    }
}
