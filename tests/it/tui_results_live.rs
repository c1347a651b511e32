//! What Results and Live say at 80x24 and 120x40 (issue 16): every Gaussian posterior's
//! k-hat with its PSIS verdict and the evidence-chosen lambda on Results; on Live a legend for
//! every chart, each run over its own iterations, and gauges that say what each kind did.
//! Snapshots (ratatui TestBackend + insta) and assertions on shipped experiments run for real.

use crate::util::tui::{app_on, ch, finished};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn draw(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal
}

fn snap(app: &App, name: &str) {
    for (w, h) in SIZES {
        let terminal = draw(app, w, h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), terminal.backend());
    }
}

/// Every Gaussian posterior's k-hat with its PSIS verdict, BAD included, and the lambda each
/// run's evidence chose, on Results.
#[test]
fn results_show_khat_verdicts_and_the_evidence_lambda() {
    let mut app = finished("ep_vs_laplace");
    app.update(ch('4'));
    let record = app.session.as_ref().unwrap().record.clone().unwrap();
    let laplace = record
        .runs
        .iter()
        .find(|r| r.id == "logistic-laplace")
        .unwrap();
    let bad = format!("{:.2} BAD", laplace.khat.unwrap());
    assert!(laplace.khat.unwrap() > 0.7);
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        // its two rows (plugin, exact), and no other run's
        let rows: Vec<&str> = screen.lines().filter(|l| l.contains(&bad)).collect();
        assert_eq!(rows.len(), 2, "{w}x{h}:\n{screen}");
        assert!(rows.iter().all(|r| r.contains("│logist")), "{rows:?}");
        assert!(screen.contains("k-hat"), "{screen}");
    }
    snap(&app, "khat_results");
    let mut app = finished("evidence_prior");
    app.update(ch('4'));
    let record = app.session.as_ref().unwrap().record.clone().unwrap();
    let chosen = record.runs[0].prior_precision.unwrap();
    let text = format!(
        "prior precision chosen by evidence: logistic λ = {chosen:.3}, probit λ = {:.3}",
        record.runs[1].prior_precision.unwrap()
    );
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        assert!(screen.contains(&text), "{w}x{h}: {text} missing:\n{screen}");
    }
    // and on Live, in the legend of the run that chose it
    app.update(ch('3'));
    let text = format!("━━ logistic: 5 iterations, λ = {chosen:.3} by evidence");
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        assert!(screen.contains(&text), "{w}x{h}: {text} missing:\n{screen}");
    }
}

/// Every convergence chart keeps its legend at 80x24 (ratatui's in-chart legend hid itself on
/// quickstart, gibbs_vs_laplace and iris), each run is drawn over its own iterations (x to
/// 100 %), and a lab-only experiment says why nothing is plotted.
#[test]
fn live_charts_keep_their_legend_and_each_run_its_own_x_range() {
    let legend = |app: &App, entries: &[&str]| {
        for (w, h) in SIZES {
            let screen = draw(app, w, h).backend().to_string();
            for text in entries {
                assert!(screen.contains(text), "{w}x{h}: {text} missing:\n{screen}");
            }
            assert!(screen.contains("100 %"), "{w}x{h}:\n{screen}");
            assert!(screen.contains("x: each run over its own iterations"));
        }
    };
    let mut app = finished("iris_multiclass");
    app.update(ch('3'));
    legend(
        &app,
        &[
            "━━ softmax: 7 iterations",
            "━━ softmax-reference: 7 iterations",
        ],
    );
    snap(&app, "iris_live");
    let mut app = finished("gibbs_vs_laplace");
    app.update(ch('3'));
    // t: the rank plots, t again: neither
    app.update(ch('t'));
    app.update(ch('t'));
    // the samplers have no convergence curve, and EP's −ln Z_EP is on the next chart (o)
    legend(
        &app,
        &[
            "━━ laplace: 6 iterations",
            "samplers: no convergence curve (t: their chains)",
        ],
    );
    app.update(ch('o'));
    legend(&app, &["━━ ep: 5 iterations"]);
    let mut app = finished("lab_counts");
    app.update(ch('3'));
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        assert!(
            screen.contains("an approximation lab, no [[method]]"),
            "{screen}"
        );
        assert!(!screen.contains("no iterations yet"), "{screen}");
    }
}

