//! One experiment job as the workbench sees it: the plan, the live trace of every method
//! (and every chain of a sampler), the dataset view and, once finished, the record every
//! results screen is a view of.

use bayeslab_core::catalog::Fitting;
use bayeslab_core::optim::Iterate;
use bayeslab_core::record::{
    DatasetInfo, Diagnostics, EvidenceEstimate, ExperimentRecord, RunRecord, SweepRecord,
};
use bayeslab_engine::config::Plan;

use super::chains::ChainTraces;
use super::passes::Passes;
use bayeslab_engine::run::{Event, SweepAt};

#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    Running,
    Finished,
    Cancelled,
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum RunState {
    Pending,
    Running,
    /// Finished with this termination (`converged`, `max-iterations`, ...).
    Done(String),
    Failed(String),
}

/// One method's live view: its budget and every iterate seen so far.
#[derive(Debug, Clone)]
pub struct LiveRun {
    pub id: String,
    /// How its kind fits: what the gauge says it did once done.
    pub fitting: Fitting,
    /// What its iterates' objective is (E(w), −ln Z_EP, −ELBO, −JJ bound): the Live chart
    /// shows one kind at a time.
    pub objective: bayeslab_report::plots::Objective,
    /// Iterations allowed; for a sampler, the sweeps per chain.
    pub max_iter: usize,
    pub tolerance: f64,
    pub state: RunState,
    pub iterates: Vec<Iterate>,
    /// The Monte-Carlo predictive's mean estimate against the number of samples.
    pub mc: Vec<(f64, f64)>,
    /// A sampler's chains, from its first draws on.
    pub traces: Option<ChainTraces>,
    /// A finished sampler's R-hat and ESS over all weights, as the record has them.
    pub diagnostics: Option<Diagnostics>,
    /// The draws of the k-hat being computed now, after the fit (the gauge says so instead of
    /// leaving the last iteration on show).
    pub khat_draws: Option<usize>,
    /// While the run's leave-one-out cross-validation runs: its draws, rows and refit.
    pub loo: Option<LooProgress>,
    /// Under `[prior] precision = "evidence"`, once done: the lambda its evidence chose.
    pub evidence_lambda: Option<f64>,
    /// Set when that lambda is an end of the search's grid (record/run.rs `GridEdge`).
    pub evidence_edge: Option<bayeslab_core::record::GridEdge>,
    /// While ln p(y | X) is estimated around this run's Gaussian: the model and the draws
    /// (after every fit, so the gauge would otherwise look idle).
    pub evidence_draws: Option<(String, usize)>,
    /// The estimate of ln p(y | X) built around this run's Gaussian, once done.
    pub estimate: Option<EvidenceEstimate>,
}

impl LiveRun {
    /// Progress in [0, 1]: the larger of the share of the iteration budget used and the
    /// distance travelled from the first gradient norm towards the tolerance on a log scale
    /// (Newton converges in a handful of its 100 allowed iterations, so the budget alone
    /// would sit near zero until the gauge jumps to full).
    pub fn ratio(&self) -> f64 {
        match self.state {
            RunState::Pending => return 0.0,
            RunState::Done(_) | RunState::Failed(_) => return 1.0,
            RunState::Running => {}
        }
        if let Some(t) = &self.traces {
            return (t.sweeps() as f64 / t.schedule.sweeps().max(1) as f64).clamp(0.0, 1.0);
        }
        let (Some(first), Some(last)) = (self.iterates.first(), self.iterates.last()) else {
            return 0.0;
        };
        let budget = last.iteration as f64 / self.max_iter.max(1) as f64;
        let span = (first.grad_norm / self.tolerance).log10();
        let gone = (first.grad_norm / last.grad_norm).log10();
        let towards = if span > 0.0 && gone.is_finite() {
            gone / span
        } else {
            0.0
        };
        budget.max(towards).clamp(0.0, 1.0)
    }
}

