//! Live shows one quantity per chart and a sampler's chains as traces and rank plots (issue
//! 28): E(w) and EP's −ln Z_EP never share the objective chart (`o` steps through the kinds,
//! and the second chart follows: |g| or EP's site distance), and a Gibbs run's panel title
//! fits at 80x24 and `t` turns its traces into per-chain rank histograms.

mod tui_support;

use bayeslab::tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tui_support::{ch, finished};

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn the_objective_chart_shows_one_kind_of_objective_at_a_time() {
    let mut app = finished("ep_vs_laplace");
    app.update(ch('3'));
    for (w, h) in SIZES {
        let s = screen(&app, w, h);
        assert!(
            s.contains("objective E(w), log10 · o: 1/2"),
            "{w}x{h}:\n{s}"
        );
        assert!(
            s.contains("gradient norm |g|, log10 · o: 1/2"),
            "{w}x{h}:\n{s}"
        );
        assert!(!s.contains("site distance"), "{w}x{h}:\n{s}");
    }
    app.update(ch('o'));
    for (w, h) in SIZES {
        let s = screen(&app, w, h);
        assert!(
            s.contains("objective −ln Z_EP, log10 · o: 2/2"),
            "{w}x{h}:\n{s}"
        );
        assert!(
            s.contains("max site distance, log10 · o: 2/2"),
            "{w}x{h}:\n{s}"
        );
    }
}

#[test]
fn a_sampler_panel_fits_its_title_and_shows_rank_plots() {
    let mut app = finished("gibbs_vs_laplace");
    app.update(ch('3'));
    for (w, h) in SIZES {
        let s = screen(&app, w, h);
        assert!(
            s.contains("4 chains, traces of 3 weights (t: rank plots) "),
            "{w}x{h}:\n{s}"
        );
    }
    app.update(ch('t'));
    for (w, h) in SIZES {
        let s = screen(&app, w, h);
        assert!(
            s.contains("4 chains, rank plots of 3 weights (t: hide) "),
            "{w}x{h}:\n{s}"
        );
        for c in 0..4 {
            assert!(s.contains(&format!("│c{c} ")), "chain {c} at {w}x{h}:\n{s}");
        }
        assert!(s.contains("npreg ranks"), "{s}");
    }
}
