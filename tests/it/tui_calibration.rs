//! The Calibration screen at 80x24 and 120x40 on the quickstart, run for real: one run's
//! predictives overlaid on one axes with a legend naming each (and its ECE), the test rows per
//! bin of each predictive with their bins unclipped, and a run that stopped short of its
//! tolerance flagged NOT CONVERGED in the chart's title.

use crate::util::tui::{ch, finished};
use bayeslab_core::optim::Termination;
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn one_run_has_its_predictives_overlaid_with_a_legend_and_its_flag() {
    let mut app = finished("quickstart");
    app.update(ch('5'));
    for _ in 0..2 {
        app.update(ch('j'));
    }
    let record = app.session.as_mut().unwrap().record.as_mut().unwrap();
    let laplace = &mut record.runs[2];
    assert_eq!(laplace.predictives.len(), 5);
    laplace.termination = Some(Termination::MaxIterations);
    laplace.converged = false;
    // the Monte-Carlo predictive's curve made the plug-in's: drawn under it, so the legend says so
    laplace.predictives[1].calibration = laplace.predictives[0].calibration.clone();
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&app, w, h);
        let title = match w {
            80 => "logistic-laplace NOT CONVERGED 3/3",
            _ => "logistic-laplace NOT CONVERGED (max-iterations) (run 3/3, ↑↓)",
        };
        assert!(s.contains(title), "{s}");
        for name in [
            "plugin",
            "mc",
            "probit",
            "mackay",
            "exact",
            "perfect calibration",
        ] {
            assert!(s.contains(&format!("━━ {name}")), "{name} at {w}x{h}:\n{s}");
        }
        assert!(
            s.contains("mc        0.0760 0.3624 =plugin"),
            "coincident curve not marked at {w}x{h}:\n{s}"
        );
        assert!(s.contains("test rows per bin"), "{s}");
        assert!(
            s.contains("0.00–0.10") && s.contains("0.90–1.00"),
            "bins cut at {w}x{h}:\n{s}"
        );
    }
}

/// default has 20 calibration bins: at 80x24 the counts table sums neighbouring bins and says
/// so, rather than cutting the last bins unseen (issue 28); at 120x40 every bin has its row.
#[test]
fn calibration_counts_never_cut_a_bin() {
    let mut app = finished("default");
    app.update(ch('5'));
    let small = screen(&app, 80, 24);
    assert!(small.contains("2 bins a row"), "{small}");
    assert!(small.contains("0.90–1.00"), "{small}");
    let large = screen(&app, 120, 40);
    assert!(large.contains("0.95–1.00"), "{large}");
    assert!(large.contains("test rows per bin"), "{large}");
}
