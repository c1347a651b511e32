//! Exact posterior sampling, the gold standard the approximations are measured against, under
//! the same prior w ~ N(0, lambda^{-1} I):
//! - `gibbs-logistic`, Pólya-Gamma data augmentation (Polson, Scott & Windle 2013): with
//!   kappa = y - 1/2, omega_n | w ~ PG(1, x_n^T w) and w | omega ~ N(m, V),
//!   V^{-1} = X^T Omega X + lambda I, m = V X^T kappa: one Cholesky factor per sweep;
//! - `gibbs-probit`, Albert & Chib (1993) for P(y = 1 | w) = Phi(w^T x / beta): with the rows
//!   scaled to x / beta, z_n | w ~ N(x_n^T w, 1) truncated to the side of 0 that y_n says, and
//!   w | z ~ N(V X^T z, V), V^{-1} = X^T X + lambda I, factored once.
//!
//! Several seeded chains, started far apart, run in parallel threads; their draws give the
//! posterior and predictive, with split-R-hat and bulk ESS (model/diagnostics.rs). The
//! threads send their progress to the calling thread, which alone holds the observer: chain
//! 0's E(w) at each sweep (the trace) and, to an observer that asks, every chain's draws.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use rand::RngExt;
use rand_distr::{Distribution, Exp1, StandardNormal};

use super::diagnostics::{bulk_ess, split_rhat};
use super::logistic::LogisticObjective;
use super::method::{FitInput, Fitted, PosteriorSummary, Predictor, Probabilities};
use super::predictive::{PredictiveKind, PredictiveSettings};
use super::probit::ProbitObjective;
use super::MethodKind;
use crate::error::{Error, NumericError, Result};
use crate::numeric::glm;
use crate::numeric::linalg::{
    mat_t_vec, mat_vec, mat_vec_sequential, norm2, weighted_gram, Cholesky,
};
use crate::numeric::logistic_sums;
use crate::numeric::polya_gamma::PolyaGamma;
use crate::numeric::rng::{stream, Stream};
use crate::numeric::special::{norm_cdf, sigmoid};
use crate::optim::{DrawBatch, Iterate, Objective, Observer, Outcome, Schedule, Termination};

/// The sampled model: the Pólya-Gamma sweep needs X^T kappa (and the PG sampler's table), the
/// Albert-Chib sweep the one Cholesky factor of X^T X + lambda I.
enum Sweep {
    Logistic { xt_kappa: Vec<f64>, pg: PolyaGamma },
    Probit { factor: Cholesky },
}

/// What one chain needs; shared read-only between the chain threads.
struct Problem<'a> {
    /// The design, owned so that its columns are contiguous (probit: already divided by beta).
    x: &'a Mat<f64>,
    y: &'a [f64],
    sweep: Sweep,
    precision: f64,
    schedule: Schedule,
    seed: u64,
    id: &'a str,
    cancel: Option<&'a AtomicBool>,
}

type Draws = Vec<Vec<f64>>;

impl Problem<'_> {
    /// One step of the chain from `w`.
    fn step(&self, w: &[f64], rng: &mut Stream) -> std::result::Result<Vec<f64>, NumericError> {
        // The chains are the parallel unit: everything here stays on the chain's own core.
        let mut a = vec![0.0; self.x.nrows()];
        mat_vec_sequential(self.x, w, &mut a);
        match &self.sweep {
            Sweep::Logistic { xt_kappa, pg } => {
                let omega: Vec<f64> = a.iter().map(|&a| pg.sample(a, rng)).collect();
                let mut h = glm::weighted_gram_sequential(self.x.as_ref(), &omega);
                for i in 0..h.nrows() {
                    h[(i, i)] += self.precision;
                }
                let what = format!("precision of w | omega in {}", self.id);
                let factor = Cholesky::factor(h.as_ref(), &what)?;
                Ok(factor.sample_inverse(&factor.solve(xt_kappa), rng))
            }
            Sweep::Probit { factor } => {
                let z: Vec<f64> = a
                    .iter()
                    .zip(self.y)
                    .map(|(&m, &y)| {
                        if y == 1.0 {
                            positive_normal(m, rng)
                        } else {
                            -positive_normal(-m, rng)
                        }
                    })
                    .collect();
                Ok(factor.sample_inverse(&factor.solve(&mat_t_vec(self.x.as_ref(), &z)), rng))
            }
        }
    }

    /// One chain's kept draws (draws x D); `None` when cancelled. Every sweep goes to `feed`.
    fn chain(
        &self,
        c: usize,
        feed: &mut Feed<'_>,
    ) -> std::result::Result<Option<Draws>, NumericError> {
        let mut rng = stream(self.seed, &format!("{}/gibbs/chain{c}", self.id));
        // Over-dispersed starts, so that R-hat can see chains that have not met yet.
        let mut w: Vec<f64> = (0..self.x.ncols())
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                2.0 * z
            })
            .collect();
        let mut kept = Vec::with_capacity(self.schedule.draws);
        for sweep in 1..=self.schedule.sweeps() {
            if self.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            w = self.step(&w, &mut rng)?;
            feed.sweep(sweep, &w);
            if self.schedule.keeps(sweep) {
                kept.push(w.clone());
            }
        }
        feed.flush();
        Ok(Some(kept))
    }
}

