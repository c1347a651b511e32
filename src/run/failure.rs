//! Why a run failed, in words for the person at the terminal: the same messages whether the
//! rows were in memory or streamed.

use crate::config::MethodPlan;
use crate::optim::Termination;

/// Why maximum likelihood has no unique optimum when design column `column` is a combination of
/// the ones before it, and what to do.
pub fn collinear_message(
    run: &str,
    columns: &[String],
    column: usize,
    constant: bool,
    rows: usize,
) -> String {
    let name = columns.get(column).map(String::as_str).unwrap_or("?");
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
        Termination::Separable => Some(format!(
            "{}: the training data are perfectly separable, so the maximum-likelihood weights do not exist \
             (they grow without bound). Use kind = \"logistic-map\" or \"logistic-laplace\": the prior keeps them finite",
            method.id
        )),
        Termination::Stalled => Some(format!(
            "{}: the optimiser could not decrease the objective any further before the gradient norm reached \
             the tolerance {:e}; the columns may be nearly collinear or the features badly scaled: standardise them, \
             drop near-duplicate columns, use a prior (logistic-map) or raise `tolerance`",
            method.id, method.tolerance
        )),
        _ => None,
    }
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
