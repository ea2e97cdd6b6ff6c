#!/usr/bin/env python3
"""Whole games against `checkers dxp --listen`, driven by a DXP client nobody here wrote.

This script starts `checkers dxp --listen 127.0.0.1:0` (one listener a variant, two for a game
of the engine against itself) and plays games through pydraughts' `DXPEngine`: pydraughts
connects, sends its GAMEREQ (always with the position, so from a set-up position as well),
sends each move of the other side and reads the engine's. pydraughts' board referees: each
move the engine sends must be one of pydraughts' legal moves, or the game (and this script)
fails. The engine plays a seeded random mover with each colour in each 10x10 variant
pydraughts has (standard, that is International, Frisian, Frysk!, Antidraughts,
Breakthrough), itself, a set-up position with kings, and takes moves back when pydraughts
asks (BACKREQ).

A game ends when pydraughts' board says it is over (the script then sends GAMEEND through
`DXPEngine.quit`), when the engine ends it with a GAMEEND of its own (its rules saw the end
first), or at the ply cap.

Usage: dxp_games.py --engine PATH/TO/checkers
Exit status 0 when every game was played legally to its end (or to the ply cap), 1 otherwise.
"""

import argparse
import random
import subprocess
import sys
import threading
import os

from draughts import Board, WHITE, BLACK
from draughts.engine import DXPEngine

MAX_PLIES = 300
# pydraughts waits for a move in a busy loop with no time limit; a move later than this is
# a failure.
MOVE_TIMEOUT = 60
COLOR_NAME = {WHITE: "White", BLACK: "Black"}


class Failure(Exception):
    pass


class Listener:
    """`checkers dxp --listen` on a free port, its log kept."""

    def __init__(self, binary, variant):
        command = [binary, "dxp", "--listen", "127.0.0.1:0", "--variant", variant, "--movetime", "50", "--hash", "8"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.process.stderr.readline().strip()
        if not first.startswith("listening on "):
            raise Failure(f"`checkers dxp` did not say where it listens: {first!r}")
        self.host, self.port = first.split()[-1].rsplit(":", 1)
        self.log = []
        self.games = []
        threading.Thread(target=self._drain, args=(self.process.stderr, self.log), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process.stdout, self.games), daemon=True).start()

    @staticmethod
    def _drain(stream, lines):
        for line in stream:
            lines.append(line.rstrip("\n"))

    def engine(self, minutes=1):
        return DXPEngine(None, {"engine-opened": True, "ip": self.host, "port": self.port,
                                "initial-time": minutes * 60})

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        for line in self.log:
            if "panicked" in line:
                raise Failure(f"the engine panicked: {line}")


def engine_move(engine, board):
    """The engine's move in `board` as one of pydraughts' legal moves there, or None when the
    engine ended the game instead (its GAMEEND, acknowledged by pydraughts)."""
    answer = {}

    def ask():
        answer["result"] = engine.play(board)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(MOVE_TIMEOUT)
    if thread.is_alive():
        if engine.sender.current.result is not None:
            return None
        raise Failure(f"no move from the engine in {MOVE_TIMEOUT} s (an illegal move is never answered) in {board.fen}")
    move = answer["result"].move
    if move is None:
        if engine.sender.current.result is not None:
            return None
        raise Failure(f"the connection ended without a move in {board.fen}")
    return legal(board, move.hub_position_move)


def legal(board, key):
    for candidate in board.legal_moves():
        if candidate.hub_position_move == key:
            return candidate
    keys = sorted(m.hub_position_move for m in board.legal_moves())
    raise Failure(f"illegal move {key} in {board.fen}; legal: {keys}")


class Game:
    def __init__(self, name, variant, fen, rng):
        self.name = name
        self.board = Board(variant, fen)
        self.rng = rng
        self.captures = 0
        self.kings = 0
        self.ended_by_engine = None

    def push(self, move):
        if move.captures:
            self.captures += 1
        self.board.push(move)
        self.kings = max(self.kings, self.board.fen.split(":", 1)[1].count("K"))

    def random_move(self):
        return self.rng.choice(self.board.legal_moves())

    def over(self):
        return self.ended_by_engine is not None or self.board.is_over() or len(self.board.move_stack) >= MAX_PLIES

    def report(self, engine_color=None):
        plies = len(self.board.move_stack)
        winner = self.board.winner() if self.board.is_over() else None
        if self.ended_by_engine is not None:
            reason = {"0": "no reason", "1": "it gives up", "2": "a draw", "3": "it wins"}.get(self.ended_by_engine, "?")
            outcome = f"ended by the engine's GAMEEND ({reason})"
        elif not self.board.is_over():
            outcome = f"unfinished after {plies} plies"
        else:
            outcome = {0: "draw", WHITE: "White wins", BLACK: "Black wins"}[winner]
        if engine_color is not None and winner == engine_color:
            outcome += ", engine wins"
        print(f"{self.name}: {plies} plies, {self.captures} captures, up to {self.kings} kings, {outcome}")
        return winner


