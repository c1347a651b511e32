//! `bayeslab predict RUN_DIR DATA [--out FILE]`: a new table scored with a run directory's
//! stored posteriors (library: run/score.rs).

use std::path::{Path, PathBuf};

use bayeslab_core::Error;
use bayeslab_report as output;

/// The long help: what is scored, how, and what comes out.
pub const HELP: &str = "\
What it does:
  Reads RUN_DIR/results.json (written by `bayeslab run`) and prepares every row of DATA as the
  run prepared its own rows: the same feature columns, categorical levels and reference level,
  fill values for gaps, and standardisation with the TRAINING rows' mean and sd. Then every run
  scores the rows with its stored posterior, under every predictive the run used (plugin, mc,
  probit, mackay, exact), with the run's own Monte-Carlo seed.

Output (CSV, to standard output or --out FILE):
  row,<run>/<predictive>,...    row = the 0-based data row of DATA (pandas' default index);
                                each value is p(y = positive class); with more than two
                                classes one column per class, <run>/<predictive>[<class>].

Refused, with the fix (exit 2):
  a missing feature column; a level the training rows did not have (when the run had
  unseen_levels = \"error\"); a gap where the run learnt no fill value; an existing --out file.
  Gaussian runs are rebuilt from results.json. The others (Gibbs, softmax, the generative
  kinds) are fitted again from the experiment results.json stores, on the same data with the
  same seed: refused when a data file changed since the run (its SHA-256 differs).

Check: scoring the run's own test rows reproduces its predictions.csv exactly.

Examples:
  bayeslab predict runs/quickstart new_patients.csv
  bayeslab predict runs/quickstart new_patients.parquet --out scored.csv";

pub fn predict(run_dir: &Path, data: &Path, out: Option<PathBuf>) -> Result<i32, Error> {
    if let Some(out) = out.as_deref().filter(|o| o.exists()) {
        return Err(Error::Config {
            file: out.to_path_buf(),
            message: "already exists, and predict never overwrites a file; choose another --out or remove it".into(),
        });
    }
    if !data.is_file() {
        return Err(Error::Data {
            file: data.to_path_buf(),
            message: "no such file: DATA is the CSV or Parquet table to score".into(),
        });
    }
    let scored = bayeslab_engine::run::score::score(run_dir, data)?;
    for s in &scored.skipped {
        eprintln!("note: not scored: {s}");
    }
    let csv = scored.csv();
    match out {
        Some(out) => {
            output::write_file(&out, csv.as_bytes())?;
            eprintln!(
                "wrote {} rows x {} predictions to {}",
                scored.rows,
                scored.columns.len(),
                out.display()
            );
        }
        None => print!("{csv}"),
    }
    Ok(0)
}
