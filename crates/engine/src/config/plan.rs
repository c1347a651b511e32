//! The validated experiment: every default filled in, every path resolved, every name
//! parsed into an enum. Only this type travels downstream of the configuration.

use std::path::{Path, PathBuf};

use super::ctx::{validate_name, Ctx};
pub use super::data_plan::{DataPlan, DataSource, Missing, Split, DEFAULT_TEST_FRACTION};
use super::features::feature_map;
pub use super::features::{Centres, FeatureMap};
use super::limits;
pub use super::method_options::{degenerate_fit_advice, EP_MAX_ITER, EP_TOLERANCE};
pub use super::method_plan::{
    MethodPlan, DEFAULT_MC_SAMPLES, DEFAULT_QUADRATURE_NODES, GRADIENT_LEARNING_RATE,
    GRADIENT_MAX_ITER, GRADIENT_TOLERANCE, MAX_QUADRATURE_NODES, NEWTON_MAX_ITER, NEWTON_TOLERANCE,
};
use super::posterior::PosteriorPlan;
use super::raw::RawExperiment;
pub use super::streaming::{Streaming, DEFAULT_CHUNK_ROWS};
use super::suggest::did_you_mean;
use bayeslab_core::catalog::{Family, MethodKind};
use bayeslab_core::error::Result;
use bayeslab_core::metrics::Binning;
pub use bayeslab_core::model::options::{ClassPrior, Options};
pub use bayeslab_core::model::spec::{MethodSpec, Optimizer};

pub const DEFAULT_SEED: u64 = 0;
pub const DEFAULT_PRECISION: f64 = 1.0;
pub const DEFAULT_BINS: usize = 10;
pub const DEFAULT_RESAMPLES: usize = 2_000;

/// `[sweep]` (config/sweep.rs builds it): the swept key, its values, and the validated plan
/// for each value. It lives beside [`Plan`], which holds one, so that neither file imports
/// the other's type back.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    pub key: String,
    pub points: Vec<(f64, Plan)>,
    /// Each value exactly as its run directory names it (config/sweep.rs `label`): distinct
    /// for distinct values, so that no two points share a directory.
    pub labels: Vec<String>,
}

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
    pub sweep: Option<Sweep>,
    /// The approximation lab's `[[posterior]]` tables.
    pub posteriors: Vec<PosteriorPlan>,
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
    /// as the data size allows ([`bayeslab_core::model::importance::default_draws`]).
    pub khat_draws: Option<usize>,
    /// Draws for the importance-sampling estimate of each binary model's ln p(y | X) (0: none);
    /// `None`: [`bayeslab_core::model::importance::evidence::EVIDENCE_DRAWS`] when the experiment has a
    /// gold run, none otherwise.
    pub evidence_draws: Option<usize>,
    /// Draws from each Gaussian posterior for its PSIS-LOO (0: no LOO for any run); `None`:
    /// as many as the data size allows ([`bayeslab_core::model::loglik::default_draws`]). A sampler's
    /// LOO uses its kept draws.
    pub loo_draws: Option<usize>,
    /// The most training rows with Pareto k above 0.7 that each run refits without the row
    /// (exact LOO for those rows); 0: none.
    pub loo_refits: usize,
    /// Whether each run with LOO writes the draws it used, with every training row's log
    /// likelihood at each, to `draws/` (CmdStan CSV and Parquet).
    pub export_draws: bool,
    /// Whether each Newton, EP and ADF fit of a model with at most
    /// [`bayeslab_core::record::STEPS_MAX_WEIGHTS`] weights records its steps (`runs[].steps`).
    pub record_steps: bool,
}

impl Plan {
    /// Validate a parsed experiment read from `file`. The keys are checked in the file's
    /// order of sections, so that the first mistake is the one reported.
    pub fn from_raw(raw: RawExperiment, file: &Path) -> Result<Plan> {
        let ctx = Ctx::new(file);
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
            Some(d) => Some(super::data_plan::data_plan(&ctx, d, seed)?),
            None if raw.methods.is_empty() && !raw.posteriors.is_empty() => None,
            None => return Err(ctx.err(
                "no [data] table: [[method]] needs one, e.g.\n[data]\npath = \"data.csv\"\ntarget = \"y\"",
            )),
        };
        if let Some(f) = raw.features {
            match data.as_mut() {
                Some(d) => d.feature_map = super::features::checked_width(&ctx, feature_map(&ctx, f)?)?,
                None => return Err(ctx.err("[features] maps the columns of [data]: add a [data] table or remove [features]")),
            }
        }
        let posteriors = super::posterior::plans(file, &ctx.dir, raw.posteriors)?;
        let baseline = raw.baseline.map(|b| baseline_dir(&ctx, &b)).transpose()?;
        let prior = prior(&ctx, raw.prior.precision)?;
        let evaluation = evaluation(&ctx, &raw.evaluation)?;
        if raw.methods.is_empty() && posteriors.is_empty() {
            return Err(ctx.err(
                "no [[method]] tables: add at least one, e.g.\n[[method]]\nkind = \"logistic-laplace\"\n(or a [[posterior]] table for the approximation lab)",
            ));
        }
        let methods = methods(&ctx, raw.methods)?;
        check_prior_suits(&ctx, &prior, &methods)?;
        if let Some(d) = data.as_ref().filter(|d| d.streaming.is_some()) {
            super::streaming_rules::check(
                &ctx,
                &d.source,
                &methods,
                prior.evidence,
                evaluation.binning,
                baseline.is_some(),
            )?;
            if evaluation.export_draws {
                return Err(ctx.err(
                    "[evaluation] export_draws = true writes the draws each run's LOO uses, and a streamed run has no LOO \
                     (it keeps no rows in memory); set [data] streaming = false, or remove export_draws",
                ));
            }
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
            prior,
            evaluation,
            methods,
            sweep: None,
            posteriors,
        })
    }
}

