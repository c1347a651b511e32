//! Writing a run record: every file is a view of the same [`ExperimentRecord`], and the
//! whole directory is replaced atomically.

mod atomic;
mod csv;
mod lab_markdown;
mod markdown;

pub use atomic::write_dir;

use crate::record::ExperimentRecord;

/// One output file: its name inside the run directory and its bytes.
#[derive(Debug, Clone)]
pub struct Artifact {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// results.json, predictions.csv, trace.csv and report.md for `record`.
pub fn render(record: &ExperimentRecord) -> Vec<Artifact> {
    let json = serde_json::to_vec_pretty(record).expect("the run record serialises to JSON");
    vec![
        Artifact {
            name: "results.json".into(),
            bytes: json,
        },
        Artifact {
            name: "predictions.csv".into(),
            bytes: csv::predictions(record).into_bytes(),
        },
        Artifact {
            name: "trace.csv".into(),
            bytes: csv::trace(record).into_bytes(),
        },
        Artifact {
            name: "report.md".into(),
            bytes: markdown::report(record).into_bytes(),
        },
    ]
}
