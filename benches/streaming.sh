#!/usr/bin/env bash
# Issue 8's larger-than-memory demonstration and issue 19's design cache: a logistic Laplace fit
# streamed from a Parquet file under a memory budget, beside the in-memory fit of the same file,
# with each one's time per pass over the data and peak memory. The streamed run's first fit pass
# decodes the file (and writes the design cache); every later pass reads the cache. Printed in one
# run: the cached pass / in-memory pass ratio (a streamed Hessian pass read from the cache against
# the in-memory fit's own Hessian pass, both timed around the objective's pass: results.json
# streaming.passes and runs[].passes), the first pass and its decode throughput in MB/s beside a
# plain polars read of the same file, and the in-memory load's peak / X.
#
#   benches/streaming.sh                  # 10,000,000 x 50 (4 GB of float64) under max_memory = "1GiB"
#   benches/streaming.sh --small          # 200,000 x 20 under "64MiB", a quick check
#   benches/streaming.sh --rows 20000000  # 20,000,000 x 50, into its own results file
#   options: --rows N  --features D  --budget SIZE  --chunk-rows R  --data DIR (benches/data)
#            --out FILE (benches/results-streaming-<rows>x<features>.md)  --no-in-memory
#            --uncached (also stream with [data] cache = false: every pass decodes the file)
#
# The release binary goes to $CARGO_TARGET_DIR (default target/); the data set is reused when
# its STEM.synth.json exists. Peak memory is GNU time's maximum resident set size; the 1-minute
# load average before each run is printed beside it (on a shared machine, read the ratios with it).
set -euo pipefail
cd "$(dirname "$0")/.."

rows=10000000 features=50 budget=1GiB chunk=65536 data=benches/data
out="" in_memory=1 uncached=0
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
    --uncached) uncached=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "streaming.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$out" ] || out="benches/results-streaming-${rows}x${features}.md"
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
streamed="streaming = true
chunk_rows = $chunk
max_memory = \"$budget\""
experiment "$data/streamed.toml" "$streamed"
experiment "$data/uncached.toml" "$streamed
cache = false"
experiment "$data/in_memory.toml" ""

# $1 = name: run $data/$1.toml into $data/run-$1; peak RSS, wall seconds and the 1-minute load
# before it go to $data/$1.time.
timed() {
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "streaming: $1 run (1-minute load $load)" >&2
  /usr/bin/time -f "%M %e" -o "$data/$1.time" "$bin" run "$data/$1.toml" --out "$data/run-$1" --quiet
  echo "$load" >> "$data/$1.time"
}
rm -f "$data"/{streamed,uncached,in_memory}.time "$data/load.json"
timed streamed
if [ "$uncached" = 1 ]; then timed uncached; fi
if [ "$in_memory" = 1 ]; then
  timed in_memory
  echo "streaming: bayeslab bench --only load-parquet (the loader's peak and a plain polars read)" >&2
  "$bin" bench --train "$stem.parquet" --only load-parquet --reps 1 --json --quiet > "$data/load.json"
fi

python3 - "$data" "$stem" "$budget" "$in_memory" "$out" <<'EOF'
import json, os, sys
data, stem, budget, in_memory, out = sys.argv[1:6]
def load(d):
    return json.load(open(os.path.join(data, d, "results.json")))
def timing(f):
    kib, secs, avg = open(os.path.join(data, f)).read().split()[:3]
    return int(kib) * 1024, float(secs), float(avg)
def fit_passes(st):
    return [p for p in st["passes"] if p["run"] == "laplace" and p["purpose"] in ("fit", "fit-grad")]
def mean(xs):
    return sum(xs) / max(len(xs), 1)
def laplace(record):
    return next(r for r in record["runs"] if r["id"] == "laplace")

