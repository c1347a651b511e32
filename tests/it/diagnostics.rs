//! R-hat, bulk ESS and tail ESS against ArviZ: `az.summary` of the stored draws
//! tests/fixtures/arviz_draws.csv, computed once by tests/fixtures/arviz_draws.py (its output
//! arviz_summary.json). Six weights exercise an odd number of draws, autocorrelation, a drifted
//! chain, a heavy tail and ties; every figure must agree to 1e-6.

use bayeslab_core::model::diagnostics::{bulk_ess, split_rhat, tail_ess, PerWeight};
use serde_json::Value;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap()
}

/// The stored draws as chains of draws of weight vectors.
fn chains() -> Vec<Vec<Vec<f64>>> {
    let text = fixture("arviz_draws.csv");
    let mut out: Vec<Vec<Vec<f64>>> = Vec::new();
    for line in text.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let c = v[0] as usize;
        if out.len() <= c {
            out.push(Vec::new());
        }
        assert_eq!(out[c].len(), v[1] as usize);
        out[c].push(v[2..].to_vec());
    }
    out
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn rhat_bulk_and_tail_ess_equal_arviz_summary() {
    let reference: Value = serde_json::from_str(&fixture("arviz_summary.json")).unwrap();
    let chains = chains();
    assert_eq!(chains.len(), 4);
    assert_eq!(
        chains[0].len() % 2,
        1,
        "an odd number of draws exercises the split"
    );
    let per = PerWeight::of(&chains);
    let close = |what: &str, got: &[f64], want: &[f64]| {
        assert_eq!(got.len(), want.len());
        for (j, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() < 1e-6, "{what} of w{j}: {g} vs ArviZ {w}");
        }
    };
    close("R-hat", &per.rhat, &floats(&reference["r_hat"]));
    close("bulk ESS", &per.ess_bulk, &floats(&reference["ess_bulk"]));
    close("tail ESS", &per.ess_tail, &floats(&reference["ess_tail"]));
    // The drifted chain (w2) and the wide one (w3) are caught; the tail R-hat is what finds w3.
    assert!(per.rhat[2] > 1.01 && per.rhat[3] > 1.01);
    let d = chains[0][0].len();
    let (mut mean, mut sd) = (Vec::new(), Vec::new());
    for j in 0..d {
        let all: Vec<f64> = chains.iter().flatten().map(|w| w[j]).collect();
        let m = all.iter().sum::<f64>() / all.len() as f64;
        let v = all.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (all.len() - 1) as f64;
        mean.push(m);
        sd.push(v.sqrt());
    }
    close("mean", &mean, &floats(&reference["mean"]));
    close("sd", &sd, &floats(&reference["sd"]));
    let w0: Vec<Vec<f64>> = chains
        .iter()
        .map(|c| c.iter().map(|w| w[0]).collect())
        .collect();
    assert_eq!(per.rhat[0], split_rhat(&w0));
    assert_eq!(per.ess_bulk[0], bulk_ess(&w0));
    assert_eq!(per.ess_tail[0], tail_ess(&w0));
}
