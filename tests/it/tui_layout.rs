//! The workbench at the edges of its layout: a terminal below 80x24 gets a message with the
//! size needed and the size now, and the screens come back when it grows; the help overlay
//! shows every binding whole, scrolling where they do not all fit; the experiment file's text
//! scrolls with the lines in view in its border.

use crate::util::tui::{app_on, ch, key};
use bayeslab_tui::keys::BINDINGS;
use bayeslab_tui::App;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| f.render_widget(app, f.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn below_80x24_a_message_replaces_the_screens_until_the_terminal_grows() {
    let app = app_on("quickstart");
    for (w, h) in [(70, 20), (79, 24), (80, 23)] {
        let s = screen(&app, w, h);
        assert!(s.contains("terminal too small"), "{w}x{h}:\n{s}");
        assert!(s.contains(&format!("this one is {w}x{h}")), "{s}");
        assert!(s.contains("at least 80x24"), "{s}");
        assert!(!s.contains("1 Experiments"), "{s}");
    }
    insta::assert_snapshot!("too_small_70x20", screen(&app, 70, 20));
    // The same app on a grown terminal: the screens again.
    let s = screen(&app, 80, 24);
    assert!(
        s.contains("1 Experiments") && !s.contains("too small"),
        "{s}"
    );
}

/// Every screen of the help met while scrolling from its top to its end.
fn help_pages(app: &mut App, w: u16, h: u16) -> Vec<String> {
    let mut pages = vec![screen(app, w, h)];
    for _ in 0..BINDINGS.len() {
        app.update(key(KeyCode::Down));
        pages.push(screen(app, w, h));
    }
    for _ in 0..BINDINGS.len() {
        app.update(key(KeyCode::Up));
    }
    pages
}

#[test]
fn the_help_shows_every_binding_whole_at_both_sizes() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = app_on("quickstart");
        app.update(ch('?'));
        let pages = help_pages(&mut app, w, h);
        let text: String = pages.join("\n");
        for b in BINDINGS {
            for k in b.label.split(' ') {
                assert!(text.contains(k), "{w}x{h}: {} missing", b.label);
            }
            // Each description's words in order on one page (wrapped lines joined).
            let found = pages.iter().any(|p| {
                let words: Vec<&str> = p
                    .lines()
                    .flat_map(|l| l.split(|c: char| "│\"".contains(c) || c.is_whitespace()))
                    .filter(|w| !w.is_empty())
                    .collect();
                let want: Vec<&str> = b.what.split(' ').collect();
                words.windows(want.len()).any(|win| win == want.as_slice())
            });
            assert!(found, "{w}x{h}: \"{}\" is not readable whole", b.what);
        }
        insta::assert_snapshot!(format!("help_top_{w}x{h}"), pages[0].clone());
    }
    // At 80x24 the rows do not all fit: the title says which are shown, and Down scrolls.
    let mut app = app_on("quickstart");
    app.update(ch('?'));
    let top = screen(&app, 80, 24);
    assert!(top.contains("keys 1–"), "{top}");
    assert!(top.contains(&format!("of {}", BINDINGS.len())), "{top}");
    // PgDn steps a page and stops at the last one.
    for _ in 0..3 {
        app.update(key(KeyCode::PageDown));
    }
    let end = screen(&app, 80, 24);
    assert!(end.contains("scroll the help"), "{end}");
    insta::assert_snapshot!("help_end_80x24", end);
    app.update(key(KeyCode::Esc));
    assert!(!app.help);
}

#[test]
fn the_experiment_text_scrolls_with_its_position_shown() {
    let mut app = app_on("quickstart");
    let text = std::fs::read_to_string("experiments/quickstart.toml").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let top = screen(&app, 80, 24);
    // Long lines wrap, so the pane counts rows, at least one per line.
    let total: usize = top
        .split("rows 1–16 of ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no position in\n{top}"));
    assert!(total >= lines.len(), "{top}");
    assert!(top.contains("PgUp/PgDn scroll"), "{top}");
    app.update(key(KeyCode::PageDown));
    let down = screen(&app, 80, 24);
    assert!(down.contains(&format!("rows 11–26 of {total}")), "{down}");
    // The last line of the file is reachable, and the pane stops there.
    for _ in 0..10 {
        app.update(key(KeyCode::PageDown));
    }
    let end = screen(&app, 80, 24);
    let last = lines.iter().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(end.contains(last.trim()), "{end}");
    insta::assert_snapshot!("experiment_text_end_80x24", end);
    // Selecting another file starts its text at the top.
    app.update(ch('j'));
    assert_eq!(app.picks.text_scroll, 0);
    app.update(key(KeyCode::PageUp));
    assert_eq!(app.picks.text_scroll, 0);
}
