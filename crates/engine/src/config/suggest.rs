//! "Did you mean ...?" for misspelt keys and names.

use bayeslab_core::catalog::{MethodKind, COMMON_KEYS};
pub use bayeslab_core::suggest::{and_list, did_you_mean, nearest};

/// serde's unknown-field message lists the allowed keys ("unknown field `x`, expected one of
/// `a`, `b`"); add the nearest of them as a suggestion. Every `[[method]]` table shares one serde
/// mirror, so its list holds the keys of all kinds: when the field sits in a `[[method]]` table of
/// `doc`, suggest only among the keys that table's kind accepts, and name them.
pub fn enrich_unknown_field(message: &str, doc: &toml::Table) -> String {
    let Some(rest) = message.split("unknown field `").nth(1) else {
        return message.to_string();
    };
    let Some((field, tail)) = rest.split_once('`') else {
        return message.to_string();
    };
    let expected: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
    let kind = method_kind_holding(doc, field);
    let candidates: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|c| kind.is_none_or(|k| k.accepts(c)))
        .collect();
    let mut out = message.trim_end().to_string();
    if let Some(best) =
        nearest(field, candidates.iter().copied()).or_else(|| synonym(field, &candidates))
    {
        out.push_str(&format!("\ndid you mean `{best}`?"));
    }
    if let Some(k) = kind {
        let keys = COMMON_KEYS.iter().chain(k.row().keys).copied();
        out.push_str(&format!(
            "\nkind = \"{}\" takes {}",
            k.name(),
            and_list(keys)
        ));
    }
    if out.trim_end() == message.trim_end() {
        return message.to_string();
    }
    out
}

/// Method keys that are other words for a key rather than typos of it: `samples` is far in
/// edit distance from `draws`, yet it is what a Gibbs user means. Read as (written, meant).
const SYNONYMS: [(&str, &str); 8] = [
    ("samples", "draws"),
    ("n_samples", "draws"),
    ("n_draws", "draws"),
    ("warmup", "burn_in"),
    ("iterations", "max_iter"),
    ("lr", "learning_rate"),
    ("tol", "tolerance"),
    ("thinning", "thin"),
];

/// The key among `candidates` that `word` is another name for.
fn synonym<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    SYNONYMS
        .iter()
        .filter(|(written, _)| *written == word)
        .find_map(|(_, meant)| candidates.iter().copied().find(|c| c == meant))
}

/// The kind of the first `[[method]]` table in `doc` that holds `key`, if the catalogue knows it.
fn method_kind_holding(doc: &toml::Table, key: &str) -> Option<MethodKind> {
    doc.get("method")?
        .as_array()?
        .iter()
        .filter_map(toml::Value::as_table)
        .find(|t| t.contains_key(key))?
        .get("kind")?
        .as_str()
        .and_then(MethodKind::parse)
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
    fn a_kind_with_its_words_swapped_is_offered_the_kind_it_names() {
        let kinds: Vec<&str> = MethodKind::ALL.into_iter().map(MethodKind::name).collect();
        for (given, offered) in [
            ("logistic-vb", "vb-logistic"),
            ("probit-ep", "ep-probit"),
            ("Logistic-HMC", "hmc-logistic"),
            // A plain typo is still an edit away.
            ("logistic-lapace", "logistic-laplace"),
        ] {
            assert_eq!(
                nearest(given, kinds.iter().copied()),
                Some(offered),
                "{given}"
            );
        }
    }

    #[test]
    fn enriches_serde_messages() {
        let none = toml::Table::new();
        let m = "unknown field `precison`, expected `precision`";
        assert!(enrich_unknown_field(m, &none).ends_with("did you mean `precision`?"));
        let m = "unknown field `tagret`, expected one of `path`, `target`, `features`";
        assert!(enrich_unknown_field(m, &none).ends_with("did you mean `target`?"));
    }

    #[test]
    fn a_misspelt_method_key_is_matched_against_its_kinds_keys_only() {
        let m = "unknown field `samples`, expected one of `kind`, `id`, `mc_samples`, `draws`";
        let doc: toml::Table =
            toml::from_str("[[method]]\nkind = \"gibbs-logistic\"\nsamples = 100\n").unwrap();
        let e = enrich_unknown_field(m, &doc);
        assert!(e.contains("did you mean `draws`?"), "{e}");
        assert!(!e.contains("`mc_samples`?"), "{e}");
        assert!(e.ends_with("kind = \"gibbs-logistic\" takes kind, id, predictive, chains, draws, burn_in and thin"), "{e}");
        let doc: toml::Table =
            toml::from_str("[[method]]\nkind = \"logistic-laplace\"\nsamples = 100\n").unwrap();
        assert!(enrich_unknown_field(m, &doc).contains("did you mean `mc_samples`?"));
    }

    #[test]
    fn the_kind_lists_in_messages_read_as_before_the_catalogue() {
        use bayeslab_core::catalog::MethodKind;
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