/// The Live gauges and the Experiments verdict say what each kind did or will do: a closed
/// form, ADF's one pass, an approximation lab's tables — not "converged after 0 iterations",
/// "after 1 iterations" or "0 method(s)".
#[test]
fn live_and_experiments_say_what_each_kind_does() {
    let mut app = finished("iris_multiclass");
    app.update(ch('3'));
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        for text in [
            "niw — closed form",
            "lda — closed form",
            "softmax — converged after",
        ] {
            assert!(screen.contains(text), "{w}x{h}: {text} missing:\n{screen}");
        }
        assert!(!screen.contains("after 0 iterations"), "{screen}");
    }
    let mut app = finished("ep_vs_laplace");
    app.update(ch('3'));
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(
        screen.contains("adf — one pass over the training rows"),
        "{screen}"
    );
    assert!(
        screen.contains("ep — converged after 9 iterations"),
        "{screen}"
    );
    let app = app_on("lab_counts");
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(
        screen.contains("approximation lab, no [[method]]: 4 [[posterior]] tables"),
        "{screen}"
    );
    assert!(!screen.contains("method(s)"), "{screen}");
}

/// Once the runs are done, a Live screen too short for every gauge says which it shows and
/// PgUp/PgDn bring the others into view: none is out of reach at 80x24.
#[test]
fn finished_gauges_that_do_not_fit_scroll_into_view() {
    let mut app = crate::util::tui::finished_file("tests/fixtures/spector_evidence.toml");
    app.update(ch('3'));
    let ids: Vec<String> = app
        .session
        .as_ref()
        .unwrap()
        .runs
        .iter()
        .map(|r| r.id.clone())
        .collect();
    let first = draw(&app, 80, 24).backend().to_string();
    assert!(first.contains("runs 1–"), "no position line:\n{first}");
    assert!(
        first.contains(&format!(" of {} · PgUp/PgDn", ids.len())),
        "{first}"
    );
    let mut seen = first;
    for _ in 0..ids.len() {
        app.update(crate::util::tui::key(
            ratatui::crossterm::event::KeyCode::PageDown,
        ));
        seen.push_str(&draw(&app, 80, 24).backend().to_string());
    }
    for id in &ids {
        assert!(
            seen.contains(&format!("{id} — ")),
            "gauge {id} never shown:\n{seen}"
        );
    }
    // Back to the top.
    for _ in 0..ids.len() {
        app.update(crate::util::tui::key(
            ratatui::crossterm::event::KeyCode::PageUp,
        ));
    }
    assert!(draw(&app, 80, 24).backend().to_string().contains("runs 1–"));
}

/// Results of an approximation lab is not an empty metrics table: it says there is no
/// classifier to score, shows each posterior's closest and farthest approximation by KL, and
/// points at 7 Reparam, at both sizes.
#[test]
fn results_of_a_lab_say_what_the_lab_found_and_where_to_look() {
    for lab in ["lab_counts", "lab_incomes"] {
        let mut app = finished(lab);
        app.update(ch('4'));
        let record = app.session.as_ref().unwrap().record.clone().unwrap();
        let first = &record.posteriors[0];
        let closest = first
            .approximations
            .iter()
            .min_by(|a, b| a.kl.total_cmp(&b.kl))
            .unwrap();
        for (w, h) in SIZES {
            let screen = draw(&app, w, h).backend().to_string();
            for text in [
                "no classifier runs",
                "7 Reparam",
                "e exports the report",
                "closest   KL",
                "farthest  KL",
            ] {
                assert!(screen.contains(text), "{lab} {w}x{h}: {text}\n{screen}");
            }
            let cell = format!("{} {:.4}", closest.name, closest.kl);
            assert!(screen.contains(&cell), "{lab} {w}x{h}: {cell}\n{screen}");
            assert!(!screen.contains("log-loss "), "{screen}");
        }
    }
}

/// The leave-one-out table at 80 columns: one decimal, so every difference and Pareto-k text
/// fits its column whole (it was "-55.20… 15.52" and "k>0.7: 28…refit 10", which read as 28 rows of 284); two at 120.
#[test]
fn the_loo_table_fits_its_numbers_at_80_columns() {
    let mut app = finished("digits_generative");
    app.update(ch('4'));
    let small = draw(&app, 80, 24).backend().to_string();
    assert!(small.contains("-55.2 ± 15.5"), "{small}");
    // 284 rows above 0.7, not "28…": a count is never cut
    assert!(small.contains("284 BAD, 10 refit"), "{small}");
    let large = draw(&app, 120, 40).backend().to_string();
    assert!(large.contains("-55.20 ± 15.52"), "{large}");
}
