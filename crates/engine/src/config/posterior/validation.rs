//! `[[posterior]]` tables checked into [`PosteriorPlan`]s: every error names the table, the key
//! and the fix.

use std::path::Path;

use super::plan::{
    PosteriorKind, PosteriorPlan, PosteriorSource, Subset, DEFAULT_BETA, DEFAULT_DRAWS,
    DEFAULT_PRIOR_MEAN, DEFAULT_PRIOR_SD, DEFAULT_RATE, DEFAULT_SCALE, DEFAULT_SHAPE,
    DEFAULT_STARTS, DEFAULT_T_DF,
};
use super::raw::{RawPosterior, RawSubset};
use crate::config::limits::{gini_draws, starts, Bound};
use crate::config::suggest::did_you_mean;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::record::ApproxKind;

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
                    "data.path = \"{}\": {} ({}); paths are relative to the experiment file's folder",
                    c.path,
                    crate::config::ctx::not_a_file(&path),
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