/// What a chain thread tells the calling thread, which alone holds the observer.
enum Report {
    /// Chain 0's objective and gradient norm at each sweep: its rows of trace.csv.
    Iterates(Vec<Iterate>),
    Draws(DrawBatch),
}

/// How long a chain gathers sweeps before sending them: often enough for a live plot, and
/// at most 20 messages a second per chain however fast a sweep is.
const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// E(w) and grad E(w) for chain 0's trace, computed on the chain's own thread.
type TraceFn<'a> = dyn Fn(&[f64]) -> (f64, Vec<f64>) + Sync + 'a;

/// One chain's outbox: chain 0's iterates (E(w) and |grad E| at each draw) and, when the
/// observer wants them, every chain's draws, sent in batches.
struct Feed<'a> {
    tx: Sender<Report>,
    trace: Option<&'a TraceFn<'a>>,
    start: Instant,
    last_flush: Instant,
    iterates: Vec<Iterate>,
    batch: Option<DrawBatch>,
}

impl<'a> Feed<'a> {
    fn new(
        tx: Sender<Report>,
        chain: usize,
        schedule: Schedule,
        trace: Option<&'a TraceFn<'a>>,
        draws: bool,
    ) -> Self {
        Feed {
            tx,
            trace,
            start: Instant::now(),
            last_flush: Instant::now(),
            iterates: Vec::new(),
            batch: draws.then(|| DrawBatch {
                chain,
                schedule,
                first_sweep: 1,
                w: Vec::new(),
            }),
        }
    }

    fn sweep(&mut self, sweep: usize, w: &[f64]) {
        if let Some(trace) = self.trace {
            // One pass over the rows for both.
            let (value, gradient) = trace(w);
            self.iterates.push(Iterate {
                iteration: sweep,
                objective: value,
                grad_norm: norm2(&gradient),
                step: 1.0,
                elapsed_s: self.start.elapsed().as_secs_f64(),
            });
        }
        if let Some(batch) = &mut self.batch {
            if batch.w.is_empty() {
                batch.first_sweep = sweep;
            }
            batch.w.push(w.to_vec());
        }
        if self.last_flush.elapsed() >= FLUSH_EVERY {
            self.flush();
        }
    }

    /// Send what has gathered. A send fails only once the receiver has gone, when nobody
    /// is left to tell.
    fn flush(&mut self) {
        self.last_flush = Instant::now();
        if !self.iterates.is_empty() {
            let _ = self
                .tx
                .send(Report::Iterates(std::mem::take(&mut self.iterates)));
        }
        if let Some(batch) = self.batch.as_mut().filter(|b| !b.w.is_empty()) {
            let w = std::mem::take(&mut batch.w);
            let _ = self
                .tx
                .send(Report::Draws(DrawBatch { w, ..batch.clone() }));
        }
    }
}

