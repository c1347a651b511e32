//! report.md: the tables of [`super::tables`] as Markdown, with the figures referenced as
//! SVG files written beside it (`plots/<stem>.svg`).

use std::fmt::Write;

use super::plots::Figure;
use super::tables;
pub use super::tables::markdown::table;
use bayeslab_core::record::ExperimentRecord;

fn figure(s: &mut String, figures: &[Figure], stem: &str) {
    if let Some(f) = figures.iter().find(|f| f.stem == stem) {
        let _ = writeln!(s, "![{}](plots/{}.svg)\n", f.caption, f.stem);
    }
}

pub fn report(r: &ExperimentRecord, figures: &[Figure]) -> String {
    let mut s = String::new();
    let e = &r.experiment;
    let _ = writeln!(s, "# bayeslab report: {}\n", e.name);
    if let Some(d) = &e.description {
        let _ = writeln!(s, "{d}\n");
    }
    let _ = writeln!(s, "- experiment file: `{}`", e.file);
    let _ = writeln!(s, "- seed: {}", e.seed);
    if r.runs.is_empty() {
        // An approximation-lab experiment: no dataset, metrics or calibration to show.
        s.push('\n');
    } else {
        runs(&mut s, r, figures);
    }
    super::lab_markdown::approximation_lab(&mut s, &r.posteriors);
    reproducibility(&mut s, r);
    s
}

/// The sections of an experiment with runs, from its prior to its data set.
fn runs(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let e = &r.experiment;
    if e.prior_evidence {
        let _ = writeln!(s, "- prior: w ~ N(0, lambda^-1 I), lambda chosen per run by maximising the Laplace evidence");
    } else {
        let _ = writeln!(s, "- prior: w ~ N(0, {}^-1 I)", e.prior_precision);
    }
    let _ = writeln!(s, "- calibration bins: {}\n", e.calibration_bins);
    metrics(s, r);
    comparison(s, r);
    loo(s, r);
    log_evidence(s, r);
    approximation_error(s, r);
    calibration(s, r, figures);
    super::pictures::markdown(s, r, figures);
    weights(s, r, figures);
    coefficients(s, r);
    evidence(s, r, figures);
    convergence(s, r, figures);
    dataset(s, r);
}

/// The test-set metrics of every run with predictions.
fn metrics(s: &mut String, r: &ExperimentRecord) {
    let _ = writeln!(s, "## Test-set metrics\n");
    if tables::predictive_rows(r).is_empty() {
        let _ = writeln!(s, "No run produced predictions.\n");
    } else {
        table(s, &tables::metrics(r));
        let _ = writeln!(s, "{}\n", tables::METRICS_NOTE);
        let _ = writeln!(s, "{}\n", tables::ECE_NOTE);
    }
}

/// The paired comparison with the baseline run, when there is one.
fn comparison(s: &mut String, r: &ExperimentRecord) {
    if let Some(c) = &r.comparison {
        let _ = writeln!(s, "## Comparison with the baseline\n");
        let _ = writeln!(s, "A = `{}`, B = this run; paired bootstrap over test rows ({} resamples); lower is better, so a negative B − A is an improvement.\n", c.baseline, c.resamples);
        table(s, &tables::comparison(&c.rows));
    }
}

/// Leave-one-out cross-validation, when a run has it.
fn loo(s: &mut String, r: &ExperimentRecord) {
    if let Some(t) = tables::loo::loo_table(r) {
        let _ = writeln!(s, "## Leave-one-out cross-validation\n");
        table(s, &t);
        let _ = writeln!(s, "{}\n", tables::loo::LOO_NOTE);
        if let Some(line) = tables::loo::missing(r) {
            let _ = writeln!(s, "{line}\n");
        }
    }
}

/// Each run's log evidence against the true one, when known.
fn log_evidence(s: &mut String, r: &ExperimentRecord) {
    if let Some(e) = tables::log_evidence_table(r) {
        let _ = writeln!(s, "## Log evidence against the truth\n");
        for line in &e.sentences {
            let _ = writeln!(s, "{line}\n");
        }
        table(s, &e.table);
        let _ = writeln!(s, "Estimates: {}.\n", e.sources.join("; "));
        let _ = writeln!(s, "{}\n", tables::LOG_EVIDENCE_NOTE);
    }
}

/// Each approximation against the gold standard, when there is one.
fn approximation_error(s: &mut String, r: &ExperimentRecord) {
    if let Some(t) = tables::approximation_error(r) {
        let _ = writeln!(s, "## Approximation error against the gold standard\n");
        table(s, &t);
        let _ = writeln!(s, "{}\n", tables::APPROXIMATION_ERROR_NOTE);
    }
}

