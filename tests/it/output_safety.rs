//! What `--out` may replace, what a killed run leaves behind, and the workbench without a
//! terminal (issue 14): the binary end to end on a small experiment written into a temporary
//! project folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::util::cli::bin_without_stdin as bin;

/// proj/exp.toml and proj/data.csv (the first 120 rows of the Pima data); `streaming` reads it
/// in chunks.
fn project(root: &Path, streaming: bool) -> PathBuf {
    let proj = root.join("proj");
    fs::create_dir_all(&proj).unwrap();
    let pima =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/pima.csv")).unwrap();
    let rows: Vec<&str> = pima.lines().take(121).collect();
    fs::write(proj.join("data.csv"), rows.join("\n") + "\n").unwrap();
    let stream = if streaming {
        "streaming = true\nchunk_rows = 32\n"
    } else {
        ""
    };
    fs::write(
        proj.join("exp.toml"),
        format!(
            "name = \"safety\"\nseed = 1\n\n[data]\npath = \"data.csv\"\ntarget = \"y\"\n\
             split = {{ every = 5, offset = 4 }}\n{stream}\n[[method]]\nkind = \"logistic-map\"\n"
        ),
    )
    .unwrap();
    proj
}

fn run(exp: &Path, out: &Path, cwd: &Path) -> Output {
    bin()
        .arg("run")
        .arg(exp)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A pid that is certainly not running: a child that has exited and been reaped.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn the_folder_holding_the_experiment_is_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = project(tmp.path(), false);
    let o = run(&proj.join("exp.toml"), &proj, tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("proj"), "{err}");
    assert!(err.contains("choose another --out"), "{err}");
    assert_eq!(names(&proj), ["data.csv", "exp.toml"]);
}

#[test]
fn the_working_directory_is_never_replaced_even_when_it_is_a_previous_run() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = project(tmp.path(), false);
    let work = tmp.path().join("work");
    // A previous bayeslab run, which the user then made their working directory.
    let o = run(&proj.join("exp.toml"), &work, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    fs::write(work.join("notes.txt"), "mine").unwrap();
    let o = run(&proj.join("exp.toml"), &work, &work);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("working directory"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(work.join("notes.txt")).unwrap(), "mine");
}

#[test]
fn a_folder_that_is_no_bayeslab_output_is_refused_and_an_empty_one_is_used() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = project(tmp.path(), false);
    let theirs = tmp.path().join("theirs");
    fs::create_dir(&theirs).unwrap();
    fs::write(theirs.join("thesis.tex"), "years of work").unwrap();
    let o = run(&proj.join("exp.toml"), &theirs, tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("theirs"), "{err}");
    assert!(err.contains("not a bayeslab output"), "{err}");
    assert!(err.contains("remove it yourself"), "{err}");
    assert_eq!(names(&theirs), ["thesis.tex"]);

    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let o = run(&proj.join("exp.toml"), &empty, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(empty.join("results.json").is_file());
    // and a previous run is replaced
    let o = run(&proj.join("exp.toml"), &empty, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn stale_siblings_of_dead_runs_are_removed_and_live_ones_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = project(tmp.path(), false);
    let out = tmp.path().join("out");
    let dead = dead_pid();
    let live = std::process::id();
    let stale_tmp = tmp.path().join(format!(".out.tmp-{dead}-12345"));
    let stale_old = tmp.path().join(format!(".out.old-{dead}-678"));
    let live_tmp = tmp.path().join(format!(".out.tmp-{live}-9"));
    let other = tmp.path().join(format!(".other.tmp-{dead}-1"));
    for d in [&stale_tmp, &stale_old, &live_tmp, &other] {
        fs::create_dir(d).unwrap();
        fs::write(d.join("results.json"), "{}").unwrap();
    }
    let o = run(&proj.join("exp.toml"), &out, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stale_tmp.exists() && !stale_old.exists());
    assert!(live_tmp.exists(), "a running process's sibling is kept");
    assert!(
        other.exists(),
        "another output's siblings are not this run's business"
    );
}

#[test]
fn a_killed_streamed_run_leaves_nothing_in_tmpdir_and_its_scratch_is_removed_next_time() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = project(tmp.path(), true);
    let tmpdir = tmp.path().join("tmpdir");
    fs::create_dir(&tmpdir).unwrap();
    let out = tmp.path().join("out");
    // Abort (as a kill would: no destructors run) after the experiment, before the output.
    let o = bin()
        .args(["run", "--quiet"])
        .arg(proj.join("exp.toml"))
        .arg("--out")
        .arg(&out)
        .env("TMPDIR", &tmpdir)
        .env("BAYESLAB_FAULT", "abort-before-write")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert_eq!(names(&tmpdir), Vec::<String>::new(), "nothing in $TMPDIR");
    let scratch: Vec<String> = names(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with(".out."))
        .collect();
    assert_eq!(scratch.len(), 1, "{scratch:?}");
    assert!(tmp
        .path()
        .join(&scratch[0])
        .join("predictions.csv")
        .is_file());
    let o = bin()
        .args(["run", "--quiet"])
        .arg(proj.join("exp.toml"))
        .arg("--out")
        .arg(&out)
        .env("TMPDIR", &tmpdir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(tmp.path()), ["out", "proj", "tmpdir"]);
    assert_eq!(names(&tmpdir), Vec::<String>::new());
    let csv = fs::read_to_string(out.join("predictions.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 24, "header and the 24 test rows");
}

#[test]
fn two_runs_racing_for_one_out_both_succeed() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = project(tmp.path(), false);
    let out = tmp.path().join("out");
    let exp = proj.join("exp.toml");
    let children: Vec<_> = (0..4)
        .map(|_| {
            bin()
                .args(["run", "--quiet"])
                .arg(&exp)
                .arg("--out")
                .arg(&out)
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(out.join("results.json").is_file());
    assert_eq!(names(tmp.path()), ["out", "proj"]);
}

#[test]
fn the_workbench_without_a_terminal_says_how_to_run_headless() {
    for args in [&[][..], &["tui"][..]] {
        let o = bin().args(args).stdout(Stdio::piped()).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("needs a terminal"), "{err}");
        assert!(err.contains("bayeslab run <experiment>"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn bench_never_writes_its_record_over_its_own_data() {
    let tmp = tempfile::tempdir().unwrap();
    let train = tmp.path().join("train.parquet");
    let o = bin()
        .args([
            "synth",
            "--rows",
            "40",
            "--features",
            "2",
            "--quiet",
            "--out",
        ])
        .arg(&train)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let before = fs::read(&train).unwrap();
    let o = bin()
        .args([
            "bench",
            "--only",
            "load-parquet",
            "--reps",
            "1",
            "--quiet",
            "--train",
        ])
        .arg(&train)
        .arg("--out")
        .arg(tmp.path().join(".").join("train.parquet"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("--out") && err.contains("train.parquet"),
        "{err}"
    );
    assert_eq!(fs::read(&train).unwrap(), before, "the data are untouched");
}