pub fn fit_method(input: &FitInput<'_>, observer: &mut dyn Observer) -> Result<Fitted> {
    if input.precision <= 0.0 {
        return Err(Error::config(
            input.file,
            format!(
                "[[method]] {}: {} samples the posterior under w ~ N(0, lambda^-1 I) and needs a proper prior: set [prior] precision > 0",
                input.run(),
                input.method.kind.name()
            ),
        ));
    }
    let o = &input.method.options;
    let probit = input.method.kind == MethodKind::GibbsProbit;
    let beta = if probit { o.noise } else { 1.0 };
    // An owned copy (x / 1 = x exactly for logistic) with contiguous columns.
    let design = Mat::<f64>::from_fn(input.x.nrows(), input.x.ncols(), |i, j| {
        input.x[(i, j)] / beta
    });
    let x = design.as_ref();
    let sweep = if probit {
        let mut h = weighted_gram(x, &vec![1.0; x.nrows()]);
        for i in 0..x.ncols() {
            h[(i, i)] += input.precision;
        }
        let what = format!("X^T X + lambda I of {}", input.run());
        Sweep::Probit {
            factor: Cholesky::factor(h.as_ref(), &what)?,
        }
    } else {
        let kappa: Vec<f64> = input.y.iter().map(|y| y - 0.5).collect();
        Sweep::Logistic {
            xt_kappa: mat_t_vec(x, &kappa),
            pg: PolyaGamma::new(),
        }
    };
    let problem = Problem {
        x: &design,
        y: input.y,
        sweep,
        precision: input.precision,
        schedule: input
            .method
            .schedule()
            .expect("a Gibbs kind has a schedule"),
        seed: input.seed,
        id: input.run(),
        cancel: input.cancel,
    };
    let logistic = LogisticObjective::new(x, input.y, input.precision);
    let probit_objective = ProbitObjective::new(x, input.y, input.precision);
    let objective: &(dyn Objective + Sync) = if probit { &probit_objective } else { &logistic };
    // Chain 0's trace. The logistic pass stays on the chain's core; the probit objective's
    // pass is glm.rs's parallel one.
    let logistic_trace = |w: &[f64]| {
        let (value, gradient) = logistic_sums::value_and_gradient(&design, input.y, w);
        let (value, gradient, _) = glm::Terms {
            value,
            gradient,
            hessian: None,
        }
        .with_prior(w, input.precision);
        (value, gradient)
    };
    let probit_trace = |w: &[f64]| {
        let (value, gradient, _) = probit_objective.terms(w, false);
        (value, gradient)
    };
    let trace: &TraceFn<'_> = if probit {
        &probit_trace
    } else {
        &logistic_trace
    };
    let results = run_chains(&problem, trace, observer);
    let mut chains = Vec::with_capacity(results.len());
    for r in results {
        match r? {
            Some(c) => chains.push(c),
            None => return Ok(cancelled(input.x.ncols(), problem.schedule.sweeps())),
        }
    }
    let link = if probit {
        Link::Probit { beta }
    } else {
        Link::Logistic
    };
    let predictor = GibbsPredictor::new(chains, link);
    let mean = predictor.mean.clone();
    Ok(Fitted {
        objective: Some(objective.value(&mean)),
        weights: mean.clone(),
        outcome: Outcome {
            termination: Termination::Converged,
            iterations: problem.schedule.sweeps(),
        },
        posterior: Some(PosteriorSummary {
            mean,
            cov_diag: predictor.var.clone(),
            log_evidence: None,
        }),
        predictor: Box::new(predictor),
    })
}

/// Every chain in its own thread, each with its own seeded stream (so the draws do not
/// depend on the threads' timing); this thread passes their reports to `observer` as they
/// arrive and returns the chains' results in chain order.
fn run_chains(
    problem: &Problem<'_>,
    trace: &TraceFn<'_>,
    observer: &mut dyn Observer,
) -> Vec<std::result::Result<Option<Draws>, NumericError>> {
    let draws = observer.wants_draws();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..problem.schedule.chains)
            .map(|c| {
                let first = (c == 0).then_some(trace);
                let mut feed = Feed::new(tx.clone(), c, problem.schedule, first, draws);
                s.spawn(move || problem.chain(c, &mut feed))
            })
            .collect();
        // The loop ends when every chain has finished (or panicked) and dropped its sender.
        drop(tx);
        for report in rx {
            match report {
                Report::Iterates(iterates) => {
                    for it in &iterates {
                        observer.observe(problem.id, it);
                    }
                }
                Report::Draws(batch) => observer.draws(problem.id, &batch),
            }
        }
        let panicked = || Err(NumericError::NonFinite("a Gibbs chain panicked".into()));
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| panicked()))
            .collect()
    })
}

