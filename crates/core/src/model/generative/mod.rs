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
use super::options::{BernoulliOptions, ClassPrior, GaussianOptions};
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

/// The feature columns of a generative fit (the intercept dropped), their names, and each
/// class's count of training rows.
struct Features<'a> {
    x: Mat<f64>,
    names: &'a [String],
    counts: Vec<usize>,
}

fn features_of<'a>(input: &FitInput<'a>) -> Result<Features<'a>> {
    let x = features(input.x, input.intercept);
    if x.ncols() == 0 {
        return Err(Error::config(
            input.file,
            format!(
                "{}: a generative classifier needs at least one feature column besides the intercept",
                input.method.id
            ),
        ));
    }
    let counts = rows_by_class(input.y, input.classes)
        .iter()
        .map(Vec::len)
        .collect();
    let names = &input.columns[usize::from(input.intercept)..];
    Ok(Features { x, names, counts })
}

/// ln p(class) of the Bayesian kinds: the Dirichlet posterior predictive of the class counts.
fn bayes_class_prior(
    input: &FitInput<'_>,
    prior: &ClassPrior,
    counts: &[usize],
) -> Result<Vec<f64>> {
    let alphas = prior
        .alphas(input.classes)
        .map_err(|e| Error::config(input.file, format!("{}: {e}", input.method.id)))?;
    Ok(class_prior::posterior_predictive(&alphas, counts))
}

/// The Gaussian class-conditional kinds: gaussian-generative (Normal-inverse-Wishart),
/// gaussian-naive-bayes (Normal-Gamma per feature), and the plug-in lda and qda.
pub fn fit_gaussian(input: &FitInput<'_>, o: &GaussianOptions) -> Result<Fitted> {
    let m = input.method;
    let f = features_of(input)?;
    let (xr, k) = (f.x.as_ref(), input.classes);
    let plug_in = matches!(m.kind, MethodKind::Lda | MethodKind::Qda);
    let log_class = match plug_in {
        true => class_prior::plugin(&f.counts),
        false => bayes_class_prior(input, &o.class_prior, &f.counts)?,
    };
    let density: Box<dyn ClassDensity> = match m.kind {
        MethodKind::GaussianNaiveBayes => Box::new(normal_gamma::NaiveGaussian::fit(
            xr,
            input.y,
            k,
            normal_gamma::NormalGamma {
                mu0: o.mu0,
                kappa0: o.kappa0,
                alpha0: o.alpha0,
                beta0: o.beta0,
            },
        )),
        MethodKind::GaussianGenerative => Box::new(niw_fit(input, xr, o)?),
        _ if plug_in => Box::new(plugin::fit(
            xr,
            input.y,
            k,
            m.kind == MethodKind::Lda,
            f.names,
            &m.id,
        )?),
        other => {
            return Err(Error::config(
                input.file,
                format!("{}: {other} has no Gaussian class density", m.id),
            ))
        }
    };
    Ok(generative_fit(input, log_class, density))
}

/// gaussian-generative's Normal-inverse-Wishart posterior per class (or shared).
fn niw_fit(
    input: &FitInput<'_>,
    xr: MatRef<'_, f64>,
    o: &GaussianOptions,
) -> Result<normal_inverse_wishart::GaussianClasses> {
    let d = xr.ncols() as f64;
    let prior = normal_inverse_wishart::Niw {
        mu0: o.mu0,
        kappa0: o.kappa0,
        nu0: o.nu0.unwrap_or(d + 2.0),
        psi0: o.psi0,
    };
    if prior.nu0 <= d - 1.0 {
        return Err(Error::config(
            input.file,
            format!(
                "{}: nu0 = {} must exceed D - 1 = {} (the number of features minus one) for a proper inverse-Wishart prior",
                input.method.id,
                prior.nu0,
                d - 1.0
            ),
        ));
    }
    let m = input.method;
    Ok(normal_inverse_wishart::fit(
        xr,
        input.y,
        input.classes,
        prior,
        o.shared_covariance,
        &m.id,
    )?)
}

/// bernoulli-naive-bayes: a Beta-Bernoulli posterior per binary feature and class.
pub fn fit_bernoulli(input: &FitInput<'_>, o: &BernoulliOptions) -> Result<Fitted> {
    let m = input.method;
    let f = features_of(input)?;
    let log_class = bayes_class_prior(input, &o.class_prior, &f.counts)?;
    let binary = bernoulli::binary_features(f.x.as_ref(), o.binarize, f.names)
        .map_err(|e| Error::config(input.file, format!("{}: {e}", m.id)))?;
    let density = bernoulli::NaiveBernoulli::fit(
        binary.as_ref(),
        input.y,
        input.classes,
        o.a,
        o.b,
        o.binarize,
    );
    Ok(generative_fit(input, log_class, Box::new(density)))
}

/// A generative fit: closed form, no weights, predicting by Bayes' rule.
fn generative_fit(
    input: &FitInput<'_>,
    log_class: Vec<f64>,
    density: Box<dyn ClassDensity>,
) -> Fitted {
    Fitted {
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
    }
}
