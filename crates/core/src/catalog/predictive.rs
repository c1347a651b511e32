//! The named predictives a `[[method]] predictive = [...]` list can ask for. What each one
//! computes lives with the models (model/predictive.rs); the catalogue only needs the names.

/// Serialised as its name (`plugin`, `mc`, ...), which `catalog::tests` checks.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum PredictiveKind {
    /// sigma(mu_a): the point estimate plugged in.
    Plugin,
    /// (1/S) sum_s sigma(a_s), a_s ~ N(mu_a, s2_a).
    Mc,
    /// Phi(mu_a / sqrt(t^-2 + s2_a)), t^2 = pi / 8.
    Probit,
    /// sigma(kappa mu_a), kappa = (1 + pi s2_a / 8)^{-1/2}.
    Mackay,
    /// The integral of sigma(a) N(a | mu_a, s2_a), to about 1e-12.
    Exact,
}

impl PredictiveKind {
    pub const ALL: [PredictiveKind; 5] = [
        PredictiveKind::Plugin,
        PredictiveKind::Mc,
        PredictiveKind::Probit,
        PredictiveKind::Mackay,
        PredictiveKind::Exact,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PredictiveKind::Plugin => "plugin",
            PredictiveKind::Mc => "mc",
            PredictiveKind::Probit => "probit",
            PredictiveKind::Mackay => "mackay",
            PredictiveKind::Exact => "exact",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for PredictiveKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
