//! The Live screen while a run's k-hat is computed: its gauge says so (with the draws) instead
//! of leaving the fit's last iteration on show, and goes back to the run's state once done.

use crate::util::tui::ch;
#[allow(dead_code)]
use bayeslab_engine::run::Event as Told;
use bayeslab_tui::{App, Event};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn the_gauge_says_khat_is_being_computed_while_it_is() {
    let mut app = crate::util::tui::app_on("quickstart");
    let mut events = crate::util::tui::run_events(&mut app).into_iter();
    let is_khat = |e: &Event, started: bool| match e {
        Event::Progress {
            event: Told::KhatStarted { run, draws },
            ..
        } => started && run == "logistic-laplace" && *draws == 20_000,
        Event::Progress {
            event: Told::KhatFinished { run, .. },
            ..
        } => !started && run == "logistic-laplace",
        _ => false,
    };
    for event in events.by_ref() {
        let start = is_khat(&event, true);
        app.update(event);
        if start {
            break;
        }
    }
    app.update(ch('3'));
    let iterations = app.session.as_ref().unwrap().runs[2]
        .iterates
        .last()
        .unwrap()
        .iteration;
    let computing = format!(
        "logistic-laplace — fitted after {iterations} iterations; computing k̂ (20,000 draws)"
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&app, w, h);
        assert!(text.contains(&computing), "{w}x{h}:\n{text}");
        assert!(
            text.contains("logistic-map — converged"),
            "{w}x{h}:\n{text}"
        );
    }
    for event in events.by_ref() {
        let done = is_khat(&event, false);
        app.update(event);
        if done {
            break;
        }
    }
    let text = screen(&app, 120, 40);
    assert!(!text.contains("computing k̂"), "{text}");
    assert!(
        text.contains(&format!("logistic-laplace — iteration {iterations}")),
        "{text}"
    );
}
