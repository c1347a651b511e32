//! The rules read from a column's header alone.

/// Whether a header is an index's: empty, or pandas' `Unnamed: N` (what `read_csv` names the
/// empty header `to_csv` writes for the index).
pub fn index_header(name: &str) -> bool {
    let name = name.trim();
    name.is_empty()
        || name
            .strip_prefix("Unnamed: ")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a header names an identifier: `id` in any case, a name ending in `_id`, `-id`,
/// `.id` or ` id` (any case), in `ID`, or in `Id` after a lower-case letter (`customerId`,
/// `PassengerId`) — but not a word that merely ends in the letters (`paid`, `valid`).
pub fn identifier_name(name: &str) -> bool {
    let name = name.trim();
    let lower = name.to_ascii_lowercase();
    if lower == "id" {
        return true;
    }
    if ["_id", "-id", ".id", " id"]
        .iter()
        .any(|s| lower.ends_with(s))
    {
        return true;
    }
    if name.ends_with("ID") {
        return true;
    }
    let Some(stem) = name.strip_suffix("Id") else {
        return false;
    };
    stem.chars().last().is_some_and(|c| c.is_lowercase())
}

/// Whether a header names a date or a time: `date`, `datetime`, `timestamp`, or ending in
/// `_date`, `_datetime`, `_timestamp` (any case).
pub(super) fn date_name(name: &str) -> bool {
    let lower = name.trim().to_ascii_lowercase();
    ["date", "datetime", "timestamp"].iter().any(|w| {
        lower == *w
            || [b'_', b'-', b' ', b'.'].iter().any(|&sep| {
                lower
                    .strip_suffix(w)
                    .is_some_and(|stem| stem.as_bytes().last() == Some(&sep))
            })
    })
}
