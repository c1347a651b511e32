#!/usr/bin/env bash
# Drive the real bayeslab binary in a tmux pane as a person would: open the workbench, run
# the quickstart, visit every screen, open the help, export, quit; then check that the
# terminal is back to normal (alternate screen off, cursor shown, the shell answers). Then
# run gibbs_vs_laplace and watch the chain traces and R-hat of its samplers on Live. Last, a
# panic injected into the UI thread must leave the terminal restored too.
# Usage: tests/tmux_session.sh path/to/bayeslab   (run from the repository root)
set -euo pipefail
bin=$(realpath "$1")
root=$(pwd)
work=$(mktemp -d)
sock="bayeslab-test-$$"
t() { tmux -L "$sock" "$@"; }
cleanup() { t kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# A scratch copy, so the export writes runs/ there and not into the repository.
cp -r "$root/experiments" "$root/datasets" "$work/"

pane() { t capture-pane -p -t s; }
# Wait (polling) until the pane shows $1, for at most $2 seconds (default 120); the cap only
# stops a hung session from hanging CI.
wait_for() {
  for _ in $(seq 1 $((${2:-120} * 5))); do
    if pane | grep -qF -- "$1"; then return 0; fi
    sleep 0.2
  done
  echo "tmux session: never saw \"$1\"; the pane was:" >&2
  pane >&2
  exit 1
}
press() { t send-keys -t s "$@"; }

t new-session -d -s s -x 100 -y 30 -c "$work" "bash --norc --noprofile"
t set-option -t s remain-on-exit on >/dev/null
press "PS1='$ '" Enter
press "$bin" Enter
wait_for "1 Experiments"
wait_for "r runs the selected experiment"
pane | grep -qF "experiments/quickstart.toml" || { echo "quickstart not selected" >&2; pane >&2; exit 1; }
# The Dataset screen is filled on selection, before any run.
press 2; wait_for "per class (train / test): 0: 284 / 71"
# Below 80x24 a message with both sizes; the screens come back when the terminal grows.
t resize-window -t s -x 70 -y 20; wait_for "this one is 70x20"
t resize-window -t s -x 100 -y 30; wait_for "features over the 426 training rows"
press 1
press r
wait_for "finished: 4-7 show the results"
wait_for "converged after"
press 2; wait_for "features over the 426 training rows"
press 3; wait_for "gradient norm |g|, log10"
wait_for "Monte Carlo: mean estimate"
press 4; wait_for "laplace/probit"
press 5; wait_for "ECE"
wait_for "mean predicted"
press 6; wait_for "point estimate (no posterior)"
press j; press j; wait_for "posterior, log evidence"
press 7; wait_for "this experiment has no [[posterior]] tables"
press '?'; wait_for "Esc or ? closes)"
press Escape
# Wait for the overlay to close before the next key: Escape followed at once by `e` reaches the
# program as one Alt-e when the machine is busy.
for _ in $(seq 1 100); do
  t capture-pane -p -t s | grep -qF "Esc or ? closes)" || break
  sleep 0.1
done
press e; wait_for "exported results.json"
for f in results.json predictions.csv trace.csv report.md report.html; do
  test -s "$work/runs/quickstart/$f" || { echo "export did not write $f" >&2; exit 1; }
done
# Quit, then check that the shell is back: off the alternate screen, cursor shown, and it
# answers ($1 tells the runs apart).
quit_and_check() {
  press q
  # Type only once the program has left the alternate screen, so the shell gets the keys.
  for _ in $(seq 1 300); do
    test "$(t display-message -p -t s '#{alternate_on}')" = 0 && break
    sleep 0.2
  done
  sleep 0.5
  press "echo $1-\$?" Enter
  wait_for "$1-0"
  test "$(t display-message -p -t s '#{alternate_on}')" = 0 || { echo "still on the alternate screen" >&2; exit 1; }
  test "$(t display-message -p -t s '#{cursor_flag}')" = 1 || { echo "cursor still hidden" >&2; exit 1; }
}
quit_and_check restored

# The samplers: Live traces every chain of the Gibbs runs and updates their R-hat as the
# draws arrive, then the finished run's R-hat over all weights.
press "clear; $bin tui experiments/gibbs_vs_laplace.toml" Enter
wait_for "r runs the selected experiment"
press r
wait_for "kept/chain"
wait_for "split-R-hat  npreg"
# Two samplers, the approximation-error table and k-hat: minutes on a loaded debug build.
wait_for "finished: 4-7 show the results" 900
wait_for "all weights:  split-R-hat max"
press k; wait_for "gibbs — 4 chains"
press t; wait_for "rank plots of 3 weights"; wait_for "npreg ranks"
press t; wait_for "objective E(w)"
press 4; for _ in $(seq 12); do press j; done; wait_for "gibbs-probit/exact"  # the last row, below the LOO pane
quit_and_check restored-again

# A panic in the UI thread (injected after the first frame): the panic hook restores the
# terminal before the message is printed, and the shell gets a normal screen back. The backtrace
# is off: with RUST_BACKTRACE=1 in the caller's environment it scrolls the message off the pane.
press "clear; BAYESLAB_FAULT=tui-panic RUST_BACKTRACE=0 $bin tui" Enter
for _ in $(seq 1 300); do
  test "$(t display-message -p -t s '#{alternate_on}')" = 0 && pane | grep -qF "a deliberate panic" && break
  sleep 0.2
done
sleep 0.5
press "echo panicked-\$?" Enter
wait_for "panicked-101"
wait_for "a deliberate panic after the first frame"
test "$(t display-message -p -t s '#{alternate_on}')" = 0 || { echo "panic: still on the alternate screen" >&2; exit 1; }
test "$(t display-message -p -t s '#{cursor_flag}')" = 1 || { echo "panic: cursor still hidden" >&2; exit 1; }
echo "tmux session: ok"
