//! Turning a target column into 0/1 labels: `positive` names class 1; without it the
//! pairs 0/1, false/true and -1/+1 are understood.

use std::collections::BTreeSet;

use super::table::Labels;

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
            let parsed: Vec<Option<Option<f64>>> = v
                .iter()
                .map(|s| s.as_ref().map(|s| parse_text_label(s)))
                .collect();
            if parsed.iter().flatten().any(Option::is_none) {
                return Err(unclear(column, &distinct_text(v)));
            }
            Ok(parsed.into_iter().map(Option::flatten).collect())
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
            seen.iter().map(|x| x.to_string()).collect()
        }
        Labels::Text(v) => {
            let set: BTreeSet<&str> = v.iter().flatten().map(String::as_str).collect();
            set.into_iter().map(str::to_string).collect()
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
            .map(|x| x.map(|x| index(x.to_string())).transpose())
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

fn parse_text_label(s: &str) -> Option<f64> {
    match s.to_ascii_lowercase().as_str() {
        "1" | "+1" | "true" => Some(1.0),
        "0" | "-1" | "false" => Some(0.0),
        _ => None,
    }
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
    seen.iter().map(|x| x.to_string()).collect()
}

fn distinct_text(v: &[Option<String>]) -> Vec<String> {
    let set: BTreeSet<&str> = v.iter().flatten().map(String::as_str).take(1000).collect();
    set.into_iter().take(10).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn understands_the_usual_encodings() {
        let pm = Labels::Numeric(vec![Some(-1.0), Some(1.0), None]);
        assert_eq!(
            binary(&pm, None, "y").unwrap(),
            vec![Some(0.0), Some(1.0), None]
        );
        let tf = Labels::Text(vec![Some("TRUE".into()), Some("false".into())]);
        assert_eq!(binary(&tf, None, "y").unwrap(), vec![Some(1.0), Some(0.0)]);
        let b = Labels::Bool(vec![Some(true), Some(false)]);
        assert_eq!(
            binary(&b, Some("false"), "y").unwrap(),
            vec![Some(0.0), Some(1.0)]
        );
    }

    #[test]
    fn positive_selects_class_one() {
        let t = Labels::Text(vec![Some("Yes".into()), Some("No".into())]);
        assert_eq!(
            binary(&t, Some("No"), "type").unwrap(),
            vec![Some(0.0), Some(1.0)]
        );
        let n = Labels::Numeric(vec![Some(2.0), Some(0.0), Some(1.0)]);
        assert_eq!(
            binary(&n, Some("2"), "y").unwrap(),
            vec![Some(1.0), Some(0.0), Some(0.0)]
        );
    }

    #[test]
    fn many_labels_become_classes_in_sorted_order() {
        let n = Labels::Numeric(vec![Some(2.0), Some(0.0), None, Some(1.0), Some(2.0)]);
        let (y, names) = classes(&n, None, "y").unwrap();
        assert_eq!(names, vec!["0", "1", "2"]);
        assert_eq!(y, vec![Some(2.0), Some(0.0), None, Some(1.0), Some(2.0)]);
        let t = Labels::Text(vec![Some("virginica".into()), Some("setosa".into())]);
        let (y, names) = classes(&t, None, "species").unwrap();
        assert_eq!(names, vec!["setosa", "virginica"]);
        assert_eq!(y, vec![Some(1.0), Some(0.0)]);
        assert!(by_name(&t, &["setosa".to_string()], "species").is_err());
    }

    #[test]
    fn unclear_labels_ask_for_positive() {
        let n = Labels::Numeric(vec![Some(0.0), Some(1.0), Some(2.0)]);
        let e = binary(&n, None, "y").unwrap_err();
        assert!(e.contains("0, 1, 2") && e.contains("positive"), "{e}");
        let t = Labels::Text(vec![Some("Yes".into())]);
        let e = binary(&t, Some("yes"), "type").unwrap_err();
        assert!(e.contains("does not occur") && e.contains("Yes"), "{e}");
    }
}
