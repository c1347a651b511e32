#!/usr/bin/env bash
# The load guard of benches/compare.sh: a half of the benchmark (bayeslab's or the Python
# stack's) measured while other work shared the cores is not fit for the README table.
#
#   benches/load_guard.sh now            # the 1-minute load average, e.g. 0.42
#   benches/load_guard.sh settle SECONDS CORES
#       wait (polling every 5 s, at most SECONDS) until the load is at most the limit; prints
#       the load it ends at (the half's "before").
#   benches/load_guard.sh verdict NAME CORES THREADS BEFORE AFTER SECONDS
#       Prints "NAME: quiet (...)" (exit 0) or "NAME: LOADED (...)" (exit 1).
#
# Limit: 0.5 per core (1.0 on 2 cores). BEFORE must be at most the limit. AFTER includes the
# half's own work: the 1-minute load average is an exponentially damped average of the
# runnable tasks with a 60 s time constant, so THREADS tasks kept runnable for SECONDS add at
# most THREADS x (1 - e^{-SECONDS/60}); AFTER minus that must be at most the limit.
#
# The load is the first field of $BAYESLAB_LOADAVG (default /proc/loadavg); tests point it at
# a file of their own. Bad input ends with a message and exit code 2.
set -euo pipefail

LIMIT_PER_CORE=0.5
loadavg=${BAYESLAB_LOADAVG:-/proc/loadavg}

number() { [[ $1 =~ ^[0-9]+([.][0-9]+)?$ ]]; }

load_now() {
  if [ ! -r "$loadavg" ]; then
    echo "load_guard: cannot read $loadavg (set BAYESLAB_LOADAVG to a loadavg file)" >&2
    exit 2
  fi
  local load
  load=$(cut -d' ' -f1 "$loadavg")
  if ! number "$load"; then
    echo "load_guard: $loadavg does not start with a load average (found '$load')" >&2
    exit 2
  fi
  echo "$load"
}

numbers() {
  for v in "$@"; do
    if ! number "$v"; then
      echo "load_guard: '$v' is not a non-negative number" >&2
      exit 2
    fi
  done
}

case "${1:-}" in
  now)
    load_now
    ;;
  settle)
    [ $# -eq 3 ] || { echo "load_guard: settle needs SECONDS CORES" >&2; exit 2; }
    numbers "$2" "$3"
    waited=0
    while :; do
      load=$(load_now)
      if awk -v l="$load" -v c="$3" -v p="$LIMIT_PER_CORE" 'BEGIN { exit !(l <= p * c) }' \
        || [ "$waited" -ge "$2" ]; then
        echo "$load"
        exit 0
      fi
      sleep 5
      waited=$((waited + 5))
    done
    ;;
  verdict)
    [ $# -eq 7 ] || { echo "load_guard: verdict needs NAME CORES THREADS BEFORE AFTER SECONDS" >&2; exit 2; }
    name=$2
    shift 2
    numbers "$@"
    awk -v name="$name" -v cores="$1" -v threads="$2" -v before="$3" -v after="$4" \
      -v seconds="$5" -v per="$LIMIT_PER_CORE" 'BEGIN {
        limit = per * cores
        own = threads * (1 - exp(-seconds / 60))
        other = after - own
        loaded = before > limit || other > limit
        printf "%s: %s (1-minute load %.2f before, %.2f after, of which at most %.2f its own %d thread(s) over %.0f s; limit %.2f = %.1f per core on %d cores)\n", \
          name, loaded ? "LOADED" : "quiet", before, after, own, threads, seconds, limit, per, cores
        exit loaded ? 1 : 0
      }'
    ;;
  *)
    sed -n '2,17p' "$0"
    exit 2
    ;;
esac