/// How far a run's leave-one-out cross-validation has got.
#[derive(Debug, Clone, PartialEq)]
pub struct LooProgress {
    pub draws: usize,
    pub rows: usize,
    /// (training row, refits done, refits in all) while a row is refitted.
    pub refit: Option<(usize, usize, usize)>,
}

#[derive(Debug, Clone)]
pub struct Session {
    pub job: u64,
    pub plan: Plan,
    pub state: JobState,
    pub dataset: Option<DatasetInfo>,
    pub runs: Vec<LiveRun>,
    /// The record the results screens show: the run's, or for a sweep the shown point's.
    pub record: Option<ExperimentRecord>,
    /// A streamed run's passes over its data file (of the current sweep point).
    pub passes: Passes,
    /// `[sweep]`: the point running now (or last).
    pub point: Option<SweepAt>,
    /// `[sweep]`, once finished: every point's record.
    pub sweep: Option<SweepRecord>,
    /// `[sweep]`: the point whose record is in `record`.
    pub shown: usize,
}

impl Session {
    pub fn new(job: u64, plan: Plan) -> Session {
        let runs = plan
            .methods
            .iter()
            .map(|m| LiveRun {
                id: m.id.clone(),
                fitting: m.kind.fitting(),
                objective: bayeslab_report::plots::Objective::of_kind(m.kind),
                max_iter: m.schedule().map_or(m.max_iter, |s| s.sweeps()),
                tolerance: m.tolerance,
                state: RunState::Pending,
                iterates: Vec::new(),
                mc: Vec::new(),
                traces: None,
                diagnostics: None,
                khat_draws: None,
                loo: None,
                evidence_lambda: None,
                evidence_edge: None,
                evidence_draws: None,
                estimate: None,
            })
            .collect();
        Session {
            job,
            plan,
            state: JobState::Running,
            dataset: None,
            runs,
            record: None,
            passes: Passes::default(),
            point: None,
            sweep: None,
            shown: 0,
        }
    }

    pub fn running(&self) -> bool {
        self.state == JobState::Running
    }

    fn run_mut(&mut self, id: &str) -> Option<&mut LiveRun> {
        self.runs.iter_mut().find(|r| r.id == id)
    }

    pub fn apply(&mut self, event: Event) {
        match event {
            // the status line says it (App::update)
            Event::Reading { .. } | Event::Scoring { .. } | Event::Slicing { .. } => {}
            Event::DataLoaded(view) => self.dataset = Some(*view),
            Event::RunStarted { id, .. } => {
                if let Some(r) = self.run_mut(&id) {
                    r.state = RunState::Running;
                    r.iterates.clear();
                    r.mc.clear();
                    r.traces = None;
                    r.diagnostics = None;
                    r.khat_draws = None;
                    r.loo = None;
                    r.evidence_lambda = None;
                    r.evidence_draws = None;
                    r.estimate = None;
                }
            }
            Event::Iterate { run, iterate } => {
                if let Some(r) = self.run_mut(&run) {
                    r.iterates.push(iterate);
                }
            }
            Event::Draws {
                run,
                columns: weights,
                batch,
            } => {
                let columns = self.dataset.as_ref().map(|d| d.columns.as_slice());
                let name = |j: usize| {
                    columns
                        .and_then(|c| c.get(j).cloned())
                        .unwrap_or_else(|| format!("w{j}"))
                };
                let weights =
                    weights.unwrap_or_else(|| (0..batch.w.first().map_or(0, Vec::len)).collect());
                let names: Vec<String> = weights.into_iter().map(name).collect();
                if let Some(r) = self.run_mut(&run) {
                    r.traces
                        .get_or_insert_with(|| ChainTraces::new(batch.schedule, names))
                        .push(&batch);
                }
            }
            Event::RunFinished(run) => self.finish_run(&run),
            Event::KhatStarted { run, draws } => {
                if let Some(r) = self.run_mut(&run) {
                    r.khat_draws = Some(draws);
                }
            }
            Event::KhatFinished { run, .. } => {
                if let Some(r) = self.run_mut(&run) {
                    r.khat_draws = None;
                }
            }
            Event::LooStarted { run, draws, rows } => {
                if let Some(r) = self.run_mut(&run) {
                    let refit = None;
                    r.loo = Some(LooProgress { draws, rows, refit });
                }
            }
            Event::LooRefit {
                run,
                row,
                done,
                total,
            } => {
                if let Some(p) = self.run_mut(&run).and_then(|r| r.loo.as_mut()) {
                    p.refit = Some((row, done, total));
                }
            }
            Event::LooFinished { run, .. } => {
                if let Some(r) = self.run_mut(&run) {
                    r.loo = None;
                }
            }
            Event::EvidenceStarted {
                model,
                proposal,
                draws,
            } => {
                if let Some(r) = self.run_mut(&proposal) {
                    r.evidence_draws = Some((model.name().to_string(), draws));
                }
            }
            Event::EvidenceFinished(e) => {
                if let Some(r) = self.run_mut(&e.proposal) {
                    r.evidence_draws = None;
                    r.estimate = Some(*e);
                }
            }
            Event::McEstimate { run, samples, mean } => {
                if let Some(r) = self.run_mut(&run) {
                    r.mc.push((samples as f64, mean));
                }
            }
            Event::SweepPoint(at) => self.start_point(at),
            Event::Pass(pass) => self.passes.progress(pass),
            Event::PassFinished(pass) => self.passes.finish(*pass),
        }
    }

