//! A run's posterior draws and the log likelihood of every training row at each of them, kept
//! beside the record for the `draws/` export (`[evaluation] export_draws = true`): CmdStan CSV
//! that ArviZ reads in one call, and Parquet for pandas and polars. Never in results.json,
//! whose size would grow with draws x rows.

/// The draws of one run, as PSIS-LOO used them.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawsExport {
    /// The design columns, in weight order.
    pub weights: Vec<String>,
    /// Chains of equal length, the draws chain after chain (1 for draws from a Gaussian).
    pub chains: usize,
    /// D x S weights, draw after draw: draw s is `w[s * D .. (s + 1) * D]`.
    pub w: Vec<f64>,
    /// ln p(y, w_s): the log likelihood of the training rows plus the log prior density
    /// N(0, precision^-1 I) (without the prior under `precision = 0`, which is improper).
    pub log_joint: Vec<f64>,
    /// ln q(w_s) of draws from a Gaussian approximation q; `None` for a sampler's draws, which
    /// are the posterior's own.
    pub log_q: Option<Vec<f64>>,
    /// N x S log likelihoods, row after row: training row i's S values are contiguous.
    pub log_lik: Vec<f64>,
    /// Each training row's 0-based position among the data rows of its file.
    pub data_rows: Vec<usize>,
}

impl DrawsExport {
    /// The number of draws, S.
    pub fn draws(&self) -> usize {
        self.log_joint.len()
    }

    /// The number of training rows, N.
    pub fn rows(&self) -> usize {
        self.data_rows.len()
    }

    /// The weights of draw `s`.
    pub fn draw(&self, s: usize) -> &[f64] {
        let d = self.weights.len();
        &self.w[s * d..(s + 1) * d]
    }

    /// Training row `i`'s log likelihood at each draw.
    pub fn row(&self, i: usize) -> &[f64] {
        let s = self.draws();
        &self.log_lik[i * s..(i + 1) * s]
    }
}
