#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang into build/fuzz, replays every
# saved reproducer in fuzz/regressions/<harness>/, then fuzzes each harness
# for FUZZ_SECONDS (default 36) from fresh seed corpora made in a temp dir,
# FUZZ_PARALLEL harnesses at a time (default 2: ~3 minutes for the eight).
# Exits non-zero on any crash, leak, timeout or out-of-memory, printing the
# reproducer path. Installs nothing.
#
# Environment:
#   FUZZ_SECONDS   seconds per harness (default 36)
#   FUZZ_PARALLEL  harnesses fuzzing at once (default 2)
#   FUZZ_HARNESSES space-separated subset (default: all eight)
#   FUZZ_MODELS    folder of .tflite seeds (default: shared/models beside the repo)
#   FUZZ_CXX       clang++ to use (default: clang++)
#   FUZZ_WORK      keep corpora and artifacts here instead of a temp dir
#   FUZZ_JOBS      build jobs (default 2)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
seconds="${FUZZ_SECONDS:-36}"
harnesses="${FUZZ_HARNESSES:-fuzz_model_load fuzz_offline_plan fuzz_lifetimes fuzz_planners fuzz_interpreter fuzz_tflm_arena fuzz_rewrite fuzz_model_writers}"
models="${FUZZ_MODELS:-$repo/../shared/models}"
cxx="${FUZZ_CXX:-clang++}"
build="$repo/build/fuzz"

if ! command -v "$cxx" >/dev/null; then
  echo "fuzz/run.sh: $cxx not found (install clang and libclang-rt-14-dev)" >&2
  exit 2
fi

echo "== building harnesses into $build"
mkdir -p "$build"
log="$build/fuzz_build.log"
# shellcheck disable=SC2086
if ! { cmake -S "$repo" -B "$build" -DTFLM_ARENA_BUILD_FUZZ=ON -DCMAKE_CXX_COMPILER="$cxx" \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target $harnesses; } >"$log" 2>&1; then
  tail -30 "$log" >&2
  echo "fuzz/run.sh: build failed (full log: $log)" >&2
  exit 2
fi

if [[ -n "${FUZZ_WORK:-}" ]]; then
  work="$FUZZ_WORK"
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/tflm_arena_fuzz.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
python3 "$here/make_seeds.py" "$work/corpus" --models "$models"

common=(-rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
# Stacks for UBSan reports too (they are what the reproducer list needs).
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
failed=()

echo "== replaying fuzz/regressions"
# Reproducers stored as deltas against shared models are rebuilt first.
python3 "$here/regress.py" materialize "$work/regressions" --models "$models" ||
  failed+=("regressions: cannot rebuild every reproducer")
for h in $harnesses; do
  dir="$work/regressions/$h"
  [[ -d "$dir" ]] || continue
  mapfile -t files < <(find "$dir" -type f | sort)
  [[ ${#files[@]} -gt 0 ]] || continue
  for f in "${files[@]}"; do
    if ! "$build/fuzz/$h" "${common[@]}" "$f" >"$work/replay.log" 2>&1; then
      echo "REGRESSION FAILS: $h $f"
      grep -E "ERROR|FUZZ_CHECK|runtime error|#[0-3] " "$work/replay.log" | head -8 | sed 's/^/    /'
      failed+=("$h: $f")
    fi
  done
  echo "   $h: ${#files[@]} reproducer(s) replayed"
done

# The harnesses fuzz FUZZ_PARALLEL at a time (default 2, one per core of the
# CI machine; each libFuzzer run is one process), then report in order.
fuzz_one() {
  local h=$1 art="$work/artifacts/$1" dict=()
  mkdir -p "$art"
  [[ "$h" != fuzz_planners ]] && dict=(-dict="$here/tflite.dict")
  local rc=0
  "$build/fuzz/$h" "${common[@]}" "${dict[@]}" -max_total_time="$seconds" \
    -artifact_prefix="$art/" "$work/corpus/$h" >"$work/$h.log" 2>&1 || rc=$?
  echo "$rc" >"$work/$h.rc"
}
echo "== fuzzing each harness for ${seconds}s, ${FUZZ_PARALLEL:-2} at a time"
running=0
for h in $harnesses; do
  if ((running >= ${FUZZ_PARALLEL:-2})); then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$h" &
  running=$((running + 1))
done
wait

for h in $harnesses; do
  echo "== $h for ${seconds}s"
  art="$work/artifacts/$h"
  rc=$(cat "$work/$h.rc")
  # Final figures: executions, speed, coverage.
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
    "$work/$h.log" | sed 's/^/   /'
  grep -E "^#[0-9]+" "$work/$h.log" | tail -1 | sed 's/^/   last: /'
  mapfile -t found < <(find "$art" -type f | sort)
  if [[ $rc -ne 0 || ${#found[@]} -gt 0 ]]; then
    echo "FUZZ FAILURE in $h (exit $rc)"
    grep -E "ERROR|FUZZ_CHECK|runtime error|#[0-5] " "$work/$h.log" | head -12 | sed 's/^/    /'
    for f in "${found[@]}"; do
      echo "   reproducer: $f"
      failed+=("$h: $f")
    done
    [[ ${#found[@]} -gt 0 ]] || failed+=("$h: exit $rc, see $work/$h.log")
    [[ -n "${FUZZ_WORK:-}" ]] || trap - EXIT  # keep the reproducers
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz/run.sh: ${#failed[@]} failure(s); files kept in $work" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "fuzz/run.sh: all harnesses clean"
