//! The Posterior screen at 80x24 and 120x40 (insta snapshots of the real engine's records):
//! full or distinct names, PgUp/PgDn scrolling with the rows in view shown, one labelled scale
//! for every run, a multiclass run's weights in one block per class, and what a generative
//! run fitted instead of "no posterior".

use crate::util::tui::{ch, finished, finished_file, key};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

fn snap(app: &App, name: &str) {
    for (w, h) in [(80, 24), (120, 40)] {
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(app, w, h));
    }
}

#[test]
fn long_names_stay_distinct_scroll_and_every_run_shares_one_scale() {
    let mut app = finished_file("tests/fixtures/breast_cancer_posterior.toml");
    app.update(ch('6'));
    let top = screen(&app, 80, 24);
    assert!(top.contains("rows 1–18 of 31 (PgUp/PgDn)"), "{top}");
    app.update(key(KeyCode::PageDown));
    app.update(key(KeyCode::PageDown));
    let wide = screen(&app, 120, 40);
    // At 120 columns every name is whole.
    assert!(wide.contains("worst_concave_points"), "{wide}");
    assert!(wide.contains("worst_concavity"), "{wide}");
    // At 80 the two are shortened but still differ, and the last rows are in view.
    let narrow = screen(&app, 80, 24);
    assert!(!narrow.contains("worst_concav "), "{narrow}");
    assert!(narrow.contains("rows 14–31 of 31"), "{narrow}");
    assert!(
        narrow.contains("standardised scale, shared by 2 runs"),
        "{narrow}"
    );
    snap(&app, "posterior_logistic");
    // EP on the same scale: its scale row is the logistic run's.
    let scale = |s: &str| {
        s.lines()
            .find(|l| l.contains("weight") && l.contains("2 sd") && !l.contains("posterior"))
            .map(String::from)
    };
    let logistic = scale(&wide);
    assert!(logistic.is_some(), "{wide}");
    app.update(ch('j'));
    let ep = screen(&app, 120, 40);
    assert!(ep.contains(" ep (ep-probit) [2/2]"), "{ep}");
    assert_eq!(scale(&ep), logistic);
    snap(&app, "posterior_ep");
}

#[test]
fn multiclass_weights_come_in_one_block_per_class() {
    let mut app = finished("iris_multiclass");
    app.update(ch('6'));
    // All three blocks of five at 80x24.
    let all = screen(&app, 80, 24);
    for class in ["── class 0", "── class 1", "── class 2"] {
        assert!(all.contains(class), "{all}");
    }
    assert_eq!(all.matches("petal_width").count(), 3, "{all}");
    snap(&app, "posterior_softmax");
    // The reference run: class 0 is fixed at zero, the blocks are classes 1 and 2.
    app.update(ch('j'));
    let reference = screen(&app, 120, 40);
    assert!(reference.contains("the reference class"), "{reference}");
    assert!(reference.contains("── class 1") && reference.contains("── class 2"));
    assert!(!reference.contains("── class 0 "), "{reference}");
    snap(&app, "posterior_softmax_reference");
    // The NIW run says what it fitted.
    app.update(ch('j'));
    let niw = screen(&app, 120, 40);
    assert!(!niw.contains("no posterior"), "{niw}");
    assert!(niw.contains("Normal-inverse-Wishart"), "{niw}");
    snap(&app, "posterior_niw");
}
