//! The negative log joint of a binary GLM summed chunk by chunk: one pass per point Newton
//! asks about, with value and gradient (and the Hessian, when asked for) cached for that point.
//! A pass without the Hessian costs O(N D) instead of O(N D^2); each pass tells the rows which
//! kind it is ([`Chunks::hessian_next`]), so the record can show it.

use std::cell::RefCell;

use faer::Mat;

use super::chunks::Chunks;
use crate::catalog::Link;
use crate::error::Error;
use crate::model::logistic::LogisticObjective;
use crate::model::probit::ProbitObjective;
use crate::numeric::glm::{Hessian, Terms};
use crate::optim::Objective;

/// E(w), its gradient and (when computed) Hessian at one point, from one pass.
struct Evaluation {
    w: Vec<f64>,
    value: f64,
    gradient: Vec<f64>,
    hessian: Option<Mat<f64>>,
    /// Whether `hessian` is the exact one (not a chord step's single-precision sums).
    exact: bool,
    /// Every chunk's objective reports divergence (under MLE: every row separated, or runaway
    /// weights): then so would the whole objective.
    diverging: bool,
}

/// The negative log joint of a binary GLM whose rows stream from `chunks`.
pub struct StreamedObjective<'a> {
    chunks: &'a dyn Chunks,
    link: Link,
    precision: f64,
    dim: usize,
    rows: usize,
    // The Objective trait asks for value, gradient and Hessian separately through &self; the
    // cache keeps Newton at one pass per point, and the error survives the f64 interface.
    cache: RefCell<Option<Evaluation>>,
    error: RefCell<Option<Error>>,
}

impl<'a> StreamedObjective<'a> {
    pub fn new(
        chunks: &'a dyn Chunks,
        link: Link,
        precision: f64,
        dim: usize,
        rows: usize,
    ) -> Self {
        StreamedObjective {
            chunks,
            link,
            precision,
            dim,
            rows,
            cache: RefCell::new(None),
            error: RefCell::new(None),
        }
    }

    /// The first error a pass met (reading the file), which Newton only saw as a NaN.
    pub fn take_error(&self) -> Option<Error> {
        self.error.borrow_mut().take()
    }

    /// Read the evaluation at `w`, making a pass unless the cache holds it (with the Hessian
    /// `hessian` asks for; an exact one serves a single-precision request too).
    fn evaluate<T>(&self, w: &[f64], hessian: Hessian, read: impl FnOnce(&Evaluation) -> T) -> T {
        let fresh = self.cache.borrow().as_ref().is_some_and(|e| {
            e.w == w
                && match hessian {
                    Hessian::None => true,
                    Hessian::Single => e.hessian.is_some(),
                    Hessian::Exact => e.hessian.is_some() && e.exact,
                }
        });
        if !fresh {
            let e = self.pass(w, hessian);
            *self.cache.borrow_mut() = Some(e);
        }
        read(self.cache.borrow().as_ref().expect("evaluated above"))
    }

    fn pass(&self, w: &[f64], kind: Hessian) -> Evaluation {
        let d = self.dim;
        let hessian = kind != Hessian::None;
        let mut total = Terms::zero(d, hessian);
        let mut diverging = true;
        self.chunks.hessian_next(hessian);
        let result = self.chunks.each(&mut |x, y| {
            let chunk: Box<dyn Objective + '_> = match self.link {
                Link::Logistic => Box::new(LogisticObjective::new(x, y, 0.0)),
                Link::Probit => Box::new(ProbitObjective::new(x, y, 0.0)),
            };
            // One fused pass over the chunk's rows for all three.
            let (value, gradient, hessian) = if kind == Hessian::Single {
                let (value, gradient, h, _) = chunk.step_terms(w);
                (value, gradient, Some(h))
            } else {
                chunk.terms(w, hessian)
            };
            total.add(&Terms {
                value,
                gradient,
                hessian,
            });
            diverging &= self.precision == 0.0 && chunk.diverging(w);
            Ok(())
        });
        total.mirror();
        if let Err(e) = result {
            self.error.borrow_mut().get_or_insert(e);
            total.value = f64::NAN;
            total.gradient.fill(f64::NAN);
        }
        let (value, gradient, hessian) = total.with_prior(w, self.precision);
        Evaluation {
            w: w.to_vec(),
            value,
            gradient,
            hessian,
            exact: kind == Hessian::Exact,
            diverging,
        }
    }
}

impl Objective for StreamedObjective<'_> {
    fn dim(&self) -> usize {
        self.dim
    }

    fn value(&self, w: &[f64]) -> f64 {
        self.evaluate(w, Hessian::None, |e| e.value)
    }

    fn gradient(&self, w: &[f64]) -> Vec<f64> {
        self.evaluate(w, Hessian::None, |e| e.gradient.clone())
    }

    fn hessian(&self, w: &[f64]) -> Mat<f64> {
        self.terms(w, true)
            .2
            .expect("terms with the Hessian asked for")
    }

    fn terms(&self, w: &[f64], hessian: bool) -> (f64, Vec<f64>, Option<Mat<f64>>) {
        self.evaluate(w, Hessian::exact_if(hessian), |e| {
            let h = e.hessian.as_ref().filter(|_| hessian).cloned();
            (e.value, e.gradient.clone(), h)
        })
    }

    /// Chord Newton's steps: the chunks' single-precision Hessians (numeric/glm/single.rs).
    fn step_terms(&self, w: &[f64]) -> (f64, Vec<f64>, Mat<f64>, bool) {
        self.evaluate(w, Hessian::Single, |e| {
            let h = e.hessian.clone().expect("evaluated with the Hessian");
            (e.value, e.gradient.clone(), h, e.exact)
        })
    }

    fn diverging(&self, w: &[f64]) -> bool {
        self.evaluate(w, Hessian::None, |e| e.diverging)
    }

    fn scale(&self) -> f64 {
        self.rows as f64
    }
}
