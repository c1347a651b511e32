//! The method abstraction: every kind fits from its training rows and returns a [`Fitted`]
//! whose [`Predictor`] answers per named predictive, plus an optional posterior summary and the
//! outcome of its iterations.
//!
//! [`fit`] is the one dispatcher. The rows always arrive as [`Chunks`]; a source held in memory
//! also offers every row at once, which the kinds that need the whole matrix (EP, Gibbs,
//! softmax, the generative kinds) take, dispatched on the kind's catalogue family
//! ([`fit_matrix`]). Without it, the kinds that stream fit chunk by chunk and the others get a
//! clear error.

pub use super::fit::{
    closed_form, FitInput, FitRequest, Fitted, PosteriorSummary, Predictor, Probabilities, Rows,
};
use super::{ep, generative, gibbs, hmc, logistic, probit, quadrature, softmax, variational};

use super::options::Options;
use crate::catalog::{Likelihood, Link};
use crate::error::{Error, Result};
use crate::optim::Observer;

/// Fit `request.method` on `rows`, streaming iterations to `observer`. A
/// [`crate::Error::Numeric`] means the method failed on these data (a failed run); any other
/// error is bad input and aborts the experiment.
pub fn fit(
    request: &FitRequest<'_>,
    rows: Rows<'_>,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    let m = request.method;
    match rows.whole {
        Some((x, y)) => {
            let input = FitInput {
                file: request.file,
                method: m,
                precision: request.precision,
                seed: request.seed,
                x,
                y,
                classes: request.classes,
                intercept: request.intercept,
                columns: request.columns,
                cancel: request.cancel,
                record_steps: request.record_steps,
            };
            fit_matrix(&input, observer)
        }
        None if m.kind.streams() => super::streaming::fit(rows.chunks, request, observer),
        None => Err(Error::config(
            request.file,
            format!(
                "{}: kind = \"{}\" needs every training row in memory at once and cannot be fitted \
                 chunk by chunk; set [data] streaming = false or choose a kind that streams",
                m.id,
                m.kind.name()
            ),
        )),
    }
}

/// Fit `input.method` on the training rows, streaming iterations to `observer`.
/// A [`crate::Error::Numeric`] means the method failed on these data (a failed run); any other
/// error is bad input and aborts the experiment.
/// Fit a kind on its whole training matrix: the family's own fit.
pub fn fit_matrix(input: &FitInput<'_>, observer: &mut dyn Observer) -> Result<Fitted> {
    let (kind, options) = (input.method.kind, &input.method.options);
    debug_assert_eq!(options.family(), kind.family(), "{kind}'s options");
    match options {
        Options::Glm => match kind.likelihood(1.0).map(Likelihood::link) {
            Some(Link::Probit) => probit::fit_method(input, observer),
            Some(Link::Logistic) | None => logistic::fit_method(input, observer),
        },
        Options::Softmax(o) => softmax::fit_method(input, o, observer),
        Options::Ep(o) => ep::fit_method(input, o, observer),
        Options::Variational(o) => variational::fit_method(input, o, observer),
        Options::Gaussian(o) => generative::fit_gaussian(input, o),
        Options::Bernoulli(o) => generative::fit_bernoulli(input, o),
        Options::Gibbs(o) => gibbs::fit_method(input, o, observer),
        Options::Hmc(o) => hmc::fit_method(input, o, observer),
        Options::Quadrature => quadrature::fit_method(input, observer),
    }
}

#[cfg(test)]
mod tests {
    use faer::Mat;

    use super::*;
    use crate::catalog::{MethodKind, PredictiveKind};
    use crate::model::options::{BernoulliOptions, Options, SamplerOptions};
    use crate::model::predictive::PredictiveSettings;
    use crate::model::spec::{MethodSpec, Optimizer};
    use crate::numeric::rng::stream;

