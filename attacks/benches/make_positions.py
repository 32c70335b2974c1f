#!/usr/bin/env python3
"""Makes benches/positions.epd, the positions of the `sliders` benchmark.

Usage (from the repository root, needs `pip install chess`):

    python3 attacks/benches/make_positions.py \
        /work/shared/data/openings/UHO_4060_v4.epd > attacks/benches/positions.epd

Deterministic (fixed seed, evenly spaced source lines). Writes three groups:

- 300 opening positions: every 805th line of UHO_4060_v4.epd (CC0 1.0, from
  the official-stockfish/books repository: human master-game openings cut
  after 8 moves);
- 150 middlegame positions: 16 to 40 further plies from some of those;
- 150 endgame positions: played on until at most 14 pieces (kings and pawns
  included) remain.

The further plies are random legal moves, captures preferred half the time
so that material comes off the board as in real games. Random play is not
real play, but it reaches the sparser boards of later phases, whose slider
occupancies the opening lines alone would miss.
"""

import random
import sys

import chess

OPENINGS = 300
MIDDLEGAMES = 150
ENDGAMES = 150
ENDGAME_PIECES = 14


def has_slider(board: chess.Board) -> bool:
    return bool(board.rooks | board.bishops | board.queens)


def play_on(board: chess.Board, rng: random.Random) -> bool:
    """Plays one random legal move, a capture half the time if there is one.
    Returns False if the game is over."""
    if board.is_game_over(claim_draw=False):
        return False
    moves = list(board.legal_moves)
    captures = [m for m in moves if board.is_capture(m)]
    if captures and rng.random() < 0.5:
        board.push(rng.choice(captures))
    else:
        board.push(rng.choice(moves))
    return True


def main() -> None:
    src = sys.argv[1]
    with open(src) as f:
        lines = [line.strip() for line in f if line.strip()]
    step = len(lines) // OPENINGS
    openings = [lines[i * step] for i in range(OPENINGS)]
    rng = random.Random(20240611)

    middlegames = []
    endgames = []
    i = 0
    while len(middlegames) < MIDDLEGAMES or len(endgames) < ENDGAMES:
        fen = openings[i % OPENINGS]
        i += 1
        board = chess.Board(fen)
        if len(middlegames) < MIDDLEGAMES:
            b = board.copy()
            plies = rng.randint(16, 40)
            if all(play_on(b, rng) for _ in range(plies)) and has_slider(b):
                middlegames.append(b.fen())
        if len(endgames) < ENDGAMES:
            b = board.copy()
            for _ in range(400):
                if len(b.piece_map()) <= ENDGAME_PIECES or not play_on(b, rng):
                    break
            if (
                len(b.piece_map()) <= ENDGAME_PIECES
                and not b.is_game_over(claim_draw=False)
                and has_slider(b)
            ):
                endgames.append(b.fen())

    print("# Positions of the attacks `sliders` benchmark; made by make_positions.py (see there).")
    print(f"# {OPENINGS} opening positions: every {step}th line of UHO_4060_v4.epd")
    print("#   (CC0 1.0, official-stockfish/books: human master-game openings after 8 moves);")
    print(f"# {MIDDLEGAMES} middlegames (16-40 more plies) and {ENDGAMES} endgames "
          f"(<= {ENDGAME_PIECES} pieces)")
    print("#   derived from those by random legal moves (captures preferred half the time),")
    print("#   python-chess, fixed seed. Lines starting with '#' are comments.")
    for fen in openings + middlegames + endgames:
        print(fen)


if __name__ == "__main__":
    main()
