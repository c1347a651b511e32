#!/usr/bin/env bash
# Issue 8's larger-than-memory demonstration: a logistic Laplace fit streamed from a Parquet
# file larger than the memory budget, beside the in-memory fit of the same file, with each
# one's time per pass over the data and peak memory.
#
#   benches/streaming.sh                  # 10,000,000 x 50 (4 GB of float64) under max_memory = "1GiB"
#   benches/streaming.sh --small          # 200,000 x 20 under "64MiB", a quick check
#   options: --rows N  --features D  --budget SIZE  --chunk-rows R  --data DIR (benches/data)
#            --out FILE (benches/results-streaming.md)  --no-in-memory
#
# The release binary goes to $CARGO_TARGET_DIR (default target/); the data set is reused when
# its STEM.synth.json exists. Peak memory is GNU time's maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/.."

rows=10000000 features=50 budget=1GiB chunk=65536 data=benches/data
out=benches/results-streaming.md in_memory=1
while [ $# -gt 0 ]; do
  case "$1" in
    --small) rows=200000 features=20 budget=64MiB chunk=16384 ;;
    --rows) rows=$2; shift ;;
    --features) features=$2; shift ;;
    --budget) budget=$2; shift ;;
    --chunk-rows) chunk=$2; shift ;;
    --data) data=$2; shift ;;
    --out) out=$2; shift ;;
    --no-in-memory) in_memory=0 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "streaming.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -x /usr/bin/time ] || { echo "streaming.sh: needs GNU time (apt-get install time)" >&2; exit 2; }

echo "streaming: cargo build --release" >&2
cargo build --release --quiet
mkdir -p "$data"
bin="$data/bayeslab-streaming"
cp "${CARGO_TARGET_DIR:-target}/release/bayeslab" "$bin.tmp.$$"
mv -f "$bin.tmp.$$" "$bin"

stem="$data/stream_n${rows}_d${features}_s1"
if [ ! -f "$stem.synth.json" ]; then
  echo "streaming: bayeslab synth --rows $rows --features $features" >&2
  "$bin" synth --rows "$rows" --features "$features" --seed 1 --test-rows 100000 --out "$stem.parquet"
fi
dir=$(cd "$data" && pwd)
name=$(basename "$stem")

experiment() { # $1 = file, $2 = extra [data] lines
  cat > "$1" <<EOF
name = "$(basename "$1" .toml)"
seed = 1
[data]
train = "$dir/$name.parquet"
test = "$dir/$name.test.parquet"
target = "y"
standardize = false
$2
[prior]
precision = 1.0
[evaluation]
khat_draws = 0
[[method]]
id = "laplace"
kind = "logistic-laplace"
predictive = ["plugin", "mc"]
EOF
}
experiment "$data/streamed.toml" "streaming = true
chunk_rows = $chunk
max_memory = \"$budget\""
experiment "$data/in_memory.toml" ""

echo "streaming: streamed run (max_memory = $budget)" >&2
/usr/bin/time -f "%M %e" -o "$data/streamed.time" \
  "$bin" run "$data/streamed.toml" --out "$data/run-streamed" --quiet
if [ "$in_memory" = 1 ]; then
  echo "streaming: in-memory run" >&2
  /usr/bin/time -f "%M %e" -o "$data/in_memory.time" \
    "$bin" run "$data/in_memory.toml" --out "$data/run-in-memory" --quiet
fi

python3 - "$data" "$stem" "$budget" "$in_memory" "$out" <<'EOF'
import json, os, sys
data, stem, budget, in_memory, out = sys.argv[1:6]
def load(d):
    return json.load(open(os.path.join(data, d, "results.json")))
def peak(f):
    kib, secs = open(os.path.join(data, f)).read().split()[:2]
    return int(kib) * 1024, float(secs)
s = load("run-streamed")
st = s["streaming"]
run = next(r for r in st["runs"] if r["run"] == "laplace")
fit = next(r for r in s["runs"] if r["id"] == "laplace")
s_peak, s_wall = peak("streamed.time")
size = os.path.getsize(stem + ".parquet")
rows, feats = s["dataset"]["rows_train"], s["dataset"]["features"]
lines = [
    f"Streamed logistic-laplace fit of {rows:,} x {feats} ({rows * feats * 8 / 2**30:.2f} GiB as float64; "
    f"Parquet file {size / 2**30:.2f} GiB) under max_memory = \"{budget}\", chunks of {st['chunk_rows']:,} rows "
    f"({st['chunks_per_pass']} per pass); cores: {os.cpu_count()}.",
    "",
    "| run | fit passes | seconds per pass | of which reading | fit seconds | Newton steps | peak RSS | wall seconds |",
    "|---|---|---|---|---|---|---|---|",
    f"| streamed | {run['passes']} | {run['seconds_per_pass']:.2f} | {run['read_seconds_per_pass']:.2f} | "
    f"{run['seconds']:.1f} | {fit['iterations']} | {s_peak / 2**20:,.0f} MiB | {s_wall:.0f} |",
]
w_s = fit["weights"]
if in_memory == "1":
    m = load("run-in-memory")
    mf = next(r for r in m["runs"] if r["id"] == "laplace")
    m_peak, m_wall = peak("in_memory.time")
    per = mf["fit_seconds"] / run["passes"]
    lines.append(
        f"| in memory | {run['passes']} (same points) | {per:.2f} | (loaded once) | {mf['fit_seconds']:.1f} | "
        f"{mf['iterations']} | {m_peak / 2**20:,.0f} MiB | {m_wall:.0f} |")
    diff = max(abs(a - b) for a, b in zip(w_s, mf["weights"]))
    lines += ["", f"Streamed / in-memory time per pass: {run['seconds_per_pass'] / per:.1f}. "
              f"Largest |w_streamed - w_in_memory| = {diff:.1e}."]
lines += ["", "Passes of the streamed run: " + ", ".join(
    f"{p['purpose']} {p['seconds']:.1f} s" for p in st["passes"]) + "."]
text = "\n".join(lines) + "\n"
print(text)
tmp = out + ".tmp"
open(tmp, "w").write(text)
os.replace(tmp, out)
EOF
