//! report.md's "Approximation lab" section: per posterior and subset size, the exact
//! posterior's quantiles and, per approximation, its quantiles, distances and mass outside
//! the support; the Gini simulations and the Laplace modes where present.

use std::fmt::Write;

use crate::lab::PosteriorResult;

fn q3(q: &[f64; 3]) -> String {
    format!("{:.4} / {:.4} / {:.4}", q[0], q[1], q[2])
}

/// Small figures in scientific notation so that 3e-7 does not print as 0.0000.
fn small(v: f64) -> String {
    if v != 0.0 && v.abs() < 1e-3 {
        format!("{v:.2e}")
    } else {
        format!("{v:.4}")
    }
}

pub fn approximation_lab(s: &mut String, posteriors: &[PosteriorResult]) {
    if posteriors.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Approximation lab\n");
    let _ = writeln!(
        s,
        "Exact posteriors against approximations found at the mode by Newton's method with the observed \
         information (MATH.md 4). KL is KL(exact || approximation); TV is the total-variation distance; \
         Hellinger is sqrt(1 - ∫ sqrt(p q)). They are integrated by Simpson's rule between the exact \
         posterior's 1e-10 and 1 - 1e-10 quantiles on the scale named below each table (the distances \
         do not change under a monotone change of variable), halving the grid spacing from 256 intervals until no \
         figure changes by more than 1e-6 (the `grid` column gives the final number of intervals; `*` \
         marks a grid that stopped at 2^22 intervals without meeting that). \"outside\" is the mass the \
         approximation puts outside the exact posterior's support. Quantiles are 2.5 % / 50 % / 97.5 %.\n"
    );
    for p in posteriors {
        let _ = writeln!(
            s,
            "### {} ({}, subset {}, n = {})\n",
            p.id, p.kind, p.subset, p.n
        );
        let _ = writeln!(s, "Exact: {} (parameter: {}).\n", p.exact_form, p.parameter);
        let _ = writeln!(
            s,
            "| distribution | mean | sd | quantiles | KL | TV | Hellinger | outside | grid |\n|---|---:|---:|---|---:|---:|---:|---:|---:|"
        );
        let _ = writeln!(
            s,
            "| exact | {:.4} | {:.4} | {} | – | – | – | – | – |",
            p.exact.mean,
            p.exact.sd,
            q3(&p.exact.quantiles)
        );
        for a in &p.approximations {
            let _ = writeln!(
                s,
                "| {} | {:.4} | {:.4} | {} | {} | {} | {} | {} | {}{} |",
                a.name,
                a.mean,
                a.sd,
                q3(&a.quantiles),
                small(a.kl),
                small(a.tv),
                small(a.hellinger),
                small(a.mass_outside_support),
                a.integration.intervals,
                if a.integration.converged { "" } else { "*" }
            );
        }
        s.push('\n');
        for a in &p.approximations {
            let on = if a.distance_scale == "parameter" {
                String::new()
            } else {
                format!(" (distances integrated on {})", a.distance_scale)
            };
            let _ = writeln!(s, "- {}: {}{on}", a.name, a.form);
        }
        if let Some(g) = &p.gini {
            let _ = writeln!(
                s,
                "\nGini coefficient from {} simulated draws each (MCSE = sd / sqrt(draws)):\n\n\
                 | posterior | mean | 2.5 % | 97.5 % | MCSE |\n|---|---:|---:|---:|---:|",
                g.draws
            );
            for (name, x) in [("normal approximation", &g.approx), ("exact", &g.exact)] {
                let _ = writeln!(
                    s,
                    "| {name} | {:.4} | {:.4} | {:.4} | {:.2e} |",
                    x.mean, x.q025, x.q975, x.mcse
                );
            }
        }
        if !p.modes.is_empty() {
            let _ = writeln!(
                s,
                "\nLaplace components (weights from each mode's Laplace evidence):\n\n\
                 | mode | sd | weight | log evidence |\n|---:|---:|---:|---:|"
            );
            for m in &p.modes {
                let _ = writeln!(
                    s,
                    "| {:.4} | {:.4} | {:.4} | {:.4} |",
                    m.location, m.sd, m.weight, m.ln_evidence
                );
            }
        }
        s.push('\n');
    }
}
