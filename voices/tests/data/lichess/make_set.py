#!/usr/bin/env python3
"""Builds the held-out set of misheard English move phrases (issue 33).

Each row is one move of a real game (tests/data/pgn/games) said in the
station's English words with plain letters, with one of the mishearings
lichess learned from its players (learned-subs-en.tsv: what the recogniser
wrote, what the player said) put in: the words the player said replaced by
the word the recogniser wrote. The station is tuned on none of it.

Run from the repository root (python-chess from the project's .deps):

    PYTHONPATH=.deps/python python3 voices/tests/data/lichess/make_set.py \
        > voices/tests/data/lichess/held-out-en.tsv

Deterministic: the same games and table give the same 680 rows.
"""

import glob
import os
import sys

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))
SIZE = 680

# lichess's tokens in the station's English listening words.
TOKEN_WORDS = {
    **{f: f for f in "abcdefgh"},
    "1": "one", "2": "two", "3": "three", "4": "four",
    "5": "five", "6": "six", "7": "seven", "8": "eight",
    "P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king",
    "&": "captures", "(": "promote",
}
PIECES = {chess.KNIGHT: "knight", chess.BISHOP: "bishop", chess.ROOK: "rook",
          chess.QUEEN: "queen", chess.KING: "king", chess.PAWN: "pawn"}
RANKS = ["one", "two", "three", "four", "five", "six", "seven", "eight"]


def square_words(sq):
    return [chess.FILE_NAMES[chess.square_file(sq)], RANKS[chess.square_rank(sq)]]


def suffix(board, mv):
    after = board.copy(stack=False)
    after.push(mv)
    if after.is_checkmate():
        return ["checkmate"]
    if after.is_check():
        return ["check"]
    if after.is_stalemate():
        return ["stalemate"]
    return []


def phrasings(board, mv):
    """The station's words for a move (short and long form), and the
    listening variants it accepts: the pawn named, "captures", "promote to"."""
    end = suffix(board, mv)
    if board.is_castling(mv):
        side = "short castling" if board.is_kingside_castling(mv) else "long castling"
        return [side.split() + end]
    piece = board.piece_type_at(mv.from_square)
    capture = board.is_capture(mv)
    target = square_words(mv.to_square)
    promo = [PIECES[mv.promotion]] if mv.promotion else []
    san = board.san(mv)
    out = []
    if piece == chess.PAWN:
        short = ([chess.FILE_NAMES[chess.square_file(mv.from_square)], "takes"] if capture else []) + target
        out.append(short + promo + end)
        out.append(["pawn"] + short + promo + end)
        if capture:
            out.append([chess.FILE_NAMES[chess.square_file(mv.from_square)], "captures"] + target + promo + end)
        if promo:
            out.append(short + ["promote", "to"] + promo + end)
    else:
        body = san.lstrip("NBRQK").rstrip("+#").replace("x", "")
        disamb = body[:-2]
        words = [PIECES[piece]]
        for ch in disamb:
            words.append(ch if ch in chess.FILE_NAMES else RANKS[int(ch) - 1])
        out.append(words + (["takes"] if capture else []) + target + end)
        if capture:
            out.append(words + ["captures"] + target + end)
    long = [PIECES[piece]] if piece != chess.PAWN else []
    long += square_words(mv.from_square) + (["takes"] if capture else []) + target + promo + end
    out.append(long)
    unique = []
    for words in out:
        if words not in unique:
            unique.append(words)
    return unique


def positions():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/data/pgn/games/*.pgn"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            n = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                n += 1
                if n % 3 != 1:
                    continue
                board = game.board()
                for ply, mv in enumerate(game.mainline_moves()):
                    if ply % 7 == 3:
                        out.append(board.copy(stack=False))
                    board.push(mv)
                if len(out) > 1500:
                    break
    return out


def read_subs():
    subs = []
    with open(os.path.join(HERE, "learned-subs-en.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            heard, meant, _cost = line.rstrip("\n").split("\t")
            subs.append((heard, [TOKEN_WORDS[t] for t in meant]))
    return subs


def all_phrasings(boards):
    out = []
    for board in boards:
        fen = board.fen()
        for mv in board.legal_moves:
            for words in phrasings(board, mv):
                out.append((fen, mv.uci(), words))
    return out


def candidates(sub, said):
    heard, meant = sub
    found = []
    seen = set()
    for fen, uci, words in said:
        if True:
            if True:
                for at in range(len(words) - len(meant) + 1):
                    if words[at:at + len(meant)] != meant:
                        continue
                    misheard = words[:at] + [heard] + words[at + len(meant):]
                    key = (fen, " ".join(misheard))
                    if key in seen:
                        continue
                    seen.add(key)
                    found.append((fen, uci, " ".join(words), " ".join(misheard)))
    return found


def main():
    boards = positions()
    subs = read_subs()
    said = all_phrasings(boards)
    cands = [candidates(sub, said) for sub in subs]
    # Water-filling: every learned mishearing as many rows as it can give,
    # evenly, until the set has SIZE rows; ties by table order.
    quota = [0] * len(subs)
    total = 0
    while total < SIZE:
        grew = False
        for i, c in enumerate(cands):
            if total >= SIZE:
                break
            if quota[i] < len(c):
                quota[i] += 1
                total += 1
                grew = True
        if not grew:
            sys.exit(f"only {total} phrases can be made")
    print("# fen\tmeant_uci\tsaid\theard\tmishearing (heard <- said)")
    for (heard, meant), c, q in zip(subs, cands, quota):
        for k in range(q):
            fen, uci, said, misheard = c[k * len(c) // q]
            print(f"{fen}\t{uci}\t{said}\t{misheard}\t{heard} <- {' '.join(meant)}")


if __name__ == "__main__":
    main()
