#!/bin/sh
# The soak run: `borrow` against itself at 1+0.01, two games at a
# time, in four configurations (Threads 1 and 2, Hash 1 and 256 MB), through
# `borrow-match`. Every configuration must end with no crash, illegal move,
# time loss or stall, and each engine's peak memory near its Hash.
#
#   matches/soak.sh                     # 4 x 500 games, about an hour
#   GAMES=100 TC=2+0.02 matches/soak.sh # smaller or slower
#
# Results go to soak-results/ (a summary, PGN and JSON per configuration);
# the exit status is 1 if any game was lost by failing.
set -eu
cd "$(dirname "$0")/.."
GAMES=${GAMES:-500}
TC=${TC:-1+0.01}
OUT=${OUT:-soak-results}
SEED=${SEED:-7}
cargo build --release --locked    # the workspace's one build (a no-op after the README's)
mkdir -p "$OUT"
status=0
for threads in 1 2; do
    for hash in 1 256; do
        name="threads$threads-hash$hash"
        echo "== $name: $GAMES games at $TC, load $(cut -d' ' -f1-3 /proc/loadavg)"
        rm -f "$OUT/$name.pgn"
        target/release/borrow-match \
            -engine cmd=target/release/borrow name=borrow-a \
            -engine cmd=target/release/borrow name=borrow-b \
            -each tc="$TC" option.Threads="$threads" option.Hash="$hash" \
            -openings file=matches/openings/noob_3moves_3000.epd format=epd order=random \
            -srand "$SEED" -repeat -rounds $((GAMES / 2)) -concurrency 2 \
            -pgnout "$OUT/$name.pgn" -jsonout "$OUT/$name.json" \
            >"$OUT/$name.txt" 2>"$OUT/$name.err" || status=1
        cat "$OUT/$name.txt"
        # Any game lost by failing (time, illegal move, crash, stall) fails the soak.
        if ! grep -q '"failures": {"borrow-a": {"time_losses": 0, "illegal_moves": 0, "crashes": 0, "stalls": 0}, "borrow-b": {"time_losses": 0, "illegal_moves": 0, "crashes": 0, "stalls": 0}}' "$OUT/$name.json"; then
            echo "FAILURES in $name" >&2
            status=1
        fi
        SEED=$((SEED + 1))
    done
done
exit $status
