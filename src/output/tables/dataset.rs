//! The dataset's tables: the features that enter the design, and the data files with their
//! checksums.

use super::table::Table;
use crate::record::ExperimentRecord;

pub fn features(r: &ExperimentRecord) -> Table {
    let rows = r
        .dataset
        .summaries
        .iter()
        .map(|f| {
            vec![
                f.name.as_str().into(),
                format!("{:.4}", f.mean).into(),
                format!("{:.4}", f.sd).into(),
                f.min.to_string().into(),
                f.max.to_string().into(),
                f.missing.to_string().into(),
            ]
        })
        .collect();
    Table {
        headers: ["feature", "mean", "sd", "min", "max", "missing"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![false, true, true, true, true, true],
        rows,
    }
}

pub fn data_files(r: &ExperimentRecord) -> Table {
    Table {
        headers: vec!["data file".into(), "SHA-256".into()],
        numeric: vec![false, false],
        rows: r
            .provenance
            .data_sha256
            .iter()
            .map(|(f, h)| vec![f.as_str().into(), h.as_str().into()])
            .collect(),
    }
}
