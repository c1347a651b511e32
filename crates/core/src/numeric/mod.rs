//! The numeric core: special functions, quadrature and dense linear algebra (faer).

pub mod glm;
pub mod kde;
pub mod linalg;
pub mod logistic_sums;
pub mod polya_gamma;
pub mod psis;
pub mod quadrature;
pub mod rng;
pub mod special;

/// One computation compiled for the CPU's vector instructions, chosen at run time.
pub use crate::unchecked::{avx2_or_baseline, widest, Kernel};
