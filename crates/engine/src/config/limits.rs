//! Upper bounds on the count keys, and the ranges of the scale keys ([`NOISE_RANGE`],
//! [`WIDTH_RANGE`]). A count is refused, naming the key, its value and the largest
//! value this machine can run, when what it allocates (bytes per unit, from the code that uses it)
//! would pass [`MEMORY_BUDGET_BYTES`], when it would start more threads than [`MAX_CHAINS`], or
//! when a product of counts would pass [`MAX_SWEEPS`] — so no product of user numbers overflows.

use super::ctx::Ctx;
use bayeslab_core::error::Result;
pub use bayeslab_data::plan::{MAX_DESIGN_COLUMNS, MEMORY_BUDGET_BYTES};

/// Gibbs runs every chain in its own thread at once; R-hat needs a handful.
pub const MAX_CHAINS: u64 = 64;

/// Sweeps per Gibbs chain (burn_in + draws x thin): 10^8 sweeps take minutes on a single row.
pub const MAX_SWEEPS: u64 = 100_000_000;

/// Rows per streamed chunk: 2^32 rows at the smallest working set (over 100 bytes a row) are
/// 400 GiB, beyond any machine, and keep `chunk_rows x bytes per row` far inside a u64.
pub const MAX_CHUNK_ROWS: u64 = 1 << 32;

/// The largest value of a key and why, for the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    pub max: u64,
    pub why: String,
}

fn budget_mib() -> u64 {
    MEMORY_BUDGET_BYTES >> 20
}

/// A count whose every `unit` holds `bytes_per_unit` bytes at once.
fn memory(bytes_per_unit: u64, unit: &str, what: &str) -> Bound {
    Bound {
        max: MEMORY_BUDGET_BYTES / bytes_per_unit.max(1),
        why: format!(
            "{what}: {bytes_per_unit} bytes per {unit} within the memory budget of {} MiB",
            budget_mib()
        ),
    }
}

/// The threads the Monte-Carlo predictive and k-hat draw on at once.
fn threads() -> u64 {
    rayon::current_num_threads().max(1) as u64
}

/// `mc_samples`: each of the predictive's parallel blocks holds its S standard normals.
pub fn mc_samples() -> Bound {
    let t = threads();
    memory(
        8 * t,
        "sample",
        &format!(
            "the Monte-Carlo predictive holds every sample (8 bytes) in each of its {t} threads"
        ),
    )
}

/// The most calibration bins a run may use, and so the most `compare` accepts from a
/// results.json: every resample's ECE walks every bin.
pub const MAX_BINS: u64 = 100_000;

/// The fewest bootstrap resamples (a run's ECE interval, `baseline`, `compare --resamples`):
/// the 2.5 % and 97.5 % percentiles of fewer resampled values are a couple of draws each, too
/// few to call a difference improved or worse.
pub const MIN_RESAMPLES: u64 = 100;

/// Iterations of one fit (`max_iter`): the trace keeps every iterate (about 40 bytes in memory,
/// a line of trace.csv), and every iteration costs at least a pass over the training rows; the
/// driver's stall check (optim/driver.rs) ends a fit that stops progressing long before.
pub const MAX_ITER: u64 = 1_000_000;

/// `bench --reps`: repetitions of each task, of which the median is reported.
pub const MAX_REPS: u64 = 1_000;

/// `max_iter` of every iterative kind.
pub fn max_iter() -> Bound {
    Bound {
        max: MAX_ITER,
        why: "the trace keeps every iterate and each costs a pass over the training rows; \
              a fit that stops progressing ends by itself (no-progress)"
            .into(),
    }
}

/// A count of which each unit makes at least one design column (`per_unit` says how), and
/// `extra` more units than columns (a categorical column's reference level makes none).
pub fn design_columns(per_unit: &str, extra: u64) -> Bound {
    Bound {
        max: MAX_DESIGN_COLUMNS + extra,
        why: format!(
            "{per_unit}, and a design has at most {MAX_DESIGN_COLUMNS} columns (its columns x columns \
             covariance within the memory budget of {} MiB)",
            budget_mib()
        ),
    }
}

/// `bench --threads`: more threads than a few per core measure only the scheduler.
pub fn bench_threads(cores: usize) -> Bound {
    Bound {
        max: 4 * cores.max(1) as u64,
        why: format!("this machine has {cores} logical cores, and more than 4 threads per core only measure the scheduler"),
    }
}

/// `bench --reps`.
pub fn reps() -> Bound {
    Bound {
        max: MAX_REPS,
        why: "each repetition reruns the whole task, and the median of 1000 no longer moves".into(),
    }
}

