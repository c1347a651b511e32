//! The reports' section "Pictures of the posterior" (report.html and report.md): the
//! weight-space picture and the predictive formulas, each with how to read it
//! (docs/guide/teaching.md says what a student should conclude from each).

use std::fmt::Write;

use super::html::elements::{escape, figure, prose};
use super::plots::Figure;
use bayeslab_core::record::ExperimentRecord;

/// The figures of the section, in order.
fn shown(figures: &[Figure]) -> Vec<&Figure> {
    [
        "weight-space-",
        "input-space",
        "predictive-formulas",
        "steps-",
    ]
    .iter()
    .flat_map(|p| figures.iter().filter(move |f| f.stem.starts_with(p)))
    .collect()
}

/// What the section says above its figures.
fn intro(r: &ExperimentRecord) -> String {
    format!(
        "What the posterior looks like and what each approximation makes of it, on the {} \
         (docs/guide/teaching.md says how to read each picture).",
        r.dataset.weights_scale()
    )
}

/// Why the input-space picture is missing, when the engine said so.
fn unavailable(r: &ExperimentRecord) -> Option<String> {
    let why = r.input_space.as_ref()?.unavailable.as_ref()?;
    Some(format!("No input-space picture: {why}."))
}

pub fn html(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let shown = shown(figures);
    if shown.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "<h2>Pictures of the posterior</h2><p>{}</p>",
        escape(&intro(r))
    );
    if let Some(why) = unavailable(r) {
        let _ = writeln!(s, "<p>{}</p>", escape(&why));
    }
    for f in shown {
        let _ = writeln!(s, "<h3>{}</h3>", prose(&f.caption));
        figure(s, f);
    }
}

pub fn markdown(s: &mut String, r: &ExperimentRecord, figures: &[Figure]) {
    let shown = shown(figures);
    if shown.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Pictures of the posterior\n\n{}\n", intro(r));
    if let Some(why) = unavailable(r) {
        let _ = writeln!(s, "{why}\n");
    }
    for f in shown {
        let _ = writeln!(s, "### {}\n", f.caption);
        let _ = writeln!(s, "![{}](plots/{}.svg)\n", f.caption, f.stem);
        let _ = writeln!(s, "{}\n", f.guide);
    }
}
