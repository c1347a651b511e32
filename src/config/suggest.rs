//! "Did you mean ...?" for misspelt keys and names.

/// The candidate closest to `word` in edit distance, if it is close enough to be a likely typo.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
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

/// serde's unknown-field message lists the allowed keys ("unknown field `x`, expected one of
/// `a`, `b`"); add the nearest of them as a suggestion.
pub fn enrich_unknown_field(message: &str) -> String {
    let Some(rest) = message.split("unknown field `").nth(1) else {
        return message.to_string();
    };
    let Some((field, tail)) = rest.split_once('`') else {
        return message.to_string();
    };
    let expected: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
    match nearest(field, expected.iter().copied()) {
        Some(best) => format!("{}\ndid you mean `{best}`?", message.trim_end()),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            nearest("precison", ["precision", "mean"]),
            Some("precision")
        );
        assert_eq!(nearest("mcmc", ["plugin", "mc", "probit"]), None);
        assert_eq!(nearest("mackey", ["mackay", "exact"]), Some("mackay"));
    }

    #[test]
    fn enriches_serde_messages() {
        let m = "unknown field `precison`, expected `precision`";
        assert!(enrich_unknown_field(m).ends_with("did you mean `precision`?"));
        let m = "unknown field `tagret`, expected one of `path`, `target`, `features`";
        assert!(enrich_unknown_field(m).ends_with("did you mean `target`?"));
    }
}
