"""Replays games given on standard input with pydraughts and checks, at every position, that
its legal moves and its game end agree with ours (tests/pydraughts_agreement.rs writes the
input; squares are already in pydraughts' numbering).

Input, one item a line:
    game VARIANT FEN        a new game (VARIANT as pydraughts names it)
    game VARIANT FEN results
                            a new game whose ends are given by `result` lines instead
    expect MOVE...          our legal moves here; none at all means the side to move has lost
                            (unless the game gives its results)
    result WHO              our outcome here: white, black, draw or none (the game goes on)
    play MOVE               the move played
A MOVE is `from,to` followed by `,captured` for each captured square, ascending.

Prints one line per disagreement and, at the end, `checked G games, P positions`.
"""

import sys

from draughts import Board, WHITE, BLACK


def key(move):
    steps = move.steps_move
    return ",".join(str(n) for n in [steps[0], steps[-1]] + sorted(move.captures or []))


def main():
    board = None
    moves = []
    skipping = False
    explicit = False
    name = ""
    games = positions = failures = 0
    for number, line in enumerate(sys.stdin, 1):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "game":
            board = Board(variant=fields[1], fen=fields[2])
            name = f"{fields[1]} game from {fields[2]}"
            games += 1
            skipping = False
            explicit = len(fields) > 3 and fields[3] == "results"
        elif skipping:
            continue
        elif fields[0] == "expect":
            positions += 1
            ours = set(fields[1:])
            moves = board.legal_moves()
            theirs = {key(m) for m in moves}
            if ours != theirs:
                failures += 1
                print(f"line {number}, {name}, position {board.fen}: only ours {sorted(ours - theirs)}, "
                      f"only pydraughts {sorted(theirs - ours)}")
            winner = board.winner()
            if explicit:
                continue
            if not ours:
                loser = board.turn
                expected = BLACK if loser == WHITE else WHITE
                if winner != expected:
                    failures += 1
                    print(f"line {number}, {name}, position {board.fen}: no legal move, pydraughts winner {winner}")
            elif winner in (WHITE, BLACK):
                failures += 1
                print(f"line {number}, {name}, position {board.fen}: moves remain, pydraughts winner {winner}")
        elif fields[0] == "result":
            expected = {"white": WHITE, "black": BLACK, "draw": 0, "none": None}[fields[1]]
            winner = board.winner()
            if winner != expected:
                failures += 1
                print(f"line {number}, {name}, position {board.fen}: our result {fields[1]}, pydraughts {winner}")
        elif fields[0] == "play":
            played = [m for m in moves if key(m) == fields[1]]
            if not played:
                failures += 1
                print(f"line {number}, {name}: pydraughts has no move {fields[1]}; stopping this game")
                skipping = True
                continue
            board.push(played[0])
    print(f"checked {games} games, {positions} positions, {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
