#!/usr/bin/env python3
"""Whole games against `checkers hub`, driven by a client nobody here wrote.

pydraughts (PyPI) starts `checkers hub` through its `HubEngine` class, sets the parameters
`variant` and `numbering=pydraughts`, and asks it for moves with pydraughts' own limits
(depth, nodes, move time, clock and increment). pydraughts' board referees: each answer must
be one of pydraughts' legal moves, or the game (and this script) fails. Games are played
engine against engine and engine against a seeded random mover (which reaches odd positions:
kings, flying-king captures, promotions in the middle of a capture), from the start and from
set-up positions, in English checkers and Russian draughts, then in every other variant
pydraughts has: International (pydraughts' `standard`), Frisian, Frysk!, Antidraughts,
Breakthrough, Brazilian, Italian and Turkish. The engine is told each variant by the name
pydraughts gives it (`standard`, `frysk!`: names the engine takes as aliases).

Usage: play_games.py --engine PATH/TO/checkers [--variants english,russian,...]
Exit status 0 when every game was played legally to its end (or to the ply cap), 1 otherwise.
"""

import argparse
import os
import random
import signal
import sys
import threading

from draughts import Board, Move
from draughts.engine import HubEngine, Limit

WHITE = 2
BLACK = 1
MAX_PLIES = 240
# Past this many seconds the games are stuck (an engine that never answers): fail.
PATIENCE = 1200

# The variants beyond English and Russian: pydraughts' name, the name the engine is told, the
# name the engine lists, and set-up positions (pydraughts' FEN for the variant) with kings.
BOARD_VARIANTS = [
    ("standard", "standard", "international", ["W:WK46,31,32,33,34:BK5,17,18,19,20", "B:WK50,K46,29:BK1,K5,22"]),
    ("frisian", "frisian", "frisian", ["W:WK46,31,32,33:BK5,18,19,20"]),
    ("frysk", "frysk!", "frysk", []),
    ("antidraughts", "antidraughts", "antidraughts", []),
    ("breakthrough", "breakthrough", "breakthrough", []),
    ("brazilian", "brazilian", "brazilian", ["W:WKa1,c3,e3,g3:Bd6,f6,Kh8,Kb8"]),
    ("italian", "italian", "italian", ["W:WK30,22,23,27:BK3,10,11,6"]),
    ("turkish", "turkish", "turkish", ["W:WKa1,d4,e3,f3:Bd6,Kh8,a7,b7"]),
]


class Failure(Exception):
    pass


def open_engine(binary, variant, offered):
    """An engine playing `variant` (the name it is told), which it must list as `offered`."""
    engine = HubEngine([binary, "hub"])
    if "variant" not in engine.options or "numbering" not in engine.options:
        raise Failure(f"the engine does not declare the variant and numbering parameters: {engine.options}")
    if offered not in engine.variants:
        raise Failure(f"the engine does not offer {offered}: {engine.variants}")
    engine.setoption("variant", variant)
    engine.setoption("numbering", "pydraughts")
    engine.setoption("hash", "8")
    engine.init()
    engine.ping()
    return engine


def legal_keys(board):
    """pydraughts' legal moves, as (hub move with sorted captures) keys."""
    return {canonical(m.hub_move) for m in board.legal_moves()}


def turkish_occupied(board):
    """The occupied squares of a Turkish board as (file, rank), from its FEN (`W:Wa2,Kd8:B...`)."""
    squares = set()
    for side in board.fen.split(":")[1:]:
        for item in filter(None, side[1:].split(",")):
            name = item.lstrip("K")
            squares.add((ord(name[0]) - ord("a"), int(name[1:]) - 1))
    return squares


