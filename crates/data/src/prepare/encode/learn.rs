//! Learning an [`Encoder`] from the training rows' tallies: each categorical column's levels
//! (sorted, numeric codes by value), its reference level, the fill values of imputed columns,
//! and the errors for what cannot be encoded (too many levels, a level met only in the test
//! rows, a reference that is not a level, a numeric column under `missing = "level"`).

use std::path::Path;

use super::tally::{median, ColumnTally};
use super::{ColumnCode, Encoder};
use crate::plan::{DataPlan, Missing, Unseen};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::record::{CategoricalInfo, EncodingInfo, ImputedInfo, LevelCount};

/// The level a missing cell becomes under `missing = "level"`.
pub const MISSING_LEVEL: &str = "missing";

/// Learn the encoding of the raw columns `names` from their `tallies` (over the rows used,
/// levels and fill values from the training side). Errors name `path`, the column and the fix.
pub fn learn(
    path: &Path,
    plan: &DataPlan,
    names: &[String],
    tallies: &[ColumnTally],
) -> Result<Encoder> {
    let e = &plan.encoding;
    let err = |m: String| Error::data(path, m);
    if let Some(c) = e.reference.keys().find(|c| {
        !names
            .iter()
            .zip(tallies)
            .any(|(n, t)| n == *c && t.categorical)
    }) {
        let cats: Vec<&str> = names
            .iter()
            .zip(tallies)
            .filter(|(_, t)| t.categorical)
            .map(|(n, _)| n.as_str())
            .collect();
        return Err(err(format!(
            "[data] reference names column \"{c}\", which is not a categorical feature (the categorical features are: {}); \
             fix the name, or list it in [data] categorical",
            if cats.is_empty() { "none".to_string() } else { cats.join(", ") }
        )));
    }
    if plan.missing == Missing::Level {
        let numeric: Vec<String> = names
            .iter()
            .zip(tallies)
            .filter(|(_, t)| !t.categorical && t.missing.0 + t.missing.1 > 0)
            .map(|(n, t)| format!("\"{n}\" ({} missing)", t.missing.0 + t.missing.1))
            .collect();
        if !numeric.is_empty() {
            return Err(err(format!(
                "[data] missing = \"level\" makes a missing cell of a categorical column its own level, but the numeric \
                 column(s) {} have missing cells and no levels; set missing = \"mean\" or \"median\" to fill them \
                 (categorical columns then take their most frequent level), or \"drop\"",
                numeric.join(", ")
            )));
        }
    }
    let mut enc = Encoder {
        codes: Vec::new(),
        names: Vec::new(),
        source: Vec::new(),
        indicator: Vec::new(),
        info: EncodingInfo::default(),
        notes: Vec::new(),
    };
    for (j, (name, t)) in names.iter().zip(tallies).enumerate() {
        let filled = t.missing.0 + t.missing.1 > 0 && plan.missing.fills();
        let indicator = filled && e.missing_indicator;
        let indicator_name = indicator.then(|| format!("{name}={MISSING_LEVEL}"));
        if !t.categorical {
            let fill = filled.then(|| match plan.missing {
                Missing::Median => median(t.values.as_deref().unwrap_or_default()),
                _ => t.moments.mean_sd().0,
            });
            enc.names.push(name.clone());
            enc.indicator.push(false);
            enc.source.push(j);
            if let Some(value) = fill {
                enc.info.imputed.push(ImputedInfo {
                    column: name.clone(),
                    strategy: plan.missing.name().to_string(),
                    value: value.to_string(),
                    filled_train: t.missing.0,
                    filled_test: t.missing.1,
                    indicator: indicator_name.clone(),
                });
            }
            enc.codes.push(ColumnCode::Number { fill, indicator });
        } else {
            let (code, info) = levels(path, plan, name, t, filled, &mut enc.notes)?;
            let ColumnCode::Levels {
                levels, reference, ..
            } = &code
            else {
                unreachable!("levels() makes a Levels code")
            };
            for (k, level) in levels.iter().enumerate() {
                if k != *reference {
                    enc.names.push(format!("{name}={level}"));
                    enc.indicator.push(true);
                    enc.source.push(j);
                }
            }
            if let (true, ColumnCode::Levels { fill: Some(v), .. }) = (filled, &code) {
                enc.info.imputed.push(ImputedInfo {
                    column: name.clone(),
                    strategy: if plan.missing == Missing::Level {
                        "level"
                    } else {
                        "most_frequent"
                    }
                    .to_string(),
                    value: v.clone(),
                    filled_train: t.missing.0,
                    filled_test: t.missing.1,
                    indicator: indicator_name.clone(),
                });
            }
            enc.info.categorical.push(info);
            enc.codes.push(code);
        }
        if let Some(n) = indicator_name {
            enc.names.push(n);
            enc.indicator.push(true);
            enc.source.push(j);
        }
    }
    Ok(enc)
}

