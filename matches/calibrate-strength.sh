#!/usr/bin/env bash
# Measures UCI_LimitStrength: for each UCI_Elo setting given, Borrow with
# UCI_LimitStrength=true and UCI_Elo=E plays Stockfish (Debian's stockfish,
# 15.1) at the same UCI_Elo, in colour-swapped pairs from the balanced
# noob_3moves openings, and prints Borrow's score and Elo +/- 95%. A setting
# is right when the difference is within +/-150 Elo;
# records/strength-calibration.md holds the last run.
#
#   matches/calibrate-strength.sh 1500 1900 2300         # 100 games each, 10+0.1
#   matches/calibrate-strength.sh --games 40 --tc 5+0.05 1700
#   matches/calibrate-strength.sh --full 2500 2700      # where full strength stands
#
# Options:
#   --games N        games per setting (default 100; even)
#   --tc TC          clock for both (default 10+0.1)
#   --stockfish P    the Stockfish binary (default /usr/games/stockfish)
#   --out DIR        PGNs and logs (default target/calibrate-strength)
#   --full           Borrow at full strength (no UCI_LimitStrength) against
#                    Stockfish at each UCI_Elo given: what the top setting
#                    (UCI_Elo's maximum) should be named
# Timed games: run nothing else on the machine meanwhile.
set -euo pipefail
# The script's own path, for --help, before the cd below.
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."

games=100
tc=10+0.1
stockfish=/usr/games/stockfish
out=target/calibrate-strength
full=0
settings=()
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --stockfish) stockfish=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --full) full=1; shift ;;
        -h|--help) sed -n '2,21p' "$SELF" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "calibrate-strength: unknown option $1" >&2; exit 2 ;;
        *) settings+=("$1"); shift ;;
    esac
done
[ ${#settings[@]} -gt 0 ] || { echo "calibrate-strength: give at least one UCI_Elo" >&2; exit 2; }
[ -x "$stockfish" ] || { echo "calibrate-strength: no Stockfish at $stockfish (apt-get install stockfish)" >&2; exit 2; }

cargo build --release    # the workspace's one build (a no-op after the README's)
mkdir -p "$out"
# The binary under test, copied so that a later build cannot change it.
cp target/release/borrow "$out/borrow"
for elo in "${settings[@]}"; do
    if [ "$full" = 1 ]; then
        name=borrow-full run=full-$elo limit=()
        echo "== full strength against UCI_Elo $elo: $games games at $tc"
    else
        name=borrow-$elo run=$elo limit=(option.UCI_LimitStrength=true option.UCI_Elo="$elo")
        echo "== UCI_Elo $elo: $games games at $tc"
    fi
    rm -f "$out/$run.pgn"
    target/release/borrow-match \
        -engine cmd="$out/borrow" name="$name" ${limit[@]+"${limit[@]}"} \
        -engine cmd="$stockfish" name="stockfish-$elo" \
            option.UCI_LimitStrength=true option.UCI_Elo="$elo" option.Threads=1 \
        -each tc="$tc" option.Hash=16 \
        -rounds $((games / 2)) -games 2 -concurrency "$(nproc 2>/dev/null || echo 2)" \
        -openings file=matches/openings/noob_3moves_3000.epd format=epd order=random \
        -srand "$elo" -resign movecount=4 score=1000 twosided=true \
        -pgnout "$out/$run.pgn" -jsonout "$out/$run.json" 2>&1 |
        tee "$out/$run.log" | grep -E '^(Results|Elo|Games)'
done
