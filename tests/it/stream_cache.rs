//! The design cache of a streamed run (`[data] cache`, issue 19): passes after the first read
//! the cache and give the same numbers, bit for bit, as every pass reading the file; the cache
//! lives beside the output only while the run does, and `cache = false` writes none.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::util::streaming::{assert_equal, root};
use bayeslab_core::record::{ExperimentRecord, Outcome, PassPurpose, ReadFrom};
use bayeslab_engine::run::{run_plan, Event, Monitor};

/// The shipped streaming experiment on `data`, with `extra` lines in `[data]`; streamed unless
/// `chunk_rows` is `None`.
fn experiment(dir: &Path, data: &Path, chunk_rows: Option<usize>, extra: &str) -> PathBuf {
    let shipped = std::fs::read_to_string(root().join("experiments/streaming.toml")).unwrap();
    let mut text = String::new();
    for line in shipped.lines() {
        match line.split('=').next().unwrap_or("").trim() {
            "path" => text.push_str(&format!(
                "path = {:?}\n{extra}\n",
                data.display().to_string()
            )),
            "streaming" | "max_memory" => {}
            "chunk_rows" => {
                if let Some(n) = chunk_rows {
                    text.push_str(&format!("streaming = true\nchunk_rows = {n}\n"));
                }
            }
            _ => text.push_str(&format!("{line}\n")),
        }
    }
    let file = dir.join(format!("e-{chunk_rows:?}-{}.toml", extra.len()));
    std::fs::write(&file, text).unwrap();
    file
}

/// Watches the passes: at each chunk of a pass, what files named like a design cache exist
/// under `dir`; `at_fit_pass` runs once the first fit pass has read every row.
struct Watch {
    dir: PathBuf,
    seen: Arc<Mutex<Vec<PathBuf>>>,
    at_fit_pass: Arc<dyn Fn() + Send + Sync>,
}

impl Monitor for Watch {
    fn event(&mut self, event: Event) {
        if let Event::Pass(p) = event {
            self.seen.lock().unwrap().extend(caches(&self.dir));
            if p.purpose == PassPurpose::Fit && p.rows_read == p.rows_total {
                (self.at_fit_pass)();
            }
        }
    }
}

/// Every file under `dir` whose name says it is a design cache (complete or partial).
fn caches(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(caches(&p));
        } else if p.to_string_lossy().contains("design-cache") {
            out.push(p);
        }
    }
    out
}

fn run(
    file: &Path,
    out: &Path,
    hook: Arc<dyn Fn() + Send + Sync>,
    cancel: Option<&AtomicBool>,
) -> (bayeslab_core::Result<ExperimentRecord>, Vec<PathBuf>) {
    let plan = bayeslab_engine::config::load(file).unwrap();
    let mut watch = Watch {
        dir: out.parent().unwrap().to_path_buf(),
        seen: Arc::default(),
        at_fit_pass: hook,
    };
    let outcome = run_plan(&plan, &mut watch, cancel, Some(out)).map(|o| match o {
        Outcome::Single(r) => *r,
        Outcome::Sweep(_) => panic!("not a sweep"),
    });
    let seen = watch.seen.lock().unwrap().clone();
    (outcome, seen)
}

fn nothing() -> Arc<dyn Fn() + Send + Sync> {
    Arc::new(|| {})
}

fn bits(r: &ExperimentRecord) -> Vec<(String, Vec<u64>)> {
    let mut out = Vec::new();
    for run in &r.runs {
        let b = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        out.push((format!("{} weights", run.id), b(&run.weights)));
        if let Some(p) = &run.posterior {
            out.push((format!("{} mean", run.id), b(&p.mean)));
            out.push((format!("{} cov", run.id), b(&p.cov_diag)));
            out.push((
                format!("{} evidence", run.id),
                b(&[p.log_evidence.unwrap()]),
            ));
        }
        out.push((
            format!("{} khat", run.id),
            b(&run.khat.into_iter().collect::<Vec<_>>()),
        ));
    }
    out
}

