//! Reliability tables, ECE and MCE. Equal-width bins split [0, 1] into B intervals (bin b
//! holds lower <= p < upper; the last bin also holds p = 1). Equal-mass bins sort the rows by
//! p and cut them into B groups of (nearly) equal size; their edges are the smallest and
//! largest p in the group.

use serde::Serialize;

mod bootstrap;
pub use bootstrap::{ece_bootstrap, percentile, EceBootstrap, Resampler};

/// How the calibration bins are formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Binning {
    #[default]
    EqualWidth,
    EqualMass,
}

impl Binning {
    pub fn name(self) -> &'static str {
        match self {
            Binning::EqualWidth => "equal-width",
            Binning::EqualMass => "equal-mass",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Binning::EqualWidth, Binning::EqualMass]
            .into_iter()
            .find(|b| b.name() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Bin {
    pub lower: f64,
    pub upper: f64,
    pub count: usize,
    /// Mean prediction in the bin; `null` for an empty bin.
    pub mean_predicted: Option<f64>,
    /// Fraction of positives in the bin; `null` for an empty bin.
    pub observed_frequency: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Reliability {
    pub bins: Vec<Bin>,
    /// sum_b (n_b / N) |freq_b - meanp_b|
    pub ece: f64,
    /// max_b |freq_b - meanp_b| over non-empty bins
    pub mce: f64,
}

/// The reliability table of predictions `p` for labels `y`.
pub fn reliability(p: &[f64], y: &[f64], bins: usize, binning: Binning) -> Reliability {
    match binning {
        Binning::EqualWidth => equal_width(p, y, bins),
        Binning::EqualMass => equal_mass(p, y, bins),
    }
}

/// Per-bin sums of a reliability table: rows, predictions and labels, added one row at a time
/// (in memory over the test rows, streaming chunk by chunk: the same sums in the same order).
#[derive(Debug, Clone)]
pub struct BinSums {
    count: Vec<usize>,
    sum_p: Vec<f64>,
    sum_y: Vec<f64>,
}

impl BinSums {
    pub fn new(bins: usize) -> Self {
        BinSums {
            count: vec![0; bins],
            sum_p: vec![0.0; bins],
            sum_y: vec![0.0; bins],
        }
    }

    pub fn add(&mut self, bin: usize, p: f64, y: f64) {
        self.count[bin] += 1;
        self.sum_p[bin] += p;
        self.sum_y[bin] += y;
    }

    /// The table over `n` rows with these bin edges: per-bin means, ECE and MCE.
    pub fn finish(self, edges: Vec<(f64, f64)>, n: usize) -> Reliability {
        let BinSums {
            count,
            sum_p,
            sum_y,
        } = self;
        let n = n as f64;
        let mut ece = 0.0;
        let mut mce: f64 = 0.0;
        let bins: Vec<Bin> = edges
            .into_iter()
            .enumerate()
            .map(|(b, (lower, upper))| {
                let (mean_predicted, observed_frequency) = if count[b] > 0 {
                    let c = count[b] as f64;
                    let gap = (sum_y[b] / c - sum_p[b] / c).abs();
                    ece += c / n * gap;
                    mce = mce.max(gap);
                    (Some(sum_p[b] / c), Some(sum_y[b] / c))
                } else {
                    (None, None)
                };
                Bin {
                    lower,
                    upper,
                    count: count[b],
                    mean_predicted,
                    observed_frequency,
                }
            })
            .collect();
        Reliability { bins, ece, mce }
    }
}

/// Accumulate rows into bins given each row's bin index, then summarise.
fn summarise(
    p: &[f64],
    y: &[f64],
    bin_of: impl Fn(usize) -> usize,
    edges: Vec<(f64, f64)>,
) -> Reliability {
    let mut sums = BinSums::new(edges.len());
    for i in 0..p.len() {
        sums.add(bin_of(i), p[i], y[i]);
    }
    sums.finish(edges, p.len())
}

/// The B equal-width intervals [b/B, (b+1)/B).
pub fn equal_width_edges(bins: usize) -> Vec<(f64, f64)> {
    (0..bins)
        .map(|b| (b as f64 / bins as f64, (b + 1) as f64 / bins as f64))
        .collect()
}

/// The equal-width bin of p (p = 1 falls in the last bin).
pub fn equal_width_bin(p: f64, bins: usize) -> usize {
    ((p * bins as f64).floor() as usize).min(bins - 1)
}

fn equal_width(p: &[f64], y: &[f64], bins: usize) -> Reliability {
    summarise(
        p,
        y,
        |i| equal_width_bin(p[i], bins),
        equal_width_edges(bins),
    )
}

fn equal_mass(p: &[f64], y: &[f64], bins: usize) -> Reliability {
    let n = p.len();
    let bins = bins.min(n.max(1));
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut bin_of = vec![0usize; n];
    let mut edges = Vec::with_capacity(bins);
    for b in 0..bins {
        let (start, end) = (b * n / bins, (b + 1) * n / bins);
        for &i in &order[start..end] {
            bin_of[i] = b;
        }
        let lower = order.get(start).map_or(0.0, |&i| p[i]);
        let upper = if end > start {
            p[order[end - 1]]
        } else {
            lower
        };
        edges.push((lower, upper));
    }
    summarise(p, y, |i| bin_of[i], edges)
}

#[cfg(test)]
mod tests;
