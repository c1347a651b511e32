//! One invalid experiment per error message (tests/invalid_configs/*.toml). Each file states
//! the substrings its error must contain in `# expect:` lines and, optionally, the command
//! (`# command: run`; default `check`). Every one must exit with code 2 and no panic, except a
//! run whose results are written although a method failed (a fit that cannot exist on these
//! data), which says `# exit: 3` and exits with 3.

use std::path::Path;

fn expectations(text: &str) -> (String, Vec<String>, i32) {
    let mut command = "check".to_string();
    let mut expect = Vec::new();
    let mut code = 2;
    for line in text.lines() {
        if let Some(e) = line.strip_prefix("# expect: ") {
            expect.push(e.to_string());
        } else if let Some(c) = line.strip_prefix("# command: ") {
            command = c.trim().to_string();
        } else if let Some(c) = line.strip_prefix("# exit: ") {
            code = c.trim().parse().expect("# exit: takes a number");
        }
    }
    (command, expect, code)
}

#[test]
fn every_invalid_config_fails_with_its_message_and_exit_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid_configs");
    let out = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the invalid-config corpus went missing");
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (command, expect, code) = expectations(&text);
        assert!(
            code == 2 || (code == 3 && command == "run"),
            "{}: exit {code} is 2 (bad input) or, for a run, 3 (a method failed)",
            file.display()
        );
        assert!(!expect.is_empty(), "{}: no # expect: line", file.display());
        let mut cmd = crate::util::cli::bin();
        cmd.arg(&command).arg(&file);
        if command == "run" {
            cmd.arg("--quiet")
                .arg("--out")
                .arg(out.path().join(file.file_stem().unwrap()));
        }
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        if output.status.code() != Some(code) {
            failures.push(format!(
                "{}: exit {:?}, stderr:\n{stderr}",
                file.display(),
                output.status.code()
            ));
            continue;
        }
        if stderr.contains("panicked") {
            failures.push(format!("{}: panicked:\n{stderr}", file.display()));
        }
        for e in &expect {
            if !stderr.contains(e.as_str()) {
                failures.push(format!(
                    "{}: stderr lacks {e:?}; it was:\n{stderr}",
                    file.display()
                ));
            }
        }
        // The message names the experiment file (or the data file it points to).
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let names_data = [".csv", ".tsv", ".parquet"]
            .iter()
            .any(|e| stderr.contains(e));
        if !stderr.contains(&name) && !names_data && command == "check" {
            failures.push(format!(
                "{}: the message names no file:\n{stderr}",
                file.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
