#!/usr/bin/env bash
# Bounded fuzzing of the experiment and CSV loaders (not run in CI). cargo-fuzz needs a nightly
# toolchain, which this project's machines cannot fetch, so the fuzzers are proptest strategies
# (mutated experiments, arbitrary text, CSV-shaped text, arbitrary bytes) run for many cases.
#
# Usage: fuzz/run.sh [CASES per target, default 250000] [SEED, default 20261123] [SECONDS per
#        target, default 3600]
# Every target runs with PROPTEST_RNG_SEED=SEED+i, printed, so a run can be repeated exactly; the
# summary gives each target's cases and seconds. A failure prints the minimal failing input: add
# it as a regression test (tests/invalid_configs/ or a fixture). An abort (a non-unwinding panic
# inside a dependency) prints no input: run the target again with FUZZ_LAST_INPUT=<file>, which
# keeps each CSV input there before it is loaded, so the file holds the one that aborted.
set -uo pipefail
cd "$(dirname "$0")/.."
cases=${1:-250000}
seed=${2:-20261123}
secs=${3:-3600}
status=0
total=0
summary=""
cargo test --quiet --test fuzz_loaders --no-run || exit 1
i=0
for t in fuzz_experiment_text fuzz_arbitrary_text fuzz_csv fuzz_csv_bytes; do
  s=$((seed + i))
  i=$((i + 1))
  echo "== $t: $cases cases, PROPTEST_RNG_SEED=$s, at most ${secs}s"
  start=$(date +%s%N)
  PROPTEST_CASES=$cases PROPTEST_RNG_SEED=$s timeout "$secs" \
    cargo test --quiet --test fuzz_loaders -- --ignored --exact "$t"
  rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  took="$((ms / 1000)).$(printf %03d $((ms % 1000)))"
  case $rc in
    0) verdict="no failure"; total=$((total + cases)) ;;
    124) verdict="time limit reached without failure (fewer than $cases cases)" ;;
    *) verdict="FAILED (exit $rc): the minimal failing input is printed above"; status=1 ;;
  esac
  line=$(printf '%-22s seed %-10s %9s cases  %9s s  %s' "$t" "$s" "$cases" "$took" "$verdict")
  echo "   $line"
  summary+="$line"$'\n'
done
echo
echo "== summary ($(nproc) cores, $(date -u +%Y-%m-%d))"
printf '%s' "$summary"
echo "completed cases without failure: $total"
exit $status
