//! The Dataset screen on a table with categorical and imputed columns: every level with its
//! training and test rows and the reference, each imputed column's cells filled and fill
//! value, and its indicator column. The dataset is a hand-made record section (the counts of a
//! penguins-like table, synthetic), given to the app as the describer would give it; at 80x24
//! the level list scrolls (with the features, one position) with its position on the border
//! and no label is cut.

mod tui_support;

use bayeslab::data::{CategoricalInfo, EncodingInfo, FeatureSummary, ImputedInfo, LevelCount};
use bayeslab::record::DatasetInfo;
use bayeslab::tui::{App, Command, Event};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tui_support::{app_on, ch};

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

fn categorical(column: &str, reference: &str, levels: &[(&str, usize, usize)]) -> CategoricalInfo {
    CategoricalInfo {
        column: column.into(),
        levels: levels
            .iter()
            .map(|&(level, train, test)| LevelCount {
                level: level.into(),
                train,
                test,
            })
            .collect(),
        reference: reference.into(),
        design_columns: levels
            .iter()
            .filter(|l| l.0 != reference)
            .map(|l| format!("{column}={}", l.0))
            .collect(),
    }
}

fn summary(name: &str, mean: f64, sd: f64, min: f64, max: f64) -> FeatureSummary {
    FeatureSummary {
        name: name.into(),
        mean,
        sd,
        min,
        max,
        missing: 0,
    }
}

/// 250 training and 83 test rows of a penguins-like table.
fn penguins() -> DatasetInfo {
    let encoding = EncodingInfo {
        categorical: vec![
            categorical(
                "species",
                "Gentoo",
                &[
                    ("Adelie", 110, 36),
                    ("Chinstrap", 51, 17),
                    ("Gentoo", 89, 30),
                ],
            ),
            categorical(
                "island",
                "Biscoe",
                &[
                    ("Biscoe", 122, 41),
                    ("Dream", 91, 32),
                    ("Torgersen", 37, 10),
                ],
            ),
            categorical(
                "clutch_completion",
                "No",
                &[("No", 26, 8), ("Yes", 224, 75)],
            ),
            categorical(
                "year",
                "2007",
                &[("2007", 80, 23), ("2008", 84, 30), ("2009", 86, 30)],
            ),
        ],
        imputed: vec![ImputedInfo {
            column: "delta_15n".into(),
            strategy: "mean".into(),
            value: "8.7399".into(),
            filled_train: 7,
            filled_test: 2,
            indicator: Some("delta_15n=missing".into()),
        }],
    };
    let columns = [
        "intercept",
        "species=Adelie",
        "species=Chinstrap",
        "island=Dream",
        "island=Torgersen",
        "bill_length_mm",
        "flipper_length_mm",
        "body_mass_g",
        "clutch_completion=Yes",
        "delta_15n",
        "delta_15n=missing",
        "year=2008",
        "year=2009",
    ];
    DatasetInfo {
        files: vec!["experiments/../datasets/penguins.csv".into()],
        target: "sex".into(),
        classes: vec!["female".into(), "male".into()],
        rows_train: 250,
        rows_test: 83,
        features: 8,
        columns: columns.iter().map(|c| c.to_string()).collect(),
        positives_train: 126,
        positives_test: 42,
        class_counts_train: vec![124, 126],
        class_counts_test: vec![41, 42],
        summaries: vec![
            summary("bill_length_mm", 43.9, 5.46, 32.1, 59.6),
            summary("flipper_length_mm", 200.9, 14.0, 172.0, 231.0),
            summary("body_mass_g", 4207.1, 805.2, 2700.0, 6300.0),
            summary("delta_15n", 8.7399, 0.5517, 7.6322, 10.0254),
        ],
        encoding,
        notes: vec![
            "experiments/../datasets/penguins.csv: dropped 11 of 344 rows without a value of the target \"sex\"".into(),
        ],
    }
}

/// The workbench with `dataset` as the selected experiment's described data, on Dataset.
fn on_dataset(dataset: DatasetInfo) -> App {
    let mut app = app_on("quickstart");
    let Some(Command::Describe { path, .. }) = app.describe_selected() else {
        panic!("no describe command");
    };
    app.update(Event::Described {
        path,
        dataset: Ok(Box::new(dataset)),
    });
    app.update(ch('2'));
    app
}

#[test]
fn the_dataset_screen_lists_levels_and_filled_cells() {
    let app = on_dataset(penguins());
    let big = screen(&app, 120, 40);
    for needle in [
        "species=Gentoo",
        "reference",
        "cells filled: mean 8.7399",
        "delta_15n=missing",
        "1 where delta_15n was filled",
    ] {
        assert!(big.contains(needle), "{needle} not in\n{big}");
    }
    insta::assert_snapshot!("encoding_dataset_120x40", big);
    insta::assert_snapshot!("encoding_dataset_80x24", screen(&app, 80, 24));
}

#[test]
fn at_80x24_the_levels_scroll_and_every_label_is_seen_whole() {
    let mut app = on_dataset(penguins());
    let first = screen(&app, 80, 24);
    assert!(
        first.contains("rows 1–"),
        "no position on the border:\n{first}"
    );
    let labels: Vec<String> = bayeslab::tui::screen::encoding_rows(&penguins().encoding)
        .into_iter()
        .map(|r| r.label)
        .collect();
    assert_eq!(labels.len(), 11 + 2);
    let mut seen = String::new();
    for _ in 0..labels.len() {
        seen.push_str(&screen(&app, 80, 24));
        app.update(ch('j'));
    }
    insta::assert_snapshot!("encoding_dataset_scrolled_80x24", screen(&app, 80, 24));
    for label in &labels {
        // Whole, followed by the space before its counts.
        assert!(
            seen.contains(&format!("│{label} ")),
            "{label} never whole:\n{seen}"
        );
    }
    // The features table follows the same position, a row at a time: none is skipped.
    for f in &penguins().summaries {
        assert!(
            seen.contains(&format!("│{} ", f.name)),
            "{} never shown",
            f.name
        );
    }
    // Back up to the top.
    for _ in 0..labels.len() {
        app.update(ch('k'));
    }
    assert_eq!(screen(&app, 80, 24), first);
}
