#!/usr/bin/env bash
# Issue 8's side-by-side benchmark, in one run on the same files: bayeslab against
# scikit-learn, numpy and pandas. Builds bayeslab (release) once, writes the data with
# `bayeslab synth`, times bayeslab with `bayeslab bench` and the Python stack with
# benches/compare.py (each measurement in its own process), and writes benches/results.md.
#
#   benches/compare.sh                 # issue 8's sizes: 1,000,000 x 50 and 100,000 x 500, tests of 100,000 rows
#   benches/compare.sh --small         # a quick smoke run: 20,000 x 20 and 5,000 x 100, tests of 10,000 rows
#   benches/compare.sh --samplers      # issue 32's samplers instead: hmc-logistic and gibbs-logistic against
#                                      # nutpie's NUTS on Pima and breast_cancer (benches/compare_samplers.py),
#                                      # 4 chains x 2,000 draws after 1,000; OUT defaults to benches/samplers.md
#   options: --reps N (3)  --threads N (all cores)  --lambda L (1)  --samples S (1000)
#            --seed N (0)  --data DIR (benches/data)  --out FILE (benches/results.md)
#
# The release binary goes to $CARGO_TARGET_DIR (default target/). Data sets are reused when
# their STEM.synth.json (written last by synth) exists. Needs python3 (3.11) with venv; the
# packages in benches/requirements.txt are installed into benches/.venv when missing.
#
# The load guard (benches/load_guard.sh): each half (bayeslab, then Python) starts once the
# 1-minute load is at most 0.5 per core (waiting up to 3 minutes) and has its load recorded
# before and after. If either half ran loaded, OUT is not written: the table goes to
# OUT-without-.md.loaded.md, marked, and the script exits with code 3.
set -euo pipefail
cd "$(dirname "$0")/.."

small=0 samplers=0 reps=3 threads=$(nproc) lambda=1 samples=1000 seed=0
data=benches/data out=
while [ $# -gt 0 ]; do
  case "$1" in
    --small) small=1 ;;
    --samplers) samplers=1 ;;
    --reps) reps=$2; shift ;;
    --threads) threads=$2; shift ;;
    --lambda) lambda=$2; shift ;;
    --samples) samples=$2; shift ;;
    --seed) seed=$2; shift ;;
    --data) data=$2; shift ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$out" ]; then
  if [ "$samplers" = 1 ]; then out=benches/samplers.md; else out=benches/results.md; fi
fi
if [ "$small" = 1 ]; then
  sizes="20000x20 5000x100" test_rows=10000
else
  sizes="1000000x50 100000x500" test_rows=100000
fi

venv=benches/.venv
if [ ! -x "$venv/bin/python" ]; then
  echo "compare: creating $venv" >&2
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import numpy, sklearn, pandas, scipy, polars, nutpie, pymc, arviz" 2>/dev/null; then
  echo "compare: installing benches/requirements.txt into $venv" >&2
  "$venv/bin/python" -m pip install --quiet -r benches/requirements.txt
fi

echo "compare: cargo build --release" >&2
cargo build --release --quiet
# A private copy, so that another build into a shared CARGO_TARGET_DIR cannot replace the
# binary halfway through the run.
mkdir -p "$data"
bin="$data/bayeslab"
cp "${CARGO_TARGET_DIR:-target}/release/bayeslab" "$bin.tmp.$$"
mv -f "$bin.tmp.$$" "$bin"

guard=benches/load_guard.sh
cores=$(nproc)
if [ "$samplers" = 1 ]; then
  # Both sides run in one script, data set by data set, so the load is judged once for the whole.
  echo "compare: waiting for a quiet machine (1-minute load <= 0.5 per core, at most 180 s)" >&2
  before=$("$guard" settle 180 "$cores")
  start=$SECONDS
  staged="$(dirname "$out")/.$(basename "$out").staged-$$"
  "$venv/bin/python" benches/compare_samplers.py --bin "$bin" --threads "$threads" --seed "$seed" \
    --precision "$lambda" --out "$staged"
  after=$("$guard" now)
  if verdict=$("$guard" verdict "both samplers" "$cores" "$threads" "$before" "$after" $((SECONDS - start))); then
    { echo; echo "Load, by benches/load_guard.sh:"; echo "- $verdict"; } >> "$staged"
    mv -f "$staged" "$out"
    echo "compare: ran on a quiet machine; wrote $out" >&2
    exit 0
  fi
  loaded="${out%.md}.loaded.md"
  { echo "**MEASURED ON A LOADED MACHINE: not for the README.**"; echo; cat "$staged"; echo "- $verdict"; } > "$loaded"
  rm -f "$staged"
  echo "compare: MEASURED ON A LOADED MACHINE ($verdict). $out was NOT written; the table is in $loaded." >&2
  exit 3
fi

