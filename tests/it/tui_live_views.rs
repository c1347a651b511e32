//! Live shows one quantity per chart and a sampler's chains as traces and rank plots (issue
//! 28): E(w) and EP's −ln Z_EP never share the objective chart (`o` steps through the kinds,
//! and the second chart follows: |g| or EP's site distance), and a Gibbs run's panel title
//! fits at 80x24 and `t` turns its traces into per-chain rank histograms.

use crate::util::tui::{ch, finished};
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

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
        // the legend names the runs drawn: not EP's nor ADF's, which are on the next chart
        assert!(
            s.contains("━━ probit-laplace:") && !s.contains("━━ ep:"),
            "{s}"
        );
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
        assert!(
            s.contains("━━ ep:") && !s.contains("━━ probit-laplace:"),
            "{s}"
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

/// A flagged run's Posterior title that does not fit at 80 columns keeps the run and its flag
/// and ends in `…` rather than being cut without a mark.
#[test]
fn a_long_posterior_title_ends_in_a_mark() {
    let mut app = finished("quickstart");
    app.update(ch('6'));
    app.update(ch('j'));
    app.update(ch('j'));
    let record = app.session.as_mut().unwrap().record.as_mut().unwrap();
    record.runs[2].termination = Some(bayeslab_core::optim::Termination::MaxIterations);
    let s = screen(&app, 80, 24);
    let title = s.lines().nth(1).unwrap();
    assert!(
        title.contains("logistic-laplace [3/3] — NOT CONVERGED (max-iterations)"),
        "{s}"
    );
    assert!(title.contains("… ┐"), "{s}");
    let wide = screen(&app, 120, 40);
    assert!(
        wide.contains("NOT CONVERGED (max-iterations): the last iterate's weights ─"),
        "{wide}"
    );
}

/// The streamed experiment at 80x24 once done: its two convergence charts keep several rows
/// each (side by side), and its 25 passes are all accounted for in the table: alike passes share
/// a row (`cache ×6`) and the title says that only the latest rows are shown.
#[test]
fn a_streamed_run_keeps_readable_charts_and_every_pass_at_80x24() {
    let mut app = finished("streaming");
    app.update(ch('3'));
    let s = screen(&app, 80, 24);
    let lines: Vec<Vec<char>> = s.lines().map(|l| l.chars().collect()).collect();
    for title in ["┌ objective E(w)", "┌ gradient norm"] {
        let (top, col) = lines
            .iter()
            .enumerate()
            .find_map(|(i, l)| {
                let text: String = l.iter().collect();
                let at = text.find(title)?;
                Some((i, text[..at].chars().count()))
            })
            .unwrap_or_else(|| panic!("{title}:\n{s}"));
        let bottom = (top + 1..lines.len())
            .find(|&i| lines[i].get(col) == Some(&'└'))
            .expect("the chart's bottom border");
        assert!(
            bottom - top >= 6,
            "{title} {} rows high:\n{s}",
            bottom - top - 1
        );
    }
    assert!(s.contains("passes done: 25, alike grouped, latest "), "{s}");
    assert!(s.contains(" of 9 rows, latest last"), "{s}");
    assert!(s.contains("cache ×6"), "{s}");
}
