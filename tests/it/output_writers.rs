//! Every writer has the rules of `run --out` (crates/core/src/files/owned.rs, guard.rs): `compare --out`,
//! `bench --out` and `synth --out` with the names it derives replace only bayeslab's own earlier
//! output, never a file of the user's, and an `--out` under a regular file is refused before any
//! work: exit code 2, a message naming the path, nothing touched.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::cli::bin_without_stdin as bin;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code 2, no panic, the message names `path` and says what to do.
fn assert_refused(o: &Output, path: &str) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(path) && err.contains("choose another --out"),
        "{err}"
    );
    err
}

fn synth(out: &Path, extra: &[&str]) -> Output {
    bin()
        .args(["synth", "--rows", "30", "--features", "2", "--quiet"])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Two run directories of the same 3 test rows, as `compare` reads them.
fn runs(root: &Path) -> (PathBuf, PathBuf) {
    let mut dirs = Vec::new();
    for name in ["a", "b"] {
        let d = root.join(name);
        fs::create_dir_all(&d).unwrap();
        fs::write(
            d.join("results.json"),
            "{\"experiment\": {\"calibration_bins\": 10, \"calibration_binning\": \"equal-width\"}}",
        )
        .unwrap();
        fs::write(
            d.join("predictions.csv"),
            "row,y,m/plugin\n0,1,0.8\n1,0,0.3\n2,1,0.6\n",
        )
        .unwrap();
        dirs.push(d);
    }
    (dirs[0].clone(), dirs[1].clone())
}

#[test]
fn compare_replaces_only_its_own_comparison_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = runs(tmp.path());
    let compare = |out: &Path| {
        bin()
            .arg("compare")
            .arg(&a)
            .arg(&b)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    // A folder of the user's holding files with the names compare writes.
    for (name, text) in [
        ("comparison.json", "{\"my\": \"data\"}"),
        ("comparison.md", "# My comparison notes\n"),
    ] {
        let theirs = tmp.path().join(format!("theirs-{name}"));
        fs::create_dir_all(&theirs).unwrap();
        fs::write(theirs.join(name), text).unwrap();
        let o = compare(&theirs);
        assert_refused(&o, name);
        assert!(o.stdout.is_empty(), "refused before any work");
        assert_eq!(fs::read_to_string(theirs.join(name)).unwrap(), text);
        assert_eq!(fs::read_dir(&theirs).unwrap().count(), 1);
    }
    // A regular file as --out, and an --out under one.
    let file = tmp.path().join("notes.txt");
    fs::write(&file, "mine").unwrap();
    for out in [file.clone(), file.join("sub")] {
        let o = compare(&out);
        assert_refused(&o, "notes.txt");
        assert!(o.stdout.is_empty(), "refused before any work");
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    // Its own earlier output (and the default, B) is replaced.
    let mine = tmp.path().join("mine");
    for _ in 0..2 {
        let o = compare(&mine);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = bin().arg("compare").arg(&a).arg(&b).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(b.join("comparison.json").is_file());
}

#[test]
fn bench_replaces_only_an_earlier_bench_record() {
    let tmp = tempfile::tempdir().unwrap();
    let train = tmp.path().join("train.parquet");
    assert!(synth(&train, &[]).status.success());
    let bench = |out: &Path| {
        bin()
            .args([
                "bench",
                "--only",
                "load-parquet",
                "--reps",
                "1",
                "--json",
                "--train",
            ])
            .arg(&train)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    for (name, text) in [
        ("results.json", "{\"rows\": [1, 2]}"),
        ("notes.txt", "mine"),
        ("report.json", "[\"schema_version\"]"),
    ] {
        let theirs = tmp.path().join(name);
        fs::write(&theirs, text).unwrap();
        let o = bench(&theirs);
        let err = assert_refused(&o, name);
        assert!(
            !err.contains("bench: "),
            "refused before any task ran:\n{err}"
        );
        assert!(o.stdout.is_empty());
        assert_eq!(fs::read_to_string(&theirs).unwrap(), text);
    }
    let o = bench(&tmp.path().join("notes.txt").join("bench.json"));
    assert_refused(&o, "notes.txt");
    // a directory is not a file to write the record into
    let o = bench(tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // its own record is replaced
    let mine = tmp.path().join("bench.json");
    for _ in 0..2 {
        let o = bench(&mine);
        assert!(o.status.success(), "{}", stderr(&o));
    }
}

#[test]
fn synth_replaces_only_the_files_its_earlier_run_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("d.parquet");
    // Each name synth derives from --out d.parquet, held by a file of the user's.
    for (name, extra) in [
        ("d.parquet", &[][..]),
        ("d.csv", &["--csv"][..]),
        ("d.X.npy", &["--npy"][..]),
        ("d.y.npy", &["--npy"][..]),
        ("d.test.parquet", &["--test-rows", "5"][..]),
        ("d.test.csv", &["--test-rows", "5", "--csv"][..]),
        ("d.synth.json", &[][..]),
    ] {
        let theirs = tmp.path().join(name);
        fs::write(&theirs, "years of work").unwrap();
        let o = synth(&out, extra);
        assert_refused(&o, name);
        assert_eq!(fs::read_to_string(&theirs).unwrap(), "years of work");
        fs::remove_file(&theirs).unwrap();
        let left: Vec<_> = fs::read_dir(tmp.path()).unwrap().collect();
        assert!(left.is_empty(), "nothing written: {left:?}");
    }
    // a d.synth.json that is not a record does not vouch for anything
    fs::write(
        tmp.path().join("d.synth.json"),
        "{\"files\": [\"d.parquet\"]}",
    )
    .unwrap();
    assert_refused(&synth(&out, &[]), "d.synth.json");
    fs::remove_file(tmp.path().join("d.synth.json")).unwrap();
    // under a regular file
    let file = tmp.path().join("notes.txt");
    fs::write(&file, "mine").unwrap();
    assert_refused(&synth(&file.join("d.parquet"), &[]), "notes.txt");
    // its own earlier files are replaced, and a file it did not list is still refused
    assert!(synth(&out, &["--csv"]).status.success());
    let o = synth(&out, &["--csv", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    fs::write(tmp.path().join("d.X.npy"), "mine").unwrap();
    assert_refused(&synth(&out, &["--npy"]), "d.X.npy");
}

#[test]
fn run_out_under_a_regular_file_is_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("exp.toml");
    fs::write(
        &exp,
        format!(
            "name = \"u\"\n[data]\npath = {:?}\ntarget = \"y\"\n\n[[method]]\nkind = \"logistic-map\"\n",
            concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/spector.csv")
        ),
    )
    .unwrap();
    let file = tmp.path().join("notes.txt");
    fs::write(&file, "mine").unwrap();
    for out in [file.join("run"), file.join("a").join("b")] {
        let o = bin()
            .arg("run")
            .arg(&exp)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = assert_refused(&o, "notes.txt");
        assert!(
            !err.contains("logistic-map"),
            "refused before the run:\n{err}"
        );
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
}
