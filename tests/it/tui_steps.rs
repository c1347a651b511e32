//! The step-by-step mode of the Posterior screen (`s`, then `n` / `N`, Up/Down for the run) on
//! experiments/pictures_steps.toml at 80x24 and 120x40: its title names the run and the step,
//! the legend and the step's numbers are there, `n` advances to Newton's last iterate (the mode,
//! said to be the Laplace approximation), Up/Down reach EP's site updates and ADF's examples,
//! and `s` goes back to the whiskers.

use crate::util::tui::{ch, finished, key};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

fn braille(s: &str) -> usize {
    s.chars()
        .filter(|c| ('\u{2801}'..='\u{28FF}').contains(c))
        .count()
}

#[test]
fn the_step_mode_walks_newton_ep_and_adf() {
    let mut app = finished("pictures_steps");
    app.update(ch('6'));
    app.update(ch('s'));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        assert!(s.contains("laplace"), "{w}x{h}: {s}");
        assert!(s.contains("step 1/"), "{w}x{h}: {s}");
        assert!(s.contains("iterate 0: w = 0.000"), "{w}x{h}: {s}");
        assert!(s.contains("━ exact"), "{w}x{h}: {s}");
        assert!(braille(&s) > 150, "{w}x{h}: {} braille cells", braille(&s));
        insta::assert_snapshot!(format!("steps_newton_start_{w}x{h}"), s);
    }
    // n to the end: Newton's last iterate is the mode; n past the end stays there
    for _ in 0..60 {
        app.update(ch('n'));
    }
    let s = screen(&app, 120, 40);
    assert!(
        s.contains("the mode: this is the Laplace approximation"),
        "{s}"
    );
    app.update(ch('N'));
    assert!(!screen(&app, 120, 40).contains("the mode"));
    // the next run: EP's site updates in the direction t, from the first update
    app.update(key(KeyCode::Down));
    app.update(ch('n'));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        assert!(s.contains("ep"), "{w}x{h}: {s}");
        assert!(s.contains("step 2/40"), "{w}x{h}: {s}");
        assert!(s.contains("─ cavity"), "{w}x{h}: {s}");
        assert!(s.contains("update 2: row 2, sweep 1"), "{w}x{h}: {s}");
        insta::assert_snapshot!(format!("steps_ep_update_2_{w}x{h}"), s);
    }
    // ADF after n = 4 examples
    app.update(key(KeyCode::Down));
    for _ in 0..3 {
        app.update(ch('n'));
    }
    let s = screen(&app, 120, 40);
    assert!(s.contains("n = 4 (newest: row"), "{s}");
    assert!(s.contains("─ new example"), "{s}");
    insta::assert_snapshot!("steps_adf_n4_120x40", s);
    // s: back to the whiskers
    app.update(ch('s'));
    assert!(screen(&app, 120, 40).contains("2 sd"));
}
