//! The hot kernels, each next to the baseline it is judged against, measured in the same run:
//!
//! - `newton pass`: one fused pass of the logistic Newton step (E, g and the lower triangle of
//!   X^T S X, numeric/glm.rs) on 1,000,000 x 50, against the bound set by the work itself, a
//!   plain faer product X^T X of the same shape on all cores;
//! - `mc predictive`: the Monte-Carlo predictive of 100,000 rows with S = 1,000 activation
//!   samples each (model/predictive.rs), against the same sum with libm's exp and fresh
//!   normals per sample on one thread (the straightforward implementation);
//! - `gibbs sweep`: one Pólya-Gamma Gibbs sweep of logistic regression at N = 10,000, D = 20
//!   on one chain (issue 7 asks for at least 1,000 sweeps per second on one core), and its
//!   parts on one thread: the 10,000 PG(1, x_n^T w) draws with the sampler's table against the
//!   same draws with the mixture probability's formula evaluated for each (the algorithm as
//!   written), and the bound set by the sweep's linear algebra, X^T Omega X of the same shape.
//!
//! Run with `cargo bench --bench kernels`; criterion prints each time, and the throughput
//! lines give rows (or sweeps) per second. `bayeslab bench` prints the ratios against
//! scikit-learn and numpy (benches/compare.sh).

use std::path::Path;

use bayeslab_core::model::logistic::row_terms;
use bayeslab_core::model::method::{fit_matrix as fit, FitInput};
use bayeslab_core::numeric::glm;
use bayeslab_core::numeric::linalg::mat_vec;
use bayeslab_core::numeric::polya_gamma::PolyaGamma;
use bayeslab_core::numeric::rng::stream;
use bayeslab_core::optim::{Iterate, Observer};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};
use rand_distr::{Distribution, StandardNormal};

/// The weights the bench's labels are drawn from.
fn true_weights(d: usize) -> Vec<f64> {
    (0..d).map(|j| 0.5 * ((j as f64) * 0.7).sin()).collect()
}

fn design(n: usize, d: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut rng = stream(seed, "bench/design");
    let x = Mat::<f64>::from_fn(n, d, |_, _| StandardNormal.sample(&mut rng));
    let w = true_weights(d);
    let y = (0..n)
        .map(|i| {
            let a: f64 = (0..d).map(|j| x[(i, j)] * w[j]).sum();
            let u: f64 = rand::RngExt::random(&mut rng);
            f64::from(u8::from(u < 1.0 / (1.0 + (-a).exp())))
        })
        .collect();
    (x, y)
}

fn newton_pass(c: &mut Criterion) {
    let (n, d) = (1_000_000, 50);
    let (x, y) = design(n, d, 1);
    let w: Vec<f64> = (0..d).map(|j| 0.01 * j as f64).collect();
    let mut group = c.benchmark_group("newton pass 1e6x50");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("fused E, g, X^T S X", |b| {
        b.iter(|| glm::accumulate(x.as_ref(), &y, &w, true, &row_terms))
    });
    group.bench_function("bound: faer X^T X", |b| {
        let mut out = Mat::<f64>::zeros(d, d);
        b.iter(|| {
            matmul(
                &mut out,
                Accum::Replace,
                x.transpose(),
                &x,
                1.0,
                faer::get_global_parallelism(),
            )
        })
    });
    group.finish();
}

fn mc_predictive(c: &mut Criterion) {
    let n = 100_000;
    let samples = 1000;
    let mean: Vec<f64> = (0..n).map(|i| ((i as f64) * 0.001).sin() * 3.0).collect();
    let var: Vec<f64> = (0..n).map(|i| 0.1 + (i % 17) as f64 * 0.2).collect();
    let mut group = c.benchmark_group("mc predictive 1e5 rows x 1000");
    group.sample_size(10);
    group.throughput(Throughput::Elements((n * samples) as u64));
    group.bench_function("blocked, vectorised, parallel", |b| {
        b.iter(|| bayeslab_core::model::predictive::mc_rows(&mean, &var, samples, 7, 0))
    });
    group.bench_function("baseline: libm sigmoid, fresh normals, one thread", |b| {
        b.iter(|| {
            let mut rng = stream(7, "bench/mc");
            mean.iter()
                .zip(&var)
                .map(|(&m, &v)| {
                    let sd = v.sqrt();
                    (0..samples)
                        .map(|_| {
                            let z: f64 = StandardNormal.sample(&mut rng);
                            bayeslab_core::numeric::special::sigmoid(m + sd * z)
                        })
                        .sum::<f64>()
                        / samples as f64
                })
                .collect::<Vec<f64>>()
        })
    });
    group.finish();
}

struct Quiet;
impl Observer for Quiet {
    fn observe(&mut self, _run: &str, _iterate: &Iterate) {}
}

fn gibbs_sweep(c: &mut Criterion) {
    let (n, d) = (10_000, 20);
    let (x, y) = design(n, d, 2);
    let columns: Vec<String> = (0..d).map(|j| format!("x{j}")).collect();
    // Two chains (the fewest allowed), each on its own core: the throughput is sweeps per
    // second per core.
    let mut group = c.benchmark_group("gibbs-logistic N=1e4 D=20, 2 chains on 2 cores");
    group.sample_size(10);
    {
        let sweeps = 200usize;
        let text = format!(
            "[data]\npath = \"../datasets/pima.csv\"\ntarget = \"y\"\n[[method]]\nid = \"g\"\nkind = \"gibbs-logistic\"\nchains = 2\ndraws = {sweeps}\nburn_in = 0\n"
        );
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/_bench.toml");
        let plan = bayeslab_engine::config::parse(&text, &file).expect("bench experiment");
        let method = &plan.methods[0];
        group.throughput(Throughput::Elements(sweeps as u64));
        group.bench_with_input(BenchmarkId::new("sweeps", sweeps), &sweeps, |b, _| {
            // One chain runs on one thread (its X^T Omega X is sequential), as the target
            // is per core.
            b.iter(|| {
                let input = FitInput {
                    file: &file,
                    method,
                    precision: 1.0,
                    seed: 3,
                    x: x.as_ref(),
                    y: &y,
                    classes: 2,
                    intercept: false,
                    columns: &columns,
                    cancel: None,
                    record_steps: false,
                };
                fit(&input, &mut Quiet).expect("gibbs fit").weights
            })
        });
    }
    group.finish();

    // The sweep's parts on one thread, at activations of the posterior's scale (the labels
    // were drawn at these weights).
    let a = mat_vec(x.as_ref(), &true_weights(d));
    let omega: Vec<f64> = {
        let (pg, mut rng) = (PolyaGamma::new(), stream(4, "bench/omega"));
        a.iter().map(|&z| pg.sample(z, &mut rng)).collect()
    };
    let mut group = c.benchmark_group("gibbs sweep parts N=1e4 D=20, one thread");
    group.sample_size(20);
    group.throughput(Throughput::Elements(n as u64));
    for (name, pg) in [
        ("PG draws, tabulated", PolyaGamma::new()),
        (
            "baseline: PG draws, formula per draw",
            PolyaGamma::untabulated(),
        ),
    ] {
        group.bench_function(name, |b| {
            let mut rng = stream(5, "bench/pg");
            b.iter(|| a.iter().map(|&z| pg.sample(z, &mut rng)).sum::<f64>())
        });
    }
    group.bench_function("bound: X^T Omega X", |b| {
        b.iter(|| glm::weighted_gram_sequential(x.as_ref(), &omega))
    });
    group.finish();
}

criterion_group!(benches, newton_pass, mc_predictive, gibbs_sweep);
criterion_main!(benches);
