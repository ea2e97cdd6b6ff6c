"""Counts perft with pydraughts, as an independent check of our figures: moves that agree on
start, end and captured squares count once, as docs/rules.md defines a move, and the known
pydraughts bug that agree.py describes is set aside.

    python perft.py VARIANT DEPTH [FEN]

prints one line a depth, `depth N: COUNT`, from 1 to DEPTH.
"""

import sys

from draughts import Board

from agree import legal_moves


def key(move):
    steps = move.steps_move
    return (steps[0], steps[-1], tuple(sorted(move.captures or [])))


def perft(board, variant, depth):
    moves = {}
    for move in legal_moves(board, variant)[0]:
        moves.setdefault(key(move), move)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves.values():
        board.push(move)
        total += perft(board, variant, depth - 1)
        board.pop()
    return total


def main():
    variant, depth = sys.argv[1], int(sys.argv[2])
    fen = sys.argv[3] if len(sys.argv) > 3 else "startpos"
    for d in range(1, depth + 1):
        print(f"depth {d}: {perft(Board(variant=variant, fen=fen), variant, d)}", flush=True)


if __name__ == "__main__":
    main()
