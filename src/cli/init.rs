//! `bayeslab init DATA [--target COLUMN]`: a commented starter experiment for a table of one's
//! own. Every column is described by the one column classification of the data module
//! (`data::roles::profile`): the features are the numeric, boolean and categorical columns;
//! an index, an identifier, a date, free text, a constant or an empty column is left out with
//! its reason, as a comment.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bayeslab_core::Error;
use bayeslab_data::roles::{profile, ColumnProfile, IdentifierBy, Role};

/// The long help.
pub const HELP: &str = "\
What it writes (DATA's name with .toml, next to DATA, unless --out):
  A commented experiment that `bayeslab run` runs as it is: the target (--target, or guessed when
  exactly one column has two values and a name such as y, target, label, outcome), every column
  with its role (numeric, categorical with its levels, missing counts), the features, and the
  columns left out with the reason: an empty or \"Unnamed: N\" header (a pandas index), an
  identifier (id, *_id, a row number, text all distinct), dates, free text, a constant.
  Gaps in the features are filled (missing = \"mean\"); rows without a target are dropped.
  A ';' or tab separated CSV is recognised from its header line.

Never overwrites a file: an existing output is refused (exit 2).

Then:
  bayeslab check survey.toml      (what will be fitted, without fitting)
  bayeslab run survey.toml        (writes runs/survey/)

Examples:
  bayeslab init survey.csv
  bayeslab init survey.csv --target passed --out experiments/survey.toml";

/// Names a binary target is usually given (compared without case, `_`, `-` or spaces).
const TARGET_NAMES: [&str; 16] = [
    "y",
    "target",
    "label",
    "class",
    "outcome",
    "response",
    "result",
    "default",
    "churn",
    "survived",
    "diagnosis",
    "passed",
    "pass",
    "success",
    "disease",
    "event",
];

/// Level names read as the positive class (class 1), compared without case.
const POSITIVE: [&str; 10] = [
    "1", "yes", "y", "true", "t", "positive", "pos", "case", "success", "pass",
];

pub fn init(data: &Path, target: Option<&str>, out: Option<PathBuf>) -> Result<i32, Error> {
    if !data.is_file() {
        return Err(Error::Data {
            file: data.to_path_buf(),
            message: "no such file: DATA is a CSV or Parquet table".into(),
        });
    }
    let out = out.unwrap_or_else(|| data.with_extension("toml"));
    if out.exists() {
        return Err(Error::Config {
            file: out,
            message: "already exists, and init never overwrites a file; pass --out NEW.toml, or remove it".into(),
        });
    }
    let separator = detect_separator(data);
    let columns = profile(data, separator)?;
    let target = match target {
        Some(t) => columns
            .iter()
            .find(|c| c.name == t)
            .ok_or_else(|| Error::Data {
                file: data.to_path_buf(),
                message: format!(
                    "--target {t:?}: no such column; the columns are: {}",
                    names(&columns)
                ),
            })?,
        None => guess_target(data, &columns)?,
    };
    let text = starter(data, &out, separator, &columns, target);
    bayeslab_report::write_file(&out, text.as_bytes())?;
    eprintln!(
        "wrote {} (target \"{}\"); next: bayeslab run {}",
        out.display(),
        target.name,
        out.display()
    );
    Ok(0)
}

fn names(columns: &[ColumnProfile]) -> String {
    columns
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `;` or a tab when the header line has more of it than commas; Parquet has none.
fn detect_separator(data: &Path) -> u8 {
    let head = std::fs::read(data).unwrap_or_default();
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let count = |c: u8| line.iter().filter(|&&b| b == c).count();
    [b';', b'\t']
        .into_iter()
        .find(|&c| count(c) > count(b','))
        .unwrap_or(b',')
}

/// Whether a column has exactly two values (a binary target's shape).
fn two_valued(c: &ColumnProfile) -> bool {
    c.distinct == 2
}

fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The one two-valued column named like a target, or an error listing the candidates.
fn guess_target<'a>(data: &Path, columns: &'a [ColumnProfile]) -> Result<&'a ColumnProfile, Error> {
    let binary: Vec<&ColumnProfile> = columns.iter().filter(|c| two_valued(c)).collect();
    let named: Vec<&&ColumnProfile> = binary
        .iter()
        .filter(|c| TARGET_NAMES.contains(&squash(&c.name).as_str()))
        .collect();
    match named.as_slice() {
        [one] => Ok(one),
        _ => Err(Error::Data {
            file: data.to_path_buf(),
            message: format!(
                "cannot tell which column is the target{}; name it: bayeslab init {} --target COLUMN (two-valued columns: {})",
                if named.len() > 1 { " (several two-valued columns are named like one)" } else { "" },
                data.display(),
                if binary.is_empty() {
                    "none".to_string()
                } else {
                    binary.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
                }
            ),
        }),
    }
}

/// Whether a column is a feature, or why not.
fn left_out(c: &ColumnProfile) -> Option<String> {
    match &c.role {
        Role::Numeric | Role::Boolean | Role::Categorical { .. } => None,
        r => Some(r.reason()),
    }
}

