//! benches/load_guard.sh, the rule by which benches/compare.sh refuses to write the README
//! table from a half measured on a loaded machine (issue 19), driven with a fake loadavg file
//! instead of /proc/loadavg and without running the benchmark.

use std::path::Path;
use std::process::{Command, Output};

fn guard(loadavg: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/load_guard.sh"))
        .args(args)
        .env("BAYESLAB_LOADAVG", loadavg)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn fake(dir: &Path, first: &str) -> std::path::PathBuf {
    let path = dir.join("loadavg");
    std::fs::write(&path, format!("{first} 0.80 0.70 2/345 6789\n")).unwrap();
    path
}

#[test]
fn the_load_is_the_first_field_of_the_loadavg_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = guard(&fake(dir.path(), "0.42"), &["now"]);
    assert!(out.status.success());
    assert_eq!(text(&out), "0.42");
    // settle returns at once on a quiet machine, and after its budget (0 s) on a loaded one
    let out = guard(&fake(dir.path(), "0.30"), &["settle", "60", "2"]);
    assert_eq!((out.status.code(), text(&out)), (Some(0), "0.30".into()));
    let out = guard(&fake(dir.path(), "1.80"), &["settle", "0", "2"]);
    assert_eq!((out.status.code(), text(&out)), (Some(0), "1.80".into()));
}

#[test]
fn a_half_is_loaded_when_other_work_exceeds_half_a_load_per_core() {
    let dir = tempfile::tempdir().unwrap();
    let f = fake(dir.path(), "0.10");
    let verdict = |before: &str, after: &str, seconds: &str| {
        let o = guard(&f, &["verdict", "Python", "2", "2", before, after, seconds]);
        (o.status.code().unwrap(), text(&o))
    };
    // 2 threads for 300 s add at most 2 (1 - e^{-5}) = 1.99 to the 1-minute load: 2.50 after
    // leaves 0.51 of other work, under the limit 1.0 on 2 cores.
    let (code, line) = verdict("0.40", "2.50", "300");
    assert_eq!(code, 0, "{line}");
    assert!(line.starts_with(
        "Python: quiet (1-minute load 0.40 before, 2.50 after, of which at most 1.99"
    ));
    // The limit itself is quiet; above it is loaded, before or after.
    assert_eq!(verdict("1.00", "1.00", "300").0, 0);
    let (code, line) = verdict("1.01", "1.00", "300");
    assert_eq!(code, 1, "{line}");
    assert!(line.starts_with("Python: LOADED"), "{line}");
    assert_eq!(verdict("0.40", "3.50", "300").0, 1);
    // A short half owns less of the load: after 30 s, 2 (1 - e^{-1/2}) = 0.79.
    assert_eq!(verdict("0.40", "1.70", "30").0, 0);
    assert_eq!(verdict("0.40", "1.90", "30").0, 1);
}

#[test]
fn bad_input_is_named_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = guard(&fake(dir.path(), "busy"), &["now"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("loadavg does not start with a load average (found 'busy')"),
        "{err}"
    );
    let out = guard(&dir.path().join("missing"), &["now"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("set BAYESLAB_LOADAVG"));
    let f = fake(dir.path(), "0.1");
    let out = guard(&f, &["verdict", "Python", "2", "two", "0.1", "0.1", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'two' is not a non-negative number"));
}
