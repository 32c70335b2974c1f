#!/usr/bin/env bash
# Tests a change to the search or evaluation the way OpenBench and fishtest
# do: builds the base (a git ref) and the candidate (a git ref, or the work
# tree as it is) into separate binaries, checks that each one's `bench`
# signature is the one its history claims, then plays an SPRT between them
# with borrow-match (pentanomial, normalized Elo) and prints the verdict,
# Elo +/- 95%, the games and the time taken.
#
# The claim of a commit is the last `Bench: N` line (alone on its line) in
# the history up to and including that commit: the rule .ci/check-bench
# applies to HEAD. A commit that leaves the bench as it was need not repeat
# the line. The work tree has no commit: its claim is --claim N, and
# without it its bench is not checked.
#
#   matches/test-change.sh main                # work tree against main, fixed nodes
#   matches/test-change.sh --tc main           # the same at 8+0.08 (idle machine only)
#   matches/test-change.sh --nodes 50000 HEAD~1 HEAD
#   matches/test-change.sh --bounds 0,5 --max-games 8000 main
#
# Modes (docs/matches.md, "Testing a change", has their cost here):
#   --nodes N     fixed nodes per move (default mode, N = 25000): immune to the
#                 machine's load; for changes that do not alter speed.
#   --tc TC       a clock (default 8+0.08): for changes that alter speed. Run
#                 nothing else on the machine meanwhile.
# Other options:
#   --bounds E0,E1     SPRT bounds in normalized Elo (default 0,10 at fixed
#                      nodes, 0,15 on a clock)
#   --max-games N      stop undecided after N games (default 6000)
#   --concurrency N    games at once (default: the number of cores)
#   --claim N          the work tree's claimed bench (only when the candidate
#                      is the work tree; a ref's claim is read from history)
#   --out DIR          where binaries, PGN, JSON and the log go
#                      (default target/test-change/<base>-vs-<cand>)
#   --seed S           opening order seed (default 1)
#   --hash MB          both engines' Hash (default 16); a small table at
#                      fixed nodes puts the pressure of longer games on it
#
# Exit status: 0 the SPRT accepted the candidate (H1), 1 it rejected it or
# stopped undecided, 2 bad arguments or a build or signature failure.
set -euo pipefail
# The script's own path, for --help, before the cd below.
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."
ROOT=$(pwd)

mode=nodes
nodes=25000
tc=8+0.08
bounds=
max_games=6000
concurrency=$(nproc 2>/dev/null || echo 2)
claim=
out=
seed=1
hash=16
usage() { sed -n '2,/^set -euo pipefail/{/^#/p}' "$SELF" | sed 's/^# \{0,1\}//'; }
die() { echo "test-change: $*" >&2; exit 2; }

