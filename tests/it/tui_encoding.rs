//! The Dataset screen on a table with categorical and imputed columns: every level with its
//! training and test rows and the reference, each imputed column's cells filled and fill
//! value, and its indicator column. The dataset is the shipped penguins experiment's, loaded as
//! a run loads it and given to the app as the describer would give it; at 80x24
//! the level list scrolls (with the features, one position) with its position on the border
//! and no label is cut.

use crate::util::tui::{app_on, ch};
use bayeslab_core::record::DatasetInfo;
use bayeslab_tui::{App, Command, Event};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

/// datasets/penguins.csv as experiments/penguins.toml loads it (text columns, a coded year,
/// delta_15n's gaps filled by the training mean with an indicator column): the record section
/// the describer would send.
fn penguins() -> DatasetInfo {
    let plan =
        bayeslab_engine::config::load(std::path::Path::new("experiments/penguins.toml")).unwrap();
    let data = bayeslab_data::load(plan.data.as_ref().unwrap()).unwrap();
    bayeslab_engine::run::Source::Memory(&data).info(None)
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
        "cells filled: mean 8.7583",
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
    let labels: Vec<String> = bayeslab_tui::screen::encoding_rows(&penguins().encoding)
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
