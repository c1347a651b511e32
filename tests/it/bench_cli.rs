//! `bayeslab bench`'s command line: `--only` runs the listed tasks and the table names them, and
//! bad input ends with exit code 2 and a message naming the file and the fix. The record's
//! fields are checked in tests/it/bench.rs.

use std::path::Path;

use crate::util::cli::{bayeslab_in, synth_bench_set};

#[test]
fn only_runs_the_listed_tasks_here_and_the_table_names_them() {
    let dir = tempfile::tempdir().unwrap();
    synth_bench_set(dir.path(), "800", "3", "t.parquet");
    let args = [
        "bench",
        "--train",
        "t",
        "--only",
        "fit,bound",
        "--reps",
        "1",
        "--threads",
        "2",
    ];
    let o = bayeslab_in(dir.path(), &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("2 thread(s)"), "{table}");
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("fit ") && l.contains("t.X.npy")),
        "{table}"
    );
    assert!(lines.iter().any(|l| l.starts_with("bound ")), "{table}");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("load") || l.starts_with("predict")),
        "{table}"
    );
    assert!(table.contains("fit vs bound"), "{table}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("bench: fit 1/1"),
        "progress on stderr: {stderr}"
    );
}

/// A bad invocation: exit code 2 and every `wants` in the message.
fn refused(dir: &Path, args: &[&str], wants: &[&str]) {
    let o = bayeslab_in(dir, args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in wants {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_names_the_file_and_the_fix_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    synth_bench_set(p, "200", "3", "a.parquet");
    synth_bench_set(p, "200", "2", "b.parquet");
    let copy = |from: &str, to: &str| {
        std::fs::copy(p.join(from), p.join(to)).unwrap();
    };
    refused(
        p,
        &["bench", "--train", "missing.parquet"],
        &["missing.parquet", "no such file", "bayeslab synth"],
    );
    refused(
        p,
        &["bench", "--train", "nothing"],
        &["nothing.parquet", "no data files"],
    );

    std::fs::write(p.join("junk.X.npy"), "x1,x2\n1,2\n").unwrap();
    copy("a.y.npy", "junk.y.npy");
    refused(
        p,
        &["bench", "--train", "junk.X.npy"],
        &["junk.X.npy", "magic", "numpy.save"],
    );

    copy("a.X.npy", "lonely.X.npy");
    refused(
        p,
        &["bench", "--train", "lonely.X.npy"],
        &["lonely.y.npy", "is missing"],
    );

    copy("a.X.npy", "short.X.npy");
    copy("a.test.y.npy", "short.y.npy");
    refused(
        p,
        &["bench", "--train", "short"],
        &["short.y.npy", "300 labels", "200 rows"],
    );

    let bytes = std::fs::read(p.join("a.X.npy")).unwrap();
    std::fs::write(p.join("cut.X.npy"), &bytes[..bytes.len() - 8]).unwrap();
    copy("a.y.npy", "cut.y.npy");
    refused(
        p,
        &["bench", "--train", "cut", "--only", "fit"],
        &["cut.X.npy", "truncated"],
    );

    refused(
        p,
        &["bench", "--train", "a", "--test", "b.test.parquet"],
        &["b.test.X.npy", "2 columns", "3", "--test-rows"],
    );
    refused(
        p,
        &["bench", "--train", "a", "--only", "predict"],
        &["needs --test"],
    );
    refused(
        p,
        &["bench", "--train", "a", "--only", "fitt"],
        &["fitt", "load-parquet"],
    );
    refused(
        p,
        &["bench", "--train", "a", "--lambda", "-1"],
        &["--lambda", ">= 0"],
    );
    refused(p, &["bench", "--train", "a", "--reps", "0"], &["--reps"]);
}
