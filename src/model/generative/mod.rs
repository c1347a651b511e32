//! Generative classifiers (docs/maths.md section 3): p(y = c | x, data) is proportional to
//! p(x | y = c, data) p(y = c | data). The Bayesian ones integrate the class parameters out
//! (Dirichlet class prior, conjugate priors per class; reported as the `exact` predictive), the
//! plug-in baselines `lda` and `qda` use maximum-likelihood estimates (`plugin`). All handle
//! K >= 2 classes and ignore the design's intercept column. Everything is combined in log
//! space and normalised with log-sum-exp.

pub mod bernoulli;
pub mod class_prior;
pub mod normal_gamma;
pub mod normal_inverse_wishart;
pub mod plugin;
pub mod student;

use faer::{Mat, MatRef};

use super::fit::{closed_form, FitInput, Fitted, Predictor, Probabilities};
use super::options::Options;
use super::predictive::{PredictiveKind, PredictiveSettings};
use super::MethodKind;
use crate::error::{Error, Result};
use crate::numeric::rng::Stream;
use crate::numeric::special::log_sum_exp;

/// The class-conditional part of a generative model.
pub trait ClassDensity {
    /// ln p(x_n | y = c, data) for every row n (outer) and class c (inner).
    fn log_densities(&self, x: MatRef<'_, f64>) -> Vec<Vec<f64>>;
}

pub struct GenerativePredictor {
    /// ln p(y = c | data) per class.
    log_class: Vec<f64>,
    density: Box<dyn ClassDensity>,
    /// Drop the design's first column (the intercept) before evaluating densities.
    skip_intercept: bool,
}

impl GenerativePredictor {
    /// `log_class`: ln p(y = c | data) per class; `skip_intercept`: the design's first column is
    /// the intercept.
    pub fn new(log_class: Vec<f64>, density: Box<dyn ClassDensity>, skip_intercept: bool) -> Self {
        GenerativePredictor {
            log_class,
            density,
            skip_intercept,
        }
    }
}

impl Predictor for GenerativePredictor {
    /// Each generative kind has exactly one predictive, so `kind` selects nothing.
    fn predict(
        &self,
        _kind: PredictiveKind,
        x: MatRef<'_, f64>,
        _settings: PredictiveSettings,
        _rng: &mut Stream,
    ) -> Probabilities {
        let x = features(x, self.skip_intercept);
        let dens = self.density.log_densities(x.as_ref());
        Probabilities::Classes(
            dens.iter()
                .map(|row| {
                    let joint: Vec<f64> = row
                        .iter()
                        .zip(&self.log_class)
                        .map(|(d, c)| d + c)
                        .collect();
                    let z = log_sum_exp(&joint);
                    joint.iter().map(|j| (j - z).exp()).collect()
                })
                .collect(),
        )
    }
}

/// The feature columns of a design matrix (without the intercept).
fn features(x: MatRef<'_, f64>, skip_intercept: bool) -> Mat<f64> {
    let s = usize::from(skip_intercept);
    Mat::from_fn(x.nrows(), x.ncols() - s, |i, j| x[(i, j + s)])
}

/// Row indices of each class 0..k.
pub fn rows_by_class(y: &[f64], k: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); k];
    for (i, &c) in y.iter().enumerate() {
        out[c as usize].push(i);
    }
    out
}

/// Fit any generative kind.
pub fn fit_method(input: &FitInput<'_>) -> Result<Fitted> {
    let m = input.method;
    let x = features(input.x, input.intercept);
    if x.ncols() == 0 {
        return Err(Error::config(
            input.file,
            format!(
                "{}: a generative classifier needs at least one feature column besides the intercept",
                m.id
            ),
        ));
    }
    let names = &input.columns[usize::from(input.intercept)..];
    let k = input.classes;
    let counts: Vec<usize> = rows_by_class(input.y, k).iter().map(Vec::len).collect();
    let gaussian = m.options.gaussian();
    let log_class = match m.kind {
        MethodKind::Lda | MethodKind::Qda => class_prior::plugin(&counts),
        _ => {
            let class_prior = match &m.options {
                Options::Bernoulli(o) => &o.class_prior,
                _ => &gaussian.class_prior,
            };
            let alphas = class_prior
                .alphas(k)
                .map_err(|e| Error::config(input.file, format!("{}: {e}", m.id)))?;
            class_prior::posterior_predictive(&alphas, &counts)
        }
    };
    let xr = x.as_ref();
    let density: Box<dyn ClassDensity> = match m.kind {
        MethodKind::GaussianNaiveBayes => Box::new(normal_gamma::NaiveGaussian::fit(
            xr,
            input.y,
            k,
            normal_gamma::NormalGamma {
                mu0: gaussian.mu0,
                kappa0: gaussian.kappa0,
                alpha0: gaussian.alpha0,
                beta0: gaussian.beta0,
            },
        )),
        MethodKind::BernoulliNaiveBayes => {
            let o = m.options.bernoulli();
            let binary = bernoulli::binary_features(xr, o.binarize, names)
                .map_err(|e| Error::config(input.file, format!("{}: {e}", m.id)))?;
            Box::new(bernoulli::NaiveBernoulli::fit(
                binary.as_ref(),
                input.y,
                k,
                o.a,
                o.b,
                o.binarize,
            ))
        }
        MethodKind::GaussianGenerative => {
            let d = xr.ncols() as f64;
            let prior = normal_inverse_wishart::Niw {
                mu0: gaussian.mu0,
                kappa0: gaussian.kappa0,
                nu0: gaussian.nu0.unwrap_or(d + 2.0),
                psi0: gaussian.psi0,
            };
            if prior.nu0 <= d - 1.0 {
                return Err(Error::config(
                    input.file,
                    format!(
                        "{}: nu0 = {} must exceed D - 1 = {} (the number of features minus one) for a proper inverse-Wishart prior",
                        m.id,
                        prior.nu0,
                        d - 1.0
                    ),
                ));
            }
            Box::new(normal_inverse_wishart::fit(
                xr,
                input.y,
                k,
                prior,
                gaussian.shared_covariance,
                &m.id,
            )?)
        }
        MethodKind::Lda | MethodKind::Qda => Box::new(plugin::fit(
            xr,
            input.y,
            k,
            m.kind == MethodKind::Lda,
            names,
            &m.id,
        )?),
        other => unreachable!("{} is not generative", other.name()),
    };
    Ok(Fitted {
        pass_times: None,
        steps: None,
        weights: Vec::new(),
        objective: None,
        outcome: closed_form(),
        posterior: None,
        predictor: Box::new(GenerativePredictor {
            log_class,
            density,
            skip_intercept: input.intercept,
        }),
    })
}