positional=()
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --nodes) mode=nodes; nodes=${2:?--nodes needs a number}; shift 2 ;;
    --nodes=*) mode=nodes; nodes=${1#*=}; shift ;;
    --tc) mode=tc; if [ $# -gt 1 ] && [[ $2 =~ ^[0-9] ]]; then tc=$2; shift; fi; shift ;;
    --tc=*) mode=tc; tc=${1#*=}; shift ;;
    --bounds) bounds=${2:?--bounds needs E0,E1}; shift 2 ;;
    --bounds=*) bounds=${1#*=}; shift ;;
    --max-games) max_games=${2:?--max-games needs a number}; shift 2 ;;
    --max-games=*) max_games=${1#*=}; shift ;;
    --concurrency) concurrency=${2:?--concurrency needs a number}; shift 2 ;;
    --concurrency=*) concurrency=${1#*=}; shift ;;
    --claim) claim=${2:?--claim needs a number}; shift 2 ;;
    --claim=*) claim=${1#*=}; shift ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --seed) seed=${2:?--seed needs a number}; shift 2 ;;
    --seed=*) seed=${1#*=}; shift ;;
    --hash) hash=${2:?--hash needs a number of MB}; shift 2 ;;
    --hash=*) hash=${1#*=}; shift ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) positional+=("$1"); shift ;;
    esac
done
[ ${#positional[@]} -ge 1 ] && [ ${#positional[@]} -le 2 ] || die "give the base ref, and optionally the candidate ref (see --help)"
base_ref=${positional[0]}
cand_ref=${positional[1]:-}
[[ $nodes =~ ^[1-9][0-9]*$ ]] || die "--nodes needs a positive number, not '$nodes'"
[[ $max_games =~ ^[1-9][0-9]*$ ]] || die "--max-games needs a positive number, not '$max_games'"
if [ -z "$bounds" ]; then
    if [ $mode = nodes ]; then bounds=0,10; else bounds=0,15; fi
fi
[[ $bounds =~ ^-?[0-9.]+,-?[0-9.]+$ ]] || die "--bounds needs E0,E1, not '$bounds'"
elo0=${bounds%,*}
elo1=${bounds#*,}
base_sha=$(git rev-parse --verify --quiet "$base_ref^{commit}") || die "'$base_ref' is not a commit"
[ -z "$claim" ] || [[ $claim =~ ^[0-9]+$ ]] || die "--claim needs a number, not '$claim'"
[ -z "$claim" ] || [ -z "$cand_ref" ] || die "--claim is for a work-tree candidate; a ref's claim is the last 'Bench:' line in its history"
if [ -n "$cand_ref" ]; then
    cand_sha=$(git rev-parse --verify --quiet "$cand_ref^{commit}") || die "'$cand_ref' is not a commit"
    cand_name=$(git rev-parse --short "$cand_sha")
else
    cand_name=worktree
fi
base_name=$(git rev-parse --short "$base_sha")
out=${out:-target/test-change/$base_name-vs-$cand_name}
mkdir -p "$out"
out=$(cd "$out" && pwd)
started=$(date +%s)

# The claimed bench of a commit, as .ci/check-bench reads HEAD's: the last
# `Bench: N` line in the history up to and including the commit. Prints
# "N COMMIT", or nothing when the history has no such line.
claimed_bench() {
    local commit
    commit=$(git log -n 1 --format=%h --grep='^Bench: *[0-9][0-9]* *$' "$1")
    [ -n "$commit" ] || return 0
    echo "$(git show -s --format=%B "$commit" | sed -n 's/^Bench: *\([0-9][0-9]*\) *$/\1/p' | tail -n 1) $commit"
}

# Builds `ref` in a detached worktree of its own (its own target folder, kept
# for the next run) and copies the engine to $out/$2.
build_ref() {
    local sha=$1 name=$2 wt="$ROOT/target/test-change/worktree-$2"
    if [ -d "$wt" ]; then
        git -C "$wt" checkout --quiet --detach "$sha" || die "cannot check out $sha"
    else
        git worktree add --quiet --detach "$wt" "$sha" || die "cannot make a worktree for $sha"
    fi
    echo "building $name ($sha)" >&2
    (cd "$wt" && cargo build --release --quiet --locked --bin borrow) || die "build of $name failed"
    cp "$wt/target/release/borrow" "$out/$name"
}

# Runs share the worktrees (and their build caches): one builds at a time.
mkdir -p "$ROOT/target/test-change"
exec 9>"$ROOT/target/test-change/.build.lock"
flock 9
build_ref "$base_sha" base
if [ -n "$cand_ref" ]; then
    build_ref "$cand_sha" cand
else
    echo "building the work tree (cargo build --release)" >&2
fi
# The workspace's one build, as the README's `cargo build --release` (a
# no-op after it; single packages would rebuild with other features): the
# candidate, when it is the work tree, and borrow-match.
cargo build --release || die "build of the work tree failed"
[ -n "$cand_ref" ] || cp target/release/borrow "$out/cand"
cp target/release/borrow-match "$out/borrow-match"
flock -u 9

# Signatures: what each binary's bench says against what its commit claims.
bench_of() { "$1" bench 2>/dev/null | tail -1 | awk '{print $1}'; }
base_bench=$(bench_of "$out/base")
cand_bench=$(bench_of "$out/cand")
# check_claim SIDE BENCH CLAIM: CLAIM is claimed_bench's "N COMMIT", "N" from
# --claim, or empty.
check_claim() {
    local n=${3%% *} from
    case "$3" in
    *" "*) from="the last 'Bench:' line in its history (commit ${3#* })" ;;
    ?*) from="--claim" ;;
    esac
    if [ -z "$3" ]; then
        echo "$1: bench $2 (no claim to check)"
    elif [ "$2" = "$n" ]; then
        echo "$1: bench $2, as $from says"
    else
        die "$1: bench $2, but $from says $n"
    fi
}
check_claim base "$base_bench" "$(claimed_bench "$base_sha")"
if [ -n "$cand_ref" ]; then
    check_claim cand "$cand_bench" "$(claimed_bench "$cand_sha")"
else
    check_claim cand "$cand_bench" "$claim"
fi
if [ "$base_bench" = "$cand_bench" ]; then
    echo "note: base and candidate have the same bench: the search may be unchanged" >&2
fi

if [ $mode = nodes ]; then
    limit="nodes=$nodes"
    what="$nodes nodes per move"
else
    limit="tc=$tc"
    what="$tc"
fi
echo "SPRT [$elo0, $elo1] nElo at $what, Hash $hash MB, at most $max_games games, $concurrency at a time; output in $out"
rm -f "$out/games.pgn"
set +e
# shellcheck disable=SC2086
"$out/borrow-match" \
    -engine cmd="$out/cand" name=cand \
    -engine cmd="$out/base" name=base \
    -each $limit option.Hash="$hash" option.Threads=1 timemargin=100 \
    -openings file=matches/openings/uho_4060_v4_6000.epd format=epd order=random \
    -srand "$seed" -repeat -rounds $((max_games / 2)) -concurrency "$concurrency" \
    -resign movecount=3 score=1000 twosided=true -draw movenumber=40 movecount=8 score=10 \
    -sprt elo0="$elo0" elo1="$elo1" model=normalized \
    -ratinginterval 200 \
    -pgnout "$out/games.pgn" -jsonout "$out/result.json" >"$out/summary.txt" 2>"$out/progress.log"
rc=$?
set -e
cat "$out/summary.txt"
# 130: stopped by Ctrl-C; the summary of the games played is still printed.
[ $rc -le 1 ] || [ $rc -eq 130 ] || die "borrow-match failed (exit $rc); see $out/progress.log"
elapsed=$(($(date +%s) - started))
verdict=$(sed -n 's/.*SPRT ([^)]*): LLR \([^ ]*\) (\([^,]*\), \([^)]*\)) - \(.*\)/LLR \1 (\2, \3) \4/p' "$out/summary.txt" | tail -1)
# The summary holds a block every -ratinginterval games: the last is final.
elo=$(sed -n 's/^Elo: *\([^ ]* +\/- [^ ]*\) (95%, pentanomial).*/\1/p' "$out/summary.txt" | tail -1)
nelo=$(sed -n 's/^nElo: *\([^ ]* +\/- [^ ]*\).*/\1/p' "$out/summary.txt" | tail -1)
games=$(sed -n 's/^Games: \([0-9]*\),.*/\1/p' "$out/summary.txt" | tail -1)
echo
echo "test-change: $what, SPRT [$elo0, $elo1] nElo: $verdict"
echo "test-change: Elo $elo, nElo $nelo, $games games, $((elapsed / 60)) min $((elapsed % 60)) s"
echo "test-change: bench base $base_bench, candidate $cand_bench"
case "$verdict" in
*H1*) exit 0 ;;
*) exit 1 ;;
esac
