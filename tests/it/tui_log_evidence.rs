//! The evidence of ln p(y | X) in the workbench, on tests/fixtures/spector_evidence.toml: the
//! Live screen's gauge while the importance sampler runs and the estimate once it is done (as
//! tests/it/tui_khat.rs checks the k-hat phase), and the Results screen's evidence table,
//! snapshotted at 80x24 and 120x40 and scrolled with J/K.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use crate::util::tui::ch;
use bayeslab_core::catalog::Link;
use bayeslab_core::record::EvidenceEstimate;
use bayeslab_engine::run::Event as Told;
use bayeslab_tui::catalog::Catalog;
use bayeslab_tui::worker::run_blocking;
use bayeslab_tui::{App, Command, Event};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const FIXTURE: &str = "tests/fixtures/spector_evidence.toml";

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

/// The app on the fixture and the events of its run, not yet applied.
fn app_and_events() -> (App, Vec<Event>) {
    let mut app = App::new(Catalog::discover(
        Path::new("experiments"),
        Some(Path::new(FIXTURE)),
    ));
    let Some(Command::Start { job, plan }) = app.update(ch('r')) else {
        panic!("r did not start a job; status: {}", app.status.text);
    };
    let (tx, rx) = mpsc::channel();
    run_blocking(job, &plan, &tx, &AtomicBool::new(false));
    drop(tx);
    (app, rx.into_iter().collect())
}

#[test]
fn the_gauge_says_the_evidence_is_being_estimated_then_shows_it() {
    let (mut app, events) = app_and_events();
    let mut events = events.into_iter();
    let started = |e: &Event| {
        matches!(e, Event::Progress { event: Told::EvidenceStarted { model, proposal, draws }, .. }
            if *model == Link::Logistic && proposal == "ep" && *draws == 4000)
    };
    for event in events.by_ref() {
        let start = started(&event);
        app.update(event);
        if start {
            break;
        }
    }
    app.update(ch('3'));
    let estimating = "true ln p(y|X) logistic: estimating by IS, 4,000 draws around ep…";
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&app, w, h);
        assert!(text.contains(estimating), "{w}x{h}:\n{text}");
        // the other runs keep their own state
        assert!(text.contains("laplace — converged"), "{w}x{h}:\n{text}");
    }
    let mut estimate: Option<EvidenceEstimate> = None;
    for event in events.by_ref() {
        if let Event::Progress {
            event: Told::EvidenceFinished(e),
            ..
        } = &event
        {
            estimate = Some((**e).clone());
        }
        app.update(event);
        if estimate.is_some() {
            break;
        }
    }
    let e = estimate.expect("the logistic estimate finished");
    assert_eq!((e.model, e.proposal.as_str()), (Link::Logistic, "ep"));
    // the estimate of the truth on a line of its own, named, and the proposal run's gauge
    // with its own fit only (issue 28)
    let shown = format!(
        "true ln p(y|X) logistic = {:.3} ± {:.3} (IS around ep; k̂ {:.2} good)",
        e.log_evidence,
        e.mcse,
        e.khat.unwrap()
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&app, w, h);
        assert!(!text.contains("logistic: estimating"), "{text}");
        assert!(text.contains(&shown), "{w}x{h}: {shown}\n{text}");
        let gauge = text
            .lines()
            .find(|l| l.contains("ep — converged"))
            .expect("the ep gauge");
        assert!(!gauge.contains("ln p(y|X)"), "{gauge}");
    }
    // the probit estimate around probit-ep comes next, on its own line under the gauges
    for event in events.by_ref() {
        let probit = matches!(&event, Event::Progress { event: Told::EvidenceStarted { model, .. }, .. } if *model == Link::Probit);
        app.update(event);
        if probit {
            break;
        }
    }
    let text = screen(&app, 80, 24);
    assert!(
        text.contains("true ln p(y|X) probit: estimating by IS, 4,000 draws around probit-ep…"),
        "{text}"
    );
    // then the record keeps both
    for event in events {
        app.update(event);
    }
    let text = screen(&app, 80, 24);
    assert!(text.contains("█laplace — converged"), "{text}");
    let text = screen(&app, 120, 40);
    assert!(!text.contains("estimating"), "{text}");
    assert!(text.contains("true ln p(y|X) probit = "), "{text}");
}

#[test]
fn results_show_the_evidence_table_and_scroll_it() {
    let (mut app, events) = app_and_events();
    for event in events {
        app.update(event);
    }
    app.update(ch('4'));
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&app, w, h);
        for words in [
            "own ln p(y|X) vs the importance-sampling estimate",
            "logistic: the EP ln Z (ep) is closest to the estimate",
            "JJ bound",
            "within error",
        ] {
            assert!(text.contains(words), "{w}x{h}: {words}\n{text}");
        }
        // every row only where there is room (J/K scroll at 80x24)
        assert_eq!(text.contains("ELBO mean-field"), w == 120, "{text}");
        insta::assert_snapshot!(format!("log_evidence_results_{w}x{h}"), screen(&app, w, h));
    }
    // J scrolls the evidence table one row down at 80x24, K back; at the end the probit
    // estimate is in view
    let before = screen(&app, 80, 24);
    assert!(before.contains("rows 1–4 of 10 ↓ J/K"), "{before}");
    app.update(ch('J'));
    let after = screen(&app, 80, 24);
    assert!(after.contains("rows 2–5 of 10 ↑↓ J/K"), "{after}");
    app.update(ch('K'));
    assert_eq!(screen(&app, 80, 24), before);
    for _ in 0..9 {
        app.update(ch('J'));
    }
    let end = screen(&app, 80, 24);
    assert!(
        end.contains("IS: probit") && end.contains("rows 7–10 of 10 ↑ J/K"),
        "{end}"
    );
}

#[test]
fn the_posterior_view_names_a_variational_runs_bound() {
    let (mut app, events) = app_and_events();
    for event in events {
        app.update(event);
    }
    app.update(ch('6'));
    let record = app.session.as_ref().unwrap().record.clone().unwrap();
    let own = |id: &str| {
        let run = record.runs.iter().find(|r| r.id == id).unwrap();
        run.posterior.as_ref().unwrap().log_evidence.unwrap()
    };
    // every new kind has its posterior on view, each titled with what its evidence is
    for (at, title) in [
        (
            0,
            format!(
                "laplace (logistic-laplace) [1/9] — posterior, log evidence {:.3}",
                own("laplace")
            ),
        ),
        (
            1,
            format!(
                "ep (ep-logistic) [2/9] — posterior, log evidence {:.3}",
                own("ep")
            ),
        ),
        (
            2,
            format!(
                "jj (vb-logistic) [3/9] — posterior, JJ bound {:.3}",
                own("jj")
            ),
        ),
        (
            3,
            format!("kl (vi-logistic) [4/9] — posterior, ELBO {:.3}", own("kl")),
        ),
        (
            4,
            format!(
                "kl-mf (vi-logistic) [5/9] — posterior, ELBO mean-field {:.3}",
                own("kl-mf")
            ),
        ),
        (
            8,
            format!(
                "probit-kl (vi-probit) [9/9] — posterior, ELBO {:.3}",
                own("probit-kl")
            ),
        ),
    ] {
        app.picks.posterior = at;
        let text = screen(&app, 120, 40);
        assert!(text.contains(&title), "{title}\n{text}");
        assert!(text.contains("GPA"), "{text}");
    }
}
