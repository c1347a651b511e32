//! Whole-screen snapshots (ratatui TestBackend + insta) of every screen at 80x24 and
//! 120x40 on shipped experiments, run for real by the engine. Nothing time-dependent is
//! drawn on these screens (fit times are left to the report), so the snapshots are stable.
//! CI runs with CI=true, where insta fails on a mismatch instead of writing new files.

mod tui_support;

use bayeslab::tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tui_support::{app_on, ch, finished};

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
    let mut app = App::new(bayeslab::tui::catalog::Catalog::discover(
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
    let rows = bayeslab::tui::screen::result_rows(record, &app.picks);
    assert!(rows
        .windows(2)
        .all(|w| w[0].metrics.log_loss <= w[1].metrics.log_loss));
    assert_eq!(bayeslab::tui::screen::best_rows(&rows)[0], Some(0));
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
    snap(&app, "lab_reparam");
    // Right steps to the next subset size of the same posterior, never past its last one.
    app.update(tui_support::key(ratatui::crossterm::event::KeyCode::Right));
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
