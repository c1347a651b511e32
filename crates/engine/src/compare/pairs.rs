//! Which column of A is compared with which column of B. By default every `<run>/<predictive>`
//! present on both sides is compared with its namesake; `--pair A_COLUMN=B_COLUMN` names the
//! pairs instead, so that runs with different ids, or two predictives of one run directory,
//! can be compared on the same test rows.

use std::path::Path;

use super::{Predictions, Scores};
use crate::config::did_you_mean;
use bayeslab_core::error::{Error, Result};

/// One `--pair`: the `<run>/<predictive>` column of A and the one of B compared with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub a: String,
    pub b: String,
}

impl Pair {
    /// Parse `A_COLUMN=B_COLUMN` (the `--pair` value); the error is the reason, for clap.
    pub fn parse(text: &str) -> std::result::Result<Pair, String> {
        match text.split_once('=') {
            Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => Ok(Pair {
                a: a.trim().to_string(),
                b: b.trim().to_string(),
            }),
            _ => Err(format!(
                "expected A_COLUMN=B_COLUMN, a `<run>/<predictive>` column of A and one of B \
                 (for example laplace/exact=gibbs/exact), not \"{text}\""
            )),
        }
    }
}

/// A column of A and the column of B it is compared with.
pub(super) struct Matched<'p> {
    pub a_name: &'p str,
    pub a: &'p Scores,
    pub b_name: &'p str,
    pub b: &'p Scores,
}

/// Every column shared by `a` and `b` by name, in A's column order (the default comparison).
pub(super) fn shared<'p>(
    a: &'p Predictions,
    b: &'p Predictions,
    a_dir: &Path,
    b_dir: &Path,
) -> Result<Vec<Matched<'p>>> {
    let mut out = Vec::new();
    for (name, sa) in &a.columns {
        let Some((_, sb)) = b.columns.iter().find(|(nb, _)| nb == name) else {
            continue;
        };
        if differ(sa, sb) {
            return Err(Error::data(
                b_dir,
                format!(
                    "\"{name}\" predicts {} here but {} in {}: a comparison needs the same classes",
                    sb.kind(),
                    sa.kind(),
                    a_dir.display()
                ),
            ));
        }
        out.push(Matched {
            a_name: name,
            a: sa,
            b_name: name,
            b: sb,
        });
    }
    if out.is_empty() {
        return Err(Error::data(
            b_dir,
            format!(
                "no run/predictive column is shared with {}: compare runs of methods with the same ids",
                a_dir.display()
            ),
        ));
    }
    Ok(out)
}

/// The columns named by `pairs`, in their order; a column missing on its side is refused with
/// the columns that side has, and a pair of different classes as [`shared`] refuses it.
pub(super) fn named<'p>(
    a: &'p Predictions,
    b: &'p Predictions,
    pairs: &[Pair],
    a_dir: &Path,
    b_dir: &Path,
) -> Result<Vec<Matched<'p>>> {
    let mut out = Vec::new();
    for pair in pairs {
        let (a_name, sa) = find(a, &pair.a, pair, "A", a_dir)?;
        let (b_name, sb) = find(b, &pair.b, pair, "B", b_dir)?;
        if differ(sa, sb) {
            return Err(Error::data(
                b_dir,
                format!(
                    "--pair {}={}: \"{}\" predicts {} here but \"{}\" predicts {} in {}: a comparison needs the same classes",
                    pair.a,
                    pair.b,
                    pair.b,
                    sb.kind(),
                    pair.a,
                    sa.kind(),
                    a_dir.display()
                ),
            ));
        }
        out.push(Matched {
            a_name,
            a: sa,
            b_name,
            b: sb,
        });
    }
    Ok(out)
}

/// The column `name` of one side (`side` is "A" or "B", read from `dir`).
fn find<'p>(
    p: &'p Predictions,
    name: &str,
    pair: &Pair,
    side: &str,
    dir: &Path,
) -> Result<(&'p str, &'p Scores)> {
    if let Some((n, s)) = p.columns.iter().find(|(n, _)| n == name) {
        return Ok((n, s));
    }
    let names = || p.columns.iter().map(|(n, _)| n.as_str());
    Err(Error::data(
        dir,
        format!(
            "--pair {}={}: {side} has no column \"{name}\"{}; its columns are {}",
            pair.a,
            pair.b,
            did_you_mean(name, names()),
            names().collect::<Vec<_>>().join(", ")
        ),
    ))
}

/// Whether two columns predict different classes (two against three, or 3 against 4).
fn differ(a: &Scores, b: &Scores) -> bool {
    std::mem::discriminant(a) != std::mem::discriminant(b) || a.kind() != b.kind()
}
