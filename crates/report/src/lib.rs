//! Writing a run record: every file is a view of the same [`ExperimentRecord`], and the
//! whole directory is replaced atomically.

#![forbid(unsafe_code)]

mod blocks;
pub mod coefficients;
pub mod contour;
mod csv;
mod draws;
pub mod export;
#[cfg(test)]
mod fixture;
pub mod folds;
pub mod formulas;
pub mod html;
mod lab_markdown;
pub mod markdown;
pub mod pictures;
pub mod plots;
pub mod steps;
mod sweep;
pub mod tables;

pub use sweep::{point_dir, render_sweep, sweep_files, sweep_series};

pub use bayeslab_core::files::{
    check_out, write_dir, write_dir_with_files, write_file, Artifact, Scratch,
};

use bayeslab_core::record::ExperimentRecord;

/// results.json, predictions.csv, trace.csv, report.md, report.html, plots/*.svg and, for
/// runs that kept their draws, draws/.
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
    if streamed_predictions(record).is_some() {
        // written chunk by chunk during the run; see [`streamed_files`]
        out.retain(|a| a.name != "predictions.csv");
    }
    if let Some(c) = &record.comparison {
        let json = serde_json::to_vec_pretty(&c.rows).expect("comparisons serialise to JSON");
        out.push(Artifact {
            name: "comparison.json".into(),
            bytes: json,
        });
    }
    out.extend(draws::artifacts(record));
    out.extend(figures.into_iter().map(|f| Artifact {
        name: format!("plots/{}.svg", f.stem),
        bytes: f.svg.into_bytes(),
    }));
    out
}

/// A streamed run's predictions.csv, already on disk (`[data] streaming = true`).
fn streamed_predictions(record: &ExperimentRecord) -> Option<&std::path::Path> {
    record.predictions.file.as_ref().map(|p| p.path())
}

/// The files of `record` that [`render`] leaves on disk rather than in memory, as (name in the
/// run directory, current path): a streamed run's predictions.csv.
pub fn streamed_files(record: &ExperimentRecord) -> Vec<(String, std::path::PathBuf)> {
    streamed_predictions(record)
        .map(|p| ("predictions.csv".to_string(), p.to_path_buf()))
        .into_iter()
        .collect()
}

/// The files `record` was made from (the experiment file, its data and observation files),
/// which an output directory must not hold.
pub fn inputs(record: &ExperimentRecord) -> Vec<std::path::PathBuf> {
    std::iter::once(&record.experiment.file)
        .chain(record.provenance.data_sha256.keys())
        .map(std::path::PathBuf::from)
        .collect()
}

/// Render `record` and replace `dir` with its files; returns how many were written.
pub fn write_record(
    dir: &std::path::Path,
    record: &ExperimentRecord,
) -> Result<usize, bayeslab_core::Error> {
    let artifacts = render(record);
    let files = streamed_files(record);
    write_dir_with_files(dir, &artifacts, &files, &inputs(record))?;
    Ok(artifacts.len() + files.len())
}