/// Each run's reliability diagram and calibration table.
fn calibration(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let _ = writeln!(s, "## Calibration\n");
    let _ = writeln!(s, "{}\n", super::plots::RELIABILITY_GUIDE);
    for run in r.runs.iter().filter(|run| !run.predictives.is_empty()) {
        let _ = writeln!(s, "### {}\n", run.id);
        figure(s, figures, &format!("reliability-{}", run.id));
        for p in &run.predictives {
            let _ = writeln!(
                s,
                "{} / {}: ECE {:.4}, MCE {:.4}, debiased ECE {}\n",
                run.id,
                p.name,
                p.metrics.ece,
                p.metrics.mce,
                tables::ece_debiased_text(p)
            );
            table(s, &tables::calibration(p));
        }
    }
}

/// The weights table and figures, when a run has weights.
fn weights(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    if let Some(t) = tables::weights(r) {
        let _ = writeln!(
            s,
            "## Weights\n\nPoint estimates; for runs with a posterior, mean ± 2 sd. On the {}.\n",
            r.dataset.weights_scale()
        );
        table(s, &t);
        figure(s, figures, "weights");
        for run in &r.runs {
            figure(s, figures, &format!("heatmaps-{}", run.id));
        }
    }
}

/// The evidence curves of the runs that chose lambda by it.
fn evidence(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let curves = tables::evidence(r);
    if !curves.is_empty() {
        let _ = writeln!(
            s,
            "## Evidence\n\nThe Laplace log evidence and the held-out log-loss (plug-in) over lambda; the chosen lambda maximises the evidence.\n"
        );
        for (run, t) in curves {
            let _ = writeln!(
                s,
                "### {}: lambda = {:.4e}{}\n",
                run.id,
                run.prior_precision.unwrap_or(f64::NAN),
                run.prior_precision_edge
                    .map_or(String::new(), |e| format!(" (at the {})", e.mark()))
            );
            if let Some(words) = tables::evidence_choice(run) {
                let _ = writeln!(s, "{words}\n");
            }
            figure(s, figures, &format!("evidence-{}", run.id));
            table(s, &t);
        }
    }
}

/// Every run's convergence, failures and sampler diagnostics, with the trace figures.
fn convergence(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let _ = writeln!(s, "## Convergence\n");
    table(s, &tables::convergence(r));
    if tables::any_posterior(r) {
        let _ = writeln!(s, "{}\n", tables::KHAT_NOTE);
    }
    for run in r.failed_runs() {
        let _ = writeln!(
            s,
            "**{} failed:** {}\n",
            run.id,
            run.error.as_deref().unwrap_or("")
        );
    }
    for (line, bad) in tables::sampler_diagnostics(r) {
        let _ = writeln!(
            s,
            "{}\n",
            if bad {
                format!("**{line}**")
            } else {
                format!("- {line}")
            }
        );
    }
    for f in figures
        .iter()
        .filter(|f| f.stem.starts_with("convergence-"))
    {
        figure(s, figures, &f.stem);
        // a rank plot is new to many readers: its figure says how to read it, as report.html's
        if f.stem.starts_with("convergence-chains-") {
            let _ = writeln!(s, "{}\n", f.guide);
        }
    }
}

/// The data set: files, target, classes, rows, columns, notes, features and their encoding.
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
    let _ = writeln!(
        s,
        "- classes ({}): {}",
        d.classes.len(),
        d.classes.join(", ")
    );
    let _ = writeln!(s, "- rows: {}", tables::split_and_classes(d));
    let _ = writeln!(
        s,
        "- design columns ({}): {}",
        d.columns.len(),
        d.columns.join(", ")
    );
    for n in &d.notes {
        let _ = writeln!(s, "- note: {n}");
    }
    s.push('\n');
    let caption = tables::features_caption(d, |f| format!("`{f}`"));
    let _ = writeln!(s, "Features: {caption}.\n");
    table(s, &tables::features(d));
    if !d.encoding.categorical.is_empty() {
        let _ = writeln!(s, "Categorical columns: {}.\n", tables::LEVELS_CAPTION);
        table(s, &tables::levels(&d.encoding));
    }
    if !d.encoding.imputed.is_empty() {
        let _ = writeln!(s, "Filled missing values: {}.\n", tables::IMPUTED_CAPTION);
        table(s, &tables::imputed(&d.encoding));
    }
}

fn reproducibility(s: &mut String, r: &ExperimentRecord) {
    let pv = &r.provenance;
    let _ = writeln!(s, "## Reproducibility\n");
    let _ = writeln!(
        s,
        "- bayeslab {}; seed {}; created {}; {} cores\n",
        pv.version, pv.seed, pv.created, pv.cores
    );
    table(s, &tables::data_files(r));
    let _ = writeln!(
        s,
        "The resolved experiment (every default filled in):\n\n```toml\n{}```",
        pv.config
    );
}

/// The coefficient tables, each under a heading that names its run and scale.
fn coefficients(s: &mut String, r: &ExperimentRecord) {
    let all = tables::coefficient_tables(r);
    if all.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Coefficients\n\n{}\n", tables::COEFFICIENTS_NOTE);
    for t in &all {
        let _ = writeln!(s, "### {}\n\n{}.\n", t.heading, t.caption);
        table(s, &t.table);
    }
}
