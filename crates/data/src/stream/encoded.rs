//! The extra statistics pass of a streamed file whose encoding is not the identity (a
//! categorical column, or filled cells): each design column's training mean, sd, min and max,
//! pushed row by row in file order through the in-memory loader's [`Moments`], so they equal
//! the in-memory summaries of the encoded columns exactly.

use super::{Part, StreamedData};
use crate::prepare::moments::Moments;
use bayeslab_core::error::Result;
use bayeslab_core::record::{FeatureSummary, PassPurpose};

impl StreamedData {
    /// Replace the raw columns' summaries by the design columns' (one more pass over the
    /// training rows, recorded as `encoded statistics`).
    pub(super) fn encoded_summaries(&mut self) -> Result<()> {
        let d = self.encoder.names.len();
        let mut moments = vec![Moments::default(); d];
        let mut range = vec![(f64::INFINITY, f64::NEG_INFINITY); d];
        let stats = self.raw_pass(Part::Train, &mut |cols, _, _| {
            for ((col, m), r) in cols.iter().zip(&mut moments).zip(&mut range) {
                for &v in col {
                    m.push(v);
                    r.0 = r.0.min(v);
                    r.1 = r.1.max(v);
                }
            }
            Ok(())
        })?;
        self.preparation
            .push((PassPurpose::EncodedStatistics, stats));
        let raw_missing: Vec<usize> = self.summaries.iter().map(|s| s.missing).collect();
        self.summaries = self
            .encoder
            .names
            .iter()
            .zip(&self.encoder.source)
            .zip(moments.iter().zip(&range))
            .map(|((name, &j), (m, &(min, max)))| {
                let (mean, sd) = m.mean_sd();
                FeatureSummary {
                    name: name.clone(),
                    mean,
                    sd,
                    min,
                    max,
                    missing: raw_missing[j],
                }
            })
            .collect();
        Ok(())
    }
}
