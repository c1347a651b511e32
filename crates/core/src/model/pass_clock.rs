//! The seconds an in-memory fit spends in its passes over the rows, by kind: with the Hessian
//! (X^T S X, O(N D^2)) or without it (E and g only, O(N D)). A streamed fit records each pass
//! over its chunks (results.json `streaming.passes`); this gives the in-memory fit the same
//! figure, so that benches/streaming.sh can divide a streamed Hessian pass by an in-memory
//! Hessian pass, rather than by the in-memory fit's whole time over its number of points (which
//! mixed in the warm start's subsample fit and the Laplace step).

use std::cell::Cell;
use std::time::Instant;

use faer::Mat;

use crate::optim::Objective;

/// The passes of one fit, by kind, and their wall seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PassTimes {
    pub hessian: usize,
    pub hessian_seconds: f64,
    pub gradient: usize,
    pub gradient_seconds: f64,
}

/// `objective` with its passes timed: each `terms` call (one pass that computes E and g, and
/// the Hessian when asked) and each `hessian` call (the Laplace step's pass after a chord step).
/// `value`, `gradient` and `diverging` are passed through untimed: Newton evaluates a point
/// through `terms` only.
pub struct PassClock<'a> {
    objective: &'a dyn Objective,
    times: Cell<PassTimes>,
}

impl<'a> PassClock<'a> {
    pub fn new(objective: &'a dyn Objective) -> Self {
        PassClock {
            objective,
            times: Cell::new(PassTimes::default()),
        }
    }

    pub fn times(&self) -> PassTimes {
        self.times.get()
    }

    fn count(&self, hessian: bool, start: Instant) {
        let seconds = start.elapsed().as_secs_f64();
        let mut t = self.times.get();
        if hessian {
            t.hessian += 1;
            t.hessian_seconds += seconds;
        } else {
            t.gradient += 1;
            t.gradient_seconds += seconds;
        }
        self.times.set(t);
    }
}

impl Objective for PassClock<'_> {
    fn dim(&self) -> usize {
        self.objective.dim()
    }

    fn value(&self, w: &[f64]) -> f64 {
        self.objective.value(w)
    }

    fn gradient(&self, w: &[f64]) -> Vec<f64> {
        self.objective.gradient(w)
    }

    fn hessian(&self, w: &[f64]) -> Mat<f64> {
        let start = Instant::now();
        let h = self.objective.hessian(w);
        self.count(true, start);
        h
    }

    fn terms(&self, w: &[f64], hessian: bool) -> (f64, Vec<f64>, Option<Mat<f64>>) {
        let start = Instant::now();
        let out = self.objective.terms(w, hessian);
        self.count(hessian, start);
        out
    }

    /// Chord Newton's steps (the single-precision Hessian): a Hessian pass.
    fn step_terms(&self, w: &[f64]) -> (f64, Vec<f64>, Mat<f64>, bool) {
        let start = Instant::now();
        let out = self.objective.step_terms(w);
        self.count(true, start);
        out
    }

    fn diverging(&self, w: &[f64]) -> bool {
        self.objective.diverging(w)
    }

    fn scale(&self) -> f64 {
        self.objective.scale()
    }
}

#[cfg(test)]
mod tests {
    use faer::Mat;

    use super::PassClock;
    use crate::model::logistic::LogisticObjective;
    use crate::optim::Objective;

    #[test]
    fn the_clock_counts_passes_by_kind_and_changes_no_value() {
        let x = Mat::<f64>::from_fn(30, 3, |i, j| ((i * 7 + j * 3) % 11) as f64 / 5.0 - 1.0);
        let y: Vec<f64> = (0..30).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
        let objective = LogisticObjective::new(x.as_ref(), &y, 0.5);
        let clock = PassClock::new(&objective);
        let w = [0.1, -0.2, 0.3];
        let (value, gradient, hessian) = clock.terms(&w, true);
        let (plain_value, plain_gradient, plain_hessian) = objective.terms(&w, true);
        assert_eq!(value.to_bits(), plain_value.to_bits());
        assert_eq!(gradient, plain_gradient);
        assert_eq!(hessian, plain_hessian);
        clock.terms(&w, false);
        clock.terms(&w, false);
        clock.hessian(&w);
        // Forwarded, not the trait's exact default: the objective's single-precision Hessian.
        let (_, _, _, exact) = clock.step_terms(&w);
        assert!(!exact);
        assert_eq!(clock.value(&w).to_bits(), plain_value.to_bits());
        let t = clock.times();
        assert_eq!((t.hessian, t.gradient), (3, 2));
        assert!(t.hessian_seconds > 0.0 && t.gradient_seconds > 0.0);
    }

    #[test]
    fn a_logistic_fit_times_every_pass_its_newton_counts() {
        use crate::model::logistic::{fit, FitSettings};
        use crate::model::spec::Optimizer;
        use crate::optim::Curvature;
        // Overlapping classes, 400 rows of an intercept and three features.
        let x = Mat::<f64>::from_fn(400, 4, |i, j| match j {
            0 => 1.0,
            _ => ((i * (2 * j + 5) + j) % 17) as f64 / 8.0 - 1.0,
        });
        let y: Vec<f64> = (0..400)
            .map(|i| f64::from(u8::from((i * 7 + i / 3) % 5 < 2)))
            .collect();
        for curvature in [Curvature::EveryStep, Curvature::Chord] {
            let settings = FitSettings {
                precision: 1.0,
                optimizer: Optimizer::Newton,
                max_iter: 50,
                tolerance: 1e-10,
                laplace: true,
                curvature,
                warm_start: false,
            };
            let f = fit(
                x.as_ref(),
                &y,
                &settings,
                "t",
                None,
                &mut |_: &str, _: &_| {},
            )
            .unwrap();
            // The solver's own count (the Laplace step's Hessian included) against the clock's.
            assert_eq!(
                (f.pass_times.hessian, f.pass_times.gradient),
                (f.passes.hessian, f.passes.gradient),
                "{curvature:?}"
            );
            assert!(f.pass_times.hessian >= 1);
        }
    }
}