/// One categorical column's code and record entry.
fn levels(
    path: &Path,
    plan: &DataPlan,
    name: &str,
    t: &ColumnTally,
    filled: bool,
    notes: &mut Vec<String>,
) -> Result<(ColumnCode, CategoricalInfo)> {
    let e = &plan.encoding;
    let err = |m: String| Error::data(path, m);
    let mut counts: Vec<(String, (usize, usize))> =
        t.levels.iter().map(|(l, &c)| (l.clone(), c)).collect();
    if counts.iter().all(|(l, _)| l.parse::<f64>().is_ok()) {
        counts.sort_by(|a, b| {
            let (x, y): (f64, f64) = (a.0.parse().unwrap_or(0.0), b.0.parse().unwrap_or(0.0));
            x.total_cmp(&y).then(a.0.cmp(&b.0))
        });
    }
    let by_level = plan.missing == Missing::Level && filled;
    if by_level {
        if counts.iter().any(|(l, _)| l == MISSING_LEVEL) {
            return Err(err(format!(
                "column \"{name}\" already has a level \"{MISSING_LEVEL}\", so missing = \"level\" cannot add its missing cells \
                 as one; rename that level in the file, or set missing = \"mean\" (the most frequent level fills them)"
            )));
        }
        counts.push((MISSING_LEVEL.to_string(), t.missing));
    }
    let (seen, unseen): (Vec<_>, Vec<_>) = counts.into_iter().partition(|(_, c)| c.0 > 0);
    if seen.len() > e.max_levels {
        return Err(err(format!(
            "categorical column \"{name}\" has {} levels in the training rows, more than [data] max_levels = {}: \
             it looks like an identifier; leave it out of [data] features, or raise max_levels",
            seen.len(),
            e.max_levels
        )));
    }
    if seen.is_empty() {
        return Err(err(format!(
            "categorical column \"{name}\" has no value in the training rows; leave it out of [data] features"
        )));
    }
    if let Some((level, c)) = unseen.first() {
        let all: Vec<&str> = unseen.iter().map(|(l, _)| l.as_str()).collect();
        match e.unseen {
            Unseen::Error => {
                return Err(err(format!(
                    "categorical column \"{name}\": level \"{level}\" appears only in the test rows ({}), so it has \
                     no coefficient; set [data] unseen_levels = \"zero\" to code such rows as the reference level, \
                     or change [data] split so that the training rows contain it",
                    rows(c.1)
                )))
            }
            Unseen::Zero => notes.push(format!(
                "column \"{name}\": level(s) {} appear only in the test rows ({}); their indicators are all zero, \
                 as the reference level's (unseen_levels = \"zero\")",
                all.join(", "),
                rows(unseen.iter().map(|(_, c)| c.1).sum::<usize>())
            )),
        }
    }
    let reference = match e.reference.get(name) {
        None => 0,
        Some(r) => seen.iter().position(|(l, _)| l == r).ok_or_else(|| {
            err(format!(
                "[data] reference = {{ {name} = \"{r}\" }}: column \"{name}\" has no level \"{r}\" in the training rows; \
                 its levels are {}",
                seen.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join(", ")
            ))
        })?,
    };
    // The most frequent training level (the first in order on a tie) fills a missing cell.
    let fill = filled.then(|| {
        if by_level {
            MISSING_LEVEL.to_string()
        } else {
            let most = seen.iter().map(|(_, c)| c.0).max().unwrap_or(0);
            seen.iter()
                .find(|(_, c)| c.0 == most)
                .map(|(l, _)| l.clone())
                .unwrap_or_default()
        }
    });
    let levels: Vec<String> = seen.iter().map(|(l, _)| l.clone()).collect();
    let counts = seen
        .iter()
        .map(|(l, c)| {
            // Counts of the rows used: a filled cell counts for the level it became.
            let extra = match &fill {
                Some(f) if f == l && !by_level => t.missing,
                _ => (0, 0),
            };
            LevelCount {
                level: l.clone(),
                train: c.0 + extra.0,
                test: c.1 + extra.1,
            }
        })
        .collect();
    let info = CategoricalInfo {
        column: name.to_string(),
        levels: counts,
        reference: levels[reference].clone(),
        design_columns: levels
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != reference)
            .map(|(_, l)| format!("{name}={l}"))
            .collect(),
    };
    let indicator = filled && e.missing_indicator;
    Ok((
        ColumnCode::Levels {
            levels,
            reference,
            fill,
            indicator,
        },
        info,
    ))
}

fn rows(n: usize) -> String {
    if n == 1 {
        "1 row".to_string()
    } else {
        format!("{n} rows")
    }
}
