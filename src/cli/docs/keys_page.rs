//! experiment-keys.md: every key each table of an experiment file accepts, asked of the parser
//! itself (the serde mirror in crates/engine/src/config/raw.rs denies unknown keys and names the ones it
//! expects), and for `[[method]]` which kinds take each key (the catalogue).

use std::fmt::Write;

use serde::de::DeserializeOwned;

use bayeslab_core::catalog::{COMMON_KEYS, ROWS};
use bayeslab_engine::config::posterior::{RawColumn, RawPosterior};
use bayeslab_engine::config::raw::{
    RawData, RawEvaluation, RawExperiment, RawFeatures, RawMethod, RawPrior, RawSplit,
};

use super::header;

/// A key no table has: the parser's refusal of it lists the keys the table accepts.
const PROBE: &str = "zz_no_such_key";

/// The keys the serde mirror `T` accepts, in declaration order.
pub fn accepted<T: DeserializeOwned>() -> Vec<String> {
    let err = match toml::from_str::<T>(&format!("{PROBE} = 1")) {
        Ok(_) => panic!("the probe key was accepted"),
        Err(e) => e.to_string(),
    };
    let expected = err
        .split_once("expected")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no list of expected keys in: {err}"));
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Every table of an experiment file and the keys it accepts.
pub fn tables() -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("top level", accepted::<RawExperiment>()),
        ("[data]", accepted::<RawData>()),
        ("[data] split = { … }", accepted::<RawSplit>()),
        ("[prior]", accepted::<RawPrior>()),
        ("[features]", accepted::<RawFeatures>()),
        ("[evaluation]", accepted::<RawEvaluation>()),
        ("[[method]]", accepted::<RawMethod>()),
        ("[[posterior]]", accepted::<RawPosterior>()),
        ("[[posterior]] data = { … }", accepted::<RawColumn>()),
    ]
}

/// The kinds whose catalogue row accepts the `[[method]]` key `key`.
fn kinds_taking(key: &str) -> String {
    if COMMON_KEYS.contains(&key) {
        return "every kind".into();
    }
    let names: Vec<String> = ROWS
        .iter()
        .filter(|r| r.keys.contains(&key))
        .map(|r| format!("`{}`", r.name))
        .collect();
    if names.is_empty() {
        "no kind".into()
    } else {
        names.join(", ")
    }
}

pub fn page() -> String {
    let mut s = header(
        "Experiment keys",
        "the experiment parser (crates/engine/src/config/raw.rs) and the catalogue",
    );
    s.push_str(
        "Every key each table of an experiment file accepts; any other key is an error that \
         suggests the nearest of these. What each means, its default and its range: \
         [Experiment files](../experiment-keys.md). `[sweep]` takes one key, any numeric key \
         above as a dotted path (`prior.precision`, `method.mc_samples`).\n",
    );
    for (table, keys) in tables() {
        let _ = write!(s, "\n## `{table}`\n\n");
        if table == "[[method]]" {
            s.push_str("| key | kinds |\n|---|---|\n");
            for key in &keys {
                let _ = writeln!(s, "| `{key}` | {} |", kinds_taking(key));
            }
        } else {
            let names: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            let _ = writeln!(s, "{}", names.join(", "));
        }
    }
    s
}
