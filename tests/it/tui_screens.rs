//! Whole-screen snapshots (ratatui TestBackend + insta) of every screen at 80x24 and
//! 120x40 on shipped experiments, run for real by the engine. Nothing time-dependent is
//! drawn on these screens (fit times are left to the report), so the snapshots are stable.
//! CI runs with CI=true, where insta fails on a mismatch instead of writing new files.

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

#[test]
fn quickstart_screens() {
    let mut app = finished("quickstart");
    for (key, name) in [
        ('1', "experiments"),
        ('2', "dataset"),
        ('3', "live"),
        ('4', "results"),
        ('5', "calibration"),
        ('6', "posterior"),
    ] {
        app.update(ch(key));
        snap(&app, &format!("quickstart_{name}"));
    }
    app.update(ch('3'));
    let small = draw(&app, 80, 24).backend().to_string();
    assert!(
        small.contains("━━ logistic-laplace: 6 iterations"),
        "{small}"
    );
    app.update(ch('6'));
    app.update(ch('?'));
    snap(&app, "help");
}

#[test]
fn digits_posterior_heatmaps() {
    let mut app = finished("digits_1v8");
    app.update(ch('6'));
    app.update(ch('j'));
    snap(&app, "digits_posterior");
}

#[test]
fn before_any_run_and_on_a_bad_file() {
    let app = app_on("quickstart");
    snap(&app, "fresh");
    let bad = std::path::Path::new("tests/invalid_configs/unknown_key.toml");
    let mut app = App::new(bayeslab_tui::catalog::Catalog::discover(
        std::path::Path::new("experiments"),
        Some(bad),
    ));
    app.update(ch('r'));
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(screen.contains("did you mean"), "{screen}");
    snap(&app, "invalid");
}

#[test]
fn results_sorted_by_log_loss_put_the_best_first() {
    let mut app = finished("quickstart");
    app.update(ch('4'));
    app.update(ch('s'));
    let record = app.session.as_ref().unwrap().record.as_ref().unwrap();
    let rows = bayeslab_tui::screen::result_rows(record, &app.picks);
    assert!(rows
        .windows(2)
        .all(|w| w[0].metrics.log_loss <= w[1].metrics.log_loss));
    // quickstart's log-losses tie within noise: none is marked best (issue 28)
    assert_eq!(bayeslab_tui::screen::best_rows(record, &rows)[0], None);
    snap(&app, "results_sorted");
}

#[test]
fn reparameterisation_screen_steps_through_subsets_and_posteriors() {
    let mut app = finished("lab_counts");
    app.update(ch('7'));
    let record = app
        .session
        .as_ref()
        .unwrap()
        .record
        .as_ref()
        .unwrap()
        .clone();
    let ps = &record.posteriors;
    assert!(ps.len() >= 4);
    // Every curve keeps its legend line at both sizes.
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        for a in std::iter::once("exact").chain(ps[0].approximations.iter().map(|a| a.name.name()))
        {
            assert!(
                screen.contains(&format!("━━ {a}")),
                "{w}x{h}: no legend for {a}\n{screen}"
            );
        }
    }
    snap(&app, "lab_reparam");
    // Right steps to the next subset size of the same posterior, never past its last one.
    app.update(crate::util::tui::key(
        ratatui::crossterm::event::KeyCode::Right,
    ));
    assert_eq!(app.picks.reparam, 1);
    assert_eq!(ps[1].id, ps[0].id);
    for _ in 0..20 {
        app.update(ch('l'));
    }
    let last_of_first = ps.iter().take_while(|p| p.id == ps[0].id).count() - 1;
    assert_eq!(app.picks.reparam, last_of_first);
    // Down jumps to the first subset of the next posterior, Up back to the first of this one.
    app.update(ch('j'));
    assert_eq!(app.picks.reparam, last_of_first + 1);
    assert_ne!(ps[app.picks.reparam].id, ps[0].id);
    app.update(ch('k'));
    assert_eq!(app.picks.reparam, 0);
    let screen = draw(&app, 120, 40).backend().to_string();
    for name in ["exact", "normal", "lognormal", "KL", "Hellinger"] {
        assert!(screen.contains(name), "{name} missing:\n{screen}");
    }
}

