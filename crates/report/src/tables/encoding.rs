//! What the encodings did to the raw columns, as report.md, report.html, the Dataset screen and
//! `bayeslab check` show it: each categorical column's levels with their rows among the
//! training and the test rows used, which level is the reference (it has no design column: its
//! weight is folded into the intercept, and every other level's weight is read against it), and
//! each imputed column's strategy, fill value and cells filled. Levels and fill values are
//! learned from the training rows only, so a level's test count can be zero but its training
//! count never is. Nothing here for an all-numeric table without gaps.

use super::table::Table;
use bayeslab_core::record::{CategoricalInfo, EncodingInfo, ImputedInfo, LevelCount};

/// One row per level of every categorical column: the column, the level, its training and test
/// rows, and its design column (`(reference)` for the level left out).
pub fn levels(e: &EncodingInfo) -> Table {
    let rows = e
        .categorical
        .iter()
        .flat_map(|c| {
            c.levels.iter().map(move |l| {
                vec![
                    c.column.as_str().into(),
                    l.level.as_str().into(),
                    l.train.to_string().into(),
                    l.test.to_string().into(),
                    design_column(c, l).into(),
                ]
            })
        })
        .collect();
    Table {
        headers: [
            "column",
            "level",
            "train rows",
            "test rows",
            "design column",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        numeric: vec![false, false, true, true, false],
        rows,
    }
}

/// The design column of level `l` of `c`, or `(reference)` for the level left out.
pub fn design_column(c: &CategoricalInfo, l: &LevelCount) -> String {
    if l.level == c.reference {
        return "(reference)".into();
    }
    let name = format!("{}={}", c.column, l.level);
    match c.design_columns.iter().find(|d| **d == name) {
        Some(d) => d.clone(),
        // Not a column of the design: a loader that names columns otherwise still shows one.
        None => "–".into(),
    }
}

/// What [`levels`] counts.
pub const LEVELS_CAPTION: &str = "each categorical column is expanded into one 0/1 design column \
     per level except the reference (treatment coding): a level's weight is its effect against \
     the reference. Levels are learned from the training rows; the counts are rows of each level \
     among the training and the test rows used. Indicator columns are not standardised";

/// One row per imputed column: strategy, fill value, cells filled among the training and the
/// test rows used, and the design column marking them, if any.
pub fn imputed(e: &EncodingInfo) -> Table {
    let rows = e
        .imputed
        .iter()
        .map(|i| {
            vec![
                i.column.as_str().into(),
                i.strategy.as_str().into(),
                fill_value(i).into(),
                i.filled_train.to_string().into(),
                i.filled_test.to_string().into(),
                i.indicator.as_deref().unwrap_or("–").into(),
            ]
        })
        .collect();
    Table {
        headers: [
            "column",
            "strategy",
            "fill value",
            "filled (train)",
            "filled (test)",
            "indicator column",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        numeric: vec![false, false, true, true, true, false],
        rows,
    }
}

/// What [`imputed`] counts.
pub const IMPUTED_CAPTION: &str = "missing cells filled with a value computed from the training \
     rows only (never the test rows); the counts are cells filled among the training and the \
     test rows used";

/// The fill value as the feature table shows a mean (four decimals); a level's name as it is.
/// The record keeps the full value.
fn fill_value(i: &ImputedInfo) -> String {
    match i.value.parse::<f64>() {
        Ok(v) if i.strategy == "mean" || i.strategy == "median" => super::table::num(Some(v)),
        _ => i.value.clone(),
    }
}

/// `mean 8.7399` and, with an indicator, `· marked in delta_15n=missing`: one imputation in a
/// phrase, for the Dataset screen and `bayeslab check`.
pub fn fill_phrase(i: &ImputedInfo) -> String {
    let strategy = match i.strategy.as_str() {
        "most_frequent" => "most frequent level",
        "level" => "own level",
        other => other,
    };
    let mut s = format!("{strategy} {}", fill_value(i));
    if let Some(ind) = &i.indicator {
        s.push_str(&format!(" · marked in {ind}"));
    }
    s
}

/// Design columns that come from one raw column, and what the encoding made of it (empty for a
/// plain numeric column).
#[derive(Debug, Clone, PartialEq)]
pub struct DesignGroup {
    pub columns: Vec<String>,
    pub notes: Vec<String>,
}

/// The design columns in weight order, grouped by raw column: a categorical column's
/// indicators with its levels (train / test rows) and reference, an imputed column with its
/// indicator and what filled it. `bayeslab check` prints these under the count.
pub fn design_listing(columns: &[String], e: &EncodingInfo) -> Vec<DesignGroup> {
    // The raw column each design column comes from, in order of first appearance.
    let source = |name: &String| -> String {
        if let Some(c) = e
            .categorical
            .iter()
            .find(|c| c.design_columns.contains(name))
        {
            return c.column.clone();
        }
        match e
            .imputed
            .iter()
            .find(|i| i.indicator.as_ref() == Some(name))
        {
            Some(i) => i.column.clone(),
            None => name.clone(),
        }
    };
    let sources: Vec<String> = columns.iter().map(source).collect();
    let mut groups = Vec::new();
    for (j, src) in sources.iter().enumerate() {
        if sources[..j].contains(src) {
            continue;
        }
        let columns = columns
            .iter()
            .zip(&sources)
            .filter(|(_, s)| *s == src)
            .map(|(n, _)| n.clone())
            .collect();
        let mut notes = Vec::new();
        if let Some(c) = e.categorical.iter().find(|c| c.column == *src) {
            notes.push(categorical_phrase(c));
        }
        if let Some(i) = e.imputed.iter().find(|i| i.column == *src) {
            notes.push(format!(
                "{}: {} training and {} test cells filled with the {}",
                i.column,
                i.filled_train,
                i.filled_test,
                fill_phrase(i)
            ));
        }
        groups.push(DesignGroup { columns, notes });
    }
    groups
}

/// `species, 3 levels (train / test rows): Adelie 110 / 36 (reference), Chinstrap 51 / 17, …`
pub fn categorical_phrase(c: &CategoricalInfo) -> String {
    let levels: Vec<String> = c
        .levels
        .iter()
        .map(|l| {
            let reference = if l.level == c.reference {
                " (reference)"
            } else {
                ""
            };
            format!("{} {} / {}{reference}", l.level, l.train, l.test)
        })
        .collect();
    format!(
        "{}, {} levels (train / test rows): {}",
        c.column,
        c.levels.len(),
        levels.join(", ")
    )
}
