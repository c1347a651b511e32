//! The input-space panel of the Posterior screen (`i`) on experiments/pictures_gibbs.toml (four
//! features, six pairs) at 80x24 and 120x40: its title names the pair of features and its place
//! among the six (first the two of largest |posterior mean weight|, which the panel says), the
//! legend every predictive of the main run, the classes' marks and the features held at their
//! means; `]` steps to the next pair, `i` returns to the whiskers. And
//! the weight-space panel on the same run says its contours are the Gibbs draws' marginal.
//! Presentation mode (`P`): the picture alone fills the terminal, `Esc` brings the screens back.

use crate::util::tui::{ch, finished, key};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn the_input_space_panel_draws_points_contours_and_boundaries_per_pair() {
    let mut app = finished("pictures_gibbs");
    app.update(ch('6'));
    app.update(ch('i'));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        // laplace's posterior mean: bill depth 2.83, body mass 1.97, flipper length 0.89,
        // bill length 0.41 (standardised scale): the default pair is the first two
        assert!(s.contains("(bill_depth_mm, body_mass_g)"), "{w}x{h}: {s}");
        assert!(s.contains("pair 1/6"), "{w}x{h}: {s}");
        assert!(
            s.contains("pair: the two largest |weights| (laplace, standardised scale: 2.83, 1.97)"),
            "{w}x{h}: {s}"
        );
        for label in [
            "laplace/plugin",
            "laplace/mc",
            "o female",
            "+ male",
            "40 boundaries",
        ] {
            assert!(s.contains(label), "{w}x{h}: {label} missing: {s}");
        }
        assert!(
            s.contains("training means: bill_length_mm, flipper_length_mm"),
            "{w}x{h}: {s}"
        );
        let braille = s
            .chars()
            .filter(|c| ('\u{2801}'..='\u{28FF}').contains(c))
            .count();
        assert!(braille > 200, "{w}x{h}: {braille} braille cells");
        insta::assert_snapshot!(format!("input_space_gibbs_{w}x{h}"), s);
    }
    app.update(ch(']'));
    let s = screen(&app, 120, 40);
    assert!(s.contains("(bill_depth_mm, flipper_length_mm)") && s.contains("pair 2/6"));
    assert!(
        s.contains("training means: bill_length_mm, body_mass_g"),
        "{s}"
    );
    // only the default pair was chosen; the others are its neighbours among the four
    assert!(!s.contains("pair: the two largest"), "{s}");
    app.update(ch('['));
    app.update(ch('['));
    assert!(screen(&app, 120, 40).contains("pair 6/6"));
    app.update(ch('i'));
    assert!(screen(&app, 120, 40).contains("2 sd"));
    // w: the weight-space picture, its black contours from the Gibbs draws
    app.update(ch('w'));
    let s = screen(&app, 120, 40);
    assert!(s.contains("marginal of gibbs's draws"), "{s}");
}

#[test]
fn presentation_mode_fills_the_terminal_with_the_picture_and_esc_leaves() {
    let mut app = finished("pictures_gibbs");
    // P from any screen: the weight-space picture, without the tabs and the status line
    app.update(ch('1'));
    app.update(ch('P'));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        let lines: Vec<&str> = s.lines().collect();
        assert!(
            !s.contains("1 Experiments"),
            "{w}x{h}: the tabs are gone: {s}"
        );
        assert!(
            !s.contains("pictures_gibbs done"),
            "{w}x{h}: the status is gone"
        );
        assert!(lines[0].contains('┌') && lines[lines.len() - 1].contains('┘'));
        assert!(
            s.contains("(flipper_length_mm, body_mass_g)"),
            "{w}x{h}: {s}"
        );
        assert!(s.contains("marginal of gibbs's draws"), "{w}x{h}: {s}");
        insta::assert_snapshot!(format!("present_weight_space_{w}x{h}"), s);
    }
    // i: the input-space picture, still presented; [ ] still step through its pairs
    app.update(ch('i'));
    app.update(ch(']'));
    let s = screen(&app, 120, 40);
    assert!(
        s.contains("pair 2/6") && !s.contains("1 Experiments"),
        "{s}"
    );
    insta::assert_snapshot!("present_input_space_120x40", s);
    // Esc: back to the Posterior screen with its tabs, the picture still chosen
    app.update(key(ratatui::crossterm::event::KeyCode::Esc));
    let s = screen(&app, 120, 40);
    assert!(s.contains("1 Experiments") && s.contains("pair 2/6"), "{s}");
}
