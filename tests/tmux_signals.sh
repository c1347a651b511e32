#!/usr/bin/env bash
# The workbench ended by a signal leaves the terminal as it found it: for each of SIGTERM,
# SIGHUP, SIGINT and SIGQUIT sent from outside (as `kill`, a closed ssh session or a service
# manager would), the alternate screen is off, the cursor shown, the line discipline cooked
# (icanon, echo) and the exit code 128 + the signal.
# Usage: tests/tmux_signals.sh path/to/bayeslab   (run from the repository root)
set -euo pipefail
bin=$(realpath "$1")
root=$(pwd)
work=$(mktemp -d)
sock="bayeslab-signals-$$"
t() { tmux -L "$sock" "$@"; }
cleanup() { t kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cp -r "$root/experiments" "$root/datasets" "$work/"

pane() { t capture-pane -p -t s; }
wait_for() {
  for _ in $(seq 1 $((${2:-120} * 5))); do
    if pane | grep -qF -- "$1"; then return 0; fi
    sleep 0.2
  done
  echo "tmux signals: never saw \"$1\"; the pane was:" >&2
  pane >&2
  exit 1
}
press() { t send-keys -t s "$@"; }

t new-session -d -s s -x 100 -y 30 -c "$work" "bash --norc --noprofile"
press "PS1='$ '" Enter
shell=$(t display-message -p -t s '#{pane_pid}')
for sig in TERM HUP INT QUIT; do
  press "clear; $bin; echo exit-\$? mode:\$(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ,)" Enter
  wait_for "1 Experiments"
  # the workbench is the shell's only child (the pipeline after it has not started)
  pid=$(pgrep -P "$shell" -x bayeslab)
  kill -s "$sig" "$pid"
  code=$((128 + $(kill -l "$sig")))
  wait_for "exit-$code" 30
  if ! pane | grep -qF -- "exit-$code mode:icanon,echo,"; then
    echo "SIG$sig: the terminal was left raw (or the exit code is wrong)" >&2; pane >&2; exit 1
  fi
  test "$(t display-message -p -t s '#{alternate_on}')" = 0 || { echo "SIG$sig: still on the alternate screen" >&2; exit 1; }
  test "$(t display-message -p -t s '#{cursor_flag}')" = 1 || { echo "SIG$sig: cursor still hidden" >&2; exit 1; }
done
echo "tmux signals: ok"
