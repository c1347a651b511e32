//! The predictive-formulas panel of the Posterior screen (`f`; docs/maths.md §16) on
//! experiments/pictures_penguins.toml at 80x24 and 120x40: σ(a) against Φ(√(π/8)·a) on the
//! left, the moderated predictive against s² at μ_a = 2 on the right, each with labelled axes
//! and a legend naming every curve; the numbers it prints are checked against independent
//! computations. `f`, `w`, `i` and `s` are exclusive; `P` presents the panel, `Esc` leaves.
//! And the curves themselves (`output::formulas`, which the reports' figures draw too) against
//! closed forms and statrs' Φ.

use crate::util::tui::{ch, finished, key};
use bayeslab_report::formulas::{self, Curve, MAX_VAR, MU_A};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use statrs::distribution::{ContinuousCDF, Normal};

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

fn sigmoid(a: f64) -> f64 {
    1.0 / (1.0 + (-a).exp())
}

/// E[σ(a)] for a ~ N(mu, var) by the trapezoidal rule on ±12 sd with 20,000 intervals: an
/// independent check on the Gauss–Hermite integral the panel and the reports draw.
fn trapezoid(mu: f64, var: f64) -> f64 {
    let sd = var.sqrt();
    let n = 20_000;
    let h = 24.0 / f64::from(n);
    (0..=n)
        .map(|k| {
            let z = -12.0 + f64::from(k) * h;
            let w = if k == 0 || k == n { 0.5 } else { 1.0 };
            w * sigmoid(mu + sd * z) * (-0.5 * z * z).exp()
        })
        .sum::<f64>()
        * h
        / (2.0 * std::f64::consts::PI).sqrt()
}

#[test]
fn the_formulas_panel_draws_both_pictures_labelled_and_with_their_numbers() {
    let mut app = finished("pictures_penguins");
    app.update(ch('6'));
    app.update(ch('f'));
    let plug_in = format!("plug-in σ(μ) = {:.3}", sigmoid(MU_A));
    let at_16 = format!("exact {:.3}", trapezoid(MU_A, MAX_VAR));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        assert!(s.contains("σ(a) against Φ(√(π/8)·a)"), "{w}x{h}: {s}");
        assert!(s.contains("μ_a = 2"), "{w}x{h}: {s}");
        // the axes: values on the p(y = 1) scale, the activation and the variance
        for label in [
            "0.9",
            "0.5",
            "−6",
            "16",
            "s²",
            "x: activation a · y: p(y = 1)",
        ] {
            assert!(s.contains(label), "{w}x{h}: {label} missing: {s}");
        }
        // the legend names every curve
        for label in [
            "Φ(√(π/8)·a), the probit curve",
            "σ(a), the logistic sigmoid",
            "probit: Φ(μ/√(8/π + s²))",
            "MacKay: σ(μ/√(1 + πs²/8))",
            "Monte Carlo, 200 draws (± 2 MCSE)",
            "exact E[σ(a)]",
            "they differ by at most 0.018",
            "f: whiskers",
        ] {
            assert!(s.contains(label), "{w}x{h}: {label} missing: {s}");
        }
        assert!(s.contains(&plug_in), "{w}x{h}: {plug_in}: {s}");
        assert!(s.contains(&at_16), "{w}x{h}: {at_16}: {s}");
        // five y labels on the link panel's p(y = 1) axis at both sizes
        for label in ["0.25", "0.75"] {
            assert!(s.contains(label), "{w}x{h}: {label} missing: {s}");
        }
        let braille = s
            .chars()
            .filter(|c| ('\u{2801}'..='\u{28FF}').contains(c))
            .count();
        assert!(braille > 100, "{w}x{h}: {braille} braille cells");
        insta::assert_snapshot!(format!("formulas_penguins_{w}x{h}"), s);
    }
    // f again: the whiskers; the picture keys are exclusive
    app.update(ch('f'));
    assert!(screen(&app, 120, 40).contains("2 sd"));
    app.update(ch('w'));
    app.update(ch('f'));
    let s = screen(&app, 120, 40);
    assert!(s.contains("μ_a = 2") && !s.contains("pair 1/"), "{s}");
    app.update(ch('i'));
    let s = screen(&app, 120, 40);
    assert!(s.contains("Input space") && !s.contains("μ_a = 2"), "{s}");
    // P from the formulas: the panel alone fills the terminal; Esc brings the screens back
    app.update(ch('f'));
    app.update(ch('P'));
    let s = screen(&app, 80, 24);
    assert!(!s.contains("1 Experiments") && s.contains("μ_a = 2"), "{s}");
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[0].starts_with("\"┌ σ(a)") && lines[lines.len() - 1].starts_with("\"└"));
    insta::assert_snapshot!("present_formulas_80x24", s);
    app.update(key(ratatui::crossterm::event::KeyCode::Esc));
    let s = screen(&app, 120, 40);
    assert!(s.contains("1 Experiments") && s.contains("μ_a = 2"), "{s}");
}

