//! How a kind reaches its answer, and the words every view uses for what a finished fit did:
//! a conjugate or maximum-likelihood generative model is computed in closed form (it has no
//! iterations to count), ADF makes one pass over the rows, a sampler draws sweeps of its
//! chains, and the optimisers and EP iterate until their convergence test holds.

/// The character of a kind's fit (the catalogue's `fitting` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fitting {
    /// Formulas over the class counts, means and covariances: no iterations.
    ClosedForm,
    /// One online pass over the training rows in a seeded order (assumed-density filtering).
    OnePass,
    /// Repeated steps until the convergence test holds: Newton, gradient descent, EP sweeps.
    Iterative,
    /// Markov chains drawn from the exact posterior, counted in sweeps per chain.
    Sampled,
    /// The exact posterior integrated on a grid refined until it stops changing, counted in
    /// the final grid's points.
    Quadrature,
}

impl Fitting {
    /// What a finished fit did, e.g. `closed form`, `one pass over the training rows`,
    /// `sampled 1,200 sweeps`, `converged after 6 iterations, |g| 1.8e-14`. `termination` is
    /// the driver's name for how it stopped (`converged`, `max-iterations`, ...); `grad_norm`
    /// the last iterate's gradient norm (EP: its largest site distance), when known. A closed
    /// form or a single pass that stopped otherwise than `converged` names that too.
    pub fn outcome(self, termination: &str, iterations: usize, grad_norm: Option<f64>) -> String {
        let stopped = |what: &str| match termination {
            "converged" => what.to_string(),
            other => format!("{what}, {other}"),
        };
        match self {
            Fitting::ClosedForm => stopped("closed form"),
            Fitting::OnePass => stopped("one pass over the training rows"),
            Fitting::Sampled => stopped(&format!("sampled {} sweeps", thousands(iterations))),
            Fitting::Quadrature => match termination {
                "converged" => format!("integrated on {} grid points", thousands(iterations)),
                _ => format!(
                    "grid of {} points did not settle within its budget",
                    thousands(iterations)
                ),
            },
            Fitting::Iterative => {
                let g = grad_norm
                    .map(|g| format!(", |g| {g:.1e}"))
                    .unwrap_or_default();
                let plural = if iterations == 1 { "" } else { "s" };
                format!(
                    "{termination} after {} iteration{plural}{g}",
                    thousands(iterations)
                )
            }
        }
    }
}

/// `9923` as `9,923`: every count the program prints (progress lines, gauges, tables).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;
    use super::Fitting::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn each_character_says_what_it_did() {
        assert_eq!(ClosedForm.outcome("converged", 0, None), "closed form");
        assert_eq!(
            OnePass.outcome("converged", 1, Some(0.88)),
            "one pass over the training rows"
        );
        assert_eq!(
            Sampled.outcome("converged", 1200, None),
            "sampled 1,200 sweeps"
        );
        assert_eq!(
            Iterative.outcome("converged", 6, Some(1.8e-14)),
            "converged after 6 iterations, |g| 1.8e-14"
        );
        assert_eq!(
            Iterative.outcome("max-iterations", 1, None),
            "max-iterations after 1 iteration"
        );
        assert_eq!(
            Iterative.outcome("max-iterations", 20_000, Some(2e-3)),
            "max-iterations after 20,000 iterations, |g| 2.0e-3"
        );
        assert_eq!(
            OnePass.outcome("cancelled", 0, None),
            "one pass over the training rows, cancelled"
        );
    }
}
