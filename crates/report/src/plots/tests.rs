//! The figures drawn from hand-made records, read back as SVG: ticks that never repeat, every
//! class's weights drawn and named, legends clear of the marks, widths that fit the page.

use super::axis::{nice_ticks, whole};
use super::*;
use crate::fixture::{record, run, svg_circles, svg_texts, trace};

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
    for which in [Trace::Gradient, Trace::Objective(Objective::Energy)] {
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
    let f = convergence(&r, Trace::Objective(Objective::Energy));
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
    let f = convergence(&r, Trace::Objective(Objective::Energy));
    assert!(!f.svg.contains("log scale)"));
}

fn iris_like() -> bayeslab_core::record::ExperimentRecord {
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

/// The `<polygon>` elements of an SVG (plotters' triangle markers), as their first point.
fn svg_polygons(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .count()
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
    // the x axis spans the weights, not "0.0" at every tick
    let ticks: std::collections::BTreeSet<&str> = texts
        .iter()
        .filter(|t| t.2.parse::<f64>().is_ok())
        .map(|t| t.2.as_str())
        .collect();
    assert!(ticks.len() > 3, "{ticks:?}");
    // a mark per weight: softmax's 15 as circles, the reference run's 10 as triangles, and
    // each one's legend swatch under the panels
    let circles = svg_circles(&f.svg);
    let legend_y = texts
        .iter()
        .filter(|t| t.2 == "softmax" || t.2 == "softmax-reference")
        .map(|t| t.1)
        .fold(f64::MAX, f64::min);
    let marks: Vec<&(f64, f64)> = circles.iter().filter(|c| c.1 < legend_y - 8.0).collect();
    assert_eq!(marks.len(), 15);
    assert_eq!(circles.len(), 16);
    assert_eq!(svg_polygons(&f.svg), 11);
    assert!(!has("lda"), "a run without weights has no key");
}

#[test]
fn weights_are_a_forest_plot_with_every_name_level_on_the_y_axis() {
    let cols: Vec<String> = std::iter::once("intercept".to_string())
        .chain((0..64).map(|k| format!("p{k}")))
        .collect();
    let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
    let w: Vec<f64> = (0..65).map(|i| (i as f64).sin()).collect();
    let mut r = record(
        &cols,
        &["1", "8"],
        vec![
            run("logistic-map", &w, None, None),
            run("logistic-laplace", &w, Some(0.5), Some(1.33)),
        ],
    );
    r.dataset.standardized = true;
    let f = weights(&r);
    assert!(f.caption.contains("standardised scale"), "{}", f.caption);
    let doc = roxmltree::Document::parse(&f.svg).unwrap();
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(width, 1000.0);
    // every name once, level (no rotation), left of the plot, one row each, top to bottom
    let names: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && cols.contains(&n.text().unwrap_or("").trim()))
        .collect();
    assert_eq!(names.len(), 65);
    assert!(names.iter().all(|n| n.attribute("transform").is_none()));
    let y = |n: &roxmltree::Node| n.attribute("y").unwrap().parse::<f64>().unwrap();
    assert!(names.windows(2).all(|w| y(&w[0]) < y(&w[1])));
    // a mark per weight and run: the MAP's circles, Laplace's triangles, and their swatches
    assert_eq!(svg_circles(&f.svg).len(), 65 + 1);
    assert_eq!(svg_polygons(&f.svg), 65 + 1);
}

#[test]
fn sixteen_series_differ_in_colour_and_in_marker_or_dash() {
    use super::canvas::look;
    let looks: Vec<_> = (0..16).map(look).collect();
    for i in 0..16 {
        for j in 0..i {
            let (a, b) = (looks[i], looks[j]);
            assert_ne!(a.colour, b.colour, "{i} and {j} share a colour");
        }
    }
    // without colour, every series still has a marker, and the looks repeat no sooner than
    // every fourth series among the first eight
    let shapes: std::collections::BTreeSet<String> = looks
        .iter()
        .map(|l| format!("{:?} {}", l.marker, l.dashed))
        .collect();
    assert_eq!(shapes.len(), 8);
    // a 17th series shares the first's colour but not its marker
    assert_eq!(look(16).colour, look(0).colour);
    assert_ne!(look(16).marker, look(0).marker);
}

#[test]
fn a_sweep_legend_covers_no_point() {
    let series: Vec<(String, Vec<(f64, f64)>)> =
        ["laplace/plugin", "laplace/mackay", "laplace/exact"]
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let pts = [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1e3]
                    .iter()
                    .map(|&l: &f64| (l, 0.43 + 0.07 * l.log10().max(0.0) + 0.01 * i as f64))
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
    let points: Vec<(f64, f64)> = svg_circles(&f.svg)
        .into_iter()
        .filter(|p| p.1 < axis_title)
        .collect();
    assert_eq!(points.len(), 7, "the first series' circles");
}

#[test]
fn a_series_hidden_under_an_identical_one_says_so_in_the_legend() {
    let pts: Vec<(f64, f64)> = (0..5).map(|i| (i as f64, 0.4 + 0.01 * i as f64)).collect();
    let series = vec![
        ("laplace/mackay".to_string(), pts.clone()),
        ("laplace/plugin".to_string(), pts),
    ];
    let f = against("prior.precision", "log-loss", &series);
    let texts = svg_texts(&f.svg);
    assert!(
        texts
            .iter()
            .any(|t| t.2 == "laplace/plugin (= laplace/mackay, under it)"),
        "{texts:?}"
    );
}

