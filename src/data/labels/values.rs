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
    seen: impl FnOnce() -> Vec<String>,
    column: &str,
) -> Result<(), String> {
    if found {
        Ok(())
    } else {
        Err(format!(
            "positive = \"{p}\" does not occur in target column \"{column}\"; its values are: {}",
            seen().join(", ")
        ))
    }
}

pub(super) fn unclear(column: &str, seen: &[String]) -> String {
    let example = seen.last().cloned().unwrap_or_default();
    format!(
        "target column \"{column}\" has the labels {}: say which is class 1 with [data] positive = \"{example}\"",
        seen.join(", ")
    )
}

pub(super) fn distinct_numbers(v: &[Option<f64>]) -> Vec<String> {
    let mut seen: Vec<f64> = Vec::new();
    for x in v.iter().flatten() {
        if !seen.contains(x) {
            seen.push(*x);
        }
        if seen.len() > 10 {
            break;
        }
    }
    seen.sort_by(f64::total_cmp);
    seen.into_iter().map(number_name).collect()
}

pub(super) fn distinct_text(v: &[Option<String>]) -> Vec<String> {
    let set: BTreeSet<&str> = v.iter().flatten().map(String::as_str).take(1000).collect();
    set.into_iter().take(10).map(str::to_string).collect()
}
