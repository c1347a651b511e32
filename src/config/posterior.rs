//! `[[posterior]]` tables of the approximation lab (issue 5, MATH.md 4): the serde mirror
//! and its validation into [`PosteriorPlan`]s. Kept apart from `raw.rs`/`plan.rs`, which only
//! gain one field each.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::limits::{gini_draws, starts, Bound};
use super::suggest::did_you_mean;
use crate::error::{Error, Result};

pub const DEFAULT_SHAPE: f64 = 1.0;
pub const DEFAULT_RATE: f64 = 1.0;
pub const DEFAULT_BETA: f64 = 1.0;
pub const DEFAULT_T_DF: f64 = 4.0;
pub const DEFAULT_DRAWS: usize = 10_000;
pub const DEFAULT_SCALE: f64 = 1.0;
pub const DEFAULT_PRIOR_MEAN: f64 = 0.0;
pub const DEFAULT_PRIOR_SD: f64 = 10.0;
pub const DEFAULT_STARTS: usize = 20;

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a [[posterior]] table, e.g.\n[[posterior]]\nkind = \"gamma-poisson\"\ncounts = [3, 1, 4]"
)]
pub struct RawPosterior {
    pub kind: String,
    pub id: Option<String>,
    pub data: Option<RawColumn>,
    pub counts: Option<Vec<i64>>,
    pub successes: Option<i64>,
    pub trials: Option<i64>,
    pub values: Option<Vec<f64>>,
    pub shape: Option<f64>,
    pub rate: Option<f64>,
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub approximations: Option<Vec<String>>,
    pub t_df: Option<f64>,
    pub subset: Option<Vec<RawSubset>>,
    pub draws: Option<u64>,
    pub scale: Option<f64>,
    pub prior_mean: Option<f64>,
    pub prior_sd: Option<f64>,
    pub starts: Option<u64>,
}

/// `data = { path = "...", column = "..." }`, the path relative to the experiment file.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a data column such as data = { path = \"incomes.csv\", column = \"income\" }")]
pub struct RawColumn {
    pub path: String,
    pub column: String,
}

