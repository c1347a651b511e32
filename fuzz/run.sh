#!/usr/bin/env bash
# Bounded fuzzing of the experiment and CSV loaders (not run in CI). cargo-fuzz needs a nightly
# toolchain, which this project's machines cannot fetch, so the fuzzers are proptest strategies
# (mutated experiments, arbitrary text, CSV-shaped text, arbitrary bytes) run for many cases.
# Usage: fuzz/run.sh [SECONDS per target, default 120] [CASES, default 20000]
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-120}
cases=${2:-20000}
status=0
for t in fuzz_experiment_text fuzz_arbitrary_text fuzz_csv fuzz_csv_bytes; do
  echo "== $t: up to $cases cases or ${secs}s"
  PROPTEST_CASES=$cases timeout "$secs" cargo test --quiet --test fuzz_loaders -- --ignored --exact "$t"
  rc=$?
  case $rc in
    0) echo "   no failure" ;;
    124) echo "   time limit reached without failure" ;;
    *) echo "   FAILED (exit $rc): the minimal failing input is printed above; add it as a regression test"; status=1 ;;
  esac
done
exit $status
