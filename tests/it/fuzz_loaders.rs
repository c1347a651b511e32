//! Fuzzing the two loaders a user feeds directly: the experiment TOML and the data CSV. Any
//! input must end in `Ok` or a clear `Err`, never a panic. CI runs a short smoke pass; the
//! long runs are `#[ignore]`d and driven by `fuzz/run.sh` for a bounded time (set
//! `PROPTEST_CASES`). A crash found there becomes a file in tests/invalid_configs/ or a
//! fixture with its own regression test.

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

const VALID: &str = "name = \"f\"\nseed = 1\n[data]\npath = \"pima.csv\"\ntarget = \"y\"\nsplit = { every = 5, offset = 4 }\n\n[prior]\nprecision = 1.0\n\n[evaluation]\ncalibration_bins = 10\n\n[[method]]\nkind = \"logistic-laplace\"\npredictive = [\"plugin\", \"mc\", \"exact\"]\nmc_samples = 100\n\n[sweep]\nprior.precision = [0.1, 1]\n";

/// Parse TOML text as an experiment beside a copy of pima.csv; report a panic as a failure.
fn parse_experiment(text: &str) -> Result<(), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    let file = dir.join("fuzz.toml");
    match std::panic::catch_unwind(|| bayeslab_engine::config::parse(text, &file).map(|_| ())) {
        Ok(_) => Ok(()),
        Err(_) => Err(format!("panic on:\n{text}")),
    }
}

/// Load CSV bytes through the data layer and run a MAP fit on what loads.
fn load_csv(bytes: &[u8]) -> Result<(), String> {
    // An abort (a non-unwinding panic inside a dependency) ends the process before proptest can
    // print the input: FUZZ_LAST_INPUT=<file> keeps each input there before it is loaded.
    if let Ok(last) = std::env::var("FUZZ_LAST_INPUT") {
        std::fs::write(last, bytes).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.csv");
    std::fs::write(&path, bytes).unwrap();
    let exp = dir.path().join("e.toml");
    let text = "[data]\npath = \"d.csv\"\ntarget = \"y\"\nmissing = \"drop\"\nsplit = { every = 2, offset = 1 }\n\n[[method]]\nkind = \"logistic-map\"\n";
    std::fs::write(&exp, text).unwrap();
    let outcome = std::panic::catch_unwind(|| {
        let plan = bayeslab_engine::config::load(&exp)?;
        bayeslab_engine::run::run(&plan, &mut bayeslab_engine::run::Silent, None).map(|_| ())
    });
    outcome
        .map(|_| ())
        .map_err(|_| format!("panic on CSV:\n{}", String::from_utf8_lossy(bytes)))
}

/// Lines inserted anywhere in a valid experiment: keys with extreme values (issue 14's counts,
/// sizes and scales), keys of other kinds and tables that shadow a key.
const HOSTILE_LINES: &[&str] = &[
    "mc_samples = 9223372036854775807",
    "mc_samples = 10000000000",
    "calibration_bins = 9223372036854775807",
    "resamples = 9223372036854775807",
    "khat_draws = 9223372036854775807",
    "chunk_rows = 48416651112098561",
    "streaming = true",
    "chunk_rows = 9223372036854775807",
    "max_memory = \"1 KiB\"",
    "chains = 100000",
    "draws = 4611686018427387904",
    "positive = 1.5",
    "data = \"x\"",
    "features = [\"a\", \"a\"]",
    "damping = 1e-6",
    "noise = 1e300",
    "map = \"rbf\"",
    "width = 1e-300",
    "[evaluation]",
    "[features]",
    "[[method]]",
];

/// Mutations of a valid experiment: a byte replaced, a line dropped or duplicated, a value
/// swapped for another type.
fn mutated() -> impl Strategy<Value = String> {
    let lines: Vec<String> = VALID.lines().map(str::to_string).collect();
    let n = lines.len();
    (
        0..n,
        0..5u8,
        any::<u8>(),
        prop::sample::select(vec![
            "-1",
            "0",
            "1e308",
            "\"x\"",
            "[]",
            "true",
            "nan",
            "{}",
            "18446744073709551616",
            "9223372036854775807",
            "1e-300",
            "[1, 2]",
            "\"1 gigs\"",
        ]),
        prop::sample::select(HOSTILE_LINES.to_vec()),
    )
        .prop_map(move |(i, op, byte, value, extra)| {
            let mut l = lines.clone();
            match op {
                0 => {
                    l.remove(i);
                }
                1 => {
                    let dup = l[i].clone();
                    l.insert(i, dup);
                }
                2 => {
                    if let Some((k, _)) = l[i].split_once(" = ") {
                        l[i] = format!("{k} = {value}");
                    }
                }
                3 => l.insert(i, extra.to_string()),
                _ => {
                    let mut bytes = l[i].clone().into_bytes();
                    if !bytes.is_empty() {
                        let j = usize::from(byte) % bytes.len();
                        bytes[j] = byte;
                    }
                    l[i] = String::from_utf8_lossy(&bytes).into_owned();
                }
            }
            l.join("\n")
        })
}

/// CSV-shaped text: a header with y, rows of numbers, blanks, words, NaN, inf, huge values.
fn csv_text() -> impl Strategy<Value = Vec<u8>> {
    let cell = prop::sample::select(vec![
        "0",
        "1",
        "-1",
        "0.5",
        "",
        "NA",
        "NaN",
        "inf",
        "1e308",
        "abc",
        "2",
        "1e-300",
        "\"q\"",
        "+1",
        "-0.0",
        "0.0",
        "1e200",
        "-1e300",
        "\"a\nb\"",
        "\"x,y\"",
        "12345678901234567890",
        "1;0",
    ]);
    let row = prop::collection::vec(cell, 0..5);
    let header = prop::sample::select(vec!["a,b,y\n", "", "\"a,b\",a,y\n", "a;b;y\n", "y,b,a\n"]);
    (prop::collection::vec(row, 0..30), header).prop_map(|(rows, header)| {
        let mut s = String::from(header);
        for r in rows {
            s.push_str(&r.join(","));
            s.push('\n');
        }
        s.into_bytes()
    })
}

proptest! {
    // The smoke pass in CI uses a fixed seed, so it is deterministic; the long runs below explore.
    #![proptest_config(ProptestConfig { cases: 48, rng_seed: RngSeed::Fixed(2026), ..ProptestConfig::default() })]

    #[test]
    fn smoke_experiment_text(text in mutated()) {
        prop_assert!(parse_experiment(&text).is_ok());
    }

    #[test]
    fn smoke_csv(bytes in csv_text()) {
        let r = load_csv(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    // Long runs: `PROPTEST_CASES=20000 cargo test --test fuzz_loaders -- --ignored` (fuzz/run.sh).
    #[test]
    #[ignore]
    fn fuzz_experiment_text(text in mutated()) {
        prop_assert!(parse_experiment(&text).is_ok());
    }

    #[test]
    #[ignore]
    fn fuzz_arbitrary_text(text in "\\PC{0,300}") {
        prop_assert!(parse_experiment(&text).is_ok());
    }

    #[test]
    #[ignore]
    fn fuzz_csv(bytes in csv_text()) {
        let r = load_csv(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    #[ignore]
    fn fuzz_csv_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let r = load_csv(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
