//! The scripted tmux session (tests/tmux_session.sh) against the real binary. Skipped with a
//! note when tmux is not installed; .ci/run installs it so CI always runs it.

use std::process::Command;

#[test]
fn scripted_session_in_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux is not installed; skipping the scripted session");
        return;
    }
    let out = Command::new("bash")
        .arg("tests/tmux_session.sh")
        .arg(env!("CARGO_BIN_EXE_bayeslab"))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_signal_restores_the_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux is not installed; skipping the signal session");
        return;
    }
    let out = Command::new("bash")
        .arg("tests/tmux_signals.sh")
        .arg(env!("CARGO_BIN_EXE_bayeslab"))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
