//! report.html: one self-contained file (inline CSS and SVG, no scripts, fonts or links) with
//! the same tables as report.md and every figure drawn inline.

use std::fmt::Write;

use super::plots::Figure;
use super::tables::{self, Mark, Table};
use crate::record::ExperimentRecord;

pub const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
h1{font-size:1.6em;border-bottom:2px solid #1f77b4;padding-bottom:.2em}h2{margin-top:2em;border-bottom:1px solid #ddd}\
.table{overflow-x:auto;margin:.6em 0 1.2em}table{border-collapse:collapse;font-size:.9em}th,td{border:1px solid #ccc;padding:.25em .6em}\
td{white-space:nowrap}td.wrap{white-space:normal;min-width:20em}\
th{background:#f3f6fa}td.num{text-align:right;font-variant-numeric:tabular-nums}td.best{font-weight:bold;background:#e8f4e8}td.warn{font-weight:bold;background:#fbe9e9;color:#a00}\
.figs{display:flex;flex-wrap:wrap;gap:1em}.fig{margin:0}.fig figcaption{font-size:.85em;color:#555}\
pre{background:#f6f8fa;padding:1em;overflow:auto;font-size:.85em}.failed{color:#b00}code{background:#f3f3f3;padding:0 .2em}";

/// Escape text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Prose shared with report.md as HTML: escaped, with its `code` spans as <code> (unbalanced
/// backticks are dropped).
pub fn prose(text: &str) -> String {
    let escaped = escape(text);
    if escaped.matches('`').count() % 2 == 1 {
        return escaped.replace('`', "");
    }
    escaped
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

/// Cells longer than this (a failure message, a path) may wrap; shorter ones (names, numbers,
/// "0.26 good") stay on one line, and a table too wide for the page scrolls sideways.
const WRAP_CHARS: usize = 40;

pub fn table(s: &mut String, t: &Table) {
    s.push_str("<div class=\"table\"><table><thead><tr>");
    for h in &t.headers {
        let _ = write!(s, "<th>{}</th>", escape(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for row in &t.rows {
        s.push_str("<tr>");
        for (c, numeric) in row.iter().zip(&t.numeric) {
            let mut class = Vec::new();
            if *numeric {
                class.push("num");
            }
            match c.mark {
                Mark::Best => class.push("best"),
                Mark::Warn => class.push("warn"),
                Mark::Plain => {}
            }
            if c.text.chars().count() > WRAP_CHARS {
                class.push("wrap");
            }
            let attr = if class.is_empty() {
                String::new()
            } else {
                format!(" class=\"{}\"", class.join(" "))
            };
            let _ = write!(s, "<td{attr}>{}</td>", escape(&c.text));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
}

pub fn figure(s: &mut String, f: &Figure) {
    // plotters writes a prolog-free <svg> element, valid inline in HTML5.
    let _ = writeln!(
        s,
        "<figure class=\"fig\" id=\"{}\">{}<figcaption>{}</figcaption></figure>",
        escape(&f.stem),
        f.svg,
        escape(&f.caption)
    );
}

fn figures_with_prefix(s: &mut String, figures: &[Figure], prefix: &str) {
    let mine: Vec<&Figure> = figures
        .iter()
        .filter(|f| f.stem.starts_with(prefix))
        .collect();
    if mine.is_empty() {
        return;
    }
    s.push_str("<div class=\"figs\">\n");
    for f in mine {
        figure(s, f);
    }
    s.push_str("</div>\n");
}

pub fn report(r: &ExperimentRecord, figures: &[Figure]) -> String {
    let e = &r.experiment;
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>bayeslab report: {}</title><style>{STYLE}</style></head><body>\n",
        escape(&e.name)
    );
    let _ = writeln!(s, "<h1>bayeslab report: {}</h1>", escape(&e.name));
    if let Some(desc) = &e.description {
        let _ = writeln!(s, "<p>{}</p>", escape(desc));
    }
    let _ = write!(
        s,
        "<ul><li>experiment file: <code>{}</code></li><li>seed: {}</li>",
        escape(&e.file),
        e.seed
    );
    if !r.runs.is_empty() {
        if e.prior_evidence {
            s.push_str("<li>prior: w ~ N(0, λ<sup>-1</sup> I), λ chosen per run by maximising the Laplace evidence</li>");
        } else {
            let _ = write!(
                s,
                "<li>prior: w ~ N(0, {}<sup>-1</sup> I)</li>",
                e.prior_precision
            );
        }
        let _ = write!(
            s,
            "<li>calibration bins: {} ({})</li>",
            e.calibration_bins,
            e.calibration_binning.name()
        );
    }
    s.push_str("</ul>\n");

    if !r.runs.is_empty() {
        classification(&mut s, r, figures);
    }
    if !r.posteriors.is_empty() {
        use super::lab_markdown as lab;
        let _ = writeln!(s, "<h2>Approximation lab</h2><p>{}</p>", escape(lab::INTRO));
        for p in &r.posteriors {
            let _ = writeln!(
                s,
                "<h3>{}</h3><p>Exact: {} (parameter: {}).</p>",
                escape(&lab::heading(p)),
                escape(&p.exact_form),
                escape(&p.parameter)
            );
            if let Some(f) = figures.iter().find(|f| f.stem == lab::density_stem(p)) {
                figure(&mut s, f);
            }
            table(&mut s, &lab::summary(p));
            s.push_str("<ul>");
            for note in lab::notes(p) {
                let _ = write!(s, "<li>{}</li>", escape(&note));
            }
            s.push_str("</ul>\n");
            if let Some(t) = lab::gini(p) {
                let _ = writeln!(
                    s,
                    "<p>Gini coefficient from simulated draws (MCSE = sd / sqrt(draws)):</p>"
                );
                table(&mut s, &t);
            }
            if let Some(t) = lab::modes(p) {
                let _ = writeln!(
                    s,
                    "<p>Laplace components (weights from each mode's Laplace evidence):</p>"
                );
                table(&mut s, &t);
            }
        }
    }

    let pv = &r.provenance;
    let _ = writeln!(s, "<h2>Reproducibility</h2>");
    let _ = writeln!(
        s,
        "<p>bayeslab {}; seed {}; created {}; {} cores</p>",
        escape(&pv.version),
        pv.seed,
        escape(&pv.created),
        pv.cores
    );
    table(&mut s, &tables::data_files(r));
    let _ = writeln!(
        s,
        "<p>The resolved experiment (every default filled in):</p><pre>{}</pre>",
        escape(&pv.config)
    );
    s.push_str("</body></html>\n");
    s
}

/// The classification sections: dataset, metrics, calibration, convergence, weights, evidence,
/// baseline comparison.
fn classification(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
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
    if d.classes.len() > 2 {
        let _ = writeln!(
            s,
            "<li>classes ({}): {}</li>",
            d.classes.len(),
            escape(&d.classes.join(", "))
        );
        let _ = writeln!(
            s,
            "<li>training rows: {}; test rows: {}</li>",
            d.rows_train, d.rows_test
        );
    } else {
        let _ = writeln!(
            s,
            "<li>training rows: {} ({} positive); test rows: {} ({} positive)</li>",
            d.rows_train, d.positives_train, d.rows_test, d.positives_test
        );
    }
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
    table(s, &tables::features(r));

    let _ = writeln!(s, "<h2>Test-set metrics</h2>");
    if tables::predictive_rows(r).is_empty() {
        s.push_str("<p>No run produced predictions.</p>\n");
    } else {
        table(s, &tables::metrics(r));
        s.push_str("<p>Highlighted: the best value per column. Log-loss clips p to [1e-15, 1 − 1e-15]; the ECE interval is a bootstrap percentile interval over test rows.</p>\n");
    }

    let _ = writeln!(s, "<h2>Calibration</h2>");
    s.push_str("<div class=\"figs\">\n");
    for (run, p) in tables::predictive_rows(r) {
        if let Some(f) = figures
            .iter()
            .find(|f| f.stem == format!("reliability-{}-{}", run.id, p.name))
        {
            figure(s, f);
        }
    }
    s.push_str("</div>\n");
    for (run, p) in tables::predictive_rows(r) {
        let _ = writeln!(
            s,
            "<details><summary>bins of {} / {} (ECE {:.4}, MCE {:.4})</summary>",
            escape(&run.id),
            escape(&p.name),
            p.metrics.ece,
            p.metrics.mce
        );
        table(s, &tables::calibration(p));
        s.push_str("</details>\n");
    }

    let _ = writeln!(s, "<h2>Convergence</h2>");
    table(s, &tables::convergence(r));
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

    if let Some(t) = tables::approximation_error(r) {
        let _ = writeln!(s, "<h2>Approximation error against the gold standard</h2>");
        table(s, &t);
        let _ = writeln!(s, "<p>{}</p>", prose(tables::APPROXIMATION_ERROR_NOTE));
    }

    if let Some(t) = tables::weights(r) {
        let _ = writeln!(s, "<h2>Weights</h2>");
        figures_with_prefix(s, figures, "weights");
        figures_with_prefix(s, figures, "heatmaps-");
        let _ = writeln!(s, "<details><summary>table of weights</summary>");
        table(s, &t);
        s.push_str("</details>\n");
    }

    if let Some(c) = &r.comparison {
        let _ = writeln!(s, "<h2>Comparison with the baseline</h2>");
        let _ = writeln!(s, "<p>A = <code>{}</code>, B = this run; paired bootstrap over test rows ({} resamples); lower is better, so a negative B − A is an improvement.</p>", escape(&c.baseline), c.resamples);
        table(s, &tables::comparison(&c.rows));
    }

    let curves = tables::evidence(r);
    if !curves.is_empty() {
        let _ = writeln!(s, "<h2>Evidence</h2><p>The Laplace log evidence and the held-out log-loss (plug-in) over lambda; the chosen lambda (vertical line, highlighted row) maximises the evidence.</p>");
        for (run, t) in curves {
            if let Some(f) = figures
                .iter()
                .find(|f| f.stem == format!("evidence-{}", run.id))
            {
                figure(s, f);
            }
            let _ = writeln!(
                s,
                "<details><summary>evidence curve of {}</summary>",
                escape(&run.id)
            );
            table(s, &t);
            s.push_str("</details>\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_keeps_its_code_spans_and_escapes_the_rest() {
        assert_eq!(
            prose("run longer chains (`draws`, `burn_in`) if R-hat > 1.01 & <x>"),
            "run longer chains (<code>draws</code>, <code>burn_in</code>) if R-hat &gt; 1.01 &amp; &lt;x&gt;"
        );
        assert_eq!(prose("an odd ` backtick"), "an odd  backtick");
    }

    #[test]
    fn short_cells_stay_on_one_line_and_long_ones_wrap() {
        let message = "not positive definite: the Hessian of E at w has pivot 3 <= 0; raise the prior precision";
        let t = Table {
            headers: vec!["run".into(), "termination".into(), "k-hat".into()],
            numeric: vec![false, false, true],
            rows: vec![vec![
                "probit-laplace".into(),
                message.into(),
                "0.26 good".into(),
            ]],
        };
        let mut s = String::new();
        table(&mut s, &t);
        assert!(s.starts_with("<div class=\"table\"><table>") && s.ends_with("</table></div>\n"));
        assert!(s.contains("<td>probit-laplace</td>"));
        assert!(s.contains(&format!("<td class=\"wrap\">{}</td>", escape(message))));
        assert!(s.contains("<td class=\"num\">0.26 good</td>"));
        // the rule the classes rely on
        assert!(STYLE.contains("td{white-space:nowrap}td.wrap{white-space:normal"));
        // the best value green, a warning red
        let marked = |mark| Table {
            headers: vec!["k-hat".into()],
            numeric: vec![true],
            rows: vec![vec![tables::Cell {
                text: "0.82 bad".into(),
                mark,
            }]],
        };
        for (mark, class) in [(Mark::Best, "num best"), (Mark::Warn, "num warn")] {
            let mut s = String::new();
            table(&mut s, &marked(mark));
            assert!(
                s.contains(&format!("<td class=\"{class}\">0.82 bad</td>")),
                "{s}"
            );
        }
        assert!(STYLE.contains("td.best{font-weight:bold;background:#e8f4e8}"));
        assert!(STYLE.contains("td.warn{font-weight:bold;background:#fbe9e9;color:#a00}"));
    }
}
