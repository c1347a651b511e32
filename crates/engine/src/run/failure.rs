//! Why a run failed, in words for the person at the terminal: the same messages whether the
//! rows were in memory or streamed.

use crate::config::MethodPlan;
use bayeslab_core::optim::Termination;

/// Why maximum likelihood has no unique optimum when design column `column` is a combination of
/// the ones before it, and what to do.
pub fn collinear_message(
    method: &MethodPlan,
    columns: &[String],
    column: usize,
    constant: bool,
    rows: usize,
) -> String {
    let run = &method.id;
    let name = columns.get(column).map(String::as_str).unwrap_or("?");
    // A kind with a prior met this only at precision = 0: the fix is a proper prior, not the
    // kind already in use.
    if method.kind.uses_prior() {
        let why = if constant {
            format!("design column \"{name}\" is constant on the training rows (it duplicates the intercept)")
        } else if columns.len() > rows {
            format!(
                "the design has more columns ({}) than training rows ({rows})",
                columns.len()
            )
        } else {
            format!(
                "design column \"{name}\" is a linear combination of the columns before it ({})",
                columns[..column].join(", ")
            )
        };
        return format!(
            "{run}: {why}, so under [prior] precision = 0 (an improper, flat prior) kind = \"{}\" has no unique \
             weights. Set [prior] precision > 0 (e.g. 1): the prior makes the optimum unique; or drop the column from [data] features",
            method.kind.name()
        );
    }
    if constant {
        format!(
            "{run}: design column \"{name}\" is constant on the training rows, so under maximum likelihood its \
             weight is not identified (it duplicates the intercept). Drop it from [data] features, or use \
             logistic-map / logistic-laplace: the prior makes the optimum unique"
        )
    } else if columns.len() > rows {
        format!(
            "{run}: the design has more columns ({}) than training rows ({rows}), so the maximum-likelihood \
             weights are not unique (column \"{name}\" is a combination of the ones before it). Use \
             logistic-map / logistic-laplace (the prior makes the optimum unique) or fewer features",
            columns.len()
        )
    } else {
        format!(
            "{run}: design column \"{name}\" is a linear combination of the columns before it ({}), so the \
             maximum-likelihood weights are not unique. Drop the column from [data] features, or use logistic-map / logistic-laplace: the prior makes the optimum unique",
            columns[..column].join(", ")
        )
    }
}

/// The error of a fit that stopped without a minimiser: separable data under MLE, or an
/// optimiser that could not go further.
pub fn termination_error(method: &MethodPlan, termination: Termination) -> Option<String> {
    match termination {
        Termination::Separable => Some(separable_message(method)),
        Termination::Stalled => Some(format!(
            "{}: the optimiser could not decrease the objective any further before the gradient norm reached \
             the tolerance {:e}; the columns may be nearly collinear or the features badly scaled: standardise them, \
             drop near-duplicate columns, use a prior (logistic-map) or raise `tolerance`",
            method.id, method.tolerance
        )),
        _ => None,
    }
}

/// Why separable data stopped `method`, and the fix for its kind: a maximum-likelihood kind
/// is pointed to the kinds with a prior, a kind with a prior at lambda = 0 to a proper prior.
fn separable_message(method: &MethodPlan) -> String {
    let fix = if method.kind.uses_prior() {
        let evidence = if method.kind.laplace_evidence() {
            ", or precision = \"evidence\" to choose it by the Laplace evidence"
        } else {
            ""
        };
        format!(
            "[prior] precision = 0 is an improper (flat) prior, under which kind = \"{}\" has no posterior mode here. \
             Set [prior] precision > 0 (e.g. 1){evidence}: the prior keeps the weights finite",
            method.kind.name()
        )
    } else {
        "Use kind = \"logistic-map\" or \"logistic-laplace\": the prior keeps them finite"
            .to_string()
    };
    format!(
        "{}: the training data are perfectly separable, so the weights that maximise the likelihood do not exist \
         (they grow without bound). {fix}",
        method.id
    )
}

/// A predictive that produced NaN or infinite probabilities.
pub fn non_finite(method: &MethodPlan, predictive: &str) -> String {
    format!(
        "{}: predictive \"{predictive}\" produced non-finite probabilities; the fit is numerically degenerate \
         ({})",
        method.id,
        crate::config::plan::degenerate_fit_advice(method.kind)
    )
}
