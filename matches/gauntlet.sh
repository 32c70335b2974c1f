#!/usr/bin/env bash
# The gauntlet: Borrow (the work tree's build, or --engine) plays
# each opponent in colour-swapped pairs from the balanced noob_3moves
# openings, at one clock, every engine with Threads=1 and Hash=16 and no book
# of its own, and prints a table: opponent, games, W/D/L, Borrow's Elo +/- 95%.
#
#   matches/gauntlet.sh                          # 300 games each at 10+0.1
#   matches/gauntlet.sh --base 9e3c6f9           # also against that commit's build
#   matches/gauntlet.sh --games 40 --tc 5+0.05 glaurung
#
# Opponents (any of them as arguments; default: base if --base is given,
# then glaurung, toga2 and ethereal):
#   base       Borrow built from --base REF
#   glaurung   Glaurung 2.2 (/usr/games/glaurung; it defaults to 2 threads)
#   toga2      Toga II 3.0 (/usr/games/toga2)
#   ethereal   Ethereal 12.00 (/usr/games/ethereal-chess)
#   stockfish  Stockfish 15.1 (/usr/games/stockfish), at full strength
#   sfclassical  Stockfish 15.1 with Use NNUE false: its classical evaluation
# Debian's engines: apt-get install glaurung toga2 ethereal-chess stockfish.
#
# Options:
#   --games N     games per opponent (default 300; even)
#   --tc TC       the clock (default 10+0.1)
#   --base REF    the commit to build as the opponent 'base'
#   --engine P    the Borrow binary to test (default: build the work tree)
#   --out DIR     binaries, PGNs, logs and table.md (default target/gauntlet)
#   --resume      skip opponents whose log in DIR already holds a result,
#                 and go on with a stopped one from its PGN (borrow-match
#                 -resume: its whole pairs count, the rest are played)
#   --dry-run     print each opponent's -engine arguments for borrow-match,
#                 one a line, and stop (nothing is built or played)
# Timed games: run nothing else on the machine meanwhile.
set -euo pipefail
# The comment block above, for --help: read before the cd below, which would
# leave a relative $0 pointing nowhere.
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$1"; }
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."
ROOT=$(pwd)

games=300
tc=10+0.1
base_ref=
engine=
out=target/gauntlet
resume=0
dry_run=0
opponents=()
die() { echo "gauntlet: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=${2:?--games needs a number}; shift 2 ;;
        --tc) tc=${2:?--tc needs a clock}; shift 2 ;;
        --base) base_ref=${2:?--base needs a commit}; shift 2 ;;
        --engine) engine=${2:?--engine needs a path}; shift 2 ;;
        --out) out=${2:?--out needs a folder}; shift 2 ;;
        --resume) resume=1; shift ;;
        --dry-run) dry_run=1; shift ;;
        -h|--help) usage "$SELF"; exit 0 ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) opponents+=("$1"); shift ;;
    esac