/// `baseline = "DIR"`: a run directory beside the experiment file.
fn baseline_dir(ctx: &Ctx<'_>, b: &str) -> Result<PathBuf> {
    let dir = ctx.dir.join(b);
    if !dir.join("results.json").is_file() || !dir.join("predictions.csv").is_file() {
        return Err(ctx.err(format!(
            "baseline = \"{b}\": {} is not a bayeslab run directory (no results.json and predictions.csv); \
             run the baseline experiment first, with --out pointing there",
            dir.display()
        )));
    }
    Ok(dir)
}

/// `[prior] precision`: a number >= 0, or "evidence".
fn prior(ctx: &Ctx<'_>, precision: Option<super::raw::RawPrecision>) -> Result<Prior> {
    let (precision, evidence) = match precision {
        None => (DEFAULT_PRECISION, false),
        Some(super::raw::RawPrecision::Value(v)) => {
            (ctx.positive_f64("[prior] precision", v, true)?, false)
        }
        Some(super::raw::RawPrecision::Named(n)) if n == "evidence" => (DEFAULT_PRECISION, true),
        Some(super::raw::RawPrecision::Named(n)) => {
            return Err(ctx.err(format!(
                "[prior] precision = \"{n}\": give a number >= 0 or \"evidence\" (choose lambda by maximising the Laplace evidence){}",
                did_you_mean(&n, ["evidence"])
            )))
        }
    };
    Ok(Prior {
        precision,
        evidence,
    })
}

/// `[evaluation]`, each key within its bounds.
fn evaluation(ctx: &Ctx<'_>, raw: &super::raw::RawEvaluation) -> Result<Evaluation> {
    let bins = raw.calibration_bins.unwrap_or(DEFAULT_BINS as u64);
    let calibration_bins = ctx.bounded(
        "[evaluation] calibration_bins",
        bins,
        1,
        limits::calibration_bins(),
    )?;
    let binning = match raw.calibration_binning.as_deref() {
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
        raw.resamples.unwrap_or(DEFAULT_RESAMPLES as u64),
        limits::MIN_RESAMPLES,
        limits::resamples(),
    )?;
    let khat_draws = draws(
        ctx,
        ("[evaluation] khat_draws", raw.khat_draws),
        100,
        "the Pareto fit needs at least 100 draws (20000 gives k-hat to about +-0.05); use 0 to skip k-hat",
    )?;
    let evidence_draws = draws(
        ctx,
        ("[evaluation] evidence_draws", raw.evidence_draws),
        1000,
        "the importance-sampling evidence needs at least 1000 draws for its standard error and k-hat to mean anything \
         (20000 gives Pima's ln p(y | X) to about ±0.005); use 0 to skip it",
    )?;
    let (loo_draws, loo_refits) = super::loo_keys::loo_keys(ctx, raw)?;
    let export_draws = super::loo_keys::export_draws(ctx, raw, loo_draws)?;
    Ok(Evaluation {
        calibration_bins,
        binning,
        resamples,
        khat_draws,
        evidence_draws,
        loo_draws,
        loo_refits,
        export_draws,
        record_steps: raw.record_steps.unwrap_or(false),
    })
}

/// A number of draws `(key, value)`: within the draws' bounds, and 0 (none) or at least
/// `least` (`why` says why).
fn draws(
    ctx: &Ctx<'_>,
    (key, value): (&str, Option<u64>),
    least: usize,
    why: &str,
) -> Result<Option<usize>> {
    let Some(v) = value else { return Ok(None) };
    let k = ctx.bounded(key, v, 0, limits::khat_draws())?;
    if (1..least).contains(&k) {
        return Err(ctx.err(format!("{key} = {k}: {why}")));
    }
    Ok(Some(k))
}

/// The `[[method]]` tables, each id once.
fn methods(ctx: &Ctx<'_>, raw: Vec<super::raw::RawMethod>) -> Result<Vec<MethodPlan>> {
    let mut methods = Vec::with_capacity(raw.len());
    for (i, m) in raw.into_iter().enumerate() {
        let plan = super::method_plan::method_plan(ctx, i, m)?;
        if methods.iter().any(|p: &MethodPlan| p.id == plan.id) {
            return Err(ctx.err(format!(
                "[[method]] #{}: id \"{}\" is used twice; give each method a distinct `id`",
                i + 1,
                plan.id
            )));
        }
        methods.push(plan);
    }
    Ok(methods)
}

/// The prior against the methods: an improper prior (precision 0) where a method needs the
/// prior variance or unique weights, and "evidence" where a method has no Laplace evidence.
fn check_prior_suits(ctx: &Ctx<'_>, prior: &Prior, methods: &[MethodPlan]) -> Result<()> {
    if prior.precision == 0.0 {
        if let Some(m) = methods
            .iter()
            .find(|m| matches!(m.kind.family(), Family::Ep | Family::Variational))
        {
            return Err(ctx.err(format!(
                "[prior] precision = 0 is an improper prior, but method \"{}\" ({}) needs the prior variance 1/precision; set [prior] precision > 0",
                m.id,
                m.kind.name()
            )));
        }
        if let Some(m) = methods
            .iter()
            .find(|m| matches!(m.options, Options::Softmax(o) if !o.reference_class))
        {
            return Err(ctx.err(format!(
                "[prior] precision = 0 is an improper prior, under which method \"{}\" (softmax-laplace) has no unique \
                 weights: adding one vector to every class's weights changes no probability. Set reference_class = true \
                 (class 0's weights fixed at zero) or [prior] precision > 0",
                m.id
            )));
        }
    }
    if prior.evidence {
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
    Ok(())
}
