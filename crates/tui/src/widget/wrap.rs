//! Text broken into lines of a given width at spaces, for text drawn in a fixed column (the
//! help's descriptions, an experiment file's lines) where ratatui's own wrapping would not
//! tell the caller how many rows it took.

/// `text` broken at spaces into lines of at most `width` characters; a longer word is cut
/// across lines. Runs of spaces (a TOML file's indentation and aligned comments) are kept.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut started = false;
    for word in text.split(' ') {
        let (n, w) = (line.chars().count(), word.chars().count());
        if started && n + 1 + w <= width {
            line.push(' ');
            line.push_str(word);
            continue;
        }
        if started {
            lines.push(std::mem::take(&mut line));
        }
        let mut chars: Vec<char> = word.chars().collect();
        while chars.len() > width {
            lines.push(chars.drain(..width).collect());
        }
        line = chars.into_iter().collect();
        started = true;
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_fits_and_nothing_is_lost() {
        let text = "sort by it (best first, again: worst first, again: off)";
        let lines = wrap(text, 20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("  a  b", 10), ["  a  b"]);
        assert_eq!(wrap("", 10), [""]);
    }
}