/// One draw from N(m, 1) truncated to (0, inf): plain rejection while that keeps at least a
/// third of the mass (m > -0.5), else Robert's (1995) exponential proposal with the optimal
/// rate alpha = (a + sqrt(a^2 + 4)) / 2 for the standardised bound a = -m.
fn positive_normal(m: f64, rng: &mut Stream) -> f64 {
    if m > -0.5 {
        loop {
            let z: f64 = StandardNormal.sample(rng);
            if m + z > 0.0 {
                return m + z;
            }
        }
    }
    let a = -m;
    let alpha = 0.5 * (a + (a * a + 4.0).sqrt());
    loop {
        let e: f64 = Exp1.sample(rng);
        let z = a + e / alpha;
        if rng.random::<f64>() <= (-0.5 * (z - alpha) * (z - alpha)).exp() {
            return m + z;
        }
    }
}

fn cancelled(d: usize, sweeps: usize) -> Fitted {
    Fitted {
        objective: None,
        weights: vec![0.0; d],
        outcome: Outcome {
            termination: Termination::Cancelled,
            iterations: sweeps,
        },
        posterior: None,
        predictor: Box::new(GibbsPredictor::new(
            vec![vec![vec![0.0; d]; 4]; 2],
            Link::Logistic,
        )),
    }
}

/// p(y = 1 | x, w): sigma(w^T x), or Phi(w^T x / beta).
#[derive(Debug, Clone, Copy)]
enum Link {
    Logistic,
    Probit { beta: f64 },
}

impl Link {
    fn p(self, a: f64) -> f64 {
        match self {
            Link::Logistic => sigmoid(a),
            Link::Probit { beta } => norm_cdf(a / beta),
        }
    }
}

/// Predictions averaged over every kept draw of every chain.
pub struct GibbsPredictor {
    link: Link,
    /// All kept draws, chain after chain (S x D).
    draws: Draws,
    pub mean: Vec<f64>,
    pub var: Vec<f64>,
    rhat_max: f64,
    ess_min: f64,
}

impl GibbsPredictor {
    fn new(chains: Vec<Draws>, link: Link) -> Self {
        let d = chains[0][0].len();
        let (mut rhat_max, mut ess_min) = (1.0f64, f64::INFINITY);
        for j in 0..d {
            let cj: Draws = chains
                .iter()
                .map(|c| c.iter().map(|w| w[j]).collect())
                .collect();
            let (r, e) = (split_rhat(&cj), bulk_ess(&cj));
            if r.is_finite() {
                rhat_max = rhat_max.max(r);
            }
            if e.is_finite() {
                ess_min = ess_min.min(e);
            }
        }
        let draws: Draws = chains.into_iter().flatten().collect();
        let s = draws.len() as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| draws.iter().map(|w| w[j]).sum::<f64>() / s)
            .collect();
        let var: Vec<f64> = (0..d)
            .map(|j| {
                draws.iter().map(|w| (w[j] - mean[j]).powi(2)).sum::<f64>() / (s - 1.0).max(1.0)
            })
            .collect();
        let ess_min = if ess_min.is_finite() { ess_min } else { s };
        GibbsPredictor {
            link,
            draws,
            mean,
            var,
            rhat_max,
            ess_min,
        }
    }

    /// p(y = 1 | x_n, w_s) for every test row n and draw s, as rows.
    fn row_probabilities(&self, x: MatRef<'_, f64>) -> Draws {
        let w = Mat::<f64>::from_fn(x.ncols(), self.draws.len(), |j, s| self.draws[s][j]);
        let a = x * &w;
        (0..x.nrows())
            .map(|n| {
                (0..self.draws.len())
                    .map(|s| self.link.p(a[(n, s)]))
                    .collect()
            })
            .collect()
    }
}