def against_random(listener, variant, engine_color, rng, fen="startpos", takeback_at=None, must_win=True):
    name = f"{variant} engine as {COLOR_NAME[engine_color]} vs random" + (" from a set-up position" if fen != "startpos" else "")
    game = Game(name, variant, fen, rng)
    engine = listener.engine()
    try:
        while not game.over():
            if game.board.turn == engine_color:
                move = engine_move(engine, game.board)
                if move is None:
                    game.ended_by_engine = engine.sender.current.result
                    break
                game.push(move)
                plies = len(game.board.move_stack)
                if takeback_at is not None and plies >= takeback_at and not game.board.is_over():
                    takeback_at = None
                    take_back(engine, game, engine_color)
            else:
                game.push(game.random_move())
    finally:
        quitting.append(threading.Thread(target=engine.quit, daemon=True))
        quitting[-1].start()
    winner = game.report(engine_color)
    if must_win and game.ended_by_engine is None and game.board.is_over() and winner != engine_color:
        raise Failure(f"{name}: the engine did not beat a random mover ({game.board.fen})")


def take_back(engine, game, engine_color):
    """Asks to go back to the engine's move before its last but one (BACKREQ): it must agree
    (BACKACC 0) and move again there, legally."""
    plies = len(game.board.move_stack)
    target = plies - 3
    move_number, color = target // 2 + 1, (WHITE if target % 2 == 0 else BLACK)
    if color != engine_color:
        raise Failure(f"ply {target} is not the engine's to play")
    accepted, board, result = engine.takeback(move_number, color)
    if not accepted:
        raise Failure(f"the engine refused to go back to move {move_number} ({COLOR_NAME[color]} to move)")
    if result.move is not None and len(board.move_stack) == target:
        game.board = board
        game.push(legal(game.board, result.move.hub_position_move))
    elif result.move is None and len(board.move_stack) == target + 1:
        # pydraughts copied its board after the engine's move had already arrived.
        game.board = board
    else:
        raise Failure(f"after going back to ply {target}: {len(board.move_stack)} plies, move {result.move}")
    print(f"{game.name}: took back from ply {plies} to ply {target}; the engine moved again")


def engine_against_engine(white_listener, black_listener, variant):
    game = Game(f"{variant} engine vs engine", variant, "startpos", random.Random(0))
    engines = {WHITE: white_listener.engine(), BLACK: black_listener.engine()}
    try:
        while not game.over():
            move = engine_move(engines[game.board.turn], game.board)
            if move is None:
                game.ended_by_engine = engines[game.board.turn].sender.current.result
                break
            game.push(move)
    finally:
        for engine in engines.values():
            quitting.append(threading.Thread(target=engine.quit, daemon=True))
            quitting[-1].start()
    game.report()


quitting = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True, help="path to the checkers binary")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    listeners = []
    status = 0
    try:
        # pydraughts' name of each variant, then ours.
        for variant, ours in [("standard", "international"), ("frisian", "frisian"), ("frysk!", "frysk"),
                              ("antidraughts", "antidraughts"), ("breakthrough", "breakthrough")]:
            listener = Listener(args.engine, ours)
            listeners.append(listener)
            # Frysk! and Antidraughts are played to their end, but a random mover may beat the
            # engine at short thinking times there.
            decisive = variant in ("standard", "frisian", "breakthrough")
            colors = [WHITE, BLACK] if variant in ("standard", "frisian") else [rng.choice([WHITE, BLACK])]
            for color in colors:
                takeback = 10 if variant == "standard" and color == WHITE else None
                against_random(listener, variant, color, rng, takeback_at=takeback, must_win=decisive)
            if variant == "standard":
                kings = "W:WK47,31,32,33,38,39:BK4,13,16,17,18"
                against_random(listener, variant, BLACK, rng, fen=kings, must_win=False)
                second = Listener(args.engine, ours)
                listeners.append(second)
                engine_against_engine(listener, second, variant)
        print("all games legal")
    except Failure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        status = 1
    finally:
        for thread in quitting:
            thread.join(30)
        for listener in listeners:
            try:
                listener.close()
            except Failure as failure:
                print(f"FAILED: {failure}", file=sys.stderr)
                status = 1
        sys.stdout.flush()
        sys.stderr.flush()
    # pydraughts' receiving threads may still spin on closed sockets: leave without them.
    os._exit(status)


if __name__ == "__main__":
    main()
