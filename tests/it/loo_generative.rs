//! Exact LOO of a conjugate generative kind (docs/maths.md §11.7) against the closed form
//! written out here: Bernoulli naive Bayes with Beta(1, 1) feature probabilities and a
//! Dirichlet(1, 1) class prior, whose predictive without row i is counting without row i:
//!   p(y = c | x, D_-i) ∝ (1 + N_c) / (2 + N - 1) · Π_j p_cj^x_j (1 - p_cj)^(1 - x_j),
//!   p_cj = (1 + n_cj) / (2 + N_c),
//! with N_c, n_cj the class's rows and ones among the training rows other than i.

use bayeslab_core::record::LooDraws;
use bayeslab_engine::run::Silent;

/// 60 rows of three 0/1 features and a label, from a fixed linear congruential sequence.
fn table() -> Vec<[u8; 4]> {
    let mut state: u64 = 2024;
    let mut bit = |p: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        u8::from((state >> 33) % 100 < p)
    };
    (0..60)
        .map(|_| {
            let y = bit(45);
            let p = if y == 1 { [70, 40, 20] } else { [30, 50, 60] };
            [bit(p[0]), bit(p[1]), bit(p[2]), y]
        })
        .collect()
}

/// ln p(y_i | x_i, D_-i) of each training row, by counting.
fn by_hand(train: &[[u8; 4]]) -> Vec<f64> {
    let n = train.len() as f64;
    train
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let rest = || {
                train
                    .iter()
                    .enumerate()
                    .filter(move |(k, _)| *k != i)
                    .map(|(_, r)| r)
            };
            let joint = |c: u8| {
                let nc = rest().filter(|r| r[3] == c).count() as f64;
                let mut l = ((1.0 + nc) / (2.0 + n - 1.0)).ln();
                for j in 0..3 {
                    let ones = rest().filter(|r| r[3] == c && r[j] == 1).count() as f64;
                    let p = (1.0 + ones) / (2.0 + nc);
                    l += if row[j] == 1 { p.ln() } else { (1.0 - p).ln() };
                }
                l
            };
            let (own, other) = (joint(row[3]), joint(1 - row[3]));
            own - (own.exp() + other.exp()).ln()
        })
        .collect()
}

#[test]
fn bernoulli_naive_bayes_gets_the_exact_leave_one_out_of_its_closed_form() {
    let dir = tempfile::tempdir().unwrap();
    let rows = table();
    let mut csv = String::from("a,b,c,y\n");
    for r in &rows {
        csv += &format!("{},{},{},{}\n", r[0], r[1], r[2], r[3]);
    }
    std::fs::write(dir.path().join("bits.csv"), csv).unwrap();
    let exp = dir.path().join("bits.toml");
    std::fs::write(
        &exp,
        "name = \"bits\"\n[data]\npath = \"bits.csv\"\ntarget = \"y\"\nstandardize = false\nintercept = false\n\
         split = { every = 5, offset = 4 }\n[[method]]\nkind = \"bernoulli-naive-bayes\"\na = 1.0\nb = 1.0\nclass_prior = 1.0\n",
    )
    .unwrap();
    let plan = bayeslab_engine::config::load(&exp).unwrap();
    let record = bayeslab_engine::run::run(&plan, &mut Silent, None).unwrap();
    let loo = record.runs[0].loo.as_ref().expect("an exact LOO");
    assert_eq!(loo.draws_from, LooDraws::Exact);
    assert_eq!((loo.draws, loo.mcse), (0, 0.0));
    let train: Vec<[u8; 4]> = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 != 4)
        .map(|(_, r)| *r)
        .collect();
    let expected = by_hand(&train);
    assert_eq!(loo.pointwise.len(), expected.len());
    for (p, e) in loo.pointwise.iter().zip(&expected) {
        assert!((p.elpd - e).abs() < 1e-12, "{} against {e}", p.elpd);
        // Leaving a row out never predicts it better than keeping it.
        assert!(p.p > 0.0);
    }
    let total: f64 = expected.iter().sum();
    assert!((loo.elpd_loo - total).abs() < 1e-10);
    // It takes part in the comparison table like any run.
    assert_eq!(record.loo_comparison.len(), 1);
}
