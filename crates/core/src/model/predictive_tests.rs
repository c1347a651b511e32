//! The predictives against their closed forms, quadrature and Monte Carlo.

use super::*;
use crate::numeric::rng::stream;

fn acts() -> Activations {
    Activations {
        mean: vec![-3.0, -1.0, -0.2, 0.0, 0.5, 2.0, 4.0],
        var: vec![0.1, 2.0, 0.5, 4.0, 1.0, 9.0, 0.3],
    }
}

#[test]
fn monte_carlo_converges_to_quadrature() {
    let a = acts();
    let exact = predict(
        PredictiveKind::Exact,
        &a,
        PredictiveSettings {
            mc_samples: 0,
            quadrature_nodes: 100,
            first_row: 0,
        },
        &mut stream(0, "x"),
    );
    let mut previous_err = f64::INFINITY;
    for s in [1_000, 100_000] {
        let mc = predict(
            PredictiveKind::Mc,
            &a,
            PredictiveSettings {
                mc_samples: s,
                quadrature_nodes: 1,
                first_row: 0,
            },
            &mut stream(3, "mc"),
        );
        let err = mc
            .iter()
            .zip(&exact)
            .map(|(m, e)| (m - e).abs())
            .fold(0.0, f64::max);
        // sd(sigma(a)) <= 0.5, so 5 sigma of the MC error is below 2.5 / sqrt(S)
        assert!(err < 2.5 / (s as f64).sqrt(), "S = {s}: max error {err}");
        assert!(err < previous_err);
        previous_err = err;
    }
}

#[test]
fn monte_carlo_is_the_same_on_any_number_of_threads() {
    // 1,000 rows span several blocks, and 1,003 samples leave a remainder after the lanes.
    let mean: Vec<f64> = (0..1000).map(|i| (i as f64 * 0.01).sin() * 3.0).collect();
    let var: Vec<f64> = (0..1000).map(|i| (i % 13) as f64 * 0.3).collect();
    let run =
        |threads: usize| crate::threads::on_threads(threads, || mc_rows(&mean, &var, 1003, 42, 0));
    let one = run(1);
    assert_eq!(run(2), one);
    assert_eq!(run(5), one);
    // Chunks of the same rows, predicted on their own, give the same numbers.
    let mut chunked = Vec::new();
    for (start, end) in [(0, 37), (37, 300), (300, 1000)] {
        chunked.extend(mc_rows(
            &mean[start..end],
            &var[start..end],
            1003,
            42,
            start,
        ));
    }
    assert_eq!(chunked, one);
    // Zero variance: every sample is sigma(mean) to rounding.
    let p = mc_rows(&[0.3, -2.0], &[0.0, 0.0], 100, 1, 0);
    assert!((p[0] - sigmoid(0.3)).abs() < 1e-15 && (p[1] - sigmoid(-2.0)).abs() < 1e-15);
}

#[test]
fn exact_matches_a_fine_riemann_sum_at_every_variance() {
    // Independent computation: midpoint rule over +-15 sd with 400k cells.
    let gh = GaussHermite::new(64);
    for (m, v) in [
        (0.7, 3.0),
        (-2.0, 0.25),
        (1.0, 1.0),
        (1.0, 1.0 + 1e-9),
        (0.5, 50.0),
        (-3.0, 400.0),
    ] {
        let q = logistic_normal(m, v, &gh);
        let sd: f64 = f64::sqrt(v);
        let cells = 400_000;
        let h = 30.0 * sd / cells as f64;
        let riemann: f64 = (0..cells)
            .map(|i| {
                let a = m - 15.0 * sd + (i as f64 + 0.5) * h;
                sigmoid(a) * crate::numeric::special::norm_pdf((a - m) / sd) / sd * h
            })
            .sum();
        assert!(
            (q - riemann).abs() < 1e-10,
            "m={m}, v={v}: {q} vs {riemann}"
        );
    }
}

#[test]
fn mackay_and_probit_stay_close_to_exact() {
    let a = acts();
    let settings = PredictiveSettings {
        mc_samples: 0,
        quadrature_nodes: 64,
        first_row: 0,
    };
    let exact = predict(PredictiveKind::Exact, &a, settings, &mut stream(0, ""));
    for kind in [PredictiveKind::Mackay, PredictiveKind::Probit] {
        let p = predict(kind, &a, settings, &mut stream(0, ""));
        for (x, e) in p.iter().zip(&exact) {
            assert!((x - e).abs() < 0.02, "{kind:?}: {x} vs {e}");
        }
    }
}

#[test]
fn zero_variance_reduces_to_the_plugin() {
    let a = Activations {
        mean: vec![-1.3, 0.4],
        var: vec![0.0, 0.0],
    };
    let settings = PredictiveSettings {
        mc_samples: 10,
        quadrature_nodes: 20,
        first_row: 0,
    };
    let plug = predict(PredictiveKind::Plugin, &a, settings, &mut stream(0, ""));
    for kind in PredictiveKind::ALL {
        let p = predict(kind, &a, settings, &mut stream(0, ""));
        for (x, e) in p.iter().zip(&plug) {
            // the probit approximation differs from sigma itself by at most ~0.02 at s2 = 0
            let tol = if kind == PredictiveKind::Probit {
                0.02
            } else {
                1e-12
            };
            assert!((x - e).abs() < tol, "{kind:?}");
        }
    }
}
