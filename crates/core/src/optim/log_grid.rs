//! Empirical Bayes for the prior precision (`[prior] precision = "evidence"`, docs/maths.md 1.1):
//! choose lambda maximising the Laplace log evidence ln p(y | X, lambda). A log grid of lambda
//! brackets the maximum and gives the evidence curve (with the held-out log-loss at every grid
//! point, so a reader sees where evidence and predictive quality disagree); golden-section search
//! in ln lambda then refines inside the bracket.

use crate::error::Result;

/// The lambda grid: GRID_POINTS values, log-spaced over [GRID_LOW, GRID_HIGH].
pub const GRID_LOW: f64 = 1e-4;
pub const GRID_HIGH: f64 = 1e4;
pub const GRID_POINTS: usize = 33;
/// Golden-section search stops when the bracket in ln lambda is narrower than this.
pub const LOG_TOLERANCE: f64 = 1e-4;

/// (lambda, ln evidence at lambda).
pub type Point = (f64, f64);

pub fn grid() -> Vec<f64> {
    let (a, b) = (GRID_LOW.ln(), GRID_HIGH.ln());
    (0..GRID_POINTS)
        .map(|i| (a + (b - a) * i as f64 / (GRID_POINTS - 1) as f64).exp())
        .collect()
}

/// Which end of the grid `lambda` (a result of [`maximise`]) is at, if it is one: the search
/// never looks beyond the grid, so a maximum there is only the grid's edge.
pub fn edge(lambda: f64) -> Option<crate::record::GridEdge> {
    let near = |end: f64| (lambda.ln() - end.ln()).abs() <= 2.0 * LOG_TOLERANCE;
    if near(GRID_LOW) {
        Some(crate::record::GridEdge::Low)
    } else if near(GRID_HIGH) {
        Some(crate::record::GridEdge::High)
    } else {
        None
    }
}

/// The warning for a lambda at the grid's edge, in every view's words.
pub fn edge_words(edge: crate::record::GridEdge) -> String {
    edge.words(GRID_LOW, GRID_HIGH)
}

/// The maximiser of `log_evidence` over lambda: the best grid point, then golden-section search
/// in ln lambda between its neighbours. Returns (lambda, ln evidence there) and the grid values.
pub fn maximise(mut log_evidence: impl FnMut(f64) -> Result<f64>) -> Result<(Point, Vec<Point>)> {
    let g = grid();
    let mut curve = Vec::with_capacity(g.len());
    for &l in &g {
        curve.push((l, log_evidence(l)?));
    }
    let best = (0..curve.len())
        .max_by(|&i, &j| curve[i].1.total_cmp(&curve[j].1))
        .unwrap_or(0);
    let mut lo = g[best.saturating_sub(1)].ln();
    let mut hi = g[(best + 1).min(g.len() - 1)].ln();
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut f = |t: f64| log_evidence(t.exp());
    let mut c = hi - r * (hi - lo);
    let mut d = lo + r * (hi - lo);
    let (mut fc, mut fd) = (f(c)?, f(d)?);
    while hi - lo > LOG_TOLERANCE {
        if fc > fd {
            hi = d;
            d = c;
            fd = fc;
            c = hi - r * (hi - lo);
            fc = f(c)?;
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + r * (hi - lo);
            fd = f(d)?;
        }
    }
    let mut found = if fc > fd {
        (c.exp(), fc)
    } else {
        (d.exp(), fd)
    };
    // The bracket's ends are grid points already evaluated: keep one if it is better (a maximum
    // at the edge of the grid).
    if curve[best].1 > found.1 {
        found = curve[best];
    }
    Ok((found, curve))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::logistic::{fit, FitSettings};
    use crate::model::spec::Optimizer;
    use faer::Mat;

    #[test]
    fn only_the_grid_s_ends_are_its_edges() {
        use crate::record::GridEdge;
        assert_eq!(edge(GRID_LOW), Some(GridEdge::Low));
        assert_eq!(edge(GRID_HIGH * (1.0 + 1e-12)), Some(GridEdge::High));
        // a maximum refined between the two lowest grid points is inside the grid
        let second = grid()[1];
        assert_eq!(edge((GRID_LOW * second).sqrt()), None);
        assert_eq!(edge(1.0), None);
        // a maximising function that rises without bound ends at the upper edge
        let ((best, _), _) = maximise(|l| Ok(l.ln())).unwrap();
        assert_eq!(edge(best), Some(GridEdge::High));
    }

    #[test]
    fn evidence_maximisation_agrees_with_a_fine_grid_search() {
        let x = Mat::<f64>::from_fn(40, 3, |i, j| match j {
            0 => 1.0,
            1 => (i as f64 * 0.61).sin() * 2.0,
            _ => (i as f64 * 0.23).cos(),
        });
        let y: Vec<f64> = (0..40)
            .map(|i| {
                f64::from(u8::from(
                    (i as f64 * 0.61).sin() + 0.4 * (i as f64 * 1.7).cos() > 0.1,
                ))
            })
            .collect();
        let ev = |lambda: f64| -> f64 {
            let s = FitSettings {
                precision: lambda,
                optimizer: Optimizer::Newton,
                max_iter: 100,
                tolerance: 1e-10,
                laplace: true,
                curvature: crate::optim::Curvature::Chord,
                warm_start: false,
            };
            let f = fit(
                x.as_ref(),
                &y,
                &s,
                "e",
                None,
                &mut |_: &str, _: &crate::optim::Iterate| {},
            )
            .unwrap();
            f.posterior.unwrap().log_evidence.unwrap()
        };
        let ((best, value), _) = maximise(|l| Ok(ev(l))).unwrap();
        // Independent search: 4001 points in ln lambda over the whole range, then the best.
        let (a, b) = (GRID_LOW.ln(), GRID_HIGH.ln());
        let (fine, fine_value) = (0..=4000)
            .map(|i| (a + (b - a) * i as f64 / 4000.0).exp())
            .map(|l| (l, ev(l)))
            .max_by(|p, q| p.1.total_cmp(&q.1))
            .unwrap();
        // the fine grid's spacing in ln lambda is 0.0046: the optimum must lie within it
        assert!((best.ln() - fine.ln()).abs() < 0.005, "{best} vs {fine}");
        assert!(value >= fine_value - 1e-9);
        assert!(
            best > GRID_LOW && best < GRID_HIGH,
            "interior optimum expected, got {best}"
        );
    }
}
