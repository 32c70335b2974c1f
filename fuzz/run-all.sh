#!/usr/bin/env bash
# Long fuzzing runs of every target (or the ones named): 10 million
# executions each by default, one libFuzzer process at a time.
#
#   fuzz/run-all.sh                       # all targets, 10M runs each
#   RUNS=1000000 fuzz/run-all.sh fen uci  # some targets, fewer runs
#   TIME=900 fuzz/run-all.sh differential # stop each target after 15 min
#   SANITIZER=address fuzz/run-all.sh     # with AddressSanitizer (~2-4x slower)
#   JOBS=2 fuzz/run-all.sh driver         # RUNS split over 2 processes (cores)
#
# Needs cargo-fuzz (installed here if missing) and a nightly compiler's
# flags: on the stable toolchain, RUSTC_BOOTSTRAP=1 unlocks them.
# New corpus entries go to fuzz/work/<target>/ (not committed); the seeds in
# fuzz/corpus/<target>/ are read, never written. Crashes land in
# fuzz/artifacts/<target>/; replay one with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/artifacts/<target>/crash-...
# libFuzzer's log of each run is fuzz/work/<target>.log; its last lines
# (`Done N runs in S second(s)` and the final stats) give the counts. With
# JOBS=N, N libFuzzer processes share the target's corpus (each picks up
# what the others find), each runs RUNS/N inputs, and their logs are
# fuzz/work/<target>-job<i>.log.
#
# Debug assertions and overflow checks are on (cargo-fuzz's default). The
# sanitizer is off by default: the code under test is safe Rust apart from
# two table lookups (`get_unchecked` in the magic and PEXT methods) that the
# attacks crate's exhaustive tests cover, and without it the slow targets
# run several times as many inputs.
set -euo pipefail
cd "$(dirname "$0")"

RUNS=${RUNS:-10000000}
SANITIZER=${SANITIZER:-none}
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(fen uci moves driver differential)
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
# The engine's own builds use target-cpu=native (.cargo/config.toml), which
# cargo-fuzz's RUSTFLAGS would override: pass it on, so that the PEXT
# method is fuzzed too where the CPU has BMI2.
export RUSTFLAGS="${RUSTFLAGS:--C target-cpu=native}"

JOBS=${JOBS:-1}
for t in "${TARGETS[@]}"; do
    mkdir -p "work/$t"
    if [ "$JOBS" -gt 1 ]; then
        args=(-runs=$(((RUNS + JOBS - 1) / JOBS)) -jobs="$JOBS" -workers="$JOBS")
        rm -f fuzz-*.log "work/$t"-job*.log
    else
        args=(-runs="$RUNS")
    fi
    args+=(-timeout=30 -print_final_stats=1)
    if [ -n "${TIME:-}" ]; then
        args+=(-max_total_time="$TIME")
    fi
    echo "== $t: ${args[*]}"
    cargo fuzz run -s "$SANITIZER" "$t" "work/$t" "corpus/$t" -- "${args[@]}" 2>&1 \
        | tee "work/$t.log" | grep -E '^(#[0-9]+ +(pulse|DONE)|Done |stat::)|panicked|ERROR' || true
    logs=("work/$t.log")
    if [ "$JOBS" -gt 1 ]; then
        # libFuzzer writes each job's log to fuzz-<i>.log in this directory.
        for ((i = 0; i < JOBS; i++)); do
            mv "fuzz-$i.log" "work/$t-job$i.log"
            logs+=("work/$t-job$i.log")
            grep -E '^(Done |stat::number_of_executed_units)' "work/$t-job$i.log" | sed "s/^/job $i: /"
        done
    fi
    # The pipeline hides cargo-fuzz's status: a crash writes an artifact.
    if grep -qE 'ERROR: libFuzzer|panicked at' "${logs[@]}"; then
        echo "$t: failure, see ${logs[*]} and fuzz/artifacts/$t/" >&2
        exit 1
    fi
done
