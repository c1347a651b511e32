//! The pictures of the posterior as SVG: the contour paths of every method are present, in
//! its own colour, and the exact contours on top in black.

use crate::contour::{self, LEVELS};
use crate::fixture;
use bayeslab_core::record::{ExactSource, ExperimentRecord, PairDensity};

use super::canvas::look;

/// Each `<polyline>` of an SVG: (stroke colour, stroke width, number of points).
fn polylines(svg: &str) -> Vec<(String, String, usize)> {
    let attr = |el: &str, name: &str| {
        el.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|v| v.split('"').next())
            .unwrap_or_default()
            .to_string()
    };
    svg.split("<polyline")
        .skip(1)
        .map(|el| {
            let el = el.split("/>").next().unwrap_or_default();
            let points = attr(el, "points").split_whitespace().count();
            (attr(el, "stroke"), attr(el, "stroke-width"), points)
        })
        .collect()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// A standard normal over (w_i, w_j) on a grid, standing for a quadrature run's marginal.
fn normal_grid(pair: [usize; 2]) -> PairDensity {
    let n = 61;
    let mut p = PairDensity::new(
        pair,
        ([-5.0, 5.0], [-5.0, 5.0]),
        n,
        Vec::new(),
        ExactSource::Quadrature,
    );
    p.density = (0..n * n)
        .map(|c| {
            let (u, v) = p.at(c % n, c / n);
            (-(u * u + v * v) / 2.0).exp() / std::f64::consts::TAU
        })
        .collect();
    p
}

/// Laplace, a mean-field run and (with `exact`) a quadrature run over three weights.
fn record(exact: bool) -> ExperimentRecord {
    let laplace = fixture::run("laplace", &[0.1, 0.2, 0.3], Some(1.0), None);
    let mut mf = fixture::run("vi-mf", &[0.0, 0.1, 0.2], Some(0.6), None);
    mf.kind = bayeslab_core::catalog::MethodKind::ViLogistic;
    mf.mean_field = true;
    let mut runs = vec![laplace, mf];
    if exact {
        let mut q = fixture::run("exact", &[0.0, 0.0, 0.0], Some(1.0), None);
        q.kind = bayeslab_core::catalog::MethodKind::LogisticQuadrature;
        q.pair_densities = contour::pairs(3).into_iter().map(normal_grid).collect();
        runs.push(q);
    }
    fixture::record(&["(intercept)", "bill", "depth"], &["0", "1"], runs)
}

#[test]
fn every_method_has_its_contours_and_the_exact_ones_are_on_top() {
    let f = super::weight_space(&record(true), [1, 2]).expect("a figure");
    let lines = polylines(&f.svg);
    for k in 0..2 {
        let rings = lines
            .iter()
            .filter(|l| l.0 == hex(look(k).colour) && l.2 > 100)
            .count();
        assert_eq!(rings, LEVELS.len(), "series {k}: one ellipse per level");
    }
    let exact: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.0 == "#000000" && l.1 == "3" && l.2 > 20)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(exact.len(), LEVELS.len(), "one exact contour per level");
    let last_ellipse = lines.iter().rposition(|l| l.0 != "#000000").unwrap();
    assert!(exact[0] > last_ellipse, "the truth is drawn last");
    assert!(f.caption.contains("bill") && f.caption.contains("depth"));
    assert!(f.svg.contains("standardised") || f.svg.contains("original units"));
}

#[test]
fn without_a_quadrature_run_the_figure_says_so_and_draws_no_truth() {
    let f = super::weight_space(&record(false), [1, 2]).expect("a figure");
    let lines = polylines(&f.svg);
    assert!(!lines
        .iter()
        .any(|l| l.0 == "#000000" && l.1 == "3" && l.2 > 20));
    assert!(f.guide.contains("no quadrature run"), "{}", f.guide);
}

#[test]
fn the_probit_curve_stays_within_two_hundredths_of_the_sigmoid() {
    // the known bound of the pi/8 matching: max |sigma(a) - Phi(sqrt(pi/8) a)| is about 0.0177
    // (Bishop 2006, Fig. 4.9), reached near |a| = 2.7
    let gap = crate::formulas::link_gap();
    assert!(gap > 0.015 && gap < 0.02, "{gap}");
}

