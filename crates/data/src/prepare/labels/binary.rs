//! 0/1 labels: `positive` names class 1; without it the pairs 0/1, false/true and -1/+1 are
//! understood.

use super::values::*;
use crate::read::table::Labels;

/// 0/1 per row (`None` where the label is missing), or a message saying what to set.
/// `weights` are the rows each entry stands for (see [`weight`]), for the counts in messages.
pub fn binary(
    labels: &Labels,
    weights: Option<&[usize]>,
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
                || distinct_numbers(v, weights),
                column,
            )?;
            Ok(v.iter()
                .map(|x| x.map(|x| f64::from(u8::from(x == p))))
                .collect())
        }
        (Labels::Numeric(v), None) => {
            let ok01 = v.iter().flatten().all(|&x| x == 0.0 || x == 1.0);
            let ok_pm = v.iter().flatten().all(|&x| x == -1.0 || x == 1.0);
            if ok01 || ok_pm {
                Ok(v.iter()
                    .map(|x| x.map(|x| f64::from(u8::from(x == 1.0))))
                    .collect())
            } else {
                Err(unclear(column, &distinct_numbers(v, weights)))
            }
        }
        (Labels::Text(v), Some(p)) => {
            check_present(
                v.iter().flatten().any(|s| s == p),
                p,
                || distinct_text(v, weights),
                column,
            )?;
            Ok(v.iter()
                .map(|s| s.as_ref().map(|s| f64::from(u8::from(s == p))))
                .collect())
        }
        (Labels::Text(v), None) => {
            let distinct: Vec<&str> = distinct_strings(v).into_iter().collect();
            let class = text_encoding(&distinct)
                .ok_or_else(|| unclear(column, &distinct_text(v, weights)))?;
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