#[test]
fn sampler_traces_on_live() {
    let mut app = finished("gibbs_vs_laplace");
    app.update(ch('3'));
    let screen = draw(&app, 120, 40).backend().to_string();
    for text in [
        "gibbs-probit — 4 chains",
        "split-R-hat",
        "npreg",
        "glu",
        "bp",
        "mixed",
    ] {
        assert!(screen.contains(text), "{text} missing:\n{screen}");
    }
    assert!(!screen.contains("NOT MIXED"), "{screen}");
    // Both the traces and the convergence plots at 120x40; the traces alone at 80x24.
    assert!(screen.contains("objective E(w)"));
    assert!(!draw(&app, 80, 24)
        .backend()
        .to_string()
        .contains("objective E(w)"));
    snap(&app, "gibbs_live");
    // t shows the rank plots; t again hides the panel: the convergence plots back at 80x24.
    app.update(ch('t'));
    app.update(ch('t'));
    let small = draw(&app, 80, 24).backend().to_string();
    assert!(small.contains("objective E(w)") && !small.contains("split-R-hat"));
}

/// gibbs_vs_laplace stopped in the middle of its `gibbs` run, the same every time: the real
/// events up to the start of `gibbs`, then its chains' real draws re-sent in batches of 100
/// sweeps up to sweep `upto` (chain 3 lagging 100 behind), with chain 0's iterates.
fn gibbs_mid_run(upto: usize) -> App {
    use bayeslab_core::optim::DrawBatch;
    use bayeslab_engine::run::Event as Told;
    use bayeslab_tui::{Command, Event};
    let mut app = crate::util::tui::app_on("gibbs_vs_laplace");
    let Some(Command::Start { job, plan }) = app.update(ch('r')) else {
        panic!("no start")
    };
    let (tx, rx) = std::sync::mpsc::channel();
    bayeslab_tui::worker::run_blocking(job, &plan, &tx, &std::sync::atomic::AtomicBool::new(false));
    drop(tx);
    let (mut before, mut iterates, mut sweeps) = (Vec::new(), Vec::new(), vec![Vec::new(); 4]);
    let (mut weights, mut schedule, mut started) = (None, None, false);
    for event in rx {
        match event {
            Event::Progress {
                event:
                    Told::Draws {
                        run,
                        columns: w,
                        batch,
                    },
                ..
            } if run == "gibbs" => {
                sweeps[batch.chain].extend(batch.w);
                (weights, schedule) = (w, Some(batch.schedule));
            }
            Event::Progress {
                event: Told::Iterate { run, iterate },
                ..
            } if run == "gibbs" => iterates.push(iterate),
            e if !started => {
                started = matches!(&e, Event::Progress { event: Told::RunStarted { id, .. }, .. } if id == "gibbs");
                before.push(e);
            }
            _ => {}
        }
    }
    for e in before {
        app.update(e);
    }
    for iterate in iterates.into_iter().take(upto) {
        app.update(Event::Progress {
            job,
            event: Told::Iterate {
                run: "gibbs".into(),
                iterate,
            },
        });
    }
    for start in (0..upto).step_by(100) {
        for (chain, w) in sweeps.iter().enumerate() {
            if chain == 3 && start + 100 >= upto {
                continue;
            }
            let batch = DrawBatch {
                chain,
                schedule: schedule.unwrap(),
                first_sweep: start + 1,
                w: w[start..start + 100].to_vec(),
            };
            app.update(Event::Progress {
                job,
                event: Told::Draws {
                    run: "gibbs".into(),
                    columns: weights.clone(),
                    batch,
                },
            });
        }
    }
    app
}

#[test]
fn sampler_traces_while_the_chains_run() {
    // Chain 3 at the end of its burn-in: no R-hat yet.
    let app = gibbs_mid_run(300);
    let t = app.session.as_ref().unwrap().runs[1]
        .traces
        .as_ref()
        .unwrap();
    assert_eq!((t.sweeps(), t.kept()), (200, 0));
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(
        screen.contains("until every chain has 4 kept draws"),
        "{screen}"
    );
    assert!(screen.contains("sweep 200/1200"), "{screen}");
    // 200 kept draws of every chain (chain 3 lagging at sweep 400): the live R-hat.
    let app = gibbs_mid_run(500);
    let t = app.session.as_ref().unwrap().runs[1]
        .traces
        .as_ref()
        .unwrap();
    assert_eq!((t.sweeps(), t.kept()), (400, 200));
    assert_eq!(t.rhat_draws, 200);
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(screen.contains("sweep 400/1200"), "{screen}");
    assert!(screen.contains("(200 draws/chain)"), "{screen}");
    snap(&app, "gibbs_live_running");
}

