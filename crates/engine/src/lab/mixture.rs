//! A multimodal posterior approximated by a mixture of Laplace approximations (docs/maths.md 4):
//! Newton from `starts` seeded points (a random observation plus N(0, scale²) jitter) finds
//! the modes; each mode k gives N(theta_k, J_k^{-1}) and Laplace's evidence
//! Z_k = p~(theta_k) sqrt(2π / J_k); the mixture weights are w_k = Z_k / Σ Z_j. Starts where
//! Newton fails (a non-concave region) are skipped; distinct modes are kept once.

use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

use super::cauchy::{CauchyModel, CauchyPosterior};
use super::dist::Dist;
use super::family::{impossible, unsupported, Built};
use super::mode::find_mode;
use bayeslab_core::error::Result;
use bayeslab_core::numeric::rng::Stream;
use bayeslab_core::numeric::special::log_sum_exp;
use bayeslab_core::record::ApproxKind;
use bayeslab_core::record::ModeRecord;

/// Modes closer than this (in Cauchy scales) are the same mode.
const SAME_MODE: f64 = 1e-5;

pub fn modes(
    model: &CauchyModel,
    starts: usize,
    rng: &mut Stream,
    what: &str,
) -> Result<Vec<ModeRecord>> {
    let mut found: Vec<(f64, f64, f64)> = Vec::new(); // (location, sd, ln evidence)
    for _ in 0..starts {
        let j = rng.random_range(0..model.y.len());
        let z: f64 = StandardNormal.sample(rng);
        let start = model.y[j] + model.scale * z;
        let Ok(m) = find_mode(model, vec![start], what) else {
            continue;
        };
        let t = m.x[0];
        if found
            .iter()
            .any(|f| (f.0 - t).abs() < SAME_MODE * model.scale)
        {
            continue;
        }
        found.push((t, m.variances()[0].sqrt(), m.ln_evidence()));
    }
    if found.is_empty() {
        return Err(impossible(
            what,
            format!("Newton's method converged from none of the {starts} starts; raise `starts`"),
        ));
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    let ln_total = log_sum_exp(&found.iter().map(|f| f.2).collect::<Vec<_>>());
    Ok(found
        .into_iter()
        .map(|(location, sd, ln_evidence)| ModeRecord {
            location,
            sd,
            weight: (ln_evidence - ln_total).exp(),
            ln_evidence,
        })
        .collect())
}

pub fn build(
    model: CauchyModel,
    starts: usize,
    kinds: &[ApproxKind],
    rng: &mut Stream,
    what: &str,
) -> Result<Built> {
    let modes = modes(&model, starts, rng, what)?;
    let exact = CauchyPosterior::new(model.clone());
    // The single Laplace approximation at the highest mode.
    let top = modes
        .iter()
        .max_by(|a, b| {
            model
                .ln_unnormalised(a.location)
                .total_cmp(&model.ln_unnormalised(b.location))
        })
        .copied()
        .expect("at least one mode");
    let mut approximations = Vec::new();
    for &k in kinds {
        match k {
            ApproxKind::Normal => approximations.push((
                ApproxKind::Normal,
                format!(
                    "theta ~ N({:.4}, {:.4}^2) at the highest mode",
                    top.location, top.sd
                ),
                Dist::Normal {
                    mean: top.location,
                    sd: top.sd,
                },
            )),
            ApproxKind::Mixture => approximations.push((
                ApproxKind::Mixture,
                modes
                    .iter()
                    .map(|m| format!("{:.3} N({:.4}, {:.4}^2)", m.weight, m.location, m.sd))
                    .collect::<Vec<_>>()
                    .join(" + "),
                Dist::Mixture(modes.iter().map(super::summary::component).collect()),
            )),
            _ => return Err(unsupported(what, k, "mixture-laplace")),
        }
    }
    Ok(Built {
        parameter: "theta",
        exact_form: format!(
            "Cauchy(theta, {}) likelihood x N({}, {}^2) prior, normalised by quadrature",
            model.scale, model.prior_mean, model.prior_sd
        ),
        exact: Dist::Cauchy(Box::new(exact)),
        approximations,
        distance_scale: None,
        gini: None,
        modes,
    })
}

#[cfg(test)]
#[path = "mixture_tests.rs"]
mod tests;
