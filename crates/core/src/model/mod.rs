//! Models: what each `[[method]] kind` fits and how it predicts. Every kind fits from the
//! training rows through [`method::fit`] and returns a [`method::Fitted`]
//! whose predictor answers per named predictive.

pub mod diagnostics;
pub mod ep;
pub mod fit;
pub mod gaussian;
pub mod generative;
pub mod gibbs;
pub mod glm;
pub mod hmc;
pub mod importance;
pub mod laplace;
pub mod linear;
pub mod logistic;
pub mod loglik;
pub mod method;
#[cfg(test)]
pub(crate) mod one_weight;
pub mod options;
pub mod pass_clock;
pub mod predictive;
pub mod probit;
pub mod quadrature;
pub mod restore;
pub mod softmax;
pub mod spec;
pub mod steps;
pub mod streaming;
pub mod variational;
pub mod warm_start;

pub use crate::catalog::{Likelihood, MethodKind};
pub use gaussian::GaussianPosterior;
pub use predictive::PredictiveKind;
