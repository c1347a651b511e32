//! Class indices for a target of any number of classes: from the values themselves, or
//! against the class names the training file gave.

use super::binary::binary;
use super::values::*;
use crate::read::table::Labels;

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
    counted(labels, None, positive, column)
}

/// [`classes`] of the distinct values of a streamed column, each standing for `weights[i]` rows
/// (so that messages count rows, not distinct values).
pub fn counted(
    labels: &Labels,
    weights: Option<&[usize]>,
    positive: Option<&str>,
    column: &str,
) -> Result<(Vec<Option<f64>>, Vec<String>), String> {
    match binary(labels, weights, positive, column) {
        Ok(y) => {
            let names = match positive {
                Some(p) => vec![class_zero(labels, p), p.to_string()],
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

/// The name of class 0 beside `positive`: the other label when a text column holds exactly two
/// (`no` beside `yes`), else "not <positive>" (it gathers every other value).
fn class_zero(labels: &Labels, positive: &str) -> String {
    if let Labels::Text(v) = labels {
        let distinct = distinct_strings(v);
        if distinct.len() == 2 {
            if let Some(other) = distinct.into_iter().find(|s| *s != positive) {
                return other.to_string();
            }
        }
    }
    format!("not {positive}")
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
