//! Frame render time of the workbench at 120x40 with every plot populated: each screen of
//! a finished experiment (breast_cancer: its gradient-descent run leaves thousands of
//! iterates on the Live plots; digits_1v8: the posterior heatmaps; gibbs_vs_laplace: the
//! samplers' chain traces beside the convergence plots), drawn through ratatui's
//! TestBackend, so the figure includes layout, widgets and the buffer diff.
//! Run with `cargo bench --bench frame`; docs/guide/teaching.md records the result.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use bayeslab_tui::catalog::Catalog;
use bayeslab_tui::worker::run_blocking;
use bayeslab_tui::{App, Command, Event};
use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::Terminal;

fn key(c: char) -> Event {
    Event::Key(KeyEvent::from(KeyCode::Char(c)))
}

fn finished(file: &str) -> App {
    let path = Path::new("experiments").join(format!("{file}.toml"));
    let mut app = App::new(Catalog::discover(Path::new("experiments"), Some(&path)));
    let Some(Command::Start { job, plan }) = app.update(key('r')) else {
        panic!("{file}: {}", app.status.text);
    };
    let (tx, rx) = mpsc::channel();
    run_blocking(job, &plan, &tx, &AtomicBool::new(false));
    drop(tx);
    for e in rx {
        app.update(e);
    }
    app
}

fn frames(c: &mut Criterion) {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("test backend");
    for file in ["breast_cancer", "digits_1v8", "gibbs_vs_laplace"] {
        let mut app = finished(file);
        for (k, screen) in [
            ('1', "experiments"),
            ('2', "dataset"),
            ('3', "live"),
            ('4', "results"),
            ('5', "calibration"),
            ('6', "posterior"),
        ] {
            app.update(key(k));
            c.bench_function(&format!("frame 120x40 {file} {screen}"), |b| {
                b.iter(|| {
                    terminal
                        .draw(|f| f.render_widget(&app, f.area()))
                        .expect("draw");
                })
            });
        }
    }
}

criterion_group!(benches, frames);
criterion_main!(benches);