s = load("run-streamed")
st = s["streaming"]
fit = laplace(s)
passes = fit_passes(st)
first, cached = passes[0], passes[1:]
assert first["read_from"] == "file", first
assert all(p["read_from"] == "cache" for p in cached), [p["read_from"] for p in cached]
c_sec = mean([p["seconds"] for p in cached])
c_wait = mean([p["read_seconds"] for p in cached])
# Like with like: the cached passes that computed the Hessian, and those that did not.
c_hess = [p["seconds"] for p in cached if p["purpose"] == "fit"]
c_grad = [p["seconds"] for p in cached if p["purpose"] == "fit-grad"]
c_cpu = [p["reader_cpu_seconds"] for p in cached if p.get("reader_cpu_seconds") is not None]
s_peak, s_wall, s_load = timing("streamed.time")
size = os.path.getsize(stem + ".parquet")
mb = size / 1e6
rows, feats = s["dataset"]["rows_train"], s["dataset"]["features"]
lines = [
    f"Streamed logistic-laplace fit of {rows:,} x {feats} ({rows * feats * 8 / 2**30:.2f} GiB as float64; "
    f"Parquet file {size / 2**30:.2f} GiB) under max_memory = \"{budget}\", chunks of {st['chunk_rows']:,} rows "
    f"({st['chunks_per_pass']} per pass); cores: {os.cpu_count()}. The first fit pass decodes the file and writes "
    f"the design cache; the {len(cached)} after it read the cache.",
    "",
    "| run | fit passes | first pass s (reading) | later pass s (reading) | fit seconds | Newton steps | peak RSS | wall seconds | 1-min load |",
    "|---|---|---|---|---|---|---|---|---|",
    f"| streamed | {len(passes)} | {first['seconds']:.2f} ({first['read_seconds']:.2f}) | {c_sec:.3f} ({c_wait:.3f}) | "
    f"{sum(p['seconds'] for p in passes):.1f} | {fit['iterations']} | {s_peak / 2**20:,.0f} MiB | {s_wall:.1f} | {s_load:.2f} |",
]
if os.path.exists(os.path.join(data, "uncached.time")):
    u = load("run-uncached")
    up = fit_passes(u["streaming"])
    u_peak, u_wall, u_load = timing("uncached.time")
    lines.append(
        f"| streamed, cache = false | {len(up)} | {up[0]['seconds']:.2f} ({up[0]['read_seconds']:.2f}) | "
        f"{mean([p['seconds'] for p in up[1:]]):.3f} ({mean([p['read_seconds'] for p in up[1:]]):.3f}) | "
        f"{sum(p['seconds'] for p in up):.1f} | {laplace(u)['iterations']} | {u_peak / 2**20:,.0f} MiB | "
        f"{u_wall:.1f} | {u_load:.2f} |")
    lu = laplace(u)
    same = (lu["weights"] == fit["weights"] and lu["posterior"]["cov_diag"] == fit["posterior"]["cov_diag"]
            and lu["posterior"]["log_evidence"] == fit["posterior"]["log_evidence"])
    uncached_note = (f"Cached against cache = false: weights, covariance diagonal and log evidence "
                     f"{'equal bit for bit' if same else 'DIFFER'}; time per later pass "
                     f"{mean([p['seconds'] for p in up[1:]]) / c_sec:.1f} x faster with the cache.")
else:
    uncached_note = None
notes = []
if in_memory == "1":
    m = load("run-in_memory")
    mf = laplace(m)
    m_peak, m_wall, m_load = timing("in_memory.time")
    mp = mf["passes"]
    per = mp["hessian_seconds"] / mp["hessian"]
    m_grad = mp["gradient_seconds"] / mp["gradient"] if mp["gradient"] else None
    lines.append(
        f"| in memory | {mp['hessian'] + mp['gradient']} (+ the warm start's subsample fit) | {per:.3f} (loaded once) | "
        f"{per:.3f} | {mf['fit_seconds']:.1f} | "
        f"{mf['iterations']} | {m_peak / 2**20:,.0f} MiB | {m_wall:.1f} | {m_load:.2f} |")
    diff = max(abs(a - b) for a, b in zip(fit["weights"], mf["weights"]))
    bench = json.load(open(os.path.join(data, "load.json")))["tasks"][0]
    polars = bench["load"]["polars_read_median_seconds"]
    grad_note = ""
    if c_grad and m_grad:
        grad_note = (f" Gradient-only passes (E and g, no Hessian): {mean(c_grad):.3f} s read from the cache against "
                     f"{m_grad:.3f} s in memory, **{mean(c_grad) / m_grad:.2f}**.")
    notes += [
        f"Streamed / in-memory time per Hessian pass from the second pass on (read from the cache): "
        f"**{mean(c_hess) / per:.2f}** ({mean(c_hess):.3f} s over the {len(c_hess)} cached `fit` passes against "
        f"{per:.3f} s over the in-memory fit's {mp['hessian']} Hessian passes, each timed around the objective's "
        f"pass: results.json streaming.passes and runs[].passes); the first pass (decoding the file, writing the "
        f"cache): {first['seconds'] / per:.1f}.{grad_note}"
        + (f" The thread that checks the cache's blocks ahead of the fit used {mean(c_cpu):.3f} CPU seconds a "
           f"cached pass (10 ms resolution), on the cores the fit shares." if c_cpu else ""),
        f"First pass: {mb:,.0f} MB of Parquet in {first['seconds']:.2f} s = **{mb / first['seconds']:,.0f} MB/s** "
        f"({mb / first['read_seconds']:,.0f} MB/s counting only its reading: polars, design rows and writing the "
        f"cache); a plain polars read of the same file (`bayeslab bench --only load-parquet`): {polars:.2f} s = "
        f"**{mb / polars:,.0f} MB/s**.",
        f"In-memory load peak / X: **{bench['peak_over_input']:.2f}** (`bayeslab bench --only load-parquet`, X = "
        f"{bench['input_bytes'] / 2**30:.2f} GiB); the in-memory run's peak RSS / X: "
        f"{m_peak / bench['input_bytes']:.2f}.",
        f"Largest |w_streamed - w_in_memory| = {diff:.1e}.",
    ]
if uncached_note:
    notes.append(uncached_note)
notes.append("Passes of the streamed run: " + ", ".join(
    f"{p['purpose']} {p['seconds']:.2f} s ({p['read_from']})" for p in st["passes"]) + ".")
text = "\n".join(lines + [""] + [n for note in notes for n in (note, "")]).rstrip() + "\n"
print(text)
tmp = out + ".tmp"
open(tmp, "w").write(text)
os.replace(tmp, out)
EOF