#[test]
fn cached_passes_give_the_uncached_and_in_memory_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("datasets/pima.csv");
    let out = |name: &str| dir.path().join(name).join("run");
    let (cached, seen) = run(
        &experiment(dir.path(), &data, Some(37), ""),
        &out("a"),
        nothing(),
        None,
    );
    let cached = cached.unwrap();
    let file = experiment(dir.path(), &data, Some(37), "cache = false");
    let (uncached, seen_off) = run(&file, &out("b"), nothing(), None);
    let uncached = uncached.unwrap();
    assert_eq!(
        bits(&cached),
        bits(&uncached),
        "bit for bit against reading the file"
    );
    assert!(!seen.is_empty(), "the cache existed during the run");
    assert!(seen_off.is_empty(), "cache = false wrote {seen_off:?}");
    // The first training pass read the file and wrote the cache; every later one read the cache.
    let from = |r: &ExperimentRecord| -> Vec<(PassPurpose, ReadFrom)> {
        let s = r.streaming.as_ref().unwrap();
        s.passes.iter().map(|p| (p.purpose, p.read_from)).collect()
    };
    let passes = from(&cached);
    let first_fit = passes
        .iter()
        .position(|(p, _)| *p == PassPurpose::Fit)
        .unwrap();
    for (i, (purpose, read)) in passes.iter().enumerate() {
        let want = match purpose {
            PassPurpose::Fit | PassPurpose::FitGrad | PassPurpose::Khat if i > first_fit => {
                ReadFrom::Cache
            }
            _ => ReadFrom::File,
        };
        assert_eq!(*read, want, "pass {i} ({purpose}) of {passes:?}");
    }
    assert!(from(&uncached).iter().all(|(_, r)| *r == ReadFrom::File));
    // Only a pass over the cache has a checking thread whose CPU time it reports.
    for p in &cached.streaming.as_ref().unwrap().passes {
        let cpu = p.reader_cpu_seconds;
        match p.read_from {
            ReadFrom::Cache => assert!(cpu.is_some_and(|s| s >= 0.0), "{p:?}"),
            ReadFrom::File => assert_eq!(cpu, None, "{p:?}"),
        }
    }
    // The in-memory fit records its own passes by kind; a streamed fit's are in `streaming`.
    let laplace = |r: &ExperimentRecord| r.runs.iter().find(|r| r.passes.is_some()).cloned();
    assert!(laplace(&cached).is_none());
    assert!(passes.iter().filter(|(_, r)| *r == ReadFrom::Cache).count() > 10);
    // Against the in-memory run: to 1e-10 in 37-row chunks, and bit for bit in one chunk
    // (the same rows summed in the same order).
    let memory_file = experiment(dir.path(), &data, None, "");
    let (memory, _) = run(&memory_file, &out("c"), nothing(), None);
    let memory = memory.unwrap();
    assert_equal(&cached, &memory);
    let timed = laplace(&memory).expect("the in-memory logistic run's passes");
    let passes = timed.passes.unwrap();
    assert!(
        passes.hessian >= 1 && passes.hessian_seconds > 0.0,
        "{passes:?}"
    );
    let one_chunk = experiment(dir.path(), &data, Some(1000), "");
    let (whole, _) = run(&one_chunk, &out("d"), nothing(), None);
    let whole = whole.unwrap();
    assert!(whole
        .streaming
        .as_ref()
        .unwrap()
        .passes
        .iter()
        .any(|p| p.read_from == ReadFrom::Cache));
    assert_eq!(
        bits(&whole),
        bits(&memory),
        "one cached chunk against memory"
    );
    assert!(
        caches(dir.path()).is_empty(),
        "left behind: {:?}",
        caches(dir.path())
    );
}

