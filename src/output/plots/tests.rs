//! The figures drawn from hand-made records, read back as SVG: ticks that never repeat, every
//! class's weights drawn and named, legends clear of the marks, widths that fit the page.

use super::axis::{nice_ticks, whole};
use super::*;
use crate::output::fixture::{record, run, svg_circles, svg_texts, trace};

#[test]
fn ticks_of_whole_numbers_are_whole_and_decimal_ticks_step_by_one_two_or_five() {
    assert_eq!(
        nice_ticks(0.0, 5.0, 11, true),
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    );
    assert_eq!(nice_ticks(0.0, 2.0, 11, true), [0.0, 1.0, 2.0]);
    let sweeps = nice_ticks(0.0, 1200.0, 11, true);
    assert_eq!(sweeps.first(), Some(&0.0));
    assert_eq!(sweeps[1], 200.0);
    assert_eq!(nice_ticks(0.0, 1.0, 11, false).len(), 11);
    assert_eq!(nice_ticks(0.0, 1.0, 11, false)[1], 0.1);
    assert_eq!(whole(&3.0), "3");
    assert_eq!(whole(&2.5), "");
}

/// The tick labels along the bottom axis of a figure: texts level with each other at the
/// lowest row of numbers.
fn x_tick_labels(svg: &str) -> Vec<String> {
    let texts = svg_texts(svg);
    let numeric: Vec<&(f64, f64, String)> = texts
        .iter()
        .filter(|(_, _, t)| !t.is_empty() && t.parse::<f64>().is_ok())
        .collect();
    let y = numeric.iter().map(|t| t.1).fold(f64::MIN, f64::max);
    let mut row: Vec<&(f64, f64, String)> = numeric.into_iter().filter(|t| t.1 == y).collect();
    row.sort_by(|a, b| a.0.total_cmp(&b.0));
    row.into_iter().map(|t| t.2.clone()).collect()
}

#[test]
fn an_iteration_axis_reads_each_whole_number_once() {
    let mut r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![run("logistic", &[0.1, 0.2], Some(0.1), Some(0.2))],
    );
    r.trace = trace("logistic", 5);
    for which in [Trace::Gradient, Trace::Objective] {
        let f = convergence(&r, which);
        assert_eq!(
            x_tick_labels(&f.svg),
            ["0", "1", "2", "3", "4", "5"],
            "{which:?}"
        );
    }
}

#[test]
fn newton_beside_thousands_of_gradient_steps_gets_a_log_iteration_axis_and_its_own_width() {
    let mut r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![
            run("newton", &[0.1, 0.2], None, None),
            run("gradient", &[0.1, 0.2], None, None),
        ],
    );
    r.trace = trace("newton", 5);
    r.trace.extend(trace("gradient", 2000));
    let f = convergence(&r, Trace::Objective);
    assert!(f.svg.contains("iteration + 1 (log scale)"), "{}", f.svg);
    let labels = x_tick_labels(&f.svg);
    for decade in ["1", "10", "100", "1000"] {
        assert!(labels.iter().any(|l| l == decade), "{labels:?}");
    }
    // Newton's six marked points span a visible width (on a linear axis to 2,000 they would
    // all fall within 2 pixels of x = 0).
    let xs: Vec<f64> = svg_circles(&f.svg).iter().map(|c| c.0).collect();
    let spread =
        xs.iter().cloned().fold(f64::MIN, f64::max) - xs.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread > 100.0, "{xs:?}");
    // Runs of like lengths keep the linear axis.
    r.trace = trace("newton", 5);
    r.trace.extend(trace("gradient", 8));
    let f = convergence(&r, Trace::Objective);
    assert!(!f.svg.contains("log scale)"));
}

