//! The validated experiment: every default filled in, every path resolved, every name
//! parsed into an enum. Only this type travels downstream of the configuration.

use std::path::{Path, PathBuf};

use super::features::feature_map;
pub use super::features::{Centres, FeatureMap};
use super::limits;
use super::method_options::method_options;
pub use super::method_options::{
    degenerate_fit_advice, ClassPrior, MethodOptions, EP_MAX_ITER, EP_TOLERANCE,
};
use super::posterior::PosteriorPlan;
use super::raw::{RawExperiment, RawMethod, RawSplit};
pub use super::streaming::{Streaming, DEFAULT_CHUNK_ROWS};
use super::suggest::did_you_mean;
use crate::catalog::{Family, MethodKind, PredictiveKind};
use crate::error::{Error, Result};
use crate::metrics::Binning;

pub const DEFAULT_SEED: u64 = 0;
pub const DEFAULT_PRECISION: f64 = 1.0;
pub const DEFAULT_BINS: usize = 10;
pub const DEFAULT_RESAMPLES: usize = 2_000;
pub const DEFAULT_TEST_FRACTION: f64 = 0.2;
pub const DEFAULT_MC_SAMPLES: usize = 10_000;
pub const DEFAULT_QUADRATURE_NODES: usize = 64;
/// The Gauss-Hermite root finder is verified up to this many nodes.
pub const MAX_QUADRATURE_NODES: usize = 150;
pub const NEWTON_MAX_ITER: usize = 100;
pub const NEWTON_TOLERANCE: f64 = 1e-8;
pub const GRADIENT_MAX_ITER: usize = 20_000;
pub const GRADIENT_TOLERANCE: f64 = 1e-5;
pub const GRADIENT_LEARNING_RATE: f64 = 1.0;

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The experiment file this plan came from (relative paths inside it are resolved against
    /// its directory).
    pub file: PathBuf,
    pub name: String,
    pub description: Option<String>,
    pub seed: u64,
    /// A previous run directory to compare this run against (paired bootstrap).
    pub baseline: Option<PathBuf>,
    /// `None` only when the experiment has no `[[method]]` (a pure approximation lab).
    pub data: Option<DataPlan>,
    pub prior: Prior,
    pub evaluation: Evaluation,
    pub methods: Vec<MethodPlan>,
    /// `[sweep]`: the same experiment once per value of one key.
    pub sweep: Option<super::sweep::Sweep>,
    /// The approximation lab's `[[posterior]]` tables.
    pub posteriors: Vec<PosteriorPlan>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DataPlan {
    pub source: DataSource,
    pub target: String,
    /// Feature columns; `None` means every numeric column but the target.
    pub features: Option<Vec<String>>,
    /// The label value that is class 1, as text; `None` means 0/1, false/true or -1/+1.
    pub positive: Option<String>,
    pub standardize: bool,
    pub intercept: bool,
    pub missing: Missing,
    /// Applied to the standardised features, before the intercept column.
    pub feature_map: FeatureMap,
    /// The experiment seed (seeds the RBF centres).
    pub seed: u64,
    /// The first method that only handles two classes, if any: then the target must have
    /// exactly two classes (or `positive` must pick one).
    pub binary_method: Option<String>,
    /// `streaming = true`: read the file in chunks instead of loading it.
    pub streaming: Option<Streaming>,
    /// The byte between a CSV's fields (`[data] separator`, default `,`).
    pub separator: u8,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DataSource {
    /// One file, split into train and test rows.
    Single { path: PathBuf, split: Split },
    /// Separate train and test files.
    TrainTest { train: PathBuf, test: PathBuf },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Split {
    /// Row i (0-based, in file order) is a test row when i % every == offset.
    Every { every: usize, offset: usize },
    /// A seeded random subset of round(test_fraction * N) rows is the test set.
    Fraction { test_fraction: f64, seed: u64 },
    /// Each row independently, with probability test_fraction, decided by a hash of
    /// (seed, row index): one pass, no row count needed (the form streaming uses).
    Hash { test_fraction: f64, seed: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    Error,
    Drop,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    /// lambda in w ~ N(0, lambda^{-1} I), over every weight including the intercept.
    /// Under `evidence` it is the default, used by the kinds that have no Laplace evidence.
    pub precision: f64,
    /// `precision = "evidence"`: each Laplace-evidence kind chooses its own lambda by
    /// maximising its Laplace log evidence (empirical Bayes).
    pub evidence: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    pub calibration_bins: usize,
    pub binning: Binning,
    /// Bootstrap resamples for the ECE interval (and `bayeslab compare`).
    pub resamples: usize,
    /// Draws from each Gaussian posterior for its Pareto k-hat (0: no k-hat); `None`: as many
    /// as the data size allows ([`crate::model::importance::default_draws`]).
    pub khat_draws: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MethodPlan {
    pub id: String,
    pub kind: MethodKind,
    pub predictives: Vec<PredictiveKind>,
    pub optimizer: Optimizer,
    pub max_iter: usize,
    pub tolerance: f64,
    pub mc_samples: usize,
    pub quadrature_nodes: usize,
    /// The method-specific settings, defaults filled in.
    pub options: MethodOptions,
}

impl MethodPlan {
    /// A sampler's chains, kept draws, burn-in and thinning; `None` for the other kinds.
    pub fn schedule(&self) -> Option<crate::optim::Schedule> {
        self.kind.is_gold().then_some(crate::optim::Schedule {
            chains: self.options.chains,
            draws: self.options.draws,
            burn_in: self.options.burn_in,
            thin: self.options.thin,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Optimizer {
    Newton,
    Gradient { learning_rate: f64 },
}

impl Optimizer {
    pub fn name(&self) -> &'static str {
        match self {
            Optimizer::Newton => "newton",
            Optimizer::Gradient { .. } => "gradient",
        }
    }
}

/// Validation context: the file for error messages and the directory for relative paths.
pub(super) struct Ctx<'a> {
    file: &'a Path,
    dir: PathBuf,
}

impl Ctx<'_> {
    pub(super) fn err(&self, message: impl Into<String>) -> Error {
        Error::config(self.file, message)
    }

    fn path(&self, key: &str, value: &str) -> Result<PathBuf> {
        let p = self.dir.join(value);
        if !p.is_file() {
            return Err(self.err(format!(
                "{key} = \"{value}\": no such file ({}); paths are relative to the experiment file's folder",
                p.display()
            )));
        }
        Ok(p)
    }

    pub(super) fn positive_f64(&self, key: &str, v: f64, allow_zero: bool) -> Result<f64> {
        let ok = v.is_finite() && (v > 0.0 || (allow_zero && v == 0.0));
        if !ok {
            let bound = if allow_zero { ">= 0" } else { "> 0" };
            return Err(self.err(format!("{key} = {v}: must be a finite number {bound}")));
        }
        Ok(v)
    }

    pub(super) fn count(&self, key: &str, v: u64, min: u64) -> Result<usize> {
        if v < min {
            return Err(self.err(format!("{key} = {v}: must be at least {min}")));
        }
        usize::try_from(v).map_err(|_| self.err(format!("{key} = {v}: too large")))
    }
}

impl Plan {
    /// Validate a parsed experiment read from `file`.
    pub fn from_raw(raw: RawExperiment, file: &Path) -> Result<Plan> {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let ctx = Ctx { file, dir };
        let seed = raw.seed.unwrap_or(DEFAULT_SEED);
        let name = match raw.name {
            Some(n) => validate_name(&ctx, "name", &n)?,
            None => file
                .file_stem()
                .and_then(|s| s.to_str())
                .map(str::to_string)
                .unwrap_or_else(|| "experiment".into()),
        };
        let mut data = match raw.data {
            Some(d) => Some(data_plan(&ctx, d, seed)?),
            None if raw.methods.is_empty() && !raw.posteriors.is_empty() => None,
            None => return Err(ctx.err(
                "no [data] table: [[method]] needs one, e.g.\n[data]\npath = \"data.csv\"\ntarget = \"y\"",
            )),
        };
        if let Some(f) = raw.features {
            match data.as_mut() {
                Some(d) => d.feature_map = limits::feature_map(&ctx, feature_map(&ctx, f)?)?,
                None => return Err(ctx.err("[features] maps the columns of [data]: add a [data] table or remove [features]")),
            }
        }
        let posteriors = super::posterior::plans(file, &ctx.dir, raw.posteriors)?;
        let baseline = match raw.baseline {
            None => None,
            Some(b) => {
                let dir = ctx.dir.join(&b);
                if !dir.join("results.json").is_file() || !dir.join("predictions.csv").is_file() {
                    return Err(ctx.err(format!(
                        "baseline = \"{b}\": {} is not a bayeslab run directory (no results.json and predictions.csv); \
                         run the baseline experiment first, with --out pointing there",
                        dir.display()
                    )));
                }
                Some(dir)
            }
        };
        let (precision, evidence) = match raw.prior.precision {
            None => (DEFAULT_PRECISION, false),
            Some(super::raw::RawPrecision::Value(v)) => {
                (ctx.positive_f64("[prior] precision", v, true)?, false)
            }
            Some(super::raw::RawPrecision::Named(n)) if n == "evidence" => {
                (DEFAULT_PRECISION, true)
            }
            Some(super::raw::RawPrecision::Named(n)) => {
                return Err(ctx.err(format!(
                    "[prior] precision = \"{n}\": give a number >= 0 or \"evidence\" (choose lambda by maximising the Laplace evidence){}",
                    did_you_mean(&n, ["evidence"])
                )))
            }
        };
        let bins = raw
            .evaluation
            .calibration_bins
            .unwrap_or(DEFAULT_BINS as u64);
        let calibration_bins = ctx.bounded(
            "[evaluation] calibration_bins",
            bins,
            1,
            limits::calibration_bins(),
        )?;
        let binning = match raw.evaluation.calibration_binning.as_deref() {
            None => Binning::default(),
            Some(b) => Binning::parse(b).ok_or_else(|| {
                ctx.err(format!(
                    "[evaluation] calibration_binning = \"{b}\": expected \"equal-width\" or \"equal-mass\"{}",
                    did_you_mean(b, ["equal-width", "equal-mass"])
                ))
            })?,
        };
        let resamples = ctx.bounded(
            "[evaluation] resamples",
            raw.evaluation.resamples.unwrap_or(DEFAULT_RESAMPLES as u64),
            1,
            limits::resamples(),
        )?;
        let khat_draws = match raw.evaluation.khat_draws {
            None => None,
            Some(v) => Some(ctx.bounded("[evaluation] khat_draws", v, 0, limits::khat_draws())?),
        };
        if let Some(k @ 1..100) = khat_draws {
            return Err(ctx.err(format!(
                "[evaluation] khat_draws = {k}: the Pareto fit needs at least 100 draws (20000 gives k-hat to about +-0.05); use 0 to skip k-hat"
            )));
        }
        if raw.methods.is_empty() && posteriors.is_empty() {
            return Err(ctx.err(
                "no [[method]] tables: add at least one, e.g.\n[[method]]\nkind = \"logistic-laplace\"\n(or a [[posterior]] table for the approximation lab)",
            ));
        }
        let mut methods = Vec::with_capacity(raw.methods.len());
        for (i, m) in raw.methods.into_iter().enumerate() {
            let plan = method_plan(&ctx, i, m)?;
            if methods.iter().any(|p: &MethodPlan| p.id == plan.id) {
                return Err(ctx.err(format!(
                    "[[method]] #{}: id \"{}\" is used twice; give each method a distinct `id`",
                    i + 1,
                    plan.id
                )));
            }
            methods.push(plan);
        }
        if precision == 0.0 {
            if let Some(m) = methods.iter().find(|m| m.kind.family() == Family::Ep) {
                return Err(ctx.err(format!(
                    "[prior] precision = 0 is an improper prior, but method \"{}\" ({}) needs the prior variance 1/precision; set [prior] precision > 0",
                    m.id,
                    m.kind.name()
                )));
            }
        }
        if evidence {
            if let Some(m) = methods.iter().find(|m| !m.kind.laplace_evidence()) {
                return Err(ctx.err(format!(
                    "[prior] precision = \"evidence\" maximises the Laplace evidence, which method \"{}\" (kind = \"{}\") does not have; \
                     use it only with {}, or give a number",
                    m.id,
                    m.kind.name(),
                    super::suggest::and_list(MethodKind::ALL.iter().filter(|k| k.laplace_evidence()).map(|k| k.name()))
                )));
            }
        }
        if let Some(d) = data.as_ref().filter(|d| d.streaming.is_some()) {
            super::streaming::check(
                &ctx,
                &d.source,
                &methods,
                evidence,
                binning,
                baseline.is_some(),
            )?;
        }
        if let Some(d) = data.as_mut() {
            d.binary_method = methods
                .iter()
                .find(|m| m.kind.binary_only())
                .map(|m| format!("{} (kind = \"{}\")", m.id, m.kind.name()));
        }
        Ok(Plan {
            file: file.to_path_buf(),
            name,
            description: raw.description,
            seed,
            baseline,
            data,
            prior: Prior {
                precision,
                evidence,
            },
            evaluation: Evaluation {
                calibration_bins,
                binning,
                resamples,
                khat_draws,
            },
            methods,
            sweep: None,
            posteriors,
        })
    }
}

/// Names become directory and column names: keep them to a safe alphabet.
fn validate_name(ctx: &Ctx<'_>, key: &str, name: &str) -> Result<String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !name.starts_with('.');
    if !ok {
        return Err(ctx.err(format!(
            "{key} = \"{name}\": use letters, digits, '-', '_' or '.' (it names files and columns)"
        )));
    }
    Ok(name.to_string())
}

fn data_plan(ctx: &Ctx<'_>, raw: super::raw::RawData, seed: u64) -> Result<DataPlan> {
    let streaming = super::streaming::streaming(ctx, &raw)?;
    let source = match (&raw.path, &raw.train, &raw.test) {
        (Some(path), None, None) => {
            let path = ctx.path("[data] path", path)?;
            let split = split_plan(ctx, raw.split.unwrap_or_default(), seed)?;
            DataSource::Single { path, split }
        }
        (None, Some(train), Some(test)) => {
            if raw.split.is_some() {
                return Err(ctx.err(
                    "[data] split is set together with separate train and test files; remove `split`",
                ));
            }
            DataSource::TrainTest {
                train: ctx.path("[data] train", train)?,
                test: ctx.path("[data] test", test)?,
            }
        }
        (None, None, None) => {
            return Err(ctx.err(
                "[data] needs `path = \"...\"` (one file, split into train and test) or both `train` and `test`",
            ))
        }
        _ => {
            return Err(ctx.err(
                "[data] give either `path` alone or both `train` and `test`, not a mixture",
            ))
        }
    };
    let missing = match raw.missing.as_deref().unwrap_or("error") {
        "error" => Missing::Error,
        "drop" => Missing::Drop,
        other => {
            return Err(ctx.err(format!(
                "[data] missing = \"{other}\": expected \"error\" or \"drop\"{}",
                did_you_mean(other, ["error", "drop"])
            )))
        }
    };
    if raw.target.is_empty() {
        return Err(ctx.err("[data] target is empty: name the label column"));
    }
    if let Some(f) = &raw.features {
        if f.is_empty() {
            return Err(ctx.err("[data] features = []: list at least one column, or remove the key to use every numeric column"));
        }
        if let Some((i, c)) = f.iter().enumerate().find(|(i, c)| f[..*i].contains(c)) {
            return Err(ctx.err(format!(
                "[data] features lists \"{c}\" twice (entries {} and {}): a column is one design column; remove the repeat",
                f.iter().position(|x| x == c).unwrap_or(0) + 1,
                i + 1
            )));
        }
        if f.iter().any(|c| c == &raw.target) {
            return Err(ctx.err(format!(
                "[data] features contains the target column \"{}\"",
                raw.target
            )));
        }
    }
    Ok(DataPlan {
        streaming,
        source,
        target: raw.target,
        features: raw.features,
        positive: raw.positive.map(|p| p.to_string()),
        standardize: raw.standardize.unwrap_or(true),
        intercept: raw.intercept.unwrap_or(true),
        missing,
        feature_map: FeatureMap::Identity,
        seed,
        binary_method: None,
        separator: separator(ctx, raw.separator.as_deref())?,
    })
}

/// `[data] separator`: one ASCII character other than a quote or a line end.
fn separator(ctx: &Ctx<'_>, raw: Option<&str>) -> Result<u8> {
    match raw.map(str::as_bytes) {
        None => Ok(b','),
        Some(&[c]) if c.is_ascii() && !matches!(c, b'"' | b'\n' | b'\r') => Ok(c),
        Some(_) => Err(ctx.err(format!(
            "[data] separator = {:?}: must be one character such as \",\", \";\", \"|\" or \"\\t\" (tab)",
            raw.unwrap_or_default()
        ))),
    }
}

fn split_plan(ctx: &Ctx<'_>, raw: RawSplit, seed: u64) -> Result<Split> {
    match raw {
        RawSplit { every: Some(every), offset, test_fraction: None, seed: None, draw: None } => {
            let every = ctx.count("[data] split.every", every, 2)?;
            let offset = offset.unwrap_or(0) as usize;
            if offset >= every {
                return Err(ctx.err(format!(
                    "[data] split.offset = {offset}: must be less than split.every = {every}"
                )));
            }
            Ok(Split::Every { every, offset })
        }
        RawSplit { every: None, offset: None, test_fraction, seed: split_seed, draw } => {
            let f = test_fraction.unwrap_or(DEFAULT_TEST_FRACTION);
            if !(f > 0.0 && f < 1.0) {
                return Err(ctx.err(format!(
                    "[data] split.test_fraction = {f}: must be strictly between 0 and 1"
                )));
            }
            let seed = split_seed.unwrap_or(seed);
            match draw.as_deref().unwrap_or("shuffle") {
                "shuffle" => Ok(Split::Fraction { test_fraction: f, seed }),
                "hash" => Ok(Split::Hash { test_fraction: f, seed }),
                other => Err(ctx.err(format!(
                    "[data] split.draw = \"{other}\": expected \"shuffle\" (exactly round(F N) test rows) or \"hash\" \
                     (each row by a hash of the seed and its row number){}",
                    did_you_mean(other, ["shuffle", "hash"])
                ))),
            }
        }
        RawSplit { every: Some(_), draw: Some(_), .. } => Err(ctx.err(
            "[data] split.draw only applies with test_fraction; { every = K, offset = J } is already decided row by row",
        )),
        _ => Err(ctx.err(
            "[data] split: use either { every = K, offset = J } or { test_fraction = F, seed = S }, not both",
        )),
    }
}

fn method_plan(ctx: &Ctx<'_>, index: usize, raw: RawMethod) -> Result<MethodPlan> {
    let at = format!("[[method]] #{}", index + 1);
    let kind = MethodKind::parse(&raw.kind).ok_or_else(|| {
        ctx.err(format!(
            "{at}: kind = \"{}\" is unknown; expected one of {}{}",
            raw.kind,
            MethodKind::ALL
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", "),
            did_you_mean(&raw.kind, MethodKind::ALL.iter().map(|k| k.name()))
        ))
    })?;
    let id = match raw.id.clone() {
        Some(id) => validate_name(ctx, &format!("{at} id"), &id)?,
        None => kind.name().to_string(),
    };
    let at = format!("{at} (id \"{id}\")");
    let predictives = match raw.predictive.clone() {
        None => kind.default_predictives().to_vec(),
        Some(names) => {
            if names.is_empty() {
                return Err(ctx.err(format!(
                    "{at}: predictive = []: list at least one predictive"
                )));
            }
            let mut out = Vec::new();
            for n in &names {
                let p = PredictiveKind::parse(n).ok_or_else(|| {
                    ctx.err(format!(
                        "{at}: predictive \"{n}\" is unknown; expected one of {}{}",
                        PredictiveKind::ALL
                            .iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(", "),
                        did_you_mean(n, PredictiveKind::ALL.iter().map(|k| k.name()))
                    ))
                })?;
                if !kind.supports(p) {
                    let offered: Vec<String> = kind
                        .predictives()
                        .iter()
                        .map(|p| format!("\"{}\"", p.name()))
                        .collect();
                    let why = if kind.has_posterior() || kind.generative() {
                        format!("{} does not define", kind.name())
                    } else {
                        format!("{} has no posterior, so", kind.name())
                    };
                    return Err(ctx.err(format!(
                        "{at}: {why} predictive \"{n}\" is not available; it offers [{}] \
                         (kind = \"logistic-laplace\" has all five)",
                        offered.join(", ")
                    )));
                }
                if out.contains(&p) {
                    return Err(ctx.err(format!("{at}: predictive \"{n}\" is listed twice")));
                }
                out.push(p);
            }
            out
        }
    };
    let optimizer = match raw.optimizer.as_deref().unwrap_or("newton") {
        "newton" => {
            if raw.learning_rate.is_some() {
                return Err(ctx.err(format!(
                    "{at}: learning_rate only applies with optimizer = \"gradient\"; remove it or set the optimizer"
                )));
            }
            Optimizer::Newton
        }
        "gradient" => Optimizer::Gradient {
            learning_rate: ctx.positive_f64(
                &format!("{at} learning_rate"),
                raw.learning_rate.unwrap_or(GRADIENT_LEARNING_RATE),
                false,
            )?,
        },
        other => {
            return Err(ctx.err(format!(
                "{at}: optimizer = \"{other}\" is unknown; expected \"newton\" or \"gradient\"{}",
                did_you_mean(other, ["newton", "gradient"])
            )))
        }
    };
    let (default_iter, default_tol) = match (kind, optimizer) {
        (kind, _) if kind.family() == Family::Ep => (EP_MAX_ITER, EP_TOLERANCE),
        (_, Optimizer::Newton) => (NEWTON_MAX_ITER, NEWTON_TOLERANCE),
        (_, Optimizer::Gradient { .. }) => (GRADIENT_MAX_ITER, GRADIENT_TOLERANCE),
    };
    let max_iter = ctx.count(
        &format!("{at} max_iter"),
        raw.max_iter.unwrap_or(default_iter as u64),
        1,
    )?;
    let tolerance = ctx.positive_f64(
        &format!("{at} tolerance"),
        raw.tolerance.unwrap_or(default_tol),
        false,
    )?;
    let options = method_options(ctx, &at, kind, &raw)?;
    let mc_samples = ctx.bounded(
        &format!("{at} mc_samples"),
        raw.mc_samples.unwrap_or(DEFAULT_MC_SAMPLES as u64),
        1,
        limits::mc_samples(),
    )?;
    let quadrature_nodes = ctx.count(
        &format!("{at} quadrature_nodes"),
        raw.quadrature_nodes
            .unwrap_or(DEFAULT_QUADRATURE_NODES as u64),
        1,
    )?;
    if quadrature_nodes > MAX_QUADRATURE_NODES {
        return Err(ctx.err(format!(
            "{at} quadrature_nodes = {quadrature_nodes}: at most {MAX_QUADRATURE_NODES}"
        )));
    }
    Ok(MethodPlan {
        id,
        kind,
        predictives,
        optimizer,
        max_iter,
        tolerance,
        mc_samples,
        quadrature_nodes,
        options,
    })
}