def passes_over_pieces(occupied, move):
    """Whether a quiet Turkish move (pydraughts' numbers: a1 = 1, rank by rank) crosses a piece."""
    if move.captures:
        return False
    (f0, r0), (f1, r1) = [((n - 1) % 8, (n - 1) // 8) for n in (move.steps_move[0], move.steps_move[-1])]
    df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
    f, r = f0 + df, r0 + dr
    while (f, r) != (f1, r1):
        if (f, r) in occupied:
            return True
        f, r = f + df, r + dr
    return False


def random_moves(board):
    """The moves the random mover picks from: pydraughts' legal moves, less, in Turkish, a known
    pydraughts bug (a king's quiet move passing over pieces, which no rule text allows;
    crates/rules/tests/pydraughts/agree.py sets the same moves aside)."""
    moves = board.legal_moves()
    if board.variant == "turkish":
        occupied = turkish_occupied(board)
        moves = [m for m in moves if not passes_over_pieces(occupied, m)]
    return moves


def canonical(hub_move):
    if "x" not in hub_move:
        return hub_move
    parts = hub_move.split("x")
    return "x".join(parts[:2] + sorted(parts[2:], key=int))


def engine_move(engine, board, limit):
    try:
        result = engine.play(board, limit, ponder=False)
    except KeyError as error:
        raise Failure(f"the engine answered a move pydraughts does not know: {error} in {board.fen}")
    move = result.move
    if move is None or canonical(move.hub_move) not in legal_keys(board):
        raise Failure(f"illegal move {move and move.hub_move} in {board.fen}; legal: {sorted(legal_keys(board))}")
    if "score" in result.info and not isinstance(result.info["score"], dict):
        raise Failure(f"unreadable score in {result.info}")
    return move


def play_game(name, variant, fen, white, black, rng):
    """`white` and `black` are (engine, limit) or None for the random mover."""
    board = Board(variant, fen)
    captures = kings_seen = 0
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        player = white if board.turn == WHITE else black
        if player is None:
            move = rng.choice(random_moves(board))
            move = Move(board, hub_move=move.hub_move)
        else:
            move = engine_move(player[0], board, player[1])
        if "x" in move.hub_move:
            captures += 1
        board.push(move)
        body = board.fen.split(":", 1)[1]
        kings_seen = max(kings_seen, body.count("K"))
    winner = board.winner()
    outcome = {None: f"unfinished after {MAX_PLIES} plies", 0: "draw", WHITE: "White wins", BLACK: "Black wins"}[winner]
    print(f"{name}: {len(board.move_stack)} plies, {captures} captures, up to {kings_seen} kings, {outcome}")
    return board, winner


def play_board_variant(binary, variant, told, offered, setups, rng, engines):
    """Whole games of a variant beyond English and Russian: engine against engine, the engine
    against the random mover with each colour (it must win), and from set-up positions."""
    first = open_engine(binary, told, offered)
    second = open_engine(binary, told, offered)
    engines += [first, second]
    by_depth = (first, Limit(depth=4))
    by_nodes = (second, Limit(nodes=3000))
    by_clock = (first, Limit(time=2, inc=0.05))
    by_movetime = (second, Limit(movetime=0.02))
    play_game(f"{offered} depth 4 vs nodes 3000", variant, "startpos", by_depth, by_nodes, rng)
    for engine_side in [WHITE, BLACK]:
        white = by_clock if engine_side == WHITE else None
        black = by_movetime if engine_side == BLACK else None
        name = f"{offered} engine as {'White' if engine_side == WHITE else 'Black'} vs random"
        board, winner = play_game(name, variant, "startpos", white, black, rng)
        if winner != engine_side:
            raise Failure(f"{name}: the engine did not beat a random mover ({board.fen})")
    for i, fen in enumerate(setups):
        play_game(f"{offered} set-up {i + 1} engine vs random", variant, fen, by_depth, None, rng)
        play_game(f"{offered} set-up {i + 1} random vs engine", variant, fen, None, by_nodes, rng)
    for engine in [first, second]:
        engine.quit()
        engine.p.communicate(timeout=10)
        engines.remove(engine)


def watchdog(engines):
    """Ends the run if the games are stuck: kills the engines and exits with a failure."""
    print(f"FAILED: the games took more than {PATIENCE} s (an engine that does not answer?)", file=sys.stderr)
    for engine in list(engines):
        try:
            os.killpg(engine.p.pid, signal.SIGKILL)
        except OSError:
            pass
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True, help="path to the checkers binary")
    parser.add_argument("--seed", type=int, default=7)
    every = ["english", "russian"] + [told for _, told, _, _ in BOARD_VARIANTS]
    parser.add_argument("--variants", default=",".join(every), help="which variants to play (names as told)")
    args = parser.parse_args()
    chosen = args.variants.split(",")
    rng = random.Random(args.seed)
    engines = []
    timer = threading.Timer(PATIENCE, watchdog, [engines])
    timer.daemon = True
    timer.start()
    try:
        for variant in [v for v in ["english", "russian"] if v in chosen]:
            first = open_engine(args.engine, variant, variant)
            second = open_engine(args.engine, variant, variant)
            engines += [first, second]
            first.id and print(f"{variant}: engine {first.id.get('name')} {first.id.get('version')}")
            start = "startpos"
            by_depth = (first, Limit(depth=5))
            by_nodes = (second, Limit(nodes=4000))
            by_clock = (first, Limit(time=3, inc=0.05))
            by_movetime = (second, Limit(movetime=0.02))
            # Engine against engine from the start: a whole game between two limits.
            play_game(f"{variant} depth 5 vs nodes 4000", variant, start, by_depth, by_nodes, rng)
            # Against a random mover, with each colour: the engine must win.
            for engine_side in [WHITE, BLACK]:
                white = by_clock if engine_side == WHITE else None
                black = by_movetime if engine_side == BLACK else None
                name = f"{variant} engine as {'White' if engine_side == WHITE else 'Black'} vs random"
                board, winner = play_game(name, variant, start, white, black, rng)
                if winner != engine_side:
                    raise Failure(f"{name}: the engine did not beat a random mover ({board.fen})")
            # From set-up positions: a ballot opening, and kings on both sides.
            if variant == "english":
                setups = [
                    "W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,5,6,7,8",
                    "B:WK10,K26,19:BK23,K7,14",
                ]
            else:
                setups = [
                    "B:Wa1,e3,g3,c5,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
                    "W:WKa1,c3,e3,g3:Bd6,f6,Kh8,Kb8",
                ]
            for i, fen in enumerate(setups):
                play_game(f"{variant} set-up {i + 1} engine vs random", variant, fen, by_depth, None, rng)
                play_game(f"{variant} set-up {i + 1} random vs engine", variant, fen, None, by_nodes, rng)
        for variant, told, offered, setups in BOARD_VARIANTS:
            if told in chosen:
                play_board_variant(args.engine, variant, told, offered, setups, rng, engines)
    except Failure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        for engine in engines:
            try:
                engine.quit()
                engine.p.communicate(timeout=10)
            except Exception:
                engine.kill_process()
        timer.cancel()
    print("all games legal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
