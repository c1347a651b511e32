//! report.html's classification sections, for an experiment that fits and scores runs.

use std::fmt::Write;

use super::elements::{escape, figure, figures_with_prefix, prose, table};
use crate::plots::Figure;
use crate::tables;
use bayeslab_core::record::ExperimentRecord;

/// The classification sections: metrics, the baseline comparison, LOO, the evidence against
/// the truth and the gold standard, calibration, pictures, weights, coefficients, evidence
/// curves, convergence and the data set.
pub(super) fn classification(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    metrics(s, r);
    comparison(s, r);
    loo(s, r);
    log_evidence(s, r);
    approximation_error(s, r);
    calibration(s, r, figures);
    crate::pictures::html(s, r, figures);
    weights(s, r, figures);
    coefficients(s, r);
    evidence(s, r, figures);
    convergence(s, r, figures);
    dataset(s, r);
}

/// The test-set metrics of every run with predictions.
fn metrics(s: &mut String, r: &ExperimentRecord) {
    let _ = writeln!(s, "<h2>Test-set metrics</h2>");
    if tables::predictive_rows(r).is_empty() {
        s.push_str("<p>No run produced predictions.</p>\n");
    } else {
        table(s, &tables::metrics(r));
        let _ = writeln!(s, "<p>{}</p>", prose(tables::METRICS_NOTE));
        let _ = writeln!(s, "<p>{}</p>", prose(tables::ECE_NOTE));
    }
}

/// The paired comparison with the baseline run, when there is one.
fn comparison(s: &mut String, r: &ExperimentRecord) {
    if let Some(c) = &r.comparison {
        let _ = writeln!(s, "<h2>Comparison with the baseline</h2>");
        let _ = writeln!(s, "<p>A = <code>{}</code>, B = this run; paired bootstrap over test rows ({} resamples); lower is better, so a negative B − A is an improvement.</p>", escape(&c.baseline), c.resamples);
        table(s, &tables::comparison(&c.rows));
    }
}

/// Leave-one-out cross-validation, when a run has it.
fn loo(s: &mut String, r: &ExperimentRecord) {
    if let Some(t) = tables::loo::loo_table(r) {
        let _ = writeln!(s, "<h2>Leave-one-out cross-validation</h2>");
        table(s, &t);
        let _ = writeln!(s, "<p>{}</p>", prose(tables::loo::LOO_NOTE));
        if let Some(line) = tables::loo::missing(r) {
            let _ = writeln!(s, "<p>{}</p>", prose(&line));
        }
    }
}

/// Each run's log evidence against the true one, when known.
fn log_evidence(s: &mut String, r: &ExperimentRecord) {
    if let Some(e) = tables::log_evidence_table(r) {
        let _ = writeln!(s, "<h2>Log evidence against the truth</h2>");
        for line in &e.sentences {
            let _ = writeln!(s, "<p>{}</p>", prose(line));
        }
        table(s, &e.table);
        let _ = writeln!(s, "<p>Estimates: {}.</p>", prose(&e.sources.join("; ")));
        let _ = writeln!(s, "<p>{}</p>", prose(tables::LOG_EVIDENCE_NOTE));
    }
}

/// Each approximation against the gold standard, when there is one.
fn approximation_error(s: &mut String, r: &ExperimentRecord) {
    if let Some(t) = tables::approximation_error(r) {
        let _ = writeln!(s, "<h2>Approximation error against the gold standard</h2>");
        table(s, &t);
        let _ = writeln!(s, "<p>{}</p>", prose(tables::APPROXIMATION_ERROR_NOTE));
    }
}

/// The reliability diagrams, each predictive's bins folded.
fn calibration(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let _ = writeln!(s, "<h2>Calibration</h2>");
    let _ = writeln!(s, "<p>{}</p>", crate::plots::RELIABILITY_GUIDE);
    figures_with_prefix(s, figures, "reliability-");
    for (run, p) in tables::predictive_rows(r) {
        let _ = writeln!(
            s,
            "<details><summary>bins of {} / {} (ECE {:.4}, MCE {:.4}, debiased ECE {})</summary>",
            escape(&run.id),
            escape(p.name.name()),
            p.metrics.ece,
            p.metrics.mce,
            escape(&tables::ece_debiased_text(p))
        );
        table(s, &tables::calibration(p));
        s.push_str("</details>\n");
    }
}

/// The weights figures, and their table folded, when a run has weights.
fn weights(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    if let Some(t) = tables::weights(r) {
        let _ = writeln!(
            s,
            "<h2>Weights</h2><p>Point estimates; for runs with a posterior, mean ± 2 sd. On the {}.</p>",
            r.dataset.weights_scale()
        );
        figures_with_prefix(s, figures, "weights");
        figures_with_prefix(s, figures, "heatmaps-");
        let _ = writeln!(s, "<details><summary>table of weights</summary>");
        table(s, &t);
        s.push_str("</details>\n");
    }
}

