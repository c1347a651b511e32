//! The rules read from a column's values: a row number, dates written as text, and the
//! description of a whole column for [`super::profile`].

use std::collections::HashMap;

use polars::prelude::*;

use super::{names, ColumnProfile, IdentifierBy, Role};
use crate::read::table::number::{read_cell, TextCell};

/// The fewest rows for which whole numbers strictly increasing, or text all distinct, make an
/// identifier: below it a short column of distinct values is as likely a feature.
pub const MIN_SEQUENCE_ROWS: usize = 20;

/// A text column with more distinct values than this (and than half its present values) is
/// free text, not levels; also the most levels a profile lists.
pub const MAX_LEVELS: usize = 50;

/// Whether `col` holds whole numbers, none missing, strictly increasing (so all distinct), in
/// at least [`MIN_SEQUENCE_ROWS`] rows: a row number or a pandas index, which a model would
/// read as "how far down the file", often the outcome's order. Whole numbers written as
/// decimals (`1.0, 2.0, …`, as a float index is saved) count too.
pub(super) fn is_sequence(col: &Column) -> bool {
    let numeric = col.dtype().is_integer() || col.dtype().is_float();
    if !numeric || col.len() < MIN_SEQUENCE_ROWS || col.null_count() > 0 {
        return false;
    }
    let Ok(c) = col.cast(&DataType::Float64) else {
        return false;
    };
    let Ok(ca) = c.f64() else { return false };
    let mut last = f64::NEG_INFINITY;
    for v in ca.iter() {
        match v {
            Some(v) if v > last && v.fract() == 0.0 => last = v,
            _ => return false,
        }
    }
    true
}

/// Whether a text cell is a date or a time: `2024-03-01`, `2024/3/1`, `01/03/2024`,
/// `1.3.24`, each optionally followed by a time (`T` or a space, then `hh:mm[:ss[.fff]]` and an
/// optional zone), or a time alone (`13:45`, `13:45:10`).
pub fn looks_like_date(s: &str) -> bool {
    let s = s.trim();
    let (day, time) = match s.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    if time.is_none() && is_time(day) {
        return true;
    }
    is_day(day) && time.is_none_or(is_time)
}

fn is_day(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['-', '/', '.']).collect();
    let digits = |p: &str, lo: usize, hi: usize| {
        (lo..=hi).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
    };
    match parts.as_slice() {
        [y, m, d] if y.len() == 4 => digits(y, 4, 4) && digits(m, 1, 2) && digits(d, 1, 2),
        [d, m, y] => digits(d, 1, 2) && digits(m, 1, 2) && (digits(y, 2, 2) || digits(y, 4, 4)),
        _ => false,
    }
}

fn is_time(s: &str) -> bool {
    let s = s.trim_end_matches('Z');
    let s = s.split(['+']).next().unwrap_or(s);
    let parts: Vec<&str> = s.split(':').collect();
    let two = |p: &str| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [h, m] => two(h) && two(m),
        [h, m, sec] => {
            let whole = sec.split('.').next().unwrap_or(sec);
            two(h) && two(m) && two(whole)
        }
        _ => false,
    }
}

/// Whether every present cell of a text column is a date or a time (and one is present).
pub(crate) fn all_dates<'a>(cells: impl IntoIterator<Item = Option<&'a str>>) -> bool {
    let mut any = false;
    for s in cells.into_iter().flatten() {
        if s.trim().is_empty() {
            continue;
        }
        if !looks_like_date(s) {
            return false;
        }
        any = true;
    }
    any
}

/// One column described: its role by the header rules, then by its values.
pub(super) fn profile_column(col: &Column, position: usize) -> ColumnProfile {
    let name = col.name().to_string();
    let rows = col.len();
    let text: Vec<Option<String>> = match col.cast(&DataType::String) {
        Ok(c) => c
            .str()
            .map(|s| s.iter().map(|v| v.map(String::from)).collect())
            .unwrap_or_default(),
        Err(_) => vec![None; rows],
    };
    let numeric = col.dtype().is_primitive_numeric()
        || (col.dtype().is_string()
            && crate::read::table::number::all_numbers(text.iter().map(Option::as_deref)));
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut missing = 0;
    for v in &text {
        let cell = v.as_deref().map(str::trim).filter(|s| match numeric {
            true => matches!(read_cell(s), TextCell::Number(_)),
            false => !s.is_empty(),
        });
        match cell {
            Some(s) => *counts.entry(s.to_string()).or_default() += 1,
            None => missing += 1,
        }
    }
    let distinct = counts.len();
    let present = rows - missing;
    let role = if names::index_header(&name) {
        Role::Index
    } else if names::identifier_name(&name) {
        Role::Identifier(IdentifierBy::Name)
    } else if present == 0 {
        Role::Empty
    } else if distinct == 1 {
        Role::Constant
    } else if names::date_name(&name) || (!numeric && all_dates(text.iter().map(Option::as_deref)))
    {
        Role::Date
    } else if col.dtype().is_bool() {
        Role::Boolean
    } else if numeric {
        match is_sequence(col) {
            true => Role::Identifier(IdentifierBy::Sequence),
            false => Role::Numeric,
        }
    } else if distinct == present && present >= MIN_SEQUENCE_ROWS {
        Role::Identifier(IdentifierBy::DistinctText)
    } else if distinct > MAX_LEVELS && 2 * distinct > present {
        Role::FreeText { distinct }
    } else {
        Role::Categorical { levels: distinct }
    };
    let levels = match role {
        Role::Categorical { .. } | Role::Boolean => {
            let mut l: Vec<(String, usize)> = counts.into_iter().collect();
            l.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            l.truncate(MAX_LEVELS);
            l
        }
        _ => Vec::new(),
    };
    ColumnProfile {
        name,
        position,
        role,
        rows,
        missing,
        distinct,
        levels,
    }
}
