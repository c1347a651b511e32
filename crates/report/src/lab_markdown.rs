//! report.md's "Approximation lab" section: per posterior and subset size, the exact
//! posterior's quantiles and, per approximation, its quantiles, distances and mass outside
//! the support; the Gini simulations and the Laplace modes where present.

use std::fmt::Write;

use super::tables::markdown::table;
use super::tables::{Cell, Table};
use bayeslab_core::record::PosteriorResult;

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

/// The lab's introduction: how the distances are computed.
pub const INTRO: &str = "Exact posteriors against approximations found at the mode by Newton's method with the observed \
information (docs/maths.md 4). KL is KL(exact || approximation); TV is the total-variation distance; \
Hellinger is sqrt(1 - ∫ sqrt(p q)). They are integrated by Simpson's rule between the exact \
posterior's 1e-10 and 1 - 1e-10 quantiles on the scale named below each table (the distances \
do not change under a monotone change of variable), halving the grid spacing from 256 intervals until no \
figure changes by more than 1e-6 (the grid column gives the final number of intervals; * \
marks a grid that stopped at 2^22 intervals without meeting that). \"outside\" is the mass the \
approximation puts outside the exact posterior's support. Quantiles are 2.5 % / 50 % / 97.5 %.";

pub fn approximation_lab(s: &mut String, posteriors: &[PosteriorResult]) {
    if posteriors.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Approximation lab\n");
    let _ = writeln!(s, "{INTRO}\n");
    for p in posteriors {
        let _ = writeln!(s, "### {}\n", heading(p));
        let _ = writeln!(s, "Exact: {} (parameter: {}).\n", p.exact_form, p.parameter);
        let _ = writeln!(
            s,
            "![{}](plots/{}.svg)\n",
            density_caption(p),
            density_stem(p)
        );
        table(s, &summary(p));
        for note in notes(p) {
            let _ = writeln!(s, "- {note}");
        }
        if let Some(t) = gini(p) {
            let _ = writeln!(
                s,
                "\nGini coefficient from {} simulated draws each (MCSE = sd / sqrt(draws)):\n",
                p.gini.as_ref().map_or(0, |g| g.draws)
            );
            table(s, &t);
        }
        if let Some(t) = modes(p) {
            let _ = writeln!(
                s,
                "\nLaplace components (weights from each mode's Laplace evidence):\n"
            );
            table(s, &t);
        }
        s.push('\n');
    }
}

pub fn heading(p: &PosteriorResult) -> String {
    format!("{} ({}, subset {}, n = {})", p.id, p.kind, p.subset, p.n)
}

pub fn density_stem(p: &PosteriorResult) -> String {
    format!("density-{}-{}", p.id, p.subset)
}

pub fn density_caption(p: &PosteriorResult) -> String {
    format!(
        "Posterior density of {} ({}, n = {}): exact and approximations",
        p.parameter, p.id, p.n
    )
}

/// The exact posterior and each approximation: moments, quantiles, distances, mass outside.
pub fn summary(p: &PosteriorResult) -> Table {
    let mut rows = vec![vec![
        Cell::from("exact"),
        format!("{:.4}", p.exact.mean).into(),
        format!("{:.4}", p.exact.sd).into(),
        q3(&p.exact.quantiles).into(),
        "–".into(),
        "–".into(),
        "–".into(),
        "–".into(),
        "–".into(),
    ]];
    for a in &p.approximations {
        rows.push(vec![
            a.name.name().into(),
            format!("{:.4}", a.mean).into(),
            format!("{:.4}", a.sd).into(),
            q3(&a.quantiles).into(),
            small(a.kl).into(),
            small(a.tv).into(),
            small(a.hellinger).into(),
            small(a.mass_outside_support).into(),
            format!(
                "{}{}",
                a.integration.intervals,
                if a.integration.converged { "" } else { "*" }
            )
            .into(),
        ]);
    }
    Table {
        headers: [
            "distribution",
            "mean",
            "sd",
            "quantiles",
            "KL",
            "TV",
            "Hellinger",
            "outside",
            "grid",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        numeric: vec![false, true, true, false, true, true, true, true, true],
        rows,
    }
}

/// What each approximation is, and the scale its distances were integrated on.
pub fn notes(p: &PosteriorResult) -> Vec<String> {
    p.approximations
        .iter()
        .map(|a| {
            let on = if a.distance_scale == "parameter" {
                String::new()
            } else {
                format!(" (distances integrated on {})", a.distance_scale)
            };
            format!("{}: {}{on}", a.name, a.form)
        })
        .collect()
}

pub fn gini(p: &PosteriorResult) -> Option<Table> {
    let g = p.gini.as_ref()?;
    let rows = [("normal approximation", &g.approx), ("exact", &g.exact)]
        .iter()
        .map(|(name, x)| {
            vec![
                Cell::from(*name),
                format!("{:.4}", x.mean).into(),
                format!("{:.4}", x.q025).into(),
                format!("{:.4}", x.q975).into(),
                format!("{:.2e}", x.mcse).into(),
            ]
        })
        .collect();
    Some(Table {
        headers: ["posterior", "mean", "2.5 %", "97.5 %", "MCSE"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![false, true, true, true, true],
        rows,
    })
}

pub fn modes(p: &PosteriorResult) -> Option<Table> {
    if p.modes.is_empty() {
        return None;
    }
    let rows = p
        .modes
        .iter()
        .map(|m| {
            vec![
                Cell::from(format!("{:.4}", m.location)),
                format!("{:.4}", m.sd).into(),
                format!("{:.4}", m.weight).into(),
                format!("{:.4}", m.ln_evidence).into(),
            ]
        })
        .collect();
    Some(Table {
        headers: ["mode", "sd", "weight", "log evidence"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![true, true, true, true],
        rows,
    })
}
