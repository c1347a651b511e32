//! Tests of the atomic directory swap: whole replacement, failure, racing writers.

use super::*;

fn art(name: &str, text: &str) -> Artifact {
    Artifact {
        name: name.into(),
        bytes: text.as_bytes().to_vec(),
    }
}

#[test]
fn replaces_the_whole_directory_and_leaves_no_temporaries() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("runs").join("exp");
    write_dir(
        &dir,
        &[
            art("results.json", "{\"schema_version\": 1}"),
            art("a.txt", "1"),
            art("b.txt", "2"),
            art("plots/p.svg", "<svg/>"),
        ],
    )
    .unwrap();
    assert_eq!(
        fs::read_to_string(dir.join("plots/p.svg")).unwrap(),
        "<svg/>"
    );
    write_dir(&dir, &[art("a.txt", "3")]).unwrap();
    // the directory is now no bayeslab output: it stays
    let refused = write_dir(&dir, &[art("a.txt", "4")]).unwrap_err();
    assert!(refused.to_string().contains("not a bayeslab output"));
    assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), "3");
    assert!(
        !dir.join("b.txt").exists(),
        "stale files from the previous run are gone"
    );
    let names: Vec<_> = fs::read_dir(root.path().join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("exp")]);
}

#[test]
fn a_failed_write_keeps_the_previous_directory() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("exp");
    let marker = art("results.json", "{\"schema_version\": 1}");
    write_dir(&dir, &[marker.clone(), art("a.txt", "old")]).unwrap();
    // A file name that cannot be created (it contains NUL) fails mid-way.
    let err = write_dir(
        &dir,
        &[
            art("a.txt", "new"),
            art("plots/x.svg", "<svg/>"),
            art("b\0.txt", "x"),
        ],
    );
    assert!(err.is_err());
    assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), "old");
    assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
}

#[test]
fn writers_racing_for_one_directory_all_succeed() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("exp");
    write_dir(&dir, &[art("results.json", "{\"schema_version\": 1}")]).unwrap();
    let threads: Vec<_> = (0..3)
        .map(|t| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                for i in 0..100 {
                    let text = format!("{{\"schema_version\": 1, \"t\": \"{t}-{i}\"}}");
                    write_dir(&dir, &[art("results.json", &text)]).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert!(dir.join("results.json").is_file());
    assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
}