done
[[ $games =~ ^[1-9][0-9]*$ ]] && [ $((games % 2)) -eq 0 ] || die "--games needs a positive even number, not '$games'"
if [ ${#opponents[@]} -eq 0 ]; then
    [ -n "$base_ref" ] && opponents+=(base)
    opponents+=(glaurung toga2 ethereal)
fi

# The -engine arguments of each opponent for borrow-match, one a line (an
# option's name may hold a space: "Use NNUE").
opponent_args() {
    case "$1" in
        base) printf '%s\n' "cmd=$out/base" name=base ;;
        glaurung) printf '%s\n' cmd=/usr/games/glaurung name=glaurung-2.2 option.Threads=1 option.OwnBook=false option.Ponder=false ;;
        toga2) printf '%s\n' cmd=/usr/games/toga2 name=toga-ii-3.0 option.OwnBook=false ;;
        ethereal) printf '%s\n' cmd=/usr/games/ethereal-chess name=ethereal-12 option.Threads=1 ;;
        stockfish) printf '%s\n' cmd=/usr/games/stockfish name=stockfish-15.1 option.Threads=1 ;;
        sfclassical) printf '%s\n' cmd=/usr/games/stockfish name=stockfish-15.1-classical option.Threads=1 "option.Use NNUE=false" ;;
        *) return 1 ;;
    esac
}
# The opponent's arguments into the array `them`, as borrow-match gets them.
load_opponent() {
    local args
    args=$(opponent_args "$1") || die "unknown opponent '$1' (see --help)"
    mapfile -t them <<<"$args"
}
out=$(realpath -m "$out")
for o in "${opponents[@]}"; do
    load_opponent "$o"
    cmd=${them[0]#cmd=}
    if [ "$o" = base ]; then
        [ -n "$base_ref" ] || die "the opponent 'base' needs --base REF"
    elif [ $dry_run -eq 0 ] && [ ! -x "$cmd" ]; then
        die "no $o at $cmd (apt-get install glaurung toga2 ethereal-chess stockfish)"
    fi
    if [ $dry_run -eq 1 ]; then
        echo "== $o"
        printf '%s\n' "${them[@]}"
    fi
done
[ $dry_run -eq 0 ] || exit 0

mkdir -p "$out"
# The workspace's one build, as the README's `cargo build --release`: after
# it, this is a no-op (building single packages would rebuild with other
# features).
echo "gauntlet: cargo build --release" >&2
cargo build --release
cp target/release/borrow-match "$out/borrow-match"
if [ -n "$engine" ]; then
    cp "$engine" "$out/borrow"
else
    cp target/release/borrow "$out/borrow"
fi
if [ -n "$base_ref" ]; then
    sha=$(git rev-parse --verify --quiet "$base_ref^{commit}") || die "'$base_ref' is not a commit"
    wt="$ROOT/target/gauntlet-base"
    if [ -d "$wt" ]; then
        git -C "$wt" checkout --quiet --detach "$sha"
    else
        git worktree add --quiet --detach "$wt" "$sha"
    fi
    (cd "$wt" && cargo build --release --quiet --locked --bin borrow) || die "build of $base_ref failed"
    cp "$wt/target/release/borrow" "$out/base"
fi
bench=$("$out/borrow" bench 2>/dev/null | tail -1 | awk '{print $1}')

table="$out/table.md"
for o in "${opponents[@]}"; do
    log="$out/$o.log"
    # A leg is finished when its log says so (a Ctrl-C leaves a summary too).
    if [ $resume -eq 1 ] && grep -q '^Stopped: all rounds played' "$log" 2>/dev/null; then
        echo "== $o: kept from $log"
        continue
    fi
    go_on=()
    if [ $resume -eq 1 ] && [ -s "$out/$o.pgn" ]; then
        # The same Borrow only: its bench signature was kept with the PGN.
        kept=$(cat "$out/$o.bench" 2>/dev/null || echo none)
        [ "$kept" = "$bench" ] || die "$out/$o.pgn was played by Borrow with bench $kept, not $bench: no resume"
        go_on=(-resume)
        echo "== $o: $games games at $tc, going on from $out/$o.pgn"
    else
        if [ -e "$out/$o.pgn" ]; then
            mv "$out/$o.pgn" "$out/$o.pgn.old"
            echo "== $o: an earlier $o.pgn moved to $o.pgn.old"
        fi
        echo "$bench" >"$out/$o.bench"
        echo "== $o: $games games at $tc"
    fi
    load_opponent "$o"
    "$out/borrow-match" "${go_on[@]}" \
        -engine cmd="$out/borrow" name=borrow \
        -engine "${them[@]}" \
        -each tc="$tc" option.Hash=16 timemargin=100 \
        -rounds $((games / 2)) -games 2 -concurrency "$(nproc 2>/dev/null || echo 2)" \
        -openings file=matches/openings/noob_3moves_3000.epd format=epd order=random \
        -srand 7 -resign movecount=4 score=1000 twosided=true \
        -pgnout "$out/$o.pgn" -jsonout "$out/$o.json" >"$log" 2>"$out/$o.progress"
    grep -E '^(Results|Elo|Games)' "$log" | tail -4
done

# The table: Borrow's result against each opponent.
{
    echo "Borrow (bench $bench) at $tc, Threads 1, Hash 16, noob_3moves openings in colour-swapped pairs; $(date -u +%Y-%m-%d)."
    echo
    echo "| opponent | games | W/D/L (Borrow) | Elo ± 95% (Borrow) |"
    echo "|---|--:|---|---|"
    for o in "${opponents[@]}"; do
        log="$out/$o.log"
        [ -f "$log" ] || continue
        name=$(opponent_args "$o" | sed -n 's/^name=//p')
        n=$(sed -n 's/^Games: \([0-9]*\),.*/\1/p' "$log" | tail -1)
        wdl=$(sed -n 's/^Games: [0-9]*, wins: \([0-9]*\), losses: \([0-9]*\), draws: \([0-9]*\).*/\1\/\3\/\2/p' "$log" | tail -1)
        elo=$(sed -n 's/^Elo: *\([^ ]* +\/- [^ ]*\) (95%, pentanomial).*/\1/p' "$log" | tail -1)
        [ -n "$elo" ] || elo=$(sed -n 's/^Elo: *\(too few games ([^)]*)\).*/\1/p' "$log" | tail -1)
        echo "| $name | ${n:--} | ${wdl:--} | ${elo:--} |"
    done
} >"$table"
echo
cat "$table"