#[test]
fn the_curves_are_the_closed_forms_and_the_integral() {
    let phi = Normal::standard();
    let t = (std::f64::consts::PI / 8.0).sqrt();
    let link = formulas::link();
    assert_eq!(link.sigmoid.curve, Curve::Sigmoid);
    assert_eq!(link.probit.curve, Curve::ProbitLink);
    assert_eq!(link.probit.points.len(), 601);
    for (&(a, s), &(b, p)) in link.sigmoid.points.iter().zip(&link.probit.points) {
        assert_eq!(a, b);
        assert!((s - sigmoid(a)).abs() < 1e-15, "σ({a})");
        // the probit curve is Φ(√(π/8)·a), by statrs' Φ (whose erfc is good to about 1e-12
        // here: at a = −3.2 it is 1.0e-12 below the C library's erfc, which the curve equals)
        assert!(
            (p - phi.cdf(t * a)).abs() < 1e-10,
            "Φ at a = {a}: {p} vs {}",
            phi.cdf(t * a)
        );
    }
    // the largest gap on the drawn points is the stated one (it is reached near |a| = 2.7,
    // inside the drawn range) and the known bound of about 0.0177 (Bishop 2006, §4.5.2)
    let drawn_gap = link
        .sigmoid
        .points
        .iter()
        .zip(&link.probit.points)
        .map(|(s, p)| (s.1 - p.1).abs())
        .fold(0.0, f64::max);
    assert!(
        (drawn_gap - link.gap).abs() < 1e-4,
        "{drawn_gap} {}",
        link.gap
    );
    assert!(link.gap > 0.017 && link.gap < 0.018, "{}", link.gap);

    let m = formulas::moderated(2014);
    assert_eq!(m.mu_a, MU_A);
    let [probit, mackay] = [&m.approximations[0], &m.approximations[1]];
    assert_eq!((probit.curve, mackay.curve), (Curve::Probit, Curve::MacKay));
    // at s² = 0 there is no moderation: MacKay and the exact curve are σ(μ_a), the probit one
    // Φ(√(π/8)·μ_a)
    assert_eq!(mackay.points[0], (0.0, sigmoid(MU_A)));
    assert!((m.exact.points[0].1 - sigmoid(MU_A)).abs() < 1e-12);
    assert!((probit.points[0].1 - phi.cdf(t * MU_A)).abs() < 1e-10);
    assert_eq!(m.plug_in, sigmoid(MU_A));
    // every point: the closed forms by statrs and the exact curve by an independent rule
    for ((p, k), e) in probit
        .points
        .iter()
        .zip(&mackay.points)
        .zip(&m.exact.points)
    {
        let v = p.0;
        let want = phi.cdf(MU_A / (8.0 / std::f64::consts::PI + v).sqrt());
        assert!((p.1 - want).abs() < 1e-10, "probit at s² = {v}");
        let kappa = 1.0 / (1.0 + std::f64::consts::PI * v / 8.0).sqrt();
        assert!(
            (k.1 - sigmoid(kappa * MU_A)).abs() < 1e-15,
            "MacKay at s² = {v}"
        );
        assert!((e.1 - trapezoid(MU_A, v)).abs() < 1e-7, "exact at s² = {v}");
        // the moderation pulls towards 1/2 and never across it
        assert!(e.1 > 0.5 && e.1 <= sigmoid(MU_A) + 1e-12);
    }
    // Monte Carlo at s² = 0, 1, …, 16: exact at 0 (every draw is σ(μ_a)), within 4 MCSE of
    // the integral elsewhere; the same seed gives the same draws
    assert_eq!(m.mc.len(), 17);
    // (to the rounding of a sum of 200 equal terms)
    assert!((m.mc[0].mean - sigmoid(MU_A)).abs() < 1e-14 && m.mc[0].se < 1e-14);
    for p in &m.mc[1..] {
        let exact = trapezoid(MU_A, p.var);
        assert!(
            p.se > 0.0 && (p.mean - exact).abs() < 4.0 * p.se,
            "{p:?} vs {exact}"
        );
    }
    assert_eq!(m, formulas::moderated(2014));
    assert_ne!(m.mc, formulas::moderated(2015).mc);
}