#[test]
fn the_cache_is_gone_after_an_error_and_after_a_cancel() {
    let dir = tempfile::tempdir().unwrap();
    // A copy of the data that disappears after the first fit pass: the cache can no longer be
    // checked against it, so the next pass reads the file, which fails.
    let data = dir.path().join("pima.csv");
    std::fs::copy(root().join("datasets/pima.csv"), &data).unwrap();
    let file = experiment(dir.path(), &data, Some(37), "");
    let gone = data.clone();
    let remove: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
        let _ = std::fs::remove_file(&gone);
    });
    let (outcome, seen) = run(&file, &dir.path().join("x/run"), remove, None);
    let err = outcome.unwrap_err().to_string();
    assert!(err.contains("pima.csv"), "{err}");
    assert!(!seen.is_empty(), "the cache was written before the error");
    assert!(
        caches(dir.path()).is_empty(),
        "after an error: {:?}",
        caches(dir.path())
    );

    std::fs::copy(root().join("datasets/pima.csv"), &data).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let stop: Arc<dyn Fn() + Send + Sync> = Arc::new(move || flag.store(true, Ordering::Relaxed));
    let (outcome, seen) = run(&file, &dir.path().join("y/run"), stop, Some(&cancel));
    assert!(cancel.load(Ordering::Relaxed));
    assert!(!seen.is_empty());
    drop(outcome);
    assert!(
        caches(dir.path()).is_empty(),
        "after a cancel: {:?}",
        caches(dir.path())
    );
}

#[test]
fn a_killed_runs_cache_is_never_read_and_the_next_run_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_bayeslab");
    let data = dir.path().join("rows.parquet");
    let synth = std::process::Command::new(bin)
        .args([
            "synth",
            "--rows",
            "60000",
            "--features",
            "8",
            "--quiet",
            "--out",
        ])
        .arg(&data)
        .output()
        .unwrap();
    assert!(synth.status.success(), "{synth:?}");
    let exp = dir.path().join("killed.toml");
    std::fs::write(
        &exp,
        "name = \"killed\"\n[data]\npath = \"rows.parquet\"\ntarget = \"y\"\nstreaming = true\n\
         chunk_rows = 5000\nsplit = { test_fraction = 0.2, seed = 1, draw = \"hash\" }\n\
         [[method]]\nkind = \"logistic-laplace\"\n",
    )
    .unwrap();
    let out = dir.path().join("runs/killed");
    let run = || {
        let mut command = std::process::Command::new(bin);
        command
            .args(["run", "--quiet"])
            .arg(&exp)
            .arg("--out")
            .arg(&out);
        command
    };
    // Killed (no destructors run) once its cache is complete, while it fits.
    let mut child = run().spawn().unwrap();
    let complete = |p: &PathBuf| p.file_name().is_some_and(|n| n == "train.design-cache");
    let start = std::time::Instant::now();
    let stale = loop {
        if let Some(p) = caches(dir.path()).into_iter().find(complete) {
            break p;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its cache was seen"
        );
        assert!(start.elapsed().as_secs() < 120);
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(stale.exists(), "a kill leaves the cache behind");
    let scratch = stale.parent().unwrap().to_path_buf();
    assert!(scratch
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with(".killed.scratch-"));
    // The next run never looks into another process's scratch: it removes it (its process is
    // gone), writes its own cache, and ends with none.
    let again = run().output().unwrap();
    assert!(again.status.success(), "{again:?}");
    assert!(!scratch.exists(), "the killed run's scratch is removed");
    assert!(caches(dir.path()).is_empty(), "{:?}", caches(dir.path()));
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let reads: Vec<&str> = results["streaming"]["passes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["purpose"] == "fit")
        .map(|p| p["read_from"].as_str().unwrap())
        .collect();
    assert_eq!(
        reads[0], "file",
        "the new run builds its own cache: {reads:?}"
    );
    assert!(reads[1..].iter().all(|r| *r == "cache"), "{reads:?}");
}