impl Predictor for GibbsPredictor {
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        _: PredictiveSettings,
        _: &mut Stream,
    ) -> Probabilities {
        Probabilities::Binary(match kind {
            PredictiveKind::Plugin => mat_vec(x, &self.mean)
                .into_iter()
                .map(|a| self.link.p(a))
                .collect(),
            _ => self
                .row_probabilities(x)
                .iter()
                .map(|p| p.iter().sum::<f64>() / p.len() as f64)
                .collect(),
        })
    }

    /// sd over draws of p(y = 1 | x, w_s) divided by sqrt(ESS), with the smallest bulk ESS of
    /// the weights standing in for the row's own (conservative: a prediction mixes at least as
    /// fast as the slowest weight direction, in practice).
    fn mcse(&self, kind: PredictiveKind, x: MatRef<'_, f64>) -> Option<Vec<f64>> {
        if kind != PredictiveKind::Exact {
            return None;
        }
        let ess = self.ess_min.max(1.0);
        let sd_over = |p: &Vec<f64>| {
            let m = p.iter().sum::<f64>() / p.len() as f64;
            let v =
                p.iter().map(|q| (q - m).powi(2)).sum::<f64>() / (p.len() as f64 - 1.0).max(1.0);
            (v / ess).sqrt()
        };
        Some(self.row_probabilities(x).iter().map(sd_over).collect())
    }

    fn diagnostics(&self) -> Option<(f64, f64)> {
        Some((self.rhat_max, self.ess_min))
    }
}

/// For the tests: one `[[method]]` of `kind` with the `extra` keys (its data file is not read).
#[cfg(test)]
fn test_method(kind: &str, extra: &str) -> crate::config::MethodPlan {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = format!("[data]\npath = \"../datasets/pima.csv\"\ntarget = \"y\"\n\n[[method]]\nkind = \"{kind}\"\n{extra}\n");
    crate::config::parse(&text, &root.join("experiments/t.toml"))
        .unwrap()
        .methods
        .remove(0)
}

