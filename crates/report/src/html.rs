//! report.html: one self-contained file (inline CSS and SVG, no scripts, fonts or links) with
//! the same tables as report.md and every figure drawn inline.

use std::fmt::Write;

mod classification;
pub(crate) mod elements;
#[cfg(test)]
mod tests;

pub use elements::{escape, figure, prose, table, STYLE};

use super::plots::Figure;
use super::tables;
use bayeslab_core::record::ExperimentRecord;
use classification::classification;

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
