//! The multimodal case: y_i ~ Cauchy(theta, scale), theta ~ N(m0, s0²). With two clusters
//! of data the posterior of theta has two modes. Its exact density is normalised by
//! quadrature; its CDF is the running trapezoid integral on the same fine grid.

use super::integrate::refine;
use super::mode::LogDensity;

#[derive(Debug, Clone, PartialEq)]
pub struct CauchyModel {
    pub y: Vec<f64>,
    pub scale: f64,
    pub prior_mean: f64,
    pub prior_sd: f64,
}

impl CauchyModel {
    /// log p(theta | y) + c = -Σ log(1 + ((y_i - theta)/s)²) - (theta - m0)²/(2 s0²).
    pub fn ln_unnormalised(&self, t: f64) -> f64 {
        let lik: f64 = self
            .y
            .iter()
            .map(|y| -((y - t) / self.scale).powi(2).ln_1p())
            .sum();
        lik - 0.5 * ((t - self.prior_mean) / self.prior_sd).powi(2)
    }

    /// A range holding all but a negligible part of the posterior: the data and ±10 prior
    /// sds, widened by 10 Cauchy scales.
    fn range(&self) -> (f64, f64) {
        let lo = self
            .y
            .iter()
            .copied()
            .fold(self.prior_mean - 10.0 * self.prior_sd, f64::min);
        let hi = self
            .y
            .iter()
            .copied()
            .fold(self.prior_mean + 10.0 * self.prior_sd, f64::max);
        (lo - 10.0 * self.scale, hi + 10.0 * self.scale)
    }
}

impl LogDensity for CauchyModel {
    fn dim(&self) -> usize {
        1
    }
    fn ln_density(&self, x: &[f64]) -> f64 {
        self.ln_unnormalised(x[0])
    }
    /// d/dtheta = Σ 2u_i / (s (1 + u_i²)) - (theta - m0)/s0², u_i = (y_i - theta)/s.
    fn gradient(&self, x: &[f64]) -> Vec<f64> {
        let t = x[0];
        let g: f64 = self
            .y
            .iter()
            .map(|y| {
                let u = (y - t) / self.scale;
                2.0 * u / (self.scale * (1.0 + u * u))
            })
            .sum();
        vec![g - (t - self.prior_mean) / self.prior_sd.powi(2)]
    }
}

/// The normalised exact posterior.
#[derive(Debug, Clone, PartialEq)]
pub struct CauchyPosterior {
    pub model: CauchyModel,
    /// log of the normalising constant of exp(ln_unnormalised - shift).
    ln_z: f64,
    shift: f64,
    lo: f64,
    step: f64,
    /// CDF at lo + i step.
    cdf: Vec<f64>,
}

/// Intervals of the CDF table.
const CDF_INTERVALS: usize = 1 << 16;

impl CauchyPosterior {
    pub fn new(model: CauchyModel) -> Self {
        let (lo, hi) = model.range();
        // Shift by the largest value at the data points and the prior mean so that the
        // integrand is O(1) and the absolute tolerance is meaningful.
        let shift = model
            .y
            .iter()
            .copied()
            .chain([model.prior_mean])
            .map(|t| model.ln_unnormalised(t))
            .fold(f64::NEG_INFINITY, f64::max);
        let ([z], _) = refine(lo, hi, 1e-12, &|t| {
            [(model.ln_unnormalised(t) - shift).exp()]
        });
        let step = (hi - lo) / CDF_INTERVALS as f64;
        let dens: Vec<f64> = (0..=CDF_INTERVALS)
            .map(|i| (model.ln_unnormalised(lo + step * i as f64) - shift).exp())
            .collect();
        let mut cdf = Vec::with_capacity(dens.len());
        let mut acc = 0.0;
        cdf.push(0.0);
        for w in dens.windows(2) {
            acc += 0.5 * (w[0] + w[1]) * step;
            cdf.push(acc);
        }
        let total = acc;
        cdf.iter_mut().for_each(|c| *c /= total);
        CauchyPosterior {
            model,
            ln_z: z.ln(),
            shift,
            lo,
            step,
            cdf,
        }
    }

    pub fn ln_pdf(&self, t: f64) -> f64 {
        self.model.ln_unnormalised(t) - self.shift - self.ln_z
    }

    /// Log of the exact evidence ∫ exp(ln_unnormalised), for comparison with Laplace's.
    pub fn ln_evidence(&self) -> f64 {
        self.ln_z + self.shift
    }

    pub fn cdf(&self, t: f64) -> f64 {
        let pos = (t - self.lo) / self.step;
        if pos <= 0.0 {
            return 0.0;
        }
        let i = pos.floor() as usize;
        if i >= CDF_INTERVALS {
            return 1.0;
        }
        let f = pos - i as f64;
        self.cdf[i] + f * (self.cdf[i + 1] - self.cdf[i])
    }
}

#[cfg(test)]
impl CauchyModel {
    pub fn gradient_at(&self, t: f64) -> f64 {
        self.gradient(&[t])[0]
    }
}
