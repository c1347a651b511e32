//! Writing a run record: every file is a view of the same [`ExperimentRecord`], and the
//! whole directory is replaced atomically.

mod atomic;
mod csv;
pub mod html;
mod lab_markdown;
pub mod markdown;
pub mod plots;
mod sweep;
pub mod tables;

pub use sweep::{point_dir, render_sweep};

pub use atomic::{write_dir, write_file};

use crate::record::ExperimentRecord;

/// One output file: its path inside the run directory and its bytes.
#[derive(Debug, Clone)]
pub struct Artifact {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// results.json, predictions.csv, trace.csv, report.md, report.html and plots/*.svg.
pub fn render(record: &ExperimentRecord) -> Vec<Artifact> {
    let json = serde_json::to_vec_pretty(record).expect("the run record serialises to JSON");
    let figures = plots::figures(record);
    let mut out = vec![
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
            bytes: markdown::report(record, &figures).into_bytes(),
        },
        Artifact {
            name: "report.html".into(),
            bytes: html::report(record, &figures).into_bytes(),
        },
    ];
    if let Some(c) = &record.comparison {
        let json = serde_json::to_vec_pretty(&c.rows).expect("comparisons serialise to JSON");
        out.push(Artifact {
            name: "comparison.json".into(),
            bytes: json,
        });
    }
    out.extend(figures.into_iter().map(|f| Artifact {
        name: format!("plots/{}.svg", f.stem),
        bytes: f.svg.into_bytes(),
    }));
    out
}