/// A sampler run of two chains over one weight: chain 1 starts at 100 in its burn-in, then
/// both wander in [-1, 1]; R-hat 1.2, so the chains count as not mixed.
fn sampler_run() -> bayeslab_core::record::RunRecord {
    use bayeslab_core::record::{ChainWeight, ChainsRecord, Diagnostics};
    let mut r = run("gibbs", &[0.0], Some(0.5), None);
    r.kind = bayeslab_core::catalog::MethodKind::GibbsLogistic;
    r.diagnostics = Some(Diagnostics {
        rhat_max: 1.2,
        ess_min: 50.0,
        hmc: None,
    });
    let sweeps: Vec<usize> = (1..=60).collect();
    let wave = |c: usize, s: usize| match (c, s) {
        (1, s) if s <= 5 => 100.0,
        (c, s) => ((s + 7 * c) as f64 * 0.7).sin(),
    };
    r.chains = Some(ChainsRecord {
        chains: 2,
        burn_in: 10,
        draws: 50,
        thin: 1,
        weights: vec![ChainWeight {
            column: "glu".into(),
            rhat: 1.2,
            trace: (0..2)
                .map(|c| sweeps.iter().map(|&s| wave(c, s)).collect())
                .collect(),
            sweeps,
            ranks: vec![vec![0, 0, 10, 40], vec![40, 10, 0, 0]],
        }],
    });
    r
}

#[test]
fn a_sampler_gets_every_chain_traced_on_the_kept_draws_scale_and_a_rank_plot() {
    let r = record(&["glu"], &["0", "1"], vec![sampler_run()]);
    let all = figures(&r);
    assert!(
        all.iter().all(|f| f.stem != "convergence-sampler"),
        "no chain-0-only E(w) chart"
    );
    let f = all
        .iter()
        .find(|f| f.stem == "convergence-chains-gibbs")
        .expect("the chains figure");
    let texts: Vec<String> = svg_texts(&f.svg).into_iter().map(|t| t.2).collect();
    for want in [
        "chain 0",
        "chain 1",
        "rank plot",
        "glu — R-hat 1.200 NOT MIXED",
    ] {
        assert!(texts.iter().any(|t| t == want), "{want} missing: {texts:?}");
    }
    assert!(f.caption.contains("NOT MIXED"), "{}", f.caption);
    assert!(texts
        .iter()
        .any(|t| t.starts_with("sweep (shaded: burn-in")));
    // The y ticks of the trace span the kept draws, not the burn-in's start at 100.
    // (decimal ticks are the trace's y axis; sweeps and ranks are whole numbers)
    let y: Vec<f64> = texts
        .iter()
        .filter(|t| t.contains('.'))
        .filter_map(|t| t.parse::<f64>().ok())
        .collect();
    assert!(y.contains(&-0.5) && y.contains(&0.5), "{texts:?}");
    assert!(y.iter().all(|v| v.abs() <= 1.2), "{texts:?}");
    // Both chains drawn: two colours of line, and each chain's rank bars.
    for c in [super::canvas::look(0).colour, super::canvas::look(1).colour] {
        let hex = format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert!(f.svg.to_uppercase().matches(&hex).count() > 4, "{hex}");
    }
}

#[test]
fn report_md_shows_the_chains_figure_with_how_to_read_it() {
    let r = record(&["glu"], &["0", "1"], vec![sampler_run()]);
    let md = crate::markdown::report(&r, &figures(&r));
    let at = md
        .find("(plots/convergence-chains-gibbs.svg)")
        .expect("the figure");
    assert!(md[at..].contains("the rank plot"), "{}", &md[at..]);
}

#[test]
fn runs_inside_the_range_split_where_a_trace_leaves_it() {
    let pts = [
        (1.0, 100.0),
        (2.0, 0.5),
        (3.0, 0.2),
        (4.0, 50.0),
        (5.0, 0.1),
    ];
    let runs = super::chains::inside(&pts, -1.0, 1.0);
    assert_eq!(runs, vec![vec![(2.0, 0.5), (3.0, 0.2)], vec![(5.0, 0.1)]]);
}

#[test]
fn eps_site_change_is_never_drawn_on_the_gradient_norm_axis() {
    let mut ep = run("ep", &[0.1, 0.2], Some(0.1), None);
    ep.kind = bayeslab_core::catalog::MethodKind::EpProbit;
    let mut r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![run("laplace", &[0.1, 0.2], Some(0.1), None), ep],
    );
    r.trace = trace("laplace", 5);
    r.trace.extend(trace("ep", 4));
    let all = figures(&r);
    let texts = |stem: &str| -> Vec<String> {
        let f = all.iter().find(|f| f.stem == stem).expect(stem);
        svg_texts(&f.svg).into_iter().map(|t| t.2).collect()
    };
    let gradient = texts("convergence-gradient");
    assert!(gradient.iter().any(|t| t == "laplace"), "{gradient:?}");
    assert!(!gradient.iter().any(|t| t == "ep"), "{gradient:?}");
    let site = texts("convergence-site-distance");
    assert!(site.iter().any(|t| t == "ep") && !site.iter().any(|t| t == "laplace"));
    assert!(
        site.iter().any(|t| t == "site change (log scale)"),
        "{site:?}"
    );
    // its x axis counts sweeps over the sites, never optimiser iterations
    assert!(site.iter().any(|t| t == "sweep over the sites"), "{site:?}");
    assert!(gradient.iter().any(|t| t == "iteration"), "{gradient:?}");
}