/// The starter experiment's text.
fn starter(
    data: &Path,
    out: &Path,
    separator: u8,
    columns: &[ColumnProfile],
    target: &ColumnProfile,
) -> String {
    let name: String = data
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "experiment".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Starter experiment for {}, written by `bayeslab init`.",
        data.display()
    );
    let _ = writeln!(
        s,
        "# Read it, change what you like, then: bayeslab check {0} && bayeslab run {0}",
        out.display()
    );
    let _ = writeln!(
        s,
        "# Every key is explained in docs/reference/experiment-keys.md."
    );
    let _ = writeln!(s, "name = {name:?}\nseed = 1\n\n[data]");
    let _ = writeln!(
        s,
        "path = {:?}    # relative to this file",
        data_path(data, out)
    );
    let _ = writeln!(
        s,
        "target = {:?}    # {} values: {}",
        target.name,
        target.distinct,
        levels(target)
    );
    if let Some(p) = positive(target) {
        let _ = writeln!(
            s,
            "positive = {p:?}    # the class whose probability is predicted"
        );
    }
    if separator != b',' {
        let _ = writeln!(s, "separator = {:?}", (separator as char).to_string());
    }
    let features: Vec<&ColumnProfile> = columns
        .iter()
        .filter(|c| c.name != target.name && left_out(c).is_none())
        .collect();
    let key = columns.iter().find(|c| {
        c.missing == 0
            && matches!(
                c.role,
                Role::Identifier(IdentifierBy::Name | IdentifierBy::DistinctText)
            )
    });
    if let Some(k) = key {
        let _ = writeln!(
            s,
            "id = {:?}    # written beside each prediction, to join results back",
            k.name
        );
    }
    let _ = writeln!(
        s,
        "# Features: {} columns ({} rows read).",
        features.len(),
        target.rows
    );
    for c in &features {
        let _ = writeln!(s, "#   {:<20} {}", shown(&c.name), describe(c));
    }
    let list: Vec<String> = features.iter().map(|c| format!("{:?}", c.name)).collect();
    let _ = writeln!(s, "features = [{}]", list.join(", "));
    let out_of: Vec<&ColumnProfile> = columns
        .iter()
        .filter(|c| c.name != target.name && left_out(c).is_some())
        .collect();
    if !out_of.is_empty() {
        let _ = writeln!(s, "# Left out (add a name to features to use it anyway):");
        for c in out_of {
            let _ = writeln!(
                s,
                "#   {:<20} {}",
                shown(&c.name),
                left_out(c).unwrap_or_default()
            );
        }
    }
    let gaps = features.iter().any(|c| c.missing > 0) || target.missing > 0;
    if gaps {
        let _ = writeln!(s, "missing = \"mean\"    # fill feature gaps with the training mean (most frequent level); rows without a target are dropped");
    }
    let _ = writeln!(s, "split = {{ test_fraction = 0.25, seed = 1 }}    # a quarter of the rows held out for testing");
    let _ = writeln!(s, "\n[prior]\nprecision = 1.0    # w ~ N(0, I) on the standardised design; \"evidence\" chooses it");
    let _ = writeln!(s, "\n[[method]]\nkind = \"logistic-laplace\"    # MAP + the Laplace approximation; `bayeslab run --help` lists every kind");
    let _ = writeln!(s, "\n[[method]]\nkind = \"gibbs-logistic\"    # the exact posterior by sampling, the gold standard to compare with");
    s
}

/// The data path as the experiment file will see it: relative when beside it.
fn data_path(data: &Path, out: &Path) -> String {
    let dir = |p: &Path| p.parent().map(Path::to_path_buf).unwrap_or_default();
    let canon = |p: PathBuf| {
        std::fs::canonicalize(if p.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            p
        })
        .ok()
    };
    match (canon(dir(data)), canon(dir(out))) {
        (Some(a), Some(b)) if a == b => data
            .file_name()
            .map(|f| f.to_string_lossy().to_string())
            .unwrap_or_default(),
        _ => std::fs::canonicalize(data)
            .unwrap_or_else(|_| data.to_path_buf())
            .display()
            .to_string(),
    }
}

/// A column's name as a comment shows it: an empty header as `""`.
fn shown(name: &str) -> String {
    match name.is_empty() {
        true => "\"\" (no header)".into(),
        false => name.to_string(),
    }
}

fn levels(c: &ColumnProfile) -> String {
    if c.levels.is_empty() {
        return "numbers".into();
    }
    // The profile lists at most data::roles::MAX_LEVELS levels.
    c.levels
        .iter()
        .map(|(l, n)| format!("{l} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The level read as class 1 of a two-valued text target.
fn positive(c: &ColumnProfile) -> Option<String> {
    if c.levels.len() != 2 || matches!(c.role, Role::Numeric) {
        return None;
    }
    let found = c
        .levels
        .iter()
        .find(|(l, _)| POSITIVE.contains(&l.to_lowercase().as_str()));
    let mut sorted: Vec<&String> = c.levels.iter().map(|(l, _)| l).collect();
    sorted.sort();
    Some(
        found
            .map(|(l, _)| l.clone())
            .unwrap_or_else(|| sorted[1].clone()),
    )
}

fn describe(c: &ColumnProfile) -> String {
    let gaps = match c.missing {
        0 => String::new(),
        n => format!(", {n} missing"),
    };
    match &c.role {
        Role::Categorical { levels: n } => format!("categorical, {n} levels: {}{gaps}", levels(c)),
        Role::Boolean => format!("true/false: {}{gaps}", levels(c)),
        _ => format!("numeric{gaps}"),
    }
}
