//! `draws/`: each run's posterior draws and every training row's log likelihood at each, as
//! PSIS-LOO used them (`[evaluation] export_draws = true`).
//!
//! - `<id>-<chain>.csv`, one CmdStan CSV file per chain: ArviZ reads every chain of a run in
//!   one call, `az.from_cmdstan(posterior="draws/<id>-*.csv", log_likelihood="log_lik")`, with
//!   no package beyond ArviZ (CmdStanPy, R's `posterior` and `loo` read the format too). Columns
//!   `lp__` (ln p(y, w)), `log_q__` (ln q(w), draws from a Gaussian approximation only), the
//!   weights `w.1` … `w.D` in design-column order, and `log_lik.1` … `log_lik.N`, one per
//!   training row.
//! - `<id>.draws.parquet`: `chain`, `draw`, `lp`, `log_q` and one column per weight, named
//!   after its design column; `<id>.log_lik.parquet`, long: `chain`, `draw`, `row` (0-based
//!   training row), `data_row` (its row in the data file, as predictions.csv numbers rows) and
//!   `log_lik`. For pandas and polars.

use super::Artifact;
use bayeslab_core::record::{DrawsExport, ExperimentRecord, RunRecord};
use bayeslab_data::parquet_sink::{frame_bytes, Values};

/// The files of every run of `record` that kept its draws.
pub fn artifacts(record: &ExperimentRecord) -> Vec<Artifact> {
    let mut out = Vec::new();
    for run in &record.runs {
        let Some(d) = run.draws.as_deref() else {
            continue;
        };
        let per_chain = d.draws() / d.chains.max(1);
        for chain in 0..d.chains {
            out.push(Artifact {
                name: format!("draws/{}-{}.csv", run.id, chain + 1),
                bytes: cmdstan_csv(record, run, d, chain, per_chain).into_bytes(),
            });
        }
        out.push(Artifact {
            name: format!("draws/{}.draws.parquet", run.id),
            bytes: parquet(draws_frame(d, per_chain)),
        });
        out.push(Artifact {
            name: format!("draws/{}.log_lik.parquet", run.id),
            bytes: parquet(log_lik_frame(d, per_chain)),
        });
    }
    out
}

fn parquet(columns: Vec<(String, Values)>) -> Vec<u8> {
    frame_bytes(columns).expect("the draws' columns are all of one length")
}

/// One chain of `d` as CmdStan writes its output: `#` comments, a header, a row per draw.
fn cmdstan_csv(
    record: &ExperimentRecord,
    run: &RunRecord,
    d: &DrawsExport,
    chain: usize,
    per_chain: usize,
) -> String {
    let from = match d.log_q {
        Some(_) => "draws from the run's Gaussian approximation q, not from the posterior: weight draw s by \
                    exp(lp__ - log_q__) (Pareto-smoothed) to estimate the exact posterior's expectations",
        None => "the sampler's kept draws, after burn-in and thinning",
    };
    let mut text = format!(
        "# bayeslab {}: run {} ({}) of experiment {}, chain {} of {}\n# {from}\n",
        env!("CARGO_PKG_VERSION"),
        run.id,
        run.kind,
        record.experiment.name,
        chain + 1,
        d.chains
    );
    for (j, name) in d.weights.iter().enumerate() {
        text += &format!("# w.{} is the weight of design column {name}\n", j + 1);
    }
    text +=
        "# log_lik.i is training row i; its data row is in the run's log_lik.parquet (data_row)\n";
    let mut header = vec!["lp__".to_string()];
    if d.log_q.is_some() {
        header.push("log_q__".into());
    }
    header.extend((1..=d.weights.len()).map(|j| format!("w.{j}")));
    header.extend((1..=d.rows()).map(|i| format!("log_lik.{i}")));
    text += &header.join(",");
    text.push('\n');
    for s in chain * per_chain..(chain + 1) * per_chain {
        let mut row = vec![d.log_joint[s]];
        row.extend(d.log_q.as_ref().map(|q| q[s]));
        row.extend_from_slice(d.draw(s));
        row.extend((0..d.rows()).map(|i| d.row(i)[s]));
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text += &cells.join(",");
        text.push('\n');
    }
    text
}

/// `chain` and `draw` (both 0-based) of every draw.
fn positions(d: &DrawsExport, per_chain: usize) -> (Vec<u64>, Vec<u64>) {
    (0..d.draws())
        .map(|s| ((s / per_chain) as u64, (s % per_chain) as u64))
        .unzip()
}

fn draws_frame(d: &DrawsExport, per_chain: usize) -> Vec<(String, Values)> {
    let (chain, draw) = positions(d, per_chain);
    let mut cols = vec![
        ("chain".to_string(), Values::U64(chain)),
        ("draw".to_string(), Values::U64(draw)),
        ("lp".to_string(), Values::F64(d.log_joint.clone())),
    ];
    if let Some(q) = &d.log_q {
        cols.push(("log_q".into(), Values::F64(q.clone())));
    }
    for (j, name) in d.weights.iter().enumerate() {
        let w = (0..d.draws()).map(|s| d.draw(s)[j]).collect();
        cols.push((name.clone(), Values::F64(w)));
    }
    cols
}

fn log_lik_frame(d: &DrawsExport, per_chain: usize) -> Vec<(String, Values)> {
    let (chain, draw) = positions(d, per_chain);
    let n = d.rows();
    let repeat = |v: &[u64]| Values::U64(v.iter().copied().cycle().take(n * v.len()).collect());
    let row = (0..n as u64).flat_map(|i| std::iter::repeat_n(i, d.draws()));
    let data_row = d
        .data_rows
        .iter()
        .flat_map(|&r| std::iter::repeat_n(r as u64, d.draws()));
    vec![
        ("chain".to_string(), repeat(&chain)),
        ("draw".to_string(), repeat(&draw)),
        ("row".to_string(), Values::U64(row.collect())),
        ("data_row".to_string(), Values::U64(data_row.collect())),
        ("log_lik".to_string(), Values::F64(d.log_lik.clone())),
    ]
}
