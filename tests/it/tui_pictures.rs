//! The weight-space panel of the Posterior screen (`w`) on experiments/pictures_small_n.toml at
//! 80x24 and 120x40: its title names the pair, its legend every Gaussian run and the exact run,
//! the numbers of the runs' means and the exact mode are drawn, the braille contours are there,
//! and `w` goes back to the whiskers.

use crate::util::tui::{ch, finished};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn the_weight_space_panel_shows_every_method_and_the_exact_contours() {
    let mut app = finished("pictures_small_n");
    app.update(ch('6'));
    app.update(ch('w'));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        assert!(s.contains("(intercept, GPA)"), "{w}x{h}: {s}");
        assert!(s.contains("pair 1/1"), "{w}x{h}: {s}");
        // the legend: the three Gaussian runs by number, the exact run (the sampler is not a
        // Gaussian, so it has no ellipse)
        for label in ["1 laplace", "2 ep", "3 vi", "exact (exact)"] {
            assert!(s.contains(label), "{w}x{h}: {label} missing: {s}");
        }
        assert!(!s.contains("gibbs"), "{w}x{h}: {s}");
        assert!(s.contains('×'), "{w}x{h}: the exact mode");
        let braille = s
            .chars()
            .filter(|c| ('\u{2801}'..='\u{28FF}').contains(c))
            .count();
        assert!(braille > 200, "{w}x{h}: {braille} braille cells");
        assert!(s.contains("standardised scale"), "{w}x{h}: {s}");
        insta::assert_snapshot!(format!("weight_space_small_n_{w}x{h}"), s);
    }
    // one pair only: [ and ] stay on it; w returns to the whiskers
    app.update(ch(']'));
    assert!(screen(&app, 120, 40).contains("pair 1/1"));
    app.update(ch('w'));
    assert!(screen(&app, 120, 40).contains("2 sd"));
}
