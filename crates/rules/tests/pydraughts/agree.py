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

One known pydraughts bug is set aside, and counted: in Turkish draughts it lets a king's
quiet move pass over pieces standing between its start and end (its orthogonal king moves
are not stopped by what they meet). Every rule text has kings move over empty squares only.
"""

import sys

from draughts import Board, WHITE, BLACK


def key(move):
    steps = move.steps_move
    return ",".join(str(n) for n in [steps[0], steps[-1]] + sorted(move.captures or []))


def turkish_occupied(board):
    """The occupied squares of a Turkish board as (file, rank), from its FEN (`W:Wa2,Kd8:B...`)."""
    squares = set()
    for side in board.fen.split(":")[1:]:
        for item in filter(None, side[1:].split(",")):
            name = item.lstrip("K")
            squares.add((ord(name[0]) - ord("a"), int(name[1:]) - 1))
    return squares


def passes_over_pieces(occupied, move):
    """Whether a quiet Turkish move (pydraughts numbers: a1 = 1, rank by rank) crosses a piece."""
    if move.captures and any(c is not None for c in move.captures):
        return False
    (f0, r0), (f1, r1) = [((n - 1) % 8, (n - 1) // 8) for n in (move.steps_move[0], move.steps_move[-1])]
    df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
    f, r = f0 + df, r0 + dr
    while (f, r) != (f1, r1):
        if (f, r) in occupied:
            return True
        f, r = f + df, r + dr
    return False


def legal_moves(board, variant):
    """pydraughts' legal moves, less the known bug above; and how many were set aside."""
    moves = board.legal_moves()
    if variant != "turkish":
        return moves, 0
    occupied = turkish_occupied(board)
    kept = [m for m in moves if not passes_over_pieces(occupied, m)]
    return kept, len(moves) - len(kept)


def main():
    board = None
    moves = []
    skipping = False
    explicit = False
    name = ""
    games = positions = failures = set_aside = 0
    variant = ""
    for number, line in enumerate(sys.stdin, 1):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "game":
            variant = fields[1]
            board = Board(variant=variant, fen=fields[2])
            name = f"{fields[1]} game from {fields[2]}"
            games += 1
            skipping = False
            explicit = len(fields) > 3 and fields[3] == "results"
        elif skipping:
            continue
        elif fields[0] == "expect":
            positions += 1
            ours = set(fields[1:])
            moves, bugs = legal_moves(board, variant)
            set_aside += bugs
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
    print(f"checked {games} games, {positions} positions, {failures} disagreements "
          f"({set_aside} Turkish king moves over pieces set aside)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
