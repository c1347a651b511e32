//! What an installed tool offers besides its commands: completions for each shell, man pages,
//! a `--version` naming the commit and the vector code, and exit code 3 for a run whose results
//! were written although a method failed (documented in --help and the README), and a quiet
//! end when the reader of its output stops early.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bayeslab(args: &[&str]) -> Output {
    crate::util::cli::bin().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn completions_are_written_for_each_shell_and_know_the_commands() {
    let bash = stdout(&bayeslab(&["completions", "bash"]));
    assert!(
        bash.contains("_bayeslab()") && bash.contains("complete -F _bayeslab"),
        "{bash}"
    );
    for cmd in ["run", "check", "compare", "completions", "man"] {
        assert!(bash.contains(cmd), "bash completion lacks {cmd}");
    }
    let zsh = stdout(&bayeslab(&["completions", "zsh"]));
    assert!(zsh.starts_with("#compdef bayeslab"), "{zsh}");
    let fish = stdout(&bayeslab(&["completions", "fish"]));
    assert!(fish.contains("complete -c bayeslab"), "{fish}");
    assert!(!stdout(&bayeslab(&["completions", "powershell"])).is_empty());
    let o = bayeslab(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("possible values"));
}

#[test]
fn the_man_page_prints_and_one_page_per_command_is_written() {
    let page = stdout(&bayeslab(&["man"]));
    assert!(page.contains(".TH bayeslab 1"), "{page}");
    assert!(
        page.contains(".SH NAME") && page.contains(".SH SUBCOMMANDS"),
        "{page}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("man1");
    stdout(&bayeslab(&["man", "--out", out.to_str().unwrap()]));
    for name in [
        "bayeslab",
        "bayeslab-run",
        "bayeslab-check",
        "bayeslab-compare",
    ] {
        let text = std::fs::read_to_string(out.join(format!("{name}.1"))).unwrap();
        assert!(text.contains(&format!(".TH {name} 1")), "{name}: {text}");
    }
    let run = std::fs::read_to_string(out.join("bayeslab-run.1")).unwrap();
    assert!(
        run.contains("\\-\\-out") && run.contains("experiment"),
        "{run}"
    );
}

#[test]
fn version_names_the_commit_and_the_vector_code() {
    let short = stdout(&bayeslab(&["-V"]));
    assert_eq!(
        short.trim(),
        format!("bayeslab {}", env!("CARGO_PKG_VERSION"))
    );
    let long = stdout(&bayeslab(&["--version"]));
    let commit = long
        .lines()
        .find_map(|l| l.strip_prefix("commit: "))
        .unwrap_or_else(|| panic!("no commit line in {long}"));
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match head {
        Some(hash) => assert!(commit.starts_with(&hash), "{commit} is not HEAD {hash}"),
        None => assert!(commit.starts_with("unknown"), "{commit}"),
    }
    let simd = long.lines().find_map(|l| l.strip_prefix("simd: ")).unwrap();
    if cfg!(target_arch = "x86_64") {
        assert!(
            simd.contains("AVX-512F, AVX2+FMA and SSE2") && simd.contains("this CPU: "),
            "{simd}"
        );
    } else {
        assert!(simd.starts_with("portable kernels only"), "{simd}");
    }
    assert!(
        long.contains(&format!("target: {}", std::env::consts::ARCH)),
        "{long}"
    );
}

#[test]
fn a_run_whose_results_were_written_but_a_method_failed_exits_3_not_2() {
    // MLE fails on separable data; MAP still fits, and every output is written.
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("mixed.toml");
    let sep = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/separable.csv");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"y\"\n\n[[method]]\nkind = \"logistic-mle\"\n\n[[method]]\nkind = \"logistic-map\"\n",
            sep.display().to_string()
        ),
    )
    .unwrap();
    let out = tmp.path().join("o");
    let o = bayeslab(&[
        "run",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
        exp.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.join("results.json").is_file() && out.join("report.html").is_file());
    // Bad input is still 2, with nothing written.
    let bad = tmp.path().join("bad.toml");
    std::fs::write(
        &bad,
        "[data]\npath = \"nowhere.csv\"\ntarget = \"y\"\n[[method]]\nkind = \"logistic-map\"\n",
    )
    .unwrap();
    let o = bayeslab(&[
        "run",
        "--quiet",
        "--out",
        tmp.path().join("b").to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!tmp.path().join("b").exists());
    let help = stdout(&bayeslab(&["--help"]));
    assert!(
        help.contains("3    the run wrote its results, but at least one method failed"),
        "{help}"
    );
}

/// `bayeslab man | head`: the reader gone before the first line, the process ends as `cat` would
/// (by SIGPIPE), not with a panic about a failed print.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = crate::util::cli::bin()
        .arg("man")
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(o.status.signal(), Some(libc::SIGPIPE), "{stderr}");
}
