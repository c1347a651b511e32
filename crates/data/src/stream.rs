//! The data of a streamed experiment (`[data] streaming = true`): the file is never loaded. One
//! statistics pass learns what the in-memory loader learns from the whole file (the columns,
//! the classes, missing values, the split's row counts, each feature's training mean, sd, min
//! and max), then every later pass turns each chunk into the same design rows
//! [`crate::load`] would make: the same split, standardisation, feature map and intercept.
//!
//! Passes before fitting: 1 over the data file (statistics), plus 1 over the test file when
//! train and test are separate files (its labels and missing values), plus 1 over the training
//! rows under `[features] map = "rbf"` with `centres = "sample"` (the sampled rows). Means and
//! sds come from [`crate::prepare::moments::Moments`], the in-memory loader's code, so they are equal to its values.

mod budget;
mod cache;
mod cached;
mod encoded;
mod missing;
mod open;
mod pass;
mod scan;
mod source;

use std::path::PathBuf;

use faer::{Mat, MatRef};

use bayeslab_core::record::{EncodingInfo, PassPurpose, ReadFrom};

use crate::plan::{DataPlan, Streaming};
use crate::prepare::dataset::effective_scaling;
use crate::prepare::encode::Encoder;
use crate::prepare::features::FittedMap;
use crate::prepare::labels::LabelSet;
use bayeslab_core::error::Result;
use bayeslab_core::record::FeatureSummary;

/// Which rows a pass delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Train,
    Test,
}

/// What one pass over a file cost: chunks read, rows delivered, and the wall time, of which
/// `read_seconds` went to reading: polars and turning its columns into design rows, or, for a
/// pass over the cache, waiting for the reading thread's next block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PassStats {
    pub chunks: usize,
    pub rows: usize,
    pub seconds: f64,
    pub read_seconds: f64,
    pub read_from: ReadFrom,
    /// For a pass over the cache: the CPU seconds of the thread that checked its blocks ahead
    /// of the fit, on the cores the fit shares (`None` for a pass over the file, or off Linux).
    pub reader_cpu_seconds: Option<f64>,
}

/// A pass over the data file: what [`crate::read::chunks::tables::each_table`] counted.
impl From<crate::read::chunks::tables::ReadCount> for PassStats {
    fn from(count: crate::read::chunks::tables::ReadCount) -> PassStats {
        PassStats {
            chunks: count.chunks,
            rows: count.rows,
            seconds: count.seconds,
            read_seconds: count.read_seconds,
            read_from: ReadFrom::File,
            reader_cpu_seconds: None,
        }
    }
}

/// Design rows of one chunk: as [`crate::Design`], for the rows of the chunk in the pass's part.
#[derive(Debug, Clone)]
pub struct DesignChunk {
    pub x: Mat<f64>,
    pub y: Vec<f64>,
    pub source_rows: Vec<usize>,
}

/// One chunk's design rows as a pass hands them on: borrowed, because a pass over the design
/// cache lends the rows where they lie in the mapped file (no copy), and a pass over the data
/// file lends the [`DesignChunk`] it just built.
#[derive(Debug, Clone, Copy)]
pub struct DesignRows<'a> {
    pub x: MatRef<'a, f64>,
    pub y: &'a [f64],
    pub source_rows: &'a [usize],
}

impl DesignChunk {
    pub fn rows(&self) -> DesignRows<'_> {
        DesignRows {
            x: self.x.as_ref(),
            y: &self.y,
            source_rows: &self.source_rows,
        }
    }
}

impl DesignRows<'_> {
    /// The rows copied out of the pass, for a caller that keeps them.
    pub fn to_chunk(&self) -> DesignChunk {
        DesignChunk {
            x: self.x.to_owned(),
            y: self.y.to_vec(),
            source_rows: self.source_rows.to_vec(),
        }
    }
}

/// A data file being streamed, with everything the statistics pass learnt.
#[derive(Debug, Clone)]
pub struct StreamedData {
    pub files: Vec<PathBuf>,
    pub target: String,
    pub classes: Vec<String>,
    pub features: Vec<String>,
    pub columns: Vec<String>,
    pub summaries: Vec<FeatureSummary>,
    /// Categorical expansions and imputations, for the record.
    pub encoding: EncodingInfo,
    pub notes: Vec<String>,
    pub rows_train: usize,
    pub rows_test: usize,
    pub positives_train: usize,
    pub positives_test: usize,
    /// Rows of each class (in `classes` order) among the training and the test rows.
    pub class_counts_train: Vec<usize>,
    pub class_counts_test: Vec<usize>,
    /// The passes made before fitting (statistics, test labels, RBF centres), in order.
    pub preparation: Vec<(PassPurpose, PassStats)>,
    pub streaming: Streaming,
    /// Estimated bytes of one chunk's working set plus the D x D matrices (see [`budget::working_set`]).
    pub working_set: u64,
    /// Chunks each pass decodes at once (see `budget::chunks_in_flight`).
    pub(crate) ahead: usize,
    plan: DataPlan,
    train_labels: LabelSet,
    /// The test file's own labels when train and test are separate files.
    test_labels: Option<LabelSet>,
    /// (mean, sd) per design column on the training rows, when standardising.
    stats: Option<Vec<(f64, f64)>>,
    /// The columns read as levels in every chunk.
    categorical: Vec<String>,
    /// Raw columns into design columns, learnt in the statistics pass.
    encoder: Encoder,
    map: FittedMap,
    /// The training rows' design cache, once the runner gave it a directory
    /// ([`StreamedData::keep_cache_in`]); shared by clones, removed with the last of them.
    cache: Option<std::sync::Arc<cache::PassCache>>,
    /// The data file(s) as the statistics pass read them (train first), checked by every pass.
    sources: Vec<source::Source>,
}

impl StreamedData {
    /// Each raw feature's code, in `features` order.
    pub fn codes(&self) -> &[bayeslab_core::record::ColumnCode] {
        &self.encoder.codes
    }

    /// Per design column but the intercept, (centre, scale) with design = (x - centre) /
    /// scale; `None` when a feature map made the design columns.
    pub fn scaling(&self) -> Option<Vec<(f64, f64)>> {
        if !matches!(self.plan.feature_map, crate::plan::FeatureMap::Identity) {
            return None;
        }
        let n = self.summaries.len();
        Some(match &self.stats {
            Some(stats) => stats.iter().map(|&s| effective_scaling(Some(s))).collect(),
            None => vec![effective_scaling(None); n],
        })
    }
}

/// A consumer of a chunk's complete rows in one part: raw feature columns, class indices and
/// data rows.
type RawRows<'a> = dyn FnMut(&[Vec<f64>], Vec<f64>, Vec<usize>) -> Result<()> + 'a;