#[test]
fn monte_carlo_scatters_around_the_exact_integral_within_its_error() {
    use bayeslab_core::model::predictive::logistic_normal;
    let gh = bayeslab_core::numeric::quadrature::GaussHermite::new(64);
    let vars: Vec<f64> = (0..=16).map(f64::from).collect();
    let mc = crate::formulas::monte_carlo(11, &vars);
    for &crate::formulas::McPoint {
        var: v,
        mean: m,
        se,
    } in &mc
    {
        let exact = logistic_normal(crate::formulas::MU_A, v, &gh);
        assert!(
            (m - exact).abs() < 4.0 * se.max(1e-12) || v == 0.0,
            "s² = {v}: {m} ± {se} vs {exact}"
        );
    }
    // the closed forms stay within 0.02 of the exact integral, as the figure's guide says
    for k in 0..=160 {
        let v = f64::from(k) * crate::formulas::MAX_VAR / 160.0;
        let exact = logistic_normal(crate::formulas::MU_A, v, &gh);
        let probit = bayeslab_core::model::predictive::probit_approx(crate::formulas::MU_A, v);
        let mackay = bayeslab_core::model::predictive::mackay(crate::formulas::MU_A, v);
        assert!(
            (probit - exact).abs() < 0.02 && (mackay - exact).abs() < 0.02,
            "s² = {v}"
        );
    }
    // same seed, same draws; another seed, others
    assert_eq!(mc, crate::formulas::monte_carlo(11, &vars));
    assert_ne!(mc, crate::formulas::monte_carlo(12, &vars));
    let figs = super::formulas::formulas(11);
    assert_eq!(figs.len(), 2);
    // one error bar per Monte-Carlo estimate (17, at s² = 0, 1, …, 16), in the MC series'
    // colour, and the legend's swatch
    let bars = polylines(&figs[1].svg)
        .iter()
        .filter(|l| l.0 == hex(look(2).colour) && l.2 == 2)
        .count();
    assert_eq!(bars, 17 + 1);
}

#[test]
fn a_boundary_is_clipped_to_the_box_or_dropped() {
    use super::input_space::clip;
    // y = x through the unit box: corner to corner
    let seg = clip([0.0, 1.0, -1.0], [0.0, 1.0], [0.0, 1.0]).unwrap();
    assert_eq!(seg, [(0.0, 0.0), (1.0, 1.0)]);
    // x = 0.25 (vertical): from the bottom to the top edge
    let seg = clip([-0.25, 1.0, 0.0], [0.0, 1.0], [0.0, 2.0]).unwrap();
    assert_eq!(seg, [(0.25, 0.0), (0.25, 2.0)]);
    // y = x + 5 misses the box
    assert!(clip([5.0, 1.0, -1.0], [0.0, 1.0], [0.0, 1.0]).is_none());
}

/// The record without a quadrature run but with fallback contours of `source`.
fn fallback(source: ExactSource) -> ExperimentRecord {
    let mut r = record(false);
    let mut p = normal_grid([1, 2]);
    p.source = source;
    r.exact_contours = Some(bayeslab_core::record::ExactContours {
        source,
        run: "laplace".into(),
        mode: Some(vec![0.1, 0.0, 0.0]),
        pairs: vec![p],
    });
    r
}

#[test]
fn a_slice_is_labelled_as_one_in_the_svg_and_drawn_in_black() {
    let f = super::weight_space(&fallback(ExactSource::Slice), [1, 2]).expect("a figure");
    assert!(
        f.svg.contains("slice through the mode, not a marginal"),
        "the label is on the figure"
    );
    assert!(f.caption.contains("not a marginal"));
    let black = polylines(&f.svg)
        .into_iter()
        .filter(|l| l.0 == "#000000" && l.1 == "3" && l.2 > 20)
        .count();
    assert_eq!(black, LEVELS.len());
    // a pair with no slice kept draws no truth and says why
    let g = super::weight_space(&fallback(ExactSource::Slice), [0, 1]).expect("a figure");
    assert!(
        g.guide.contains("No exact contours for this pair"),
        "{}",
        g.guide
    );
}

#[test]
fn draws_contours_use_the_levels_found_from_the_draws() {
    let mut r = fallback(ExactSource::Draws);
    // levels of N(0, I)'s 50/90/99 % regions, exp(-chi2/2) / 2 pi: the contours must be the
    // circles of radius sqrt(chi2), whatever the grid's own mass says
    let levels: Vec<f64> = LEVELS
        .iter()
        .map(|m| (1.0 - m) / std::f64::consts::TAU)
        .collect();
    r.exact_contours.as_mut().unwrap().pairs[0].levels = Some(levels);
    let f = super::weight_space(&r, [1, 2]).expect("a figure");
    assert!(f.svg.contains("draws"));
    let p = &r.exact_contours.as_ref().unwrap().pairs[0];
    for (m, lines) in LEVELS.iter().zip(contour::exact_lines(p)) {
        let radius = contour::chi2_2(*m).sqrt();
        for (u, v) in lines.iter().flatten() {
            assert!(((u * u + v * v).sqrt() - radius).abs() < 0.05, "m = {m}");
        }
    }
}
