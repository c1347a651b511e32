//! The library's error type. Every variant is written for the person at the
//! terminal: it names the file, key or column, what was wrong and what to do.

use std::path::PathBuf;

/// Errors the library reports. All but [`Error::Output`] are caused by the
/// input (experiment file, data, or a numerical property of the data) and map
/// to exit code 2 at the command line.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The experiment file could not be read or parsed, or a key is invalid.
    #[error("{file}: {message}")]
    Config { file: PathBuf, message: String },

    /// The data file could not be read, or its contents do not fit the experiment.
    #[error("{file}: {message}")]
    Data { file: PathBuf, message: String },

    /// A numerical failure tied to the data (e.g. a Hessian that is not positive definite).
    #[error(transparent)]
    Numeric(#[from] NumericError),

    /// The run was cancelled before it finished.
    #[error("cancelled")]
    Cancelled,

    /// Writing the outputs failed (disk full, permissions, ...).
    #[error("writing {path}: {source}")]
    Output {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Exit code for the command line: 2 for bad input, 1 for failures to write, 130 for cancellation.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Output { .. } => 1,
            Error::Cancelled => 130,
            _ => 2,
        }
    }

    pub fn config(file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Config {
            file: file.into(),
            message: message.into(),
        }
    }

    pub fn data(file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Data {
            file: file.into(),
            message: message.into(),
        }
    }
}

/// Numerical failures with a cause in the problem rather than a bug.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NumericError {
    #[error(
        "the {what} is not positive definite (Cholesky pivot {pivot} failed); \
         the columns of the design matrix may be collinear or the prior precision too small: \
         remove duplicated columns or increase [prior] precision"
    )]
    NotPositiveDefinite { what: String, pivot: usize },

    #[error("{0}")]
    NonFinite(String),

    /// Design column `column` (0-based) is a linear combination of the columns before it, so
    /// an unpenalised fit has no unique optimum; `constant` when it is constant on the training
    /// rows (a multiple of the intercept).
    #[error("design column {column} is a linear combination of the columns before it")]
    Collinear { column: usize, constant: bool },

    /// Under lambda = 0 the weights classify every training row correctly (or run away), so
    /// the objective has no minimiser (model/glm.rs `runaway`); the runner words the fix for
    /// the method's kind (run/failure.rs).
    #[error("the training data are perfectly separable, so the weights grow without bound")]
    Separable,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