/// The evidence curves of the runs that chose lambda by it, each beside its table.
fn evidence(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let curves = tables::evidence(r);
    if !curves.is_empty() {
        let _ = writeln!(s, "<h2>Evidence</h2><p>The Laplace log evidence and the held-out log-loss (plug-in) over lambda; the chosen lambda (vertical line, highlighted row) maximises the evidence.</p>");
        for (run, t) in curves {
            let _ = writeln!(
                s,
                "<h3>{}: lambda = {:.4e}{}</h3>",
                escape(&run.id),
                run.prior_precision.unwrap_or(f64::NAN),
                run.prior_precision_edge
                    .map_or(String::new(), |e| format!(" (at the {})", e.mark()))
            );
            if let Some(words) = tables::evidence_choice(run) {
                let _ = writeln!(s, "<p>{}</p>", prose(&words));
            }
            // the figure and its table side by side: the highlighted row is in view
            s.push_str("<div class=\"figs\">\n");
            if let Some(f) = figures
                .iter()
                .find(|f| f.stem == format!("evidence-{}", run.id))
            {
                figure(s, f);
            }
            table(s, &t);
            s.push_str("</div>\n");
        }
    }
}

/// Every run's convergence, failures and sampler diagnostics, with the trace figures.
fn convergence(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let _ = writeln!(s, "<h2>Convergence</h2>");
    table(s, &tables::convergence(r));
    if tables::any_posterior(r) {
        let _ = writeln!(s, "<p>{}</p>", prose(tables::KHAT_NOTE));
    }
    for run in r.failed_runs() {
        let _ = writeln!(
            s,
            "<p class=\"failed\"><b>{} failed:</b> {}</p>",
            escape(&run.id),
            escape(run.error.as_deref().unwrap_or(""))
        );
    }
    for (line, bad) in tables::sampler_diagnostics(r) {
        let class = if bad { " class=\"failed\"" } else { "" };
        let _ = writeln!(s, "<p{class}>{}</p>", prose(&line));
    }
    figures_with_prefix(s, figures, "convergence-");
}

/// The data set: files, target, classes, rows, columns, notes, features and their encoding.
fn dataset(s: &mut String, r: &ExperimentRecord) {
    let d = &r.dataset;
    let _ = writeln!(s, "<h2>Dataset</h2><ul>");
    let files: Vec<String> = d
        .files
        .iter()
        .map(|f| format!("<code>{}</code>", escape(f)))
        .collect();
    let _ = writeln!(
        s,
        "<li>files: {}</li><li>target: <code>{}</code></li>",
        files.join(", "),
        escape(&d.target)
    );
    let _ = writeln!(
        s,
        "<li>classes ({}): {}</li><li>rows: {}</li>",
        d.classes.len(),
        escape(&d.classes.join(", ")),
        escape(&tables::split_and_classes(d))
    );
    let _ = writeln!(
        s,
        "<li>design columns ({}): {}</li>",
        d.columns.len(),
        escape(&d.columns.join(", "))
    );
    for n in &d.notes {
        let _ = writeln!(s, "<li>note: {}</li>", escape(n));
    }
    s.push_str("</ul>\n");
    let caption = tables::features_caption(d, |f| format!("<code>{}</code>", escape(f)));
    let _ = writeln!(s, "<p>Features: {caption}.</p>");
    table(s, &tables::features(d));
    if !d.encoding.categorical.is_empty() {
        let _ = writeln!(s, "<p>Categorical columns: {}.</p>", tables::LEVELS_CAPTION);
        table(s, &tables::levels(&d.encoding));
    }
    if !d.encoding.imputed.is_empty() {
        let _ = writeln!(
            s,
            "<p>Filled missing values: {}.</p>",
            tables::IMPUTED_CAPTION
        );
        table(s, &tables::imputed(&d.encoding));
    }
}

/// The coefficient tables, each under a heading that names its run and scale; the first run's
/// shown, the others folded.
fn coefficients(s: &mut String, r: &ExperimentRecord) {
    let all = tables::coefficient_tables(r);
    if all.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "<h2>Coefficients</h2><p>{}</p>",
        prose(tables::COEFFICIENTS_NOTE)
    );
    let first = all[0]
        .heading
        .split(" — ")
        .next()
        .unwrap_or_default()
        .to_string();
    for t in &all {
        let open = if t.heading.starts_with(&format!("{first} — ")) {
            " open"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "<details{open}><summary>{}</summary><p>{}.</p>",
            escape(&t.heading),
            escape(&t.caption)
        );
        table(s, &t.table);
        s.push_str("</details>\n");
    }
}
