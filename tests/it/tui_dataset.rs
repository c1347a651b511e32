//! The Dataset screen and the report's dataset section: one definition (the rows after
//! missing-value handling, split into training and test rows; feature statistics over the
//! training rows; `dropped` the file's rows removed for a missing value), per-class counts by
//! class name, and the screen filled as soon as an experiment is selected, before any run.

use crate::util::tui::{app_on, ch, key, run_to_end};
use bayeslab_tui::preview::{describe, PreviewState};
use bayeslab_tui::{App, Command, Event};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

/// Carry out a describe command as the describer thread would.
fn describe_now(app: &mut App, command: Option<Command>) {
    let Some(Command::Describe { path, data }) = command else {
        panic!("no describe command: {command:?}");
    };
    let dataset = describe(&data).map(Box::new);
    app.update(Event::Described { path, dataset });
}

fn on_file(path: &str) -> App {
    App::new(bayeslab_tui::catalog::Catalog::discover(
        std::path::Path::new("experiments"),
        Some(std::path::Path::new(path)),
    ))
}

#[test]
fn selecting_an_experiment_fills_the_dataset_before_any_run_with_the_runs_numbers() {
    let mut app = app_on("quickstart");
    app.update(ch('2'));
    assert!(screen(&app, 80, 24).contains("select an experiment"));
    let command = app.describe_selected();
    assert!(screen(&app, 80, 24).contains("loading"));
    describe_now(&mut app, command);
    let before = screen(&app, 120, 40);
    assert!(app.session.is_none(), "nothing has run");
    assert!(before.contains("per class (train / test): 0: "), "{before}");
    assert!(!before.contains("class 1 share"), "{before}");
    insta::assert_snapshot!("dataset_selected_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("dataset_selected_120x40", before);
    // The run's own dataset section is the same: one definition.
    let Some(PreviewState::Ready(preview)) = app.preview.as_ref().map(|p| p.state.clone()) else {
        panic!("no preview");
    };
    run_to_end(&mut app);
    let record = app.session.as_ref().unwrap().record.as_ref().unwrap();
    assert_eq!(
        serde_json::to_value(&*preview).unwrap(),
        serde_json::to_value(&record.dataset).unwrap()
    );
    app.update(ch('2'));
    // The same screen, but for the status line.
    let body = |s: &str| {
        s.lines()
            .rev()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&screen(&app, 120, 40)), body(&before));
}

#[test]
fn a_multiclass_target_is_counted_per_class_by_name() {
    let mut app = app_on("iris_multiclass");
    let command = app.describe_selected();
    describe_now(&mut app, command);
    app.update(ch('2'));
    let s = screen(&app, 80, 24);
    let Some(PreviewState::Ready(d)) = app.preview.as_ref().map(|p| p.state.clone()) else {
        panic!("no preview");
    };
    assert_eq!(d.classes, ["0", "1", "2"]);
    assert_eq!(d.class_counts_train.iter().sum::<usize>(), d.rows_train);
    assert_eq!(d.class_counts_test.iter().sum::<usize>(), d.rows_test);
    // Iris has 50 of each species.
    for k in 0..3 {
        assert_eq!(d.class_counts_train[k] + d.class_counts_test[k], 50);
        let label = format!(
            "{k}: {} / {}",
            d.class_counts_train[k], d.class_counts_test[k]
        );
        assert!(s.contains(&label), "{label}\n{s}");
    }
    assert!(!s.contains("class 1 share"), "{s}");
}

#[test]
fn moving_the_selection_describes_the_new_file_and_errors_show_on_the_screen() {
    let mut app = app_on("quickstart");
    app.update(ch('1'));
    let command = app.update(key(KeyCode::Down));
    let Some(Command::Describe { path, .. }) = &command else {
        panic!("{command:?}");
    };
    assert_eq!(path, &app.catalog.current().unwrap().path);
    // An answer for a file no longer selected is dropped.
    app.update(key(KeyCode::Up));
    describe_now(&mut app, command);
    assert!(matches!(
        app.preview.as_ref().map(|p| &p.state),
        Some(PreviewState::Loading)
    ));
    // A file whose data cannot be loaded: the loader's message, in red, no panic.
    let mut app = on_file("tests/invalid_configs/all_missing_column_dropped.toml");
    let command = app.describe_selected();
    describe_now(&mut app, command);
    app.update(ch('2'));
    let s = screen(&app, 80, 24);
    assert!(s.contains("the dataset cannot be loaded"), "{s}");
    assert!(s.contains("all_missing_column.csv"), "{s}");
    // A file that does not validate: its message at once.
    let mut app = on_file("tests/invalid_configs/unknown_key.toml");
    assert!(app.describe_selected().is_none());
    app.update(ch('2'));
    assert!(screen(&app, 80, 24).contains("precison"));
}

#[test]
fn dropped_rows_are_counted_as_dropped_and_the_statistics_are_over_the_rows_used() {
    let mut app = on_file("tests/fixtures/dropped_rows.toml");
    run_to_end(&mut app);
    let record = app.session.as_ref().unwrap().record.clone().unwrap();
    let d = &record.dataset;
    // 30 file rows, 3 dropped, the other 27 split.
    assert_eq!(d.rows_train + d.rows_test, 27);
    let dropped: Vec<usize> = d.summaries.iter().map(|s| s.missing).collect();
    assert_eq!(dropped, [2, 1]);
    // The mean of "a" over the training rows used, computed here from the file: complete rows
    // whose file row i has i % 3 != 0.
    let text = std::fs::read_to_string("tests/fixtures/with_nan.csv").unwrap();
    let train: Vec<f64> = text
        .lines()
        .skip(1)
        .enumerate()
        .filter(|(i, _)| i % 3 != 0)
        .map(|(_, l)| {
            l.split(',')
                .map(|v| v.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .filter(|r: &Vec<f64>| r.iter().all(|v| v.is_finite()))
        .map(|r| r[0])
        .collect();
    assert_eq!(train.len(), d.rows_train);
    let mean = train.iter().sum::<f64>() / train.len() as f64;
    assert!((d.summaries[0].mean - mean).abs() < 1e-12, "{mean}");
    let report = bayeslab_report::markdown::report(&record, &[]);
    assert!(
        report.contains("| feature | mean | sd | min | max | dropped |"),
        "{report}"
    );
    assert!(
        report.contains(&format!("over the {} training rows used", d.rows_train)),
        "{report}"
    );
    assert!(report.contains("per class (train / test): 0: "), "{report}");
    app.update(ch('2'));
    let s = screen(&app, 120, 40);
    assert!(s.contains("dropped"), "{s}");
    let a = &d.summaries[0];
    assert!(s.contains(&format!("{:.4}", a.mean)), "{s}");
}

#[test]
fn many_features_scroll_with_their_position_shown() {
    let mut app = app_on("breast_cancer");
    let command = app.describe_selected();
    describe_now(&mut app, command);
    app.update(ch('2'));
    let top = screen(&app, 80, 24);
    assert!(top.contains(" rows 1–"), "{top}");
    assert!(top.contains("of 30 · j/k PgUp/PgDn"), "{top}");
    app.update(key(KeyCode::PageDown));
    let down = screen(&app, 80, 24);
    assert!(down.contains(" rows 11–"), "{down}");
    for _ in 0..5 {
        app.update(key(KeyCode::PageDown));
    }
    let end = screen(&app, 80, 24);
    assert!(end.contains("worst_fractal_dimension"), "{end}");
    assert!(end.contains("–30 of 30"), "{end}");
}