/// For the tests: the fit input of `method` on binary rows `x`, `y` with an intercept first.
#[cfg(test)]
fn test_input<'a>(
    method: &'a crate::config::MethodPlan,
    (x, y): (MatRef<'a, f64>, &'a [f64]),
    columns: &'a [String],
    precision: f64,
    seed: u64,
) -> FitInput<'a> {
    FitInput {
        file: std::path::Path::new("t.toml"),
        method,
        precision,
        seed,
        x,
        y,
        classes: 2,
        intercept: true,
        columns,
        cancel: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan with one gibbs-logistic method.
    fn method(extra: &str) -> crate::config::MethodPlan {
        test_method("gibbs-logistic", extra)
    }

    #[test]
    fn two_weight_posterior_matches_grid_integration() {
        // 30 rows, intercept + one feature, lambda = 1: the exact posterior moments by a
        // 400 x 400 grid over +-6 posterior sd, against the pooled Gibbs draws within 5 MCSE.
        let x = Mat::<f64>::from_fn(30, 2, |i, j| {
            if j == 0 {
                1.0
            } else {
                ((i as f64) * 0.61).sin() * 1.7
            }
        });
        let y: Vec<f64> = (0..30)
            .map(|i| f64::from(u8::from((i * 7 + 3) % 5 < 2 || i % 6 == 0)))
            .collect();
        let m = method("chains = 4\ndraws = 2000\nburn_in = 200");
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let input = test_input(&m, (x.as_ref(), &y), &cols, 1.0, 5);
        let fit = fit_method(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
        let post = fit.posterior.unwrap();
        let obj = LogisticObjective::new(x.as_ref(), &y, 1.0);
        let (n, half) = (400, 4.0);
        let h = 2.0 * half / n as f64;
        let (mut z, mut m1, mut m2) = (0.0, [0.0; 2], [0.0; 2]);
        let centre = &post.mean;
        let e0 = obj.value(centre);
        for i in 0..n {
            for k in 0..n {
                let w = [
                    centre[0] - half + (i as f64 + 0.5) * h,
                    centre[1] - half + (k as f64 + 0.5) * h,
                ];
                let p = (e0 - obj.value(&w)).exp();
                z += p;
                for j in 0..2 {
                    m1[j] += p * w[j];
                    m2[j] += p * w[j] * w[j];
                }
            }
        }
        let (d_rhat, ess) = fit.predictor.diagnostics().unwrap();
        assert!(d_rhat < 1.01, "R-hat {d_rhat}");
        for j in 0..2 {
            let mean = m1[j] / z;
            let var = m2[j] / z - mean * mean;
            let mcse = (var / ess).sqrt();
            assert!(
                (post.mean[j] - mean).abs() < 5.0 * mcse,
                "w{j}: {} vs {mean} (mcse {mcse})",
                post.mean[j]
            );
            assert!(
                (post.cov_diag[j] / var - 1.0).abs() < 0.1,
                "var w{j}: {} vs {var}",
                post.cov_diag[j]
            );
        }
    }

    /// Every iterate and draw batch a sampler reports.
    #[derive(Default)]
    struct Collect {
        iterates: Vec<Iterate>,
        batches: Vec<DrawBatch>,
    }

    impl Observer for Collect {
        fn observe(&mut self, _run: &str, iterate: &Iterate) {
            self.iterates.push(iterate.clone());
        }
        fn wants_draws(&self) -> bool {
            true
        }
        fn draws(&mut self, _run: &str, batch: &DrawBatch) {
            self.batches.push(batch.clone());
        }
    }

    #[test]
    fn the_draws_sent_to_observers_are_the_draws_the_posterior_is_made_of() {
        let x = Mat::<f64>::from_fn(30, 2, |i, j| {
            if j == 0 {
                1.0
            } else {
                ((i as f64) * 0.37).cos() * 1.3
            }
        });
        let y: Vec<f64> = (0..30).map(|i| f64::from(u8::from(i % 3 != 0))).collect();
        let m = method("chains = 3\ndraws = 40\nburn_in = 7\nthin = 3");
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let input = test_input(&m, (x.as_ref(), &y), &cols, 1.0, 11);
        let mut seen = Collect::default();
        let fit = fit_method(&input, &mut seen).unwrap();
        // Per chain: every sweep 1..=7 + 40 * 3 once, in order, and the kept ones at
        // sweeps 8, 11, ..., 125.
        let mut chains: Vec<Draws> = vec![Vec::new(); 3];
        let mut states: Vec<Draws> = vec![Vec::new(); 3];
        for b in &seen.batches {
            assert_eq!(
                b.first_sweep,
                states[b.chain].len() + 1,
                "chain {}",
                b.chain
            );
            let kept_sweeps: Vec<usize> = b.sweeps().filter(|s| s.2).map(|s| s.0).collect();
            assert!(kept_sweeps.iter().all(|n| n >= &8 && (n - 8) % 3 == 0));
            states[b.chain].extend(b.w.iter().cloned());
            chains[b.chain].extend(b.kept().map(<[f64]>::to_vec));
        }
        assert!(states.iter().all(|c| c.len() == 127));
        assert!(chains.iter().all(|c| c.len() == 40));
        // The posterior moments and R-hat, recomputed from the forwarded draws alone.
        let pooled: Draws = chains.iter().flatten().cloned().collect();
        let s = pooled.len() as f64;
        let post = fit.posterior.as_ref().unwrap();
        for j in 0..2 {
            let mean = pooled.iter().map(|w| w[j]).sum::<f64>() / s;
            let var = pooled.iter().map(|w| (w[j] - mean).powi(2)).sum::<f64>() / (s - 1.0);
            assert_eq!(post.mean[j], mean, "w{j}");
            assert_eq!(post.cov_diag[j], var, "w{j}");
        }
        let rhat = (0..2)
            .map(|j| {
                let cj: Draws = chains
                    .iter()
                    .map(|c| c.iter().map(|w| w[j]).collect())
                    .collect();
                split_rhat(&cj)
            })
            .fold(1.0, f64::max);
        assert_eq!(fit.predictor.diagnostics().unwrap().0, rhat);
        // Chain 0's iterates are E(w) and |grad E(w)| at its own draws, sweep by sweep (the
        // trace's sequential pass sums in another order than the objective's: to rounding).
        let obj = LogisticObjective::new(x.as_ref(), &y, 1.0);
        assert_eq!(seen.iterates.len(), 127);
        for (it, w) in seen.iterates.iter().zip(&states[0]) {
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-13 * b.abs().max(1.0);
            assert!(
                close(it.objective, obj.value(w)),
                "E at sweep {}",
                it.iteration
            );
            let g = norm2(&obj.gradient(w));
            assert!(close(it.grad_norm, g), "|g| at sweep {}", it.iteration);
        }
        // An observer that does not ask for draws gets the same fit.
        let quiet = fit_method(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
        assert_eq!(quiet.posterior.unwrap().mean, post.mean);
    }

    #[test]
    fn short_chains_from_far_apart_have_a_larger_rhat_than_long_ones() {
        let x = Mat::<f64>::from_fn(40, 2, |i, j| {
            if j == 0 {
                1.0
            } else {
                (i as f64 - 20.0) / 10.0
            }
        });
        let y: Vec<f64> = (0..40).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let rhat = |draws: usize| {
            let m = method(&format!("chains = 4\ndraws = {draws}\nburn_in = 0"));
            let input = test_input(&m, (x.as_ref(), &y), &cols, 0.01, 2);
            fit_method(&input, &mut |_: &str, _: &Iterate| {})
                .unwrap()
                .predictor
                .diagnostics()
                .unwrap()
                .0
        };
        let (short, long) = (rhat(4), rhat(2000));
        assert!(short > long, "{short} vs {long}");
        assert!(long < 1.01, "{long}");
    }
}

#[cfg(test)]
mod probit_tests {
    use super::*;
    use crate::numeric::rng::stream;

    #[test]
    fn albert_chib_agrees_with_probit_laplace_on_a_large_well_conditioned_problem() {
        // 3,000 rows, an intercept and two independent standard-normal features, labels from
        // the probit model itself under lambda = 1: the posterior is close to Gaussian
        // (Bernstein-von Mises), so the Laplace approximation's means and sds must match the
        // exact sampler's up to the sampler's Monte-Carlo error (about 1/sqrt(ESS) = 0.03 sd
        // for the means here, half that relative for the sds).
        let n = 3000;
        let mut rng = stream(21, "albert-chib/data");
        let x = Mat::<f64>::from_fn(n, 3, |_, j| {
            if j == 0 {
                1.0
            } else {
                StandardNormal.sample(&mut rng)
            }
        });
        let w = [-0.3, 0.8, -0.5];
        let y: Vec<f64> = (0..n)
            .map(|i| {
                let a: f64 = (0..3).map(|j| x[(i, j)] * w[j]).sum();
                f64::from(u8::from(rng.random::<f64>() < norm_cdf(a)))
            })
            .collect();
        let cols = vec!["intercept".to_string(), "a".to_string(), "b".to_string()];
        let posterior = |kind: &str, extra: &str| {
            let m = test_method(kind, extra);
            let input = test_input(&m, (x.as_ref(), &y), &cols, 1.0, 8);
            let fit = crate::model::method::fit(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
            if let Some((rhat, ess)) = fit.predictor.diagnostics() {
                assert!(rhat < 1.01 && ess > 500.0, "R-hat {rhat}, ESS {ess}");
            }
            fit.posterior.unwrap()
        };
        let gold = posterior("gibbs-probit", "draws = 1000\nburn_in = 200");
        let laplace = posterior("probit-laplace", "");
        for j in 0..3 {
            let sd = gold.cov_diag[j].sqrt();
            let error = (laplace.mean[j] - gold.mean[j]).abs() / sd;
            let ratio = laplace.cov_diag[j].sqrt() / sd;
            // measured: errors 0.040, 0.011, 0.061 sd; ratios 0.997, 1.007, 0.990
            assert!(error < 0.12, "w{j}: mean off by {error} gold sds");
            assert!((ratio - 1.0).abs() < 0.04, "w{j}: sd ratio {ratio}");
        }
    }

    #[test]
    fn truncated_normal_moments_match_the_closed_form() {
        // E[Z | Z > 0] for Z ~ N(m, 1) is m + phi(m) / Phi(m) (the inverse Mills ratio), in both
        // the rejection (m > -0.5) and the exponential-proposal (m <= -0.5) regimes.
        for m in [1.0, 0.0, -0.4, -0.6, -3.0, -8.0] {
            let mut rng = stream(4, &format!("tn{m}"));
            let n = 40_000;
            let draws: Vec<f64> = (0..n).map(|_| positive_normal(m, &mut rng)).collect();
            assert!(draws.iter().all(|&z| z > 0.0));
            let mean = draws.iter().sum::<f64>() / n as f64;
            let want = m + crate::numeric::special::inv_mills(m);
            let var = draws.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / n as f64;
            assert!(
                (mean - want).abs() < 5.0 * (var / n as f64).sqrt(),
                "m = {m}: {mean} vs {want}"
            );
        }
    }
}
