//! What the method tests share: an experiment parsed from text as if it sat in experiments/,
//! and a small design whose Laplace posterior k-hat flags under a weak prior.
#![allow(dead_code)]

use std::path::Path;

pub fn plan(text: &str) -> bayeslab_engine::config::Plan {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/_test.toml");
    bayeslab_engine::config::parse(text, &file).unwrap()
}

/// A small design (50 rows, 8 standard-normal features, strong true weights) whose posterior
/// is far from Gaussian under a weak prior (Laplace k-hat 0.82 at lambda = 0.01) and close to
/// it under a strong one (0.31 at lambda = 4).
pub fn small_design(dir: &Path) -> std::path::PathBuf {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(5);
    let normal = |rng: &mut rand::rngs::Xoshiro256PlusPlus| -> f64 {
        // Box-Muller from two uniforms.
        let (u, v): (f64, f64) = (rng.random(), rng.random());
        (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    let w: Vec<f64> = (0..8).map(|_| 3.0 * normal(&mut rng)).collect();
    let mut csv = String::from("x1,x2,x3,x4,x5,x6,x7,x8,y\n");
    for _ in 0..50 {
        let x: Vec<f64> = (0..8).map(|_| normal(&mut rng)).collect();
        let a: f64 = x.iter().zip(&w).map(|(x, w)| x * w).sum();
        let y = u8::from(rng.random::<f64>() < 1.0 / (1.0 + (-a).exp()));
        for v in &x {
            csv.push_str(&format!("{v:.6},"));
        }
        csv.push_str(&format!("{y}\n"));
    }
    let path = dir.join("small.csv");
    std::fs::write(&path, csv).unwrap();
    path
}