/// One entry of `subset = [5, 20, "all"]`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "subset entries are sizes such as 5 or the word \"all\", e.g. subset = [5, 20, \"all\"]"
)]
pub enum RawSubset {
    Size(i64),
    Word(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PosteriorPlan {
    pub id: String,
    pub kind: PosteriorKind,
    pub source: PosteriorSource,
    pub approximations: Vec<ApproxKind>,
    /// Data-size sweep: the first n data points in file order, or all of them.
    pub subsets: Vec<Subset>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PosteriorKind {
    /// Poisson counts, Gamma(shape, rate) prior.
    GammaPoisson { shape: f64, rate: f64, t_df: f64 },
    /// Binomial successes, Beta(a, b) prior.
    BetaBinomial { a: f64, b: f64, t_df: f64 },
    /// LogNormal(mu, sigma²) data, p(mu, sigma²) ∝ 1/sigma²; `draws` simulations of the Gini.
    LognormalGini { draws: usize },
    /// Cauchy(theta, scale) data, N(prior_mean, prior_sd²) prior on theta; `starts` seeded
    /// Newton starts.
    MixtureLaplace {
        scale: f64,
        prior_mean: f64,
        prior_sd: f64,
        starts: usize,
    },
}

impl PosteriorKind {
    pub const NAMES: [&'static str; 4] = [
        "gamma-poisson",
        "beta-binomial",
        "lognormal-gini",
        "mixture-laplace",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            PosteriorKind::GammaPoisson { .. } => Self::NAMES[0],
            PosteriorKind::BetaBinomial { .. } => Self::NAMES[1],
            PosteriorKind::LognormalGini { .. } => Self::NAMES[2],
            PosteriorKind::MixtureLaplace { .. } => Self::NAMES[3],
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PosteriorSource {
    /// One numeric column of a CSV or Parquet file.
    Column { path: PathBuf, column: String },
    /// Inline `counts` or `values`.
    Values(Vec<f64>),
    /// Inline `successes` and `trials`.
    Binomial { successes: u64, trials: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApproxKind {
    Normal,
    LogNormal,
    LogitNormal,
    T,
    Mixture,
}

impl ApproxKind {
    pub const ALL: [ApproxKind; 5] = [
        ApproxKind::Normal,
        ApproxKind::LogNormal,
        ApproxKind::LogitNormal,
        ApproxKind::T,
        ApproxKind::Mixture,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ApproxKind::Normal => "normal",
            ApproxKind::LogNormal => "lognormal",
            ApproxKind::LogitNormal => "logitnormal",
            ApproxKind::T => "t",
            ApproxKind::Mixture => "mixture",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subset {
    First(usize),
    All,
}

impl Subset {
    pub fn label(self) -> String {
        match self {
            Subset::First(n) => n.to_string(),
            Subset::All => "all".into(),
        }
    }
}

impl PosteriorPlan {
    /// The serde mirror with every default filled in (the resolved experiment); `relative`
    /// writes a data path relative to the experiment file's folder.
    pub fn to_raw(&self, relative: &dyn Fn(&Path) -> String) -> RawPosterior {
        let mut r = RawPosterior {
            kind: self.kind.name().into(),
            id: Some(self.id.clone()),
            data: None,
            counts: None,
            successes: None,
            trials: None,
            values: None,
            shape: None,
            rate: None,
            a: None,
            b: None,
            approximations: Some(
                self.approximations
                    .iter()
                    .map(|a| a.name().into())
                    .collect(),
            ),
            t_df: None,
            subset: Some(
                self.subsets
                    .iter()
                    .map(|s| match s {
                        Subset::First(n) => RawSubset::Size(*n as i64),
                        Subset::All => RawSubset::Word("all".into()),
                    })
                    .collect(),
            ),
            draws: None,
            scale: None,
            prior_mean: None,
            prior_sd: None,
            starts: None,
        };
        match &self.source {
            PosteriorSource::Column { path, column } => {
                r.data = Some(RawColumn {
                    path: relative(path),
                    column: column.clone(),
                })
            }
            PosteriorSource::Values(v) => match self.kind {
                PosteriorKind::GammaPoisson { .. } => {
                    r.counts = Some(v.iter().map(|&c| c as i64).collect())
                }
                _ => r.values = Some(v.clone()),
            },
            PosteriorSource::Binomial { successes, trials } => {
                r.successes = Some(*successes as i64);
                r.trials = Some(*trials as i64);
                // Inline successes/trials have no subsets.
                r.subset = None;
            }
        }
        match self.kind {
            PosteriorKind::GammaPoisson { shape, rate, t_df } => {
                (r.shape, r.rate, r.t_df) = (Some(shape), Some(rate), Some(t_df))
            }
            PosteriorKind::BetaBinomial { a, b, t_df } => {
                (r.a, r.b, r.t_df) = (Some(a), Some(b), Some(t_df))
            }
            PosteriorKind::LognormalGini { draws } => r.draws = Some(draws as u64),
            PosteriorKind::MixtureLaplace {
                scale,
                prior_mean,
                prior_sd,
                starts,
            } => {
                r.scale = Some(scale);
                r.prior_mean = Some(prior_mean);
                r.prior_sd = Some(prior_sd);
                r.starts = Some(starts as u64);
            }
        }
        r
    }
}

/// (allowed approximations, defaults) per kind.
fn approximations_of(kind: &str) -> (&'static [ApproxKind], &'static [ApproxKind]) {
    use ApproxKind::*;
    match kind {
        "gamma-poisson" => (&[Normal, LogNormal, T], &[Normal, LogNormal, T]),
        "beta-binomial" => (&[Normal, LogitNormal, T], &[Normal, LogitNormal]),
        "lognormal-gini" => (&[Normal], &[Normal]),
        _ => (&[Normal, Mixture], &[Normal, Mixture]),
    }
}

struct At<'a> {
    file: &'a Path,
    at: String,
}

impl At<'_> {
    fn err(&self, message: impl std::fmt::Display) -> Error {
        Error::config(self.file, format!("{}: {message}", self.at))
    }

    fn positive(&self, key: &str, v: Option<f64>, default: f64) -> Result<f64> {
        let v = v.unwrap_or(default);
        if !(v.is_finite() && v > 0.0) {
            return Err(self.err(format!("{key} = {v}: must be a finite number > 0")));
        }
        Ok(v)
    }

    fn finite(&self, key: &str, v: Option<f64>, default: f64) -> Result<f64> {
        let v = v.unwrap_or(default);
        if !v.is_finite() {
            return Err(self.err(format!("{key} = {v}: must be a finite number")));
        }
        Ok(v)
    }

    /// `v` unless it passes `bound` (see [`super::limits`]).
    fn within(&self, key: &str, v: Option<u64>, bound: Bound) -> Result<Option<u64>> {
        match v {
            Some(v) if v > bound.max => Err(self.err(format!(
                "{key} = {v}: too large; at most {}, as {}",
                bound.max, bound.why
            ))),
            _ => Ok(v),
        }
    }

    fn count(&self, key: &str, v: Option<u64>, default: usize, min: usize) -> Result<usize> {
        let v = v.map_or(Ok(default), |v| {
            usize::try_from(v).map_err(|_| self.err(format!("{key} = {v}: too large")))
        })?;
        if v < min {
            return Err(self.err(format!("{key} = {v}: must be at least {min}")));
        }
        Ok(v)
    }
}

/// Validate every `[[posterior]]` of the experiment `file` (data paths are relative to `dir`).
pub fn plans(file: &Path, dir: &Path, raw: Vec<RawPosterior>) -> Result<Vec<PosteriorPlan>> {
    let mut out: Vec<PosteriorPlan> = Vec::with_capacity(raw.len());
    for (i, r) in raw.into_iter().enumerate() {
        let p = plan(file, dir, i, r)?;
        if out.iter().any(|q| q.id == p.id) {
            return Err(Error::config(
                file,
                format!(
                    "[[posterior]] #{}: id \"{}\" is used twice; give each posterior a distinct `id`",
                    i + 1,
                    p.id
                ),
            ));
        }
        out.push(p);
    }
    Ok(out)
}

fn plan(file: &Path, dir: &Path, index: usize, r: RawPosterior) -> Result<PosteriorPlan> {
    let mut at = At {
        file,
        at: format!("[[posterior]] #{}", index + 1),
    };
    let kind_name = r.kind.as_str();
    if !PosteriorKind::NAMES.contains(&kind_name) {
        return Err(at.err(format!(
            "kind = \"{kind_name}\" is unknown; expected one of {}{}",
            PosteriorKind::NAMES.join(", "),
            did_you_mean(kind_name, PosteriorKind::NAMES)
        )));
    }
    let id = r.id.clone().unwrap_or_else(|| kind_name.to_string());
    let safe = !id.is_empty()
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !safe {
        return Err(at.err(format!(
            "id = \"{id}\": use letters, digits, '-', '_' or '.'"
        )));
    }
    at.at = format!("{} (id \"{id}\")", at.at);
    // Keys that belong to other kinds are mistakes, not silent no-ops.
    let keys: [(&str, bool, &[&str]); 14] = [
        ("counts", r.counts.is_some(), &["gamma-poisson"]),
        ("successes", r.successes.is_some(), &["beta-binomial"]),
        ("trials", r.trials.is_some(), &["beta-binomial"]),
        (
            "values",
            r.values.is_some(),
            &["lognormal-gini", "mixture-laplace"],
        ),
        ("shape", r.shape.is_some(), &["gamma-poisson"]),
        ("rate", r.rate.is_some(), &["gamma-poisson"]),
        ("a", r.a.is_some(), &["beta-binomial"]),
        ("b", r.b.is_some(), &["beta-binomial"]),
        (
            "t_df",
            r.t_df.is_some(),
            &["gamma-poisson", "beta-binomial"],
        ),
        ("draws", r.draws.is_some(), &["lognormal-gini"]),
        ("scale", r.scale.is_some(), &["mixture-laplace"]),
        ("prior_mean", r.prior_mean.is_some(), &["mixture-laplace"]),
        ("prior_sd", r.prior_sd.is_some(), &["mixture-laplace"]),
        ("starts", r.starts.is_some(), &["mixture-laplace"]),
    ];
    for (key, set, kinds) in keys {
        if set && !kinds.contains(&kind_name) {
            return Err(at.err(format!(
                "`{key}` does not apply to kind = \"{kind_name}\" (it is for {}); remove it",
                kinds.join(", ")
            )));
        }
    }
    let (allowed, defaults) = approximations_of(kind_name);
    let approximations = match &r.approximations {
        None => defaults.to_vec(),
        Some(names) if names.is_empty() => {
            return Err(at
                .err("approximations = []: list at least one, or remove the key for the defaults"))
        }
        Some(names) => {
            let mut out = Vec::new();
            for n in names {
                let a = ApproxKind::ALL
                    .into_iter()
                    .find(|a| a.name() == n && allowed.contains(a))
                    .ok_or_else(|| {
                        let names: Vec<_> = allowed.iter().map(|a| a.name()).collect();
                        at.err(format!(
                            "approximation \"{n}\" is not available for kind = \"{kind_name}\"; expected one of {}{}",
                            names.join(", "),
                            did_you_mean(n, names.iter().copied())
                        ))
                    })?;
                if out.contains(&a) {
                    return Err(at.err(format!("approximation \"{n}\" is listed twice")));
                }
                out.push(a);
            }
            out
        }
    };
    let source = source(&at, dir, &r, kind_name)?;
    let subsets = subsets(&at, &r, &source)?;
    let t_df = at.positive("t_df", r.t_df, DEFAULT_T_DF)?;
    if t_df <= 2.0 {
        return Err(at.err(format!(
            "t_df = {t_df}: must be > 2 so that the t approximation has a finite sd"
        )));
    }
    let kind = match kind_name {
        "gamma-poisson" => PosteriorKind::GammaPoisson {
            shape: at.positive("shape", r.shape, DEFAULT_SHAPE)?,
            rate: at.positive("rate", r.rate, DEFAULT_RATE)?,
            t_df,
        },
        "beta-binomial" => PosteriorKind::BetaBinomial {
            a: at.positive("a", r.a, DEFAULT_BETA)?,
            b: at.positive("b", r.b, DEFAULT_BETA)?,
            t_df,
        },
        "lognormal-gini" => PosteriorKind::LognormalGini {
            draws: at.count(
                "draws",
                at.within("draws", r.draws, gini_draws())?,
                DEFAULT_DRAWS,
                2,
            )?,
        },
        _ => PosteriorKind::MixtureLaplace {
            scale: at.positive("scale", r.scale, DEFAULT_SCALE)?,
            prior_mean: at.finite("prior_mean", r.prior_mean, DEFAULT_PRIOR_MEAN)?,
            prior_sd: at.positive("prior_sd", r.prior_sd, DEFAULT_PRIOR_SD)?,
            starts: at.count(
                "starts",
                at.within("starts", r.starts, starts())?,
                DEFAULT_STARTS,
                1,
            )?,
        },
    };
    Ok(PosteriorPlan {
        id,
        kind,
        source,
        approximations,
        subsets,
    })
}

fn source(at: &At<'_>, dir: &Path, r: &RawPosterior, kind: &str) -> Result<PosteriorSource> {
    let inline_key = match kind {
        "gamma-poisson" => "counts = [...]",
        "beta-binomial" => "successes = S, trials = N",
        _ => "values = [...]",
    };
    let inline =
        r.counts.is_some() || r.values.is_some() || r.successes.is_some() || r.trials.is_some();
    match (&r.data, inline) {
        (Some(_), true) => Err(at.err(format!(
            "give either `data = {{ path, column }}` or inline `{inline_key}`, not both"
        ))),
        (None, false) => Err(at.err(format!(
            "no data: add `data = {{ path = \"file.csv\", column = \"name\" }}` or inline `{inline_key}`"
        ))),
        (Some(c), false) => {
            let path = dir.join(&c.path);
            if !path.is_file() {
                return Err(at.err(format!(
                    "data.path = \"{}\": no such file ({}); paths are relative to the experiment file's folder",
                    c.path,
                    path.display()
                )));
            }
            if c.column.is_empty() {
                return Err(at.err("data.column is empty: name the column to read"));
            }
            Ok(PosteriorSource::Column {
                path,
                column: c.column.clone(),
            })
        }
        (None, true) => {
            if let Some(counts) = &r.counts {
                if counts.is_empty() {
                    return Err(at.err("counts = []: give at least one count"));
                }
                if let Some((i, c)) = counts.iter().enumerate().find(|(_, c)| **c < 0) {
                    return Err(at.err(format!(
                        "counts[{i}] = {c}: Poisson counts must be integers >= 0"
                    )));
                }
                return Ok(PosteriorSource::Values(counts.iter().map(|&c| c as f64).collect()));
            }
            if let Some(values) = &r.values {
                if values.is_empty() {
                    return Err(at.err("values = []: give at least one value"));
                }
                if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                    return Err(at.err(format!("values[{i}] = {v}: must be a finite number")));
                }
                if kind == "lognormal-gini" {
                    if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| **v <= 0.0) {
                        return Err(at.err(format!(
                            "values[{i}] = {v}: lognormal incomes must be > 0"
                        )));
                    }
                }
                return Ok(PosteriorSource::Values(values.clone()));
            }
            match (r.successes, r.trials) {
                (Some(s), Some(t)) => {
                    if t < 1 || s < 0 || s > t {
                        return Err(at.err(format!(
                            "successes = {s}, trials = {t}: need 0 <= successes <= trials and trials >= 1"
                        )));
                    }
                    Ok(PosteriorSource::Binomial {
                        successes: s as u64,
                        trials: t as u64,
                    })
                }
                _ => Err(at.err("give both `successes` and `trials`")),
            }
        }
    }
}

fn subsets(at: &At<'_>, r: &RawPosterior, source: &PosteriorSource) -> Result<Vec<Subset>> {
    let Some(list) = &r.subset else {
        return Ok(vec![Subset::All]);
    };
    if list.is_empty() {
        return Err(at.err("subset = []: list sizes such as [5, 20, \"all\"], or remove the key"));
    }
    if matches!(source, PosteriorSource::Binomial { .. }) {
        return Err(at.err(
            "subset needs individual observations; inline successes/trials have none: \
             use data = { path, column } with a 0/1 column, or remove `subset`",
        ));
    }
    let mut out = Vec::new();
    for s in list {
        let v = match s {
            RawSubset::Size(n) if *n >= 1 => Subset::First(*n as usize),
            RawSubset::Word(w) if w == "all" => Subset::All,
            RawSubset::Size(n) => {
                return Err(at.err(format!("subset entry {n}: sizes must be at least 1")))
            }
            RawSubset::Word(w) => {
                return Err(at.err(format!(
                    "subset entry \"{w}\": expected a size such as 20 or the word \"all\""
                )))
            }
        };
        if let (Subset::First(n), PosteriorSource::Values(v)) = (v, source) {
            if n > v.len() {
                return Err(at.err(format!(
                    "subset entry {n}: only {} inline values are given",
                    v.len()
                )));
            }
        }
        if out.contains(&v) {
            return Err(at.err(format!("subset entry {} is listed twice", v.label())));
        }
        out.push(v);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<crate::config::Plan> {
        crate::config::parse(text, Path::new("lab.toml"))
    }

    #[test]
    fn defaults_fill_in_and_data_becomes_optional() {
        let plan = parse("[[posterior]]\nkind = \"gamma-poisson\"\ncounts = [3, 0, 2]\n").unwrap();
        assert!(plan.data.is_none() && plan.methods.is_empty());
        let p = &plan.posteriors[0];
        assert_eq!(p.id, "gamma-poisson");
        assert_eq!(
            p.kind,
            PosteriorKind::GammaPoisson {
                shape: DEFAULT_SHAPE,
                rate: DEFAULT_RATE,
                t_df: DEFAULT_T_DF
            }
        );
        assert_eq!(
            p.approximations,
            [ApproxKind::Normal, ApproxKind::LogNormal, ApproxKind::T]
        );
        assert_eq!(p.subsets, [Subset::All]);
        assert_eq!(p.source, PosteriorSource::Values(vec![3.0, 0.0, 2.0]));
    }

    #[test]
    fn a_sweep_list_mixes_sizes_and_all() {
        let plan = parse(
            "[[posterior]]\nkind = \"mixture-laplace\"\nvalues = [1.0, 2.0, 9.0]\nsubset = [2, \"all\"]\nstarts = 5\n",
        )
        .unwrap();
        let p = &plan.posteriors[0];
        assert_eq!(p.subsets, [Subset::First(2), Subset::All]);
        assert!(matches!(
            p.kind,
            PosteriorKind::MixtureLaplace { starts: 5, .. }
        ));
        let e = parse("[[posterior]]\nkind = \"mixture-laplace\"\nvalues = [1.0]\nsubset = [2]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("subset entry 2: only 1 inline values"), "{e}");
    }
}
