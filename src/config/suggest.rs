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

/// "a, b and c": the names of a list in prose.
pub fn and_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
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

    #[test]
    fn the_kind_lists_in_messages_read_as_before_the_catalogue() {
        use crate::catalog::MethodKind;
        let names = |f: fn(MethodKind) -> bool| {
            and_list(
                MethodKind::ALL
                    .into_iter()
                    .filter(|k| f(*k))
                    .map(MethodKind::name),
            )
        };
        assert_eq!(
            names(MethodKind::laplace_evidence),
            "logistic-map, logistic-laplace, probit-laplace and softmax-laplace"
        );
        assert_eq!(
            names(MethodKind::streams),
            "logistic-mle, logistic-map, logistic-laplace, probit-laplace and bernoulli-naive-bayes"
        );
        assert_eq!(and_list(["a"]), "a");
        assert_eq!(and_list([]), "");
    }
}
