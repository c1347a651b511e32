//! Names shortened to a column's width without losing what tells them apart: a name that does
//! not fit keeps its start and its end around a `…` (breast_cancer's `worst_concavity` and
//! `worst_concave_points` stay distinct where a plain cut gave `worst_concav` twice), and the
//! split between start and end is moved until no two shortened names are equal.

/// `name` in at most `width` characters: unchanged when it fits, else its first characters, `…`
/// and its last `tail` characters.
fn shorten(name: &str, width: usize, tail: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= width {
        return name.to_string();
    }
    if width < 2 {
        return chars[..width].iter().collect();
    }
    let tail = tail.min(width - 1);
    let head = width - 1 - tail;
    let mut s: String = chars[..head].iter().collect();
    s.push('…');
    s.extend(&chars[chars.len() - tail..]);
    s
}

/// Every name in at most `width` characters, distinct whenever some split of start and end
/// makes them so (the even split first, then every other from the end-heavy side).
pub fn fit(names: &[&str], width: usize) -> Vec<String> {
    let even = width.saturating_sub(1) / 2;
    let splits = std::iter::once(even).chain((0..width).rev());
    let mut first = None;
    for tail in splits {
        let out: Vec<String> = names.iter().map(|n| shorten(n, width, tail)).collect();
        let mut sorted: Vec<&String> = out.iter().collect();
        sorted.sort();
        sorted.dedup();
        if sorted.len() == out.len() {
            return out;
        }
        first.get_or_insert(out);
    }
    first.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_fit_are_kept_and_long_ones_stay_distinct() {
        let names = ["worst_concavity", "worst_concave_points", "radius"];
        let got = fit(&names, 12);
        assert_eq!(got[2], "radius");
        assert_ne!(got[0], got[1]);
        assert!(got.iter().all(|n| n.chars().count() <= 12), "{got:?}");
        assert_eq!(got[0], "worst_…avity");
        assert_eq!(fit(&names, 20), names);
    }

    #[test]
    fn the_split_moves_until_the_names_differ() {
        // Same start and same end around the even split: only a split near the middle tells them apart.
        let names = ["abcdef_X_uvwxyz", "abcdef_Y_uvwxyz"];
        let got = fit(&names, 9);
        assert_ne!(got[0], got[1], "{got:?}");
        assert!(got.iter().all(|n| n.chars().count() == 9));
    }
}
