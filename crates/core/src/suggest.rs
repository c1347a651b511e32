//! Words for messages: the name the user probably meant ("did you mean ...?") and a list in
//! prose. Config, the data readers and the views all name keys, columns and kinds this way.

/// The candidate with `word`'s words in another order (`logistic-vb` for `vb-logistic`: edit
/// distance alone would offer `logistic-mle`), else the candidate closest to `word` in edit
/// distance, if it is close enough to be a likely typo.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let words = |s: &str| {
        let mut w: Vec<String> = s.split(['-', '_']).map(str::to_lowercase).collect();
        w.sort();
        w
    };
    // Only a word of several parts can be reordered; its parts are sorted once.
    let parts = (word.contains('-') || word.contains('_')).then(|| words(word));
    let reordered = parts.and_then(|p| candidates.iter().find(|c| words(c) == p));
    if let Some(c) = reordered {
        return Some(c);
    }
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, c)| *d <= (c.len().max(word.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// " (did you mean `x`?)" or "".
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    nearest(word, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// "a, b and c": the names of a list in prose.
pub fn and_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