    pub(super) fn finish_run(&mut self, run: &RunRecord) {
        let state = match (&run.error, run.termination) {
            (Some(e), _) => RunState::Failed(e.clone()),
            (None, Some(t)) => RunState::Done(t.name().to_string()),
            (None, None) => RunState::Failed("no result".into()),
        };
        if let Some(r) = self.run_mut(&run.id) {
            r.state = state;
            r.diagnostics = run.diagnostics;
            r.evidence_lambda = run
                .prior_precision
                .filter(|_| !run.evidence_curve.is_empty());
            r.evidence_edge = run.prior_precision_edge;
            // Every draw has arrived: the live R-hat ends on all of them.
            if let Some(t) = &mut r.traces {
                t.update_rhat();
            }
        }
    }

    /// The sampler run whose chains the Live screen shows: `pick` when it is a sampler with
    /// draws, else the sampler running now, else the last sampler with draws.
    pub fn traced_run(&self, pick: Option<usize>) -> Option<usize> {
        let sampled = |i: &usize| self.runs.get(*i).is_some_and(|r| r.traces.is_some());
        pick.filter(sampled)
            .or_else(|| {
                (0..self.runs.len())
                    .find(|i| sampled(i) && self.runs[*i].state == RunState::Running)
            })
            .or_else(|| (0..self.runs.len()).rev().find(sampled))
    }

    pub fn finish(&mut self, record: ExperimentRecord) {
        for run in &record.runs {
            self.finish_run(run);
        }
        // The record has every estimate, even one whose message came too late to see.
        for r in &mut self.runs {
            r.evidence_draws = None;
            if let Some(e) = record.evidence.iter().find(|e| e.proposal == r.id) {
                r.estimate = Some(e.clone());
            }
        }
        self.state = JobState::Finished;
        self.record = Some(record);
    }

    /// The job ended early; runs still pending or running are marked with the reason.
    pub fn fail(&mut self, error: String, cancelled: bool) {
        let reason = if cancelled { "cancelled" } else { "failed" };
        for r in &mut self.runs {
            r.evidence_draws = None;
            if matches!(r.state, RunState::Pending | RunState::Running) {
                r.state = RunState::Failed(reason.into());
            }
        }
        self.state = if cancelled {
            JobState::Cancelled
        } else {
            JobState::Failed(error)
        };
    }
}
