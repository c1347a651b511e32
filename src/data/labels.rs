//! Turning a target column into 0/1 labels: `positive` names class 1; without it the
//! pairs 0/1, false/true and -1/+1 are understood.

use std::collections::BTreeSet;

use super::table::Labels;

mod set;
pub use set::LabelSet;

/// 0/1 per row (`None` where the label is missing), or a message saying what to set.
pub fn binary(
    labels: &Labels,
    positive: Option<&str>,
    column: &str,
) -> Result<Vec<Option<f64>>, String> {
    match (labels, positive) {
        (Labels::Bool(v), None) => Ok(v
            .iter()
            .map(|b| b.map(|b| f64::from(u8::from(b))))
            .collect()),
        (Labels::Bool(v), Some(p)) => {
            let p = parse_bool(p).ok_or_else(|| {
                format!("positive = \"{p}\" but target column \"{column}\" holds booleans; use positive = true or false")
            })?;
            Ok(v.iter()
                .map(|b| b.map(|b| f64::from(u8::from(b == p))))
                .collect())
        }
        (Labels::Numeric(v), Some(p)) => {
            let p: f64 = p.parse().map_err(|_| {
                format!("positive = \"{p}\" but target column \"{column}\" is numeric; give one of its values")
            })?;
            check_present(
                v.iter().flatten().any(|&x| x == p),
                p,
                || distinct_numbers(v),
                column,
            )?;
            Ok(v.iter()
                .map(|x| x.map(|x| f64::from(u8::from(x == p))))
                .collect())
        }
        (Labels::Numeric(v), None) => {
            let seen = distinct_numbers(v);
            let ok01 = v.iter().flatten().all(|&x| x == 0.0 || x == 1.0);
            let ok_pm = v.iter().flatten().all(|&x| x == -1.0 || x == 1.0);
            if ok01 || ok_pm {
                Ok(v.iter()
                    .map(|x| x.map(|x| f64::from(u8::from(x == 1.0))))
                    .collect())
            } else {
                Err(unclear(column, &seen))
            }
        }
        (Labels::Text(v), Some(p)) => {
            check_present(
                v.iter().flatten().any(|s| s == p),
                p,
                || distinct_text(v),
                column,
            )?;
            Ok(v.iter()
                .map(|s| s.as_ref().map(|s| f64::from(u8::from(s == p))))
                .collect())
        }
        (Labels::Text(v), None) => {
            let distinct: Vec<&str> = distinct_strings(v).into_iter().collect();
            let class =
                text_encoding(&distinct).ok_or_else(|| unclear(column, &distinct_text(v)))?;
            Ok(v.iter()
                .map(|s| {
                    s.as_deref()
                        .and_then(|s| distinct.iter().position(|d| *d == s))
                        .map(|k| class[k])
                })
                .collect())
        }
    }
}

/// Above this many distinct values the target is taken for a continuous column, not classes.
pub const MAX_CLASSES: usize = 100;

/// Class index per row (`None` where missing) and the class names, index order. With `positive`
/// or a binary encoding (0/1, false/true, -1/+1) there are two classes and index 1 is the
/// positive one; otherwise every distinct value is a class, in sorted order.
pub fn classes(
    labels: &Labels,
    positive: Option<&str>,
    column: &str,
) -> Result<(Vec<Option<f64>>, Vec<String>), String> {
    match binary(labels, positive, column) {
        Ok(y) => {
            let names = match positive {
                Some(p) => vec![format!("not {p}"), p.to_string()],
                None => vec!["0".to_string(), "1".to_string()],
            };
            return Ok((y, names));
        }
        Err(e) if positive.is_some() => return Err(e),
        Err(_) => {}
    }
    let names: Vec<String> = match labels {
        Labels::Numeric(v) => {
            let mut seen: Vec<f64> = Vec::new();
            for x in v.iter().flatten() {
                if !seen.contains(x) {
                    seen.push(*x);
                    if seen.len() > MAX_CLASSES {
                        break;
                    }
                }
            }
            seen.sort_by(f64::total_cmp);
            seen.into_iter().map(number_name).collect()
        }
        Labels::Text(v) => {
            let mut names: Vec<&str> = distinct_strings(v).into_iter().collect();
            let numbers: Option<Vec<f64>> = names.iter().map(|s| s.parse().ok()).collect();
            let small = names.len() <= MAX_CLASSES;
            if small && numbers.is_some_and(|x| x.iter().all(|x| !x.is_nan())) {
                // "-1", "0", "+1" in that order; two spellings of one number stay two classes
                names.sort_by(|a, b| {
                    let (x, y): (f64, f64) = (a.parse().unwrap_or(0.0), b.parse().unwrap_or(0.0));
                    x.total_cmp(&y).then(a.cmp(b))
                });
            }
            names.into_iter().map(str::to_string).collect()
        }
        Labels::Bool(_) => unreachable!("boolean labels are always binary"),
    };
    if names.len() > MAX_CLASSES {
        return Err(format!(
            "target column \"{column}\" has more than {MAX_CLASSES} distinct values: it looks continuous, not a class label; \
             choose another [data] target or say which value is class 1 with [data] positive"
        ));
    }
    let y = by_name(labels, &names, column)?;
    Ok((y, names))
}

/// Class indices of `labels` against known class `names` (the test file of a train/test pair).
pub fn by_name(
    labels: &Labels,
    names: &[String],
    column: &str,
) -> Result<Vec<Option<f64>>, String> {
    let index = |s: String| -> Result<f64, String> {
        names.iter().position(|n| *n == s).map(|i| i as f64).ok_or_else(|| {
            format!(
                "target column \"{column}\" holds the label \"{s}\", which the training rows do not have (classes: {})",
                names.join(", ")
            )
        })
    };
    match labels {
        Labels::Numeric(v) => v
            .iter()
            .map(|x| x.map(|x| index(number_name(x))).transpose())
            .collect(),
        Labels::Text(v) => v.iter().map(|x| x.clone().map(index).transpose()).collect(),
        Labels::Bool(v) => v
            .iter()
            .map(|x| x.map(|b| index(b.to_string())).transpose())
            .collect(),
    }
}

fn parse_bool(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// A number's class name: +0.0 and -0.0 are one value, "0" (the shortest text that reads back
/// as the number, so distinct numbers have distinct names).
fn number_name(x: f64) -> String {
    (x + 0.0).to_string()
}

/// Every distinct label of a text column, in byte order.
fn distinct_strings(v: &[Option<String>]) -> BTreeSet<&str> {
    v.iter().flatten().map(String::as_str).collect()
}

/// The class (0 or 1) of each of the `distinct` strings when they are a binary encoding: numbers
/// all in {0, 1} or all in {-1, 1} ("+1" is text to polars), or the words false/true in any
/// case; one string per class, so "1" and "+1" or "true" and "TRUE" together are not read as
/// one class. `None` when they are not such a pair.
fn text_encoding(distinct: &[&str]) -> Option<Vec<f64>> {
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

fn check_present<T: std::fmt::Display>(
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

fn unclear(column: &str, seen: &[String]) -> String {
    let example = seen.last().cloned().unwrap_or_default();
    format!(
        "target column \"{column}\" has the labels {}: say which is class 1 with [data] positive = \"{example}\"",
        seen.join(", ")
    )
}

fn distinct_numbers(v: &[Option<f64>]) -> Vec<String> {
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

fn distinct_text(v: &[Option<String>]) -> Vec<String> {
    let set: BTreeSet<&str> = v.iter().flatten().map(String::as_str).take(1000).collect();
    set.into_iter().take(10).map(str::to_string).collect()
}

#[cfg(test)]
mod tests;
