//! The step-by-step strip: one panel per recorded step (its title in the SVG, its ellipses in
//! the step colour), in report.html as a figure and in report.md as a linked image.

use crate::fixture;
use bayeslab_core::record::{ExperimentRecord, FitStep, FitSteps, SiteUpdate, StepKind};

use super::canvas::look;

fn newton(k: usize) -> FitStep {
    let s = 1.0 / (1.0 + k as f64);
    FitStep {
        index: k,
        mean: vec![0.1 * k as f64, -0.2 * k as f64],
        cov: vec![vec![s, 0.3 * s], vec![0.3 * s, 2.0 * s]],
        site: None,
    }
}

fn site(k: usize) -> FitStep {
    FitStep {
        site: Some(SiteUpdate {
            row: k - 1,
            sweep: 1,
            direction: vec![1.0, -0.5],
            before_mean: vec![0.0, 0.0],
            before_cov: vec![vec![2.0, 0.0], vec![0.0, 2.0]],
            cavity: [0.0, 2.5],
            tilted: [0.9, 1.6],
            likelihood: bayeslab_core::catalog::Link::Logistic,
            beta: None,
        }),
        ..newton(k)
    }
}

fn record(kind: StepKind, steps: Vec<FitStep>, total: usize) -> ExperimentRecord {
    let mut run = fixture::run("m", &[0.1, 0.2], Some(1.0), None);
    run.steps = Some(FitSteps { kind, total, steps });
    fixture::record(&["intercept", "x"], &["0", "1"], vec![run])
}

fn titles(svg: &str, start: &str) -> Vec<String> {
    fixture::svg_texts(svg)
        .into_iter()
        .map(|t| t.2)
        .filter(|t| t.starts_with(start))
        .collect()
}

#[test]
fn the_strip_has_one_panel_per_recorded_step() {
    let r = record(StepKind::Newton, (0..7).map(newton).collect(), 7);
    let strips = super::steps::strips(&r);
    assert_eq!(strips.len(), 1);
    let svg = &strips[0].svg;
    let want: Vec<String> = (0..7).map(|k| format!("iterate {k}")).collect();
    assert_eq!(titles(svg, "iterate "), want);
    // two ellipses (50 and 90 %) per panel in the step colour
    let c = look(0).colour;
    let colour = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    let rings = svg
        .split("<polyline")
        .skip(1)
        .filter(|el| el.split("/>").next().unwrap_or_default().contains(&colour))
        .count();
    assert_eq!(rings, 7 * 2 + 1, "two per panel and the legend's swatch");

    let r = record(StepKind::EpSite, (1..=5).map(site).collect(), 30);
    let svg = &super::steps::strips(&r)[0].svg;
    assert_eq!(titles(svg, "update ").len(), 5);
    assert!(strip_caption(&r).contains("the first 5 of 30"));

    let r = record(StepKind::AdfExample, (1..=3).map(site).collect(), 3);
    let svg = &super::steps::strips(&r)[0].svg;
    assert_eq!(titles(svg, "n = "), ["n = 1", "n = 2", "n = 3"]);
}

fn strip_caption(r: &ExperimentRecord) -> String {
    super::steps::strips(r)[0].caption.clone()
}

#[test]
fn both_reports_show_the_strip_and_a_run_without_steps_has_none() {
    let r = record(StepKind::Newton, (0..3).map(newton).collect(), 3);
    let figures = crate::plots::figures(&r);
    let html = crate::html::report(&r, &figures);
    assert_eq!(
        html.matches("<figure class=\"fig\" id=\"steps-m\"").count(),
        1
    );
    for k in 0..3 {
        let title = format!(">\niterate {k}\n<");
        assert_eq!(html.matches(&title).count(), 1, "the panel of step {k}");
    }
    assert!(!html.contains("iterate 3"));
    let md = crate::markdown::report(&r, &figures);
    assert!(md.contains("](plots/steps-m.svg)"), "{md}");
    let mut plain = r.clone();
    plain.runs[0].steps = None;
    assert!(super::steps::strips(&plain).is_empty());
}
