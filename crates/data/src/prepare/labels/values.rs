//! What a target column holds: its distinct values as text or numbers, the encodings read as
//! true/false, and the messages that list what was seen.

use std::collections::BTreeSet;

pub(super) fn parse_bool(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// A number's class name: +0.0 and -0.0 are one value, "0" (the shortest text that reads back
/// as the number, so distinct numbers have distinct names).
pub(super) fn number_name(x: f64) -> String {
    (x + 0.0).to_string()
}

/// Every distinct label of a column as its class would be named, in byte order.
pub fn label_names(labels: &crate::read::table::Labels) -> Vec<String> {
    use crate::read::table::Labels;
    let mut names: Vec<String> = match labels {
        Labels::Numeric(v) => v.iter().flatten().map(|&x| number_name(x)).collect(),
        Labels::Text(v) => distinct_strings(v).into_iter().map(String::from).collect(),
        Labels::Bool(v) => v.iter().flatten().map(bool::to_string).collect(),
    };
    names.sort();
    names.dedup();
    names
}

/// Every distinct label of a text column, in byte order.
pub(super) fn distinct_strings(v: &[Option<String>]) -> BTreeSet<&str> {
    v.iter().flatten().map(String::as_str).collect()
}

/// The class (0 or 1) of each of the `distinct` strings when they are a binary encoding: numbers
/// all in {0, 1} or all in {-1, 1} ("+1" is text to polars), or the words false/true in any
/// case; one string per class, so "1" and "+1" or "true" and "TRUE" together are not read as
/// one class. `None` when they are not such a pair.
pub(super) fn text_encoding(distinct: &[&str]) -> Option<Vec<f64>> {
    let numbers: Option<Vec<f64>> = distinct.iter().map(|s| s.parse().ok()).collect();
    let class: Vec<f64> = match numbers {
        Some(x) => {
            let ok01 = x.iter().all(|&x| x == 0.0 || x == 1.0);
            let ok_pm = x.iter().all(|&x| x == -1.0 || x == 1.0);
            if !(ok01 || ok_pm) {
                return None;
            }
            x.iter().map(|&x| f64::from(u8::from(x == 1.0))).collect()
        }
        None => distinct
            .iter()
            .map(|s| match s.to_ascii_lowercase().as_str() {
                "true" => Some(1.0),
                "false" => Some(0.0),
                _ => None,
            })
            .collect::<Option<Vec<f64>>>()?,
    };
    let ones = class.iter().filter(|&&c| c == 1.0).count();
    (ones <= 1 && class.len() - ones <= 1).then_some(class)
}

pub(super) fn check_present<T: std::fmt::Display>(
    found: bool,
    p: T,
    seen: impl FnOnce() -> Tally,
    column: &str,
) -> Result<(), String> {
    if found {
        Ok(())
    } else {
        Err(format!(
            "positive = \"{p}\" does not occur in target column \"{column}\"; its values are: {}",
            seen().text
        ))
    }
}

pub(super) fn unclear(column: &str, seen: &Tally) -> String {
    format!(
        "target column \"{column}\" has the labels {}: say which is class 1 with [data] positive = \"{}\"",
        seen.text, seen.example
    )
}

/// At most this many distinct values are named in a message; the rest are counted.
const SHOWN: usize = 10;

/// A column's distinct values for a message: each with how often it occurs over the whole
/// column (a label first seen on row 2,055 is still named), in sorted order, at most [`SHOWN`].
pub(super) struct Tally {
    pub text: String,
    /// The last value named: the example in "say which is class 1 with positive = ...".
    pub example: String,
}

/// Rows per entry of a label column: 1 for a column read whole, the count of each distinct
/// value for the distinct values of a streamed column.
pub(super) fn weight(weights: Option<&[usize]>, i: usize) -> usize {
    weights.map_or(1, |w| w[i])
}

fn tally(counted: Vec<(String, usize)>) -> Tally {
    let example = counted[..counted.len().min(SHOWN)]
        .last()
        .map(|(name, _)| name.clone())
        .unwrap_or_default();
    let mut parts: Vec<String> = counted
        .iter()
        .take(SHOWN)
        .map(|(name, n)| format!("{name} ({n})"))
        .collect();
    if counted.len() > SHOWN {
        parts.push(format!("… and {} more", counted.len() - SHOWN));
    }
    Tally {
        text: parts.join(", "),
        example,
    }
}

pub(super) fn distinct_numbers(v: &[Option<f64>], weights: Option<&[usize]>) -> Tally {
    let mut counts: std::collections::HashMap<u64, usize> = Default::default();
    for (i, x) in v.iter().enumerate() {
        if let Some(x) = x {
            *counts.entry((x + 0.0).to_bits()).or_default() += weight(weights, i);
        }
    }
    let mut seen: Vec<(f64, usize)> = counts
        .into_iter()
        .map(|(b, n)| (f64::from_bits(b), n))
        .collect();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    tally(seen.into_iter().map(|(x, n)| (number_name(x), n)).collect())
}

pub(super) fn distinct_text(v: &[Option<String>], weights: Option<&[usize]>) -> Tally {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for (i, s) in v.iter().enumerate() {
        if let Some(s) = s {
            *counts.entry(s).or_default() += weight(weights, i);
        }
    }
    tally(
        counts
            .into_iter()
            .map(|(s, n)| (s.to_string(), n))
            .collect(),
    )
}