#[test]
fn unmixed_chains_are_flagged_on_results_and_live() {
    let mut app = crate::util::tui::finished_file("tests/fixtures/short_chains.toml");
    app.update(ch('4'));
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(screen.contains("gibbs/exact !"), "{screen}");
    assert!(
        screen.contains("chains NOT MIXED — split-R-hat"),
        "{screen}"
    );
    snap(&app, "unmixed_results");
    app.update(ch('3'));
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(screen.contains("R-hat max 1.458 NOT MIXED"), "{screen}");
    snap(&app, "unmixed_live");
}

#[test]
fn results_show_each_approximation_against_the_gold_run() {
    let mut app = finished("gibbs_vs_laplace");
    app.update(ch('4'));
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        for text in [
            "vs the exact posterior (Gibbs)",
            "laplace/exact",
            "ep/exact",
            "gibbs-probit",
            "k-hat",
            "good",
        ] {
            assert!(screen.contains(text), "{w}x{h}: {text} missing:\n{screen}");
        }
    }
    // Every column only where there is room for it.
    assert!(draw(&app, 120, 40)
        .backend()
        .to_string()
        .contains("mean KL"));
    assert!(!draw(&app, 80, 24).backend().to_string().contains("mean KL"));
    // At 80x24 the metrics show 7 of their 12 rows (the leave-one-out line under them takes
    // one) and say so; the probit-laplace rows keep
    // their predictive (they used to read `probit-laplace` three times); k-hat per run.
    let small = draw(&app, 80, 24).backend().to_string();
    for text in [
        "rows 1–7 of 12 ↓ j/k",
        "probit…place/plugin",
        "probit-laplace/mc",
        "0.26 good",
    ] {
        assert!(small.contains(text), "{text} missing:\n{small}");
    }
    snap(&app, "gibbs_results");
    // j scrolls down to the last page, and no further.
    for _ in 0..20 {
        app.update(ch('j'));
    }
    assert_eq!(app.picks.result_row, 11);
    let small = draw(&app, 80, 24).backend().to_string();
    assert!(small.contains("rows 6–12 of 12 ↑ j/k"), "{small}");
    assert!(small.contains("gibbs-probit/exact"), "{small}");
    app.update(ch('k'));
    assert_eq!(app.picks.result_row, 10);
    // PgDn/PgUp scroll the table against the gold run, within its 8 rows.
    use ratatui::crossterm::event::KeyCode::{PageDown, PageUp};
    app.update(crate::util::tui::key(PageDown));
    assert_eq!(app.picks.gold_row, 5);
    app.update(crate::util::tui::key(PageDown));
    assert_eq!(app.picks.gold_row, 7);
    app.update(crate::util::tui::key(PageUp));
    assert_eq!((app.picks.gold_row, app.picks.result_row), (2, 10));
}

#[test]
fn a_sweep_shows_its_table_and_plot_on_results() {
    let mut app = finished("prior_sweep");
    app.update(ch(']'));
    app.update(ch(']'));
    app.update(ch('4'));
    snap(&app, "sweep_results");
    let small = draw(&app, 80, 24).backend().to_string();
    assert!(
        small.contains("log-loss against prior.precision"),
        "{small}"
    );
    assert!(small.contains("laplace/mackay"), "the legend: {small}");
}

/// The streamed experiment stopped in its probit fit, the same every time: its real events up
/// to the second pass of that fit, with each finished pass's seconds set to 0.125.
#[test]
fn a_streamed_run_shows_its_passes_on_live() {
    use bayeslab_engine::run::Event as Told;
    use bayeslab_tui::Event;
    let mut app = crate::util::tui::app_on("streaming");
    let target = "fit probit-laplace: pass 2, 205 / 426 rows";
    for mut event in crate::util::tui::run_events(&mut app) {
        if let Event::Progress {
            event: Told::PassFinished(p),
            ..
        } = &mut event
        {
            (p.seconds, p.read_seconds) = (0.125, 0.0625);
        }
        app.update(event);
        let passes = &app.session.as_ref().unwrap().passes;
        if passes
            .current
            .as_ref()
            .is_some_and(|p| passes.label(p) == target)
        {
            break;
        }
    }
    app.update(ch('3'));
    snap(&app, "streaming_live");
    for (w, h) in SIZES {
        let screen = draw(&app, w, h).backend().to_string();
        assert!(screen.contains(target), "{w}x{h}: {screen}");
        assert!(screen.contains("passes done: 16"), "{w}x{h}");
    }
}
