#!/usr/bin/env bash
# Wall seconds of every shipped experiment with one build, best of REPS (default 2), for the
# debug/release table in docs/development/benchmarks.md. Usage, from the repository root:
#   benches/experiments.sh target/debug/bayeslab debug
#   benches/experiments.sh target/release/bayeslab release
# Prints "LABEL EXPERIMENT SECONDS rc=EXIT" per experiment and the 1-minute load before and
# after, since a loaded machine makes the figures meaningless.
set -u
bin=${1:?usage: benches/experiments.sh BIN LABEL [REPS]}
label=${2:?usage: benches/experiments.sh BIN LABEL [REPS]}
reps=${3:-2}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load before: $(cut -d' ' -f1 /proc/loadavg)"
for f in experiments/*.toml; do
  n=$(basename "$f" .toml)
  best=""
  rc=0
  for _ in $(seq "$reps"); do
    s=$(date +%s.%N)
    "$bin" run "$f" --out "$out/$n" --quiet >/dev/null 2>&1
    rc=$?
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [ -z "$best" ] || (($(echo "$t < $best" | bc))); then best=$t; fi
  done
  printf "%s %s %.2f rc=%s\n" "$label" "$n" "$best" "$rc"
done
echo "load after: $(cut -d' ' -f1 /proc/loadavg)"
