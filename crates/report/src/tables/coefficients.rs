//! The coefficient tables of the reports: per run with binary weights, one table on the
//! design's scale and one in the data's original units, each naming its scale.

use super::table::{Cell, Mark, Table};
use crate::coefficients::{coefficients, has_odds, Coefficient, Scale};
use bayeslab_core::record::{Diagnostics, ExperimentRecord, RunRecord, WeightDiagnostics};

/// One run's coefficients on one scale, with the heading and the caption that name the scale.
pub struct CoefficientTable {
    pub heading: String,
    pub caption: String,
    pub table: Table,
}

/// What every coefficient table means, said once under the heading.
pub const COEFFICIENTS_NOTE: &str = "Each weight's posterior mean and sd, its central 95 % interval and P(w > 0), taking the posterior as the Normal N(mean, sd²) (exact for a Gaussian approximation; for a sampler, the Normal with its draws' mean and covariance). On the design scale a weight is per design-column unit (per training sd when standardised); in original units it is per unit of the column as it is in the data file, the intercept being the activation at every column 0. For logistic models exp(w) is the odds ratio of a one-unit step: its median exp(mean) and 95 % interval. A point estimate (no posterior) has no sd. A sampler's design-scale table adds each weight's rank-normalised split R-hat (the larger of bulk and folded; above 1.01 the chains have not mixed), bulk ESS and tail ESS (Vehtari et al. 2021, as ArviZ computes them).";

/// The coefficient tables of every run with binary weights: the design scale first, then
/// original units when the design has them.
pub fn coefficient_tables(r: &ExperimentRecord) -> Vec<CoefficientTable> {
    let standardised = r
        .dataset
        .standardisation
        .as_ref()
        .is_some_and(|s| s.iter().any(|c| c.centre != 0.0 || c.scale != 1.0));
    let mut out = Vec::new();
    for run in &r.runs {
        for scale in [Scale::Design, Scale::Original] {
            if scale == Scale::Original && !standardised {
                // The design is the data's units: the original table would repeat it.
                continue;
            }
            let Some(rows) = coefficients(r, run, scale) else {
                continue;
            };
            out.push(CoefficientTable {
                heading: format!("{} — {}", run.id, scale.name(standardised)),
                caption: caption(r, run),
                table: table(
                    &rows,
                    has_odds(run),
                    run.weight_diagnostics
                        .as_ref()
                        .filter(|_| scale == Scale::Design),
                ),
            });
        }
    }
    out
}

/// What the run's numbers are, and any warning that goes with them wherever they appear.
fn caption(r: &ExperimentRecord, run: &RunRecord) -> String {
    let mut c = match &run.posterior {
        Some(_) if run.diagnostics.is_some() => "posterior from the sampler's draws".to_string(),
        Some(_) => "Gaussian posterior approximation".to_string(),
        None => "point estimate only (no posterior)".to_string(),
    };
    if !run.converged {
        c.push_str("; WARNING: the fit did not converge");
    }
    if run.diagnostics.is_some_and(|d| !d.mixed()) {
        c.push_str("; WARNING: the chains have not mixed (R-hat > 1.01)");
    }
    if r.dataset.standardisation.is_none() {
        c.push_str("; a feature map made the design columns, which have no original units");
    }
    c
}

/// The table; a sampler's design-scale table also has each weight's R-hat (marked above 1.01),
/// bulk ESS and tail ESS.
fn table(rows: &[Coefficient], odds: bool, diagnostics: Option<&WeightDiagnostics>) -> Table {
    let mut headers: Vec<String> = ["column", "mean", "sd", "95 % interval", "P(w > 0)"]
        .map(String::from)
        .to_vec();
    if odds {
        headers.push("odds ratio exp(w) [95 %]".into());
    }
    if diagnostics.is_some() {
        headers.extend(["R-hat", "bulk ESS", "tail ESS"].map(String::from));
    }
    let rows = rows
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let mut cells: Vec<Cell> = vec![
                c.column.as_str().into(),
                sig(c.mean).into(),
                c.sd.map_or("–".into(), sig).into(),
                c.interval()
                    .map_or("–".into(), |[a, b]| format!("[{}, {}]", sig(a), sig(b)))
                    .into(),
                c.p_positive()
                    .map_or("–".into(), |p| format!("{p:.3}"))
                    .into(),
            ];
            if odds {
                let (m, ci) = c.odds_ratio();
                let text = match ci {
                    Some([a, b]) => format!("{} [{}, {}]", sig(m), sig(a), sig(b)),
                    None => sig(m),
                };
                cells.push(Cell {
                    text,
                    mark: Mark::Plain,
                });
            }
            if let Some(d) = diagnostics {
                let r = d.rhat.get(j).copied().unwrap_or(f64::NAN);
                cells.push(Cell {
                    text: if r.is_finite() {
                        format!("{r:.3}")
                    } else {
                        "–".into()
                    },
                    mark: Mark::warn_if(r > Diagnostics::RHAT_LIMIT),
                });
                for e in [&d.ess_bulk, &d.ess_tail] {
                    let e = e.get(j).copied().unwrap_or(f64::NAN);
                    cells.push(
                        if e.is_finite() {
                            format!("{e:.0}")
                        } else {
                            "–".into()
                        }
                        .into(),
                    );
                }
            }
            cells
        })
        .collect();
    let numeric = (0..headers.len()).map(|i| i > 0).collect();
    Table {
        headers,
        numeric,
        rows,
    }
}

/// Four significant digits, in exponent form outside [1e-3, 1e5) so that a weight per dollar
/// or per millisecond is never printed as 0.0000.
pub fn sig(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        return if v.is_nan() {
            "–".into()
        } else {
            v.to_string()
        };
    }
    if a == 0.0 || (1e-3..1e5).contains(&a) {
        let decimals = match a == 0.0 {
            true => 3,
            false => (3 - a.log10().floor() as i32).clamp(0, 6) as usize,
        };
        format!("{v:.decimals$}")
    } else {
        format!("{v:.3e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_significant_digits_at_every_size() {
        assert_eq!(sig(1.23456), "1.235");
        assert_eq!(sig(-0.0123456), "-0.01235");
        assert_eq!(sig(1234.56), "1235");
        assert_eq!(sig(0.0000123456), "1.235e-5");
        assert_eq!(sig(0.0), "0.000");
        assert_eq!(sig(f64::NAN), "–");
    }
}