/// A count given as the command-line flag `flag`: `v` when `min <= v <= bound.max`, else the
/// flag, the value, the limit and why (exit code 2), before any work is done.
pub fn flag(flag: &str, v: u64, min: u64, bound: Bound) -> Result<usize> {
    let refuse = |message: String| {
        Err(bayeslab_core::error::Error::Config {
            file: flag.into(),
            message,
        })
    };
    if v < min {
        return refuse(format!("{v} is too few: at least {min}"));
    }
    if v > bound.max {
        return refuse(format!(
            "{v} is too large; at most {}, as {}",
            bound.max, bound.why
        ));
    }
    Ok(v as usize)
}

/// The most bootstrap resamples (a run's ECE interval, `baseline`, `compare --resamples`): the
/// 2.5 % and 97.5 % percentiles of a million resampled differences no longer move beyond
/// Monte-Carlo noise of a thousandth of the interval.
pub const MAX_RESAMPLES: u64 = 1_000_000;

/// The smaller of two bounds, with the reason of the one that binds.
fn capped(b: Bound, max: u64, why: &str) -> Bound {
    if b.max <= max {
        b
    } else {
        Bound {
            max,
            why: why.to_string(),
        }
    }
}

/// `[evaluation] calibration_bins`: the bin edges, sums and summary of every bin, and at most
/// [`MAX_BINS`] so that `compare` reads every run back.
pub fn calibration_bins() -> Bound {
    let mem = memory(
        80,
        "bin",
        "the reliability table keeps about ten numbers per bin",
    );
    capped(
        mem,
        MAX_BINS,
        "every bootstrap resample walks every bin, and compare reads at most this many",
    )
}

/// `[evaluation] resamples`: the bootstrap keeps one ECE (and `baseline` one row of indices)
/// per resample, and beyond [`MAX_RESAMPLES`] its interval no longer moves.
pub fn resamples() -> Bound {
    let mem = memory(8, "resample", "the bootstrap keeps one value per resample");
    capped(
        mem,
        MAX_RESAMPLES,
        "beyond this many resamples the 95 % interval no longer moves",
    )
}

/// `[evaluation] khat_draws`: the D x S matrix of draws plus three numbers per draw (D >= 1).
pub fn khat_draws() -> Bound {
    memory(
        32,
        "draw",
        "k-hat holds every draw's weights (at least one) and three more numbers per draw",
    )
}

/// lognormal-gini `draws`: the exact and the approximate draws of G.
pub fn gini_draws() -> Bound {
    memory(
        16,
        "draw",
        "lognormal-gini keeps an exact and an approximate draw of G",
    )
}

/// Gibbs `chains`: one thread each.
pub fn chains() -> Bound {
    Bound {
        max: MAX_CHAINS,
        why: "every chain runs in its own thread at once".into(),
    }
}

/// Gibbs `draws`: every chain keeps its draws (at least one weight each).
pub fn draws(chains: u64) -> Bound {
    memory(
        8 * chains.max(1),
        "draw",
        &format!("each of the {chains} chains keeps every draw (at least one weight, 8 bytes)"),
    )
}

/// Gibbs `burn_in` + `draws` x `thin`, the sweeps of one chain.
fn sweeps() -> Bound {
    Bound {
        max: MAX_SWEEPS,
        why: format!("burn_in + draws x thin sweeps per chain must stay within {MAX_SWEEPS}"),
    }
}

/// Starts of mixture-laplace's mode search: each is a Newton search of its own, run one after
/// another; 10,000 (500 times the default) cover any posterior with a handful of modes.
pub const MAX_STARTS: u64 = 10_000;

/// mixture-laplace `starts`.
pub fn starts() -> Bound {
    Bound {
        max: MAX_STARTS,
        why: "each start is a Newton search of its own, run one after another (20 by default)"
            .into(),
    }
}

/// `[data] chunk_rows`.
pub fn chunk_rows() -> Bound {
    Bound {
        max: MAX_CHUNK_ROWS,
        why: "a chunk of more rows needs over 400 GiB; a chunk is read into memory whole".into(),
    }
}

/// EP/ADF/Gibbs probit `noise` beta, in the units of the activation w^T x (about 1 on
/// standardised features): below 1e-6 the probit is a step and EP's sites overflow (pima fails
/// at 1e-8), above 1e6 the likelihood is flat to within 1e-6 and the posterior is the prior
/// (beta^2 overflows past 1e154).
pub const NOISE_RANGE: (f64, f64) = (1e-6, 1e6);

/// RBF `width`, in the design's units (standard deviations under standardize = true): below
/// 1e-6 every column is 0 off its own centre (2 width^2 underflows to 0 by 1e-162 and the map
/// divides 0 by 0), above 1e6 every column is 1 to within 1e-12.
pub const WIDTH_RANGE: (f64, f64) = (1e-6, 1e6);

