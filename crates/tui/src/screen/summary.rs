//! The Experiments screen's one-line verdict on a valid file: what `r` will do with it —
//! the methods it fits, or for an approximation lab (no `[[method]]`) the `[[posterior]]`
//! tables it computes and where they are shown.

use bayeslab_engine::config::Plan;

/// E.g. `3 methods: logistic-mle, logistic-map, laplace — r runs them`, or `approximation
/// lab, no [[method]]: 4 [[posterior]] tables (insects-spray-c, …) — r computes them, 7 Reparam
/// shows them`.
pub fn plan_summary(plan: &Plan) -> String {
    let count = |n: usize, one: &str, many: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    };
    let them = |n: usize| if n == 1 { "it" } else { "them" };
    let ids = |ids: Vec<&str>| ids.join(", ");
    let posteriors = plan.posteriors.len();
    let tables = ids(plan.posteriors.iter().map(|p| p.id.as_str()).collect());
    let mut text = if plan.methods.is_empty() {
        format!(
            "approximation lab, no [[method]]: {} ({tables}) — r computes {}, 7 Reparam shows {}",
            count(posteriors, "[[posterior]] table", "[[posterior]] tables"),
            them(posteriors),
            them(posteriors)
        )
    } else {
        let n = plan.methods.len();
        let mut text = format!(
            "{}: {} — r runs {}",
            count(n, "method", "methods"),
            ids(plan.methods.iter().map(|m| m.id.as_str()).collect()),
            them(n)
        );
        if posteriors > 0 {
            text.push_str(&format!(
                "; also {} ({tables}), on 7 Reparam",
                count(posteriors, "[[posterior]] table", "[[posterior]] tables")
            ));
        }
        text
    };
    if let Some(sweep) = &plan.sweep {
        text.push_str(&format!(
            "; swept over {} ({} values)",
            sweep.key,
            sweep.points.len()
        ));
    }
    text
}