stems=()
for size in $sizes; do
  rows=${size%x*} features=${size#*x}
  stem="$data/synth_n${rows}_d${features}_m${test_rows}_s${seed}"
  if [ ! -f "$stem.synth.json" ]; then
    "$bin" synth --rows "$rows" --features "$features" --test-rows "$test_rows" --seed "$seed" \
      --out "$stem.parquet" --npy --csv
  fi
  stems+=("$stem")
done

# Each half starts once the build's or the other half's load has decayed (at most 3 minutes)
# and is judged by benches/load_guard.sh: the README table is only written from quiet halves.
echo "compare: waiting for a quiet machine (1-minute load <= 0.5 per core, at most 180 s)" >&2
bayeslab_before=$("$guard" settle 180 "$cores")
start=$SECONDS
report_args=()
for stem in "${stems[@]}"; do
  "$bin" bench --train "$stem.parquet" --test "$stem.test.parquet" --lambda "$lambda" \
    --samples "$samples" --reps "$reps" --threads "$threads" --seed "$seed" \
    --json --out "$stem.bench.json" > /dev/null
  report_args+=(--stem "$stem" --bench "$stem.bench.json")
done
# Issue 32: the whole `bayeslab run` of one logistic-map on the first (tallest) CSV, split
# 80/20, reports and all, against polars reading the same file (compare.py's read-csv-polars).
run_stem=${stems[0]}
cat > "$data/run.toml" <<TOML
name = "compare-run"
seed = $seed
[data]
path = "$(basename "$run_stem").csv"
target = "y"
split = { test_fraction = 0.2 }
[prior]
precision = $lambda
[[method]]
id = "map"
kind = "logistic-map"
TOML
# Each repetition of the run is followed by one of polars' read of the same file (its own
# process, compare.py's read-csv-polars): the two sides alternate, so a machine whose speed
# moves over the minutes of a half moves both.
run_times=() read_times=()
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for rep in $(seq "$reps"); do
  rm -rf "$data/run-out"
  t0=$(date +%s.%N)
  RAYON_NUM_THREADS=$threads POLARS_MAX_THREADS=$threads "$bin" run "$data/run.toml" --out "$data/run-out" --quiet
  t1=$(date +%s.%N)
  run_times+=("$(awk "BEGIN {print $t1 - $t0}")")
  read_times+=("$(POLARS_MAX_THREADS=$threads "$venv/bin/python" benches/compare.py measure read-csv-polars \
    --train "$run_stem" --reps 1 | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["median_seconds"])')")
  echo "compare: bayeslab run $rep/$reps: ${run_times[-1]} s; polars' read of its file: ${read_times[-1]} s" >&2
done
report_args+=(--run "$run_stem:$(median "${run_times[@]}"):$(median "${read_times[@]}")")
# The loads against polars and numpy.load the same way: each repetition of bayeslab's load (its
# own process) followed by one of the other side's, their medians taking the table's ratios.
seconds() { "$venv/bin/python" -c 'import json, sys; d = json.load(sys.stdin); print((d["tasks"][0] if "tasks" in d else d)["median_seconds"])'; }
for stem in "${stems[@]}"; do
  for pair in load-csv:load-csv-polars load-parquet:load-parquet-polars load-npy:load-npy; do
    ours_task=${pair%%:*} other_task=${pair#*:}
    ours=() theirs=()
    for rep in $(seq "$reps"); do
      ours+=("$("$bin" bench --train "$stem.parquet" --test "$stem.test.parquet" --threads "$threads" \
        --only "$ours_task" --reps 1 --json --quiet | seconds)")
      theirs+=("$(POLARS_MAX_THREADS=$threads OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads \
        "$venv/bin/python" benches/compare.py measure "$other_task" --train "$stem" --test "$stem.test" \
        --reps 1 | seconds)")
      echo "compare: $(basename "$stem") $ours_task $rep/$reps: ${ours[-1]} s; $other_task: ${theirs[-1]} s" >&2
    done
    report_args+=(--alternating "$stem:$ours_task:$(median "${ours[@]}"):$(median "${theirs[@]}")")
  done
done
bayeslab_after=$("$guard" now)
bayeslab_seconds=$((SECONDS - start))

python_before=$("$guard" settle 180 "$cores")
start=$SECONDS
staged="$(dirname "$out")/.$(basename "$out").staged-$$"
"$venv/bin/python" benches/compare.py report "${report_args[@]}" --lam "$lambda" \
  --samples "$samples" --reps "$reps" --seed "$seed" --threads "$threads" --out "$staged"
python_after=$("$guard" now)
python_seconds=$((SECONDS - start))

quiet=1
verdicts=()
for half in "bayeslab $bayeslab_before $bayeslab_after $bayeslab_seconds" \
            "Python $python_before $python_after $python_seconds"; do
  set -- $half
  if verdict=$("$guard" verdict "$1" "$cores" "$threads" "$2" "$3" "$4"); then :; else quiet=0; fi
  verdicts+=("$verdict")
done
{
  echo
  echo "Load, by benches/load_guard.sh:"
  for v in "${verdicts[@]}"; do echo "- $v"; done
} >> "$staged"

if [ "$quiet" = 1 ]; then
  mv -f "$staged" "$out"
  echo "compare: both halves ran on a quiet machine; wrote $out" >&2
else
  # Refuse rather than mark: a marked table still gets copied into the README, as issue 19
  # found of the 6.1 x that compared a quiet bayeslab with a loaded Python side.
  loaded="${out%.md}.loaded.md"
  { echo "**MEASURED ON A LOADED MACHINE: not for the README.**"; echo; cat "$staged"; } > "$loaded"
  rm -f "$staged"
  {
    echo
    echo "compare: ************************************************************"
    echo "compare: MEASURED ON A LOADED MACHINE. $out was NOT written."
    for v in "${verdicts[@]}"; do echo "compare:   $v"; done
    echo "compare: the table is in $loaded; run again on a quiet machine."
    echo "compare: ************************************************************"
  } >&2
  exit 3
fi