fn iris_like() -> crate::record::ExperimentRecord {
    let cols = [
        "intercept",
        "sepal_length",
        "sepal_width",
        "petal_length",
        "petal_width",
    ];
    let all: Vec<f64> = (0..15).map(|i| i as f64 / 4.0 - 1.5).collect();
    record(
        &cols,
        &["setosa", "versicolor", "virginica"],
        vec![
            run("softmax", &all, Some(0.3), None),
            run("softmax-reference", &all[5..], Some(0.3), None),
            run("lda", &[], None, None),
        ],
    )
}

#[test]
fn every_class_of_a_softmax_is_drawn_in_a_named_panel_with_a_legend_clear_of_the_marks() {
    let f = weights(&iris_like());
    let texts = svg_texts(&f.svg);
    let has = |s: &str| texts.iter().any(|t| t.2.contains(s));
    for class in ["y = setosa", "y = versicolor", "y = virginica"] {
        assert!(has(class), "no panel {class}");
    }
    assert!(has("reference class of softmax-reference: fixed at 0"));
    // the y axis spans the weights, not "0.0" at every tick
    let ticks: std::collections::BTreeSet<&str> = texts
        .iter()
        .filter(|t| t.2.parse::<f64>().is_ok())
        .map(|t| t.2.as_str())
        .collect();
    assert!(ticks.len() > 3, "{ticks:?}");
    // a mark per weight: 15 of softmax, 10 of the reference run; the legend's two dots
    let circles = svg_circles(&f.svg);
    let legend_y = texts
        .iter()
        .filter(|t| t.2 == "softmax" || t.2 == "softmax-reference")
        .map(|t| t.1)
        .fold(f64::MAX, f64::min);
    let marks: Vec<&(f64, f64)> = circles.iter().filter(|c| c.1 < legend_y - 8.0).collect();
    assert_eq!(marks.len(), 25);
    assert_eq!(circles.len(), 27);
    assert!(!has("lda"), "a run without weights has no key");
}

#[test]
fn many_weights_wrap_into_panels_that_fit_the_page() {
    let cols: Vec<String> = std::iter::once("intercept".to_string())
        .chain((0..64).map(|k| format!("p{k}")))
        .collect();
    let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
    let w: Vec<f64> = (0..65).map(|i| (i as f64).sin()).collect();
    let r = record(
        &cols,
        &["1", "8"],
        vec![
            run("logistic-map", &w, None, None),
            run("logistic-laplace", &w, Some(0.5), Some(1.33)),
        ],
    );
    let f = weights(&r);
    let doc = roxmltree::Document::parse(&f.svg).unwrap();
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    assert!(width <= 1040.0, "{width}");
    let texts = svg_texts(&f.svg);
    for label in [
        "intercept",
        "p0",
        "p31",
        "p63",
        "columns 1–33 of 65",
        "columns 34–65 of 65",
    ] {
        assert!(texts.iter().any(|t| t.2 == label), "no {label}");
    }
    // a mark per weight and run, and the legend's two dots
    assert_eq!(svg_circles(&f.svg).len(), 2 * 65 + 2);
}

#[test]
fn a_sweep_legend_covers_no_point() {
    let series: Vec<(String, Vec<(f64, f64)>)> =
        ["laplace/plugin", "laplace/mackay", "laplace/exact"]
            .iter()
            .map(|id| {
                let pts = [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1e3]
                    .iter()
                    .map(|&l: &f64| (l, 0.43 + 0.07 * l.log10().max(0.0)))
                    .collect();
                (id.to_string(), pts)
            })
            .collect();
    let f = against("prior.precision", "log-loss", &series);
    let texts = svg_texts(&f.svg);
    let legend_top = texts
        .iter()
        .filter(|t| t.2.starts_with("laplace/"))
        .map(|t| t.1)
        .fold(f64::MAX, f64::min);
    // the x axis title lies between the plot and the legend, and every point above both
    let axis_title = texts.iter().find(|t| t.2 == "prior.precision").unwrap().1;
    assert!(axis_title < legend_top);
    let points = svg_circles(&f.svg);
    assert_eq!(points.len(), 3 * 7);
    assert!(points.iter().all(|p| p.1 < axis_title), "{points:?}");
}
