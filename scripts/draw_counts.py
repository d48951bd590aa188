#!/usr/bin/env python3
"""Counts, independently of the station, the plies of PGN games after which a
draw could be claimed: `repetitions` (the position for at least the third
time, python-chess `is_repetition(3)`) and `fifty_move` (`is_fifty_moves()`).
Prints the same two keys as `station replay`'s summary line.

Usage: PYTHONPATH=.deps/python scripts/draw_counts.py FILE.pgn...
"""
import sys

import chess.pgn


def main(paths):
    games = repetitions = fifty = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                games += 1
                board = game.board()
                for move in game.mainline_moves():
                    board.push(move)
                    repetitions += board.is_repetition(3)
                    fifty += board.is_fifty_moves()
    print(f"games {games} repetitions {repetitions} fifty_move {fifty}")


if __name__ == "__main__":
    main(sys.argv[1:])