    #[test]
    fn every_kind_fits_through_its_family_and_predicts_every_predictive() {
        // 40 overlapping rows: intercept and two features, two classes.
        let x = Mat::<f64>::from_fn(40, 3, |i, j| match j {
            0 => 1.0,
            1 => (i as f64 * 0.7).sin() * 1.5,
            _ => (i as f64 * 1.3).cos(),
        });
        let y: Vec<f64> = (0..40)
            .map(|i| f64::from(u8::from((i * 7) % 5 < 2)))
            .collect();
        let columns = ["intercept", "a", "b"].map(String::from);
        for kind in MethodKind::ALL {
            let options = match Options::defaults(kind.family()) {
                Options::Gibbs(o) => Options::Gibbs(SamplerOptions {
                    chains: 2,
                    draws: 20,
                    burn_in: 5,
                    ..o
                }),
                Options::Hmc(o) => Options::Hmc(SamplerOptions {
                    chains: 2,
                    draws: 20,
                    burn_in: 5,
                    ..o
                }),
                Options::Bernoulli(o) => Options::Bernoulli(BernoulliOptions {
                    binarize: Some(0.0),
                    ..o
                }),
                o => o,
            };
            let spec = MethodSpec {
                id: kind.name().into(),
                kind,
                optimizer: Optimizer::Newton,
                max_iter: 100,
                tolerance: 1e-6,
                options,
            };
            let input = FitInput {
                file: std::path::Path::new("t.toml"),
                method: &spec,
                precision: 1.0,
                seed: 1,
                x: x.as_ref(),
                y: &y,
                classes: 2,
                intercept: true,
                columns: &columns,
                cancel: None,
                record_steps: false,
            };
            let fitted = fit_matrix(&input, &mut |_: &str, _: &crate::optim::Iterate| {})
                .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
            assert_eq!(
                fitted.posterior.is_some(),
                kind.has_posterior(),
                "{}",
                kind.name()
            );
            let settings = PredictiveSettings {
                mc_samples: 50,
                quadrature_nodes: 16,
                first_row: 0,
            };
            for &p in kind.predictives() {
                let out = fitted
                    .predictor
                    .predict(p, x.as_ref(), settings, &mut stream(1, "t"));
                let rows = match out {
                    Probabilities::Binary(v) => v.len(),
                    Probabilities::Classes(v) => v.len(),
                };
                assert_eq!(rows, 40, "{} {}", kind.name(), PredictiveKind::name(p));
            }
        }
    }

    #[test]
    fn a_kind_that_needs_the_whole_matrix_says_so_when_the_rows_only_stream() {
        let x = Mat::<f64>::from_fn(4, 2, |i, j| if j == 0 { 1.0 } else { i as f64 });
        let y = [0.0, 1.0, 0.0, 1.0];
        let chunks = crate::model::streaming::InMemory {
            x: x.as_ref(),
            y: &y,
        };
        let columns = ["intercept", "a"].map(String::from);
        for kind in [MethodKind::EpProbit, MethodKind::LogisticMap] {
            let spec = MethodSpec {
                id: "m".into(),
                kind,
                optimizer: Optimizer::Newton,
                max_iter: 100,
                tolerance: 1e-6,
                options: Options::defaults(kind.family()),
            };
            let request = FitRequest {
                file: std::path::Path::new("t.toml"),
                method: &spec,
                precision: 1.0,
                seed: 1,
                columns: &columns,
                rows: 4,
                classes: 2,
                intercept: true,
                cancel: None,
                record_steps: false,
            };
            let rows = Rows {
                chunks: &chunks,
                whole: None,
            };
            let got = fit(&request, rows, &mut |_: &str, _: &crate::optim::Iterate| {});
            match kind.streams() {
                true => assert!(got.is_ok(), "{} streams", kind.name()),
                false => assert!(got
                    .err()
                    .unwrap()
                    .to_string()
                    .contains("needs every training row in memory")),
            }
        }
    }
}