impl Ctx<'_> {
    /// `v` when it lies in `range`; otherwise the key, the value, the range and `why`.
    pub(super) fn in_range(&self, key: &str, v: f64, range: (f64, f64), why: &str) -> Result<f64> {
        let (lo, hi) = range;
        if !(lo..=hi).contains(&v) {
            return Err(self.err(format!(
                "{key} = {v:e}: must be between {lo:e} and {hi:e}; {why}"
            )));
        }
        Ok(v)
    }

    /// `v` when `min <= v <= bound.max`; otherwise the key, the value and the limit.
    pub(super) fn bounded(&self, key: &str, v: u64, min: u64, bound: Bound) -> Result<usize> {
        if v > bound.max {
            return Err(self.err(format!(
                "{key} = {v}: too large; at most {}, as {}",
                bound.max, bound.why
            )));
        }
        self.count(key, v, min)
    }

    /// Gibbs sweeps per chain, checked as a product: `burn_in + draws x thin`.
    pub(super) fn sweeps(&self, at: &str, burn_in: u64, draws: u64, thin: u64) -> Result<()> {
        let bound = sweeps();
        let total = draws.checked_mul(thin).and_then(|d| d.checked_add(burn_in));
        match total {
            Some(t) if t <= bound.max => Ok(()),
            _ => {
                let largest_thin = bound.max.saturating_sub(burn_in) / draws.max(1);
                Err(self.err(format!(
                    "{at} burn_in = {burn_in}, draws = {draws}, thin = {thin}: too many sweeps; {}, \
                     so with these draws and burn_in thin is at most {largest_thin}",
                    bound.why
                )))
            }
        }
    }
}

/// Steps of the ECE bootstrap: each of `resamples` draws every test row and fills every bin,
/// and 10^10 steps take minutes on one core.
pub const BOOTSTRAP_STEPS: u64 = 10_000_000_000;

/// The bounds that depend on the data, once its `design` columns and `test_rows` are known:
/// k-hat holds a D x S matrix of draws (plus three numbers per draw), each Gibbs chain keeps D
/// weights per draw, and the bootstrap takes resamples x (test rows + bins) steps. Only keys
/// the experiment sets are checked (k-hat's default scales with the data).
pub fn check_design(plan: &super::Plan, design: usize, test_rows: usize) -> Result<()> {
    let e = &plan.evaluation;
    let per_resample = (test_rows + e.calibration_bins) as u64;
    let max = BOOTSTRAP_STEPS / per_resample.max(1);
    if e.resamples as u64 > max {
        return Err(bayeslab_core::error::Error::config(
            &plan.file,
            format!(
                "[evaluation] resamples = {}: too many for {test_rows} test rows and {} calibration bins; at most {max}, \
                 as each resample draws every test row and fills every bin, {BOOTSTRAP_STEPS} steps in all at most \
                 (minutes on one core); lower resamples or calibration_bins",
                e.resamples, e.calibration_bins
            ),
        ));
    }
    let d = design.max(1) as u64;
    let too_large = |key: String, v: usize, max: u64, why: String| {
        Err(bayeslab_core::error::Error::config(
            &plan.file,
            format!(
                "{key} = {v}: too large for the {design} design columns; at most {max}, as {why} \
                 within the memory budget of {} MiB",
                budget_mib()
            ),
        ))
    };
    for (key, draws, what) in [
        ("khat_draws", plan.evaluation.khat_draws, "k-hat"),
        (
            "evidence_draws",
            plan.evaluation.evidence_draws,
            "the evidence estimate",
        ),
    ] {
        let Some(s) = draws else { continue };
        let bytes = 8 * (d + 3);
        let max = MEMORY_BUDGET_BYTES / bytes;
        if s as u64 > max {
            let why =
                format!("{what} holds {d} weights and 3 more numbers per draw ({bytes} bytes)");
            return too_large(format!("[evaluation] {key}"), s, max, why);
        }
    }
    for (i, m) in plan.methods.iter().enumerate() {
        let Some(s) = m.schedule() else { continue };
        let bytes = 8 * d * s.chains as u64;
        let max = MEMORY_BUDGET_BYTES / bytes;
        if s.draws as u64 > max {
            let key = format!("[[method]] #{} (id \"{}\") draws", i + 1, m.id);
            let why = format!(
                "each of the {} chains keeps {d} weights per draw ({bytes} bytes a draw in all)",
                s.chains
            );
            return too_large(key, s.draws, max, why);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_bounds_divide_the_budget_by_the_bytes_per_unit() {
        assert_eq!(
            resamples().max,
            MAX_RESAMPLES,
            "1e6 binds before (512 MiB) / 8"
        );
        assert_eq!(
            calibration_bins().max,
            MAX_BINS,
            "1e5 binds before (512 MiB) / 80"
        );
        assert_eq!(gini_draws().max, (512 << 20) / 16);
        assert_eq!(mc_samples().max, (512 << 20) / (8 * threads()));
        // The largest count times its bytes per unit is within the budget, one more is not.
        let b = draws(4);
        assert!(b.max * 32 <= MEMORY_BUDGET_BYTES && (b.max + 1) * 32 > MEMORY_BUDGET_BYTES);
    }
}
