//! What a kind's `posterior.log_evidence` is: each approximation has its own view of
//! ln p(y | X), and the evidence table (output/tables/log_evidence.rs) names it by this, so a
//! view never matches on kind names to find out.

/// The kind of ln p(y | X) a run reports (docs/maths.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogEvidence {
    /// The Laplace evidence ln p̂ = −E(ŵ) − ½ ln|H/λ| at the mode: an approximation, either side.
    Laplace,
    /// ln Z_EP, EP's product of site normalisers: an approximation, either side.
    Ep,
    /// ln Z of one ADF pass: EP's formula after a single sweep over the rows.
    Adf,
    /// The Jaakkola–Jordan bound: a lower bound below the ELBO of the best Gaussian.
    JjBound,
    /// The ELBO of the KL-optimal Gaussian: a lower bound (lower still under mean field).
    Elbo,
    /// ln p(y | X) itself, integrated on a grid to 1e-10 (the quadrature kinds).
    Exact,
}

impl LogEvidence {
    /// How the reports and the workbench name it; a mean-field ELBO is named apart because
    /// it bounds ln p(y | X) from further below than the full-rank one.
    pub fn label(self, mean_field: bool) -> &'static str {
        match self {
            LogEvidence::Laplace => "Laplace ln p̂",
            LogEvidence::Ep => "EP ln Z",
            LogEvidence::Adf => "ADF ln Z",
            LogEvidence::JjBound => "JJ bound",
            LogEvidence::Elbo if mean_field => "ELBO mean-field",
            LogEvidence::Elbo => "ELBO",
            LogEvidence::Exact => "exact ln p(y|X)",
        }
    }

    /// Whether the value can only lie below ln p(y | X) (Jensen's inequality).
    pub fn lower_bound(self) -> bool {
        matches!(self, LogEvidence::JjBound | LogEvidence::Elbo)
    }
}
