//! The evidence table: each run's own view of ln p(y | X) (the Laplace evidence, ln Z_EP, the
//! Jaakkola–Jordan bound, the ELBO) against the importance-sampling estimate of the truth
//! (record field `evidence`, built by run/true_evidence.rs). Built once here and shown by
//! report.md, report.html and the workbench's Results screen. What a run's value is comes from
//! its kind's catalogue row ([`MethodKind::log_evidence`]), never from its name.

mod sentence;
#[cfg(test)]
pub(super) mod tests;

use super::khat::khat_text;
use super::table::{Cell, Mark, Table};
use bayeslab_core::catalog::{Link, LogEvidence};
use bayeslab_core::record::{EvidenceEstimate, ExperimentRecord, RunRecord};
use sentence::{sentence, short, Compared, WITHIN_SE};

/// The table (runs then the estimate, per likelihood) and, per likelihood, a sentence in
/// words (which approximation is closest, how far the furthest is) and where the estimate
/// came from.
#[derive(Debug, Clone)]
pub struct LogEvidenceTable {
    pub table: Table,
    pub sentences: Vec<String>,
    pub sources: Vec<String>,
}

/// The table's column headers; the workbench reads them too.
pub const HEADERS: [&str; 6] = [
    "run",
    "model",
    "evidence",
    "log evidence",
    "gap ± se",
    "verdict",
];

/// What the columns mean; both reports print it under the table.
pub const LOG_EVIDENCE_NOTE: &str = "Each run's own ln p(y | X) (`posterior.log_evidence`) against the importance-sampling estimate of the true value: \
the gap is the run's value minus the estimate, ± the estimate's Monte-Carlo standard error; \"within error\" when it is at most 2 se. \
The JJ bound and the ELBOs are lower bounds, so their gaps are negative. Runs at another prior precision λ (or probit β) than the estimate's fit another model and are not compared. \
Where the weights' k-hat exceeds 0.7 the estimate is not reliable (bold) and the runs are not ranked against it.";

/// The evidence table, or `None` when the record has no estimate of ln p(y | X).
pub fn log_evidence_table(r: &ExperimentRecord) -> Option<LogEvidenceTable> {
    if r.evidence.is_empty() {
        return None;
    }
    let mut rows = Vec::new();
    let mut sentences = Vec::new();
    let mut sources = Vec::new();
    for est in &r.evidence {
        let noise = r
            .runs
            .iter()
            .find(|run| run.id == est.proposal)
            .and_then(|run| run.noise)
            .unwrap_or(1.0);
        let mut compared = Vec::new();
        for run in r.runs.iter().filter(|run| run.error.is_none()) {
            let Some(Own {
                kind,
                label,
                value,
                noise: run_noise,
                lambda,
            }) = own_evidence(run, est.model)
            else {
                continue;
            };
            let other = if !same(lambda, est.prior_precision) {
                Some(format!("other λ {}", short(lambda)))
            } else if !same(run_noise, noise) {
                Some(format!("other β {}", short(run_noise)))
            } else {
                None
            };
            let gap = value - est.log_evidence;
            rows.push(match &other {
                Some(why) => run_row(run, est, label, value, "–".into(), why.as_str().into()),
                None => {
                    let gap_text = format!("{gap:+.4} ± {:.4}", est.mcse);
                    run_row(run, est, label, value, gap_text, verdict(est, kind, gap))
                }
            });
            if other.is_none() {
                compared.push(Compared { run, label, gap });
            }
        }
        rows.push(estimate_row(est));
        sentences.push(sentence(est, &compared));
        sources.push(format!(
            "{}: {} draws from a Student-t around `{}` at λ = {}{}",
            est.model,
            bayeslab_core::catalog::thousands(est.draws),
            est.proposal,
            short(est.prior_precision),
            match est.model {
                Link::Probit => format!(", β = {}", short(noise)),
                Link::Logistic => String::new(),
            }
        ));
    }
    Some(LogEvidenceTable {
        table: Table {
            headers: HEADERS.iter().map(|h| h.to_string()).collect(),
            numeric: vec![false, false, false, true, true, false],
            rows,
        },
        sentences,
        sources,
    })
}

/// A run's own ln p(y | X): what it is, as named in the views, its value, probit β and λ.
struct Own {
    kind: LogEvidence,
    label: &'static str,
    value: f64,
    noise: f64,
    lambda: f64,
}

/// The run's own evidence when it has one and fits the likelihood `model`.
fn own_evidence(run: &RunRecord, model: Link) -> Option<Own> {
    let kind = run.kind;
    let noise = run.noise.unwrap_or(1.0);
    let name = kind.likelihood(noise)?.link();
    let value = run.posterior.as_ref()?.log_evidence?;
    let evidence = kind.log_evidence()?;
    (name == model).then_some(Own {
        kind: evidence,
        label: evidence.label(run.mean_field),
        value,
        noise,
        lambda: run.prior_precision?,
    })
}

fn run_row(
    run: &RunRecord,
    est: &EvidenceEstimate,
    label: &str,
    value: f64,
    gap: String,
    verdict: Cell,
) -> Vec<Cell> {
    vec![
        super::metrics::run_cell(run),
        est.model.name().into(),
        label.into(),
        format!("{value:.4}").into(),
        gap.into(),
        verdict,
    ]
}

/// "within error" for a gap of at most 2 se; a lower bound above the estimate beyond that is
/// impossible, so it is marked: the estimate (or the bound) is wrong.
fn verdict(est: &EvidenceEstimate, kind: LogEvidence, gap: f64) -> Cell {
    if gap.abs() <= WITHIN_SE * est.mcse {
        "within error".into()
    } else if kind.lower_bound() && gap > 0.0 {
        Cell {
            text: "bound above!".into(),
            mark: Mark::Warn,
        }
    } else {
        "".into()
    }
}

fn estimate_row(est: &EvidenceEstimate) -> Vec<Cell> {
    let reliable = est.reliable;
    let khat = format!("k-hat {}", khat_text(est.khat, Some(est.draws)));
    vec![
        "estimate".into(),
        est.model.name().into(),
        "importance sampling".into(),
        format!("{:.4} ± {:.4}", est.log_evidence, est.mcse).into(),
        "–".into(),
        Cell {
            text: match reliable {
                true => khat,
                false => format!("{khat}: not reliable"),
            },
            mark: Mark::warn_if(!reliable),
        },
    ]
}

/// Two precisions (or βs) from the same plan are the same number; a tolerance guards a
/// round trip through text.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}
