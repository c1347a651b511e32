//! Tests that the key table and the dispatch agree.

use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::binding::{char, key, Action, Context, Key};
use super::table::BINDINGS;
use crate::app::{App, Screen};
use crate::catalog::Catalog;
use Action::*;
use KeyCode::{BackTab, Down, Esc, Left, PageDown, PageUp, Tab, Up};

fn app() -> App {
    App::new(Catalog::discover(Path::new("experiments"), None))
}

fn press(k: Key) -> KeyEvent {
    let modifiers = if k.ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(k.code, modifiers)
}

/// A key as the labels write it.
fn name(k: Key) -> String {
    match k.code {
        KeyCode::Char(c) if k.ctrl => format!("Ctrl-{}", c.to_ascii_uppercase()),
        KeyCode::Char(c) => c.to_string(),
        BackTab => "S-Tab".into(),
        PageUp => "PgUp".into(),
        PageDown => "PgDn".into(),
        code => format!("{code:?}"),
    }
}

#[test]
fn every_listed_key_does_what_its_row_says_where_its_row_says() {
    // No binding listed earlier may take a later one's key in its context.
    for b in BINDINGS {
        let contexts: Vec<(Screen, bool)> = match b.context {
            Context::Everywhere => Screen::ALL.iter().map(|&s| (s, false)).collect(),
            Context::On(screen) => vec![(screen, false)],
            Context::Help => Screen::ALL.iter().map(|&s| (s, true)).collect(),
            Context::Presenting => vec![(Screen::Posterior, false)],
        };
        for (screen, help) in contexts {
            let mut app = app();
            (app.screen, app.help) = (screen, help);
            app.picks.present = b.context == Context::Presenting;
            for &(k, action) in b.keys {
                let closes = matches!(action, Quit | ToggleHelp | CloseHelp | HelpScroll(_));
                if help && !closes {
                    continue;
                }
                assert_eq!(
                    app.action(press(k)),
                    Some(action),
                    "{} ({}) on {}",
                    name(k),
                    b.label,
                    screen.title()
                );
            }
        }
    }
}

#[test]
fn each_label_names_exactly_its_keys() {
    // "1-7" stands for 1, 2, ..., 7.
    let covers = |token: &str, key: &str| {
        token == key
            || matches!(token.split_once('-'),
                Some((lo, hi)) if lo.len() == 1 && hi.len() == 1 && key.len() == 1
                    && lo <= key && key <= hi)
    };
    for b in BINDINGS {
        let tokens: Vec<&str> = b.label.split(", ").flat_map(|t| t.split('/')).collect();
        let names: Vec<String> = b.keys.iter().map(|&(k, _)| name(k)).collect();
        for n in &names {
            assert!(tokens.iter().any(|t| covers(t, n)), "{}: no {n}", b.label);
        }
        for t in &tokens {
            assert!(
                names.iter().any(|n| covers(t, n)),
                "{}: {t} is no key",
                b.label
            );
        }
    }
}

#[test]
fn with_the_help_open_only_quitting_closing_and_scrolling_it_act() {
    let mut app = app();
    app.help = true;
    for code in [
        KeyCode::Char('r'),
        KeyCode::Char('4'),
        Tab,
        KeyCode::Char('c'),
    ] {
        assert_eq!(app.action(press(key(code))), None, "{code:?}");
    }
    assert_eq!(app.action(press(key(Up))), Some(HelpScroll(-1)));
    assert_eq!(app.action(press(key(PageDown))), Some(HelpScroll(10)));
    assert_eq!(app.action(press(key(Esc))), Some(CloseHelp));
    assert_eq!(app.action(press(char('?'))), Some(ToggleHelp));
    assert_eq!(app.action(press(char('q'))), Some(Quit));
    app.help = false;
    // Ctrl-C quits, c cancels, and a letter held with Ctrl still acts as the letter.
    let ctrl = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    assert_eq!(app.action(ctrl('c')), Some(Quit));
    assert_eq!(app.action(press(char('c'))), Some(Cancel));
    assert_eq!(app.action(ctrl('r')), Some(Run));
    // Esc does nothing while the help is closed; on Dataset, Up/Down scroll the tables by a
    // row and Left/Right do nothing.
    assert_eq!(app.action(press(key(Esc))), None);
    // P presents the picture, Esc leaves, and the help's Esc still closes the help first
    assert_eq!(app.action(press(char('P'))), Some(Present));
    app.picks.present = true;
    assert_eq!(app.action(press(key(Esc))), Some(LeavePresent));
    app.help = true;
    assert_eq!(app.action(press(key(Esc))), Some(CloseHelp));
    (app.help, app.picks.present) = (false, false);
    app.screen = Screen::Dataset;
    assert_eq!(app.action(press(key(Down))), Some(DatasetScroll(1)));
    assert_eq!(app.action(press(key(Left))), None);
}
