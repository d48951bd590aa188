//! The draws of chapter I, article 6, tracked move by move so they can be said
//! on request: threefold repetition (6.1), 25 moves of kings only (6.2; 20 in
//! the 64-square version), the 16-move endings (6.3, with the 64-square
//! version's main-diagonal cases) and the 5-move endings (6.4). A move that
//! leaves the opponent without a move or a piece wins (7.2.2–7.2.3), which the
//! caller checks first ([`super::movegen::game_end`]).

use std::collections::HashMap;

use super::board::{Color, Position, Variant, squares};
use super::moves::Move;

/// A draw the rules declare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// 6.1: the same position the third time, the same side to move.
    Repetition,
    /// 6.2: 25 moves each (20 on 8×8) of kings only, no man moved, nothing captured.
    KingMoves,
    /// 6.3 (and its 64-square cases): the three-pieces-against-one-king endings after 16 (5, 15) moves each.
    LongEnding,
    /// 6.4: two pieces or one king against one king after 5 moves each.
    ShortEnding,
}

impl Draw {
    /// The article of the code.
    pub fn article(self) -> &'static str {
        match self {
            Draw::Repetition => "6.1",
            Draw::KingMoves => "6.2",
            Draw::LongEnding => "6.3",
            Draw::ShortEnding => "6.4",
        }
    }
}

/// Where a game stands toward the draws, for saying on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawStatus {
    /// How often the current position has stood on the board (6.1).
    pub repetitions: u8,
    /// Consecutive plies of kings only without a capture (6.2).
    pub king_plies: u32,
    /// For an ending of 6.3/6.4: which draw, and the moves each side still has.
    pub ending: Option<(Draw, u32)>,
}

/// Follows a game's positions for the draws of article 6.
#[derive(Clone, Debug)]
pub struct DrawWatch {
    seen: HashMap<Position, u8>,
    current: Position,
    king_plies: u32,
    /// The ending's draw and its limit in plies, and the plies played in it.
    ending: Option<(Draw, u32, u32)>,
}

impl DrawWatch {
    /// Starts at `start`.
    pub fn new(start: Position) -> DrawWatch {
        let mut w = DrawWatch { seen: HashMap::new(), current: start, king_plies: 0, ending: None };
        w.seen.insert(start, 1);
        w.ending = ending_of(&start).map(|(d, limit)| (d, limit, 0));
        w
    }

    /// `mv` was played from the current position; the draw it brings, if any.
    pub fn played(&mut self, mv: &Move) -> Option<Draw> {
        let before = self.current;
        let after = mv.apply(&before);
        self.current = after;
        let king_move = before.kings & mv.from.bit() != 0 && !mv.is_capture();
        self.king_plies = if king_move { self.king_plies + 1 } else { 0 };
        let count = self.seen.entry(after).or_insert(0);
        *count = count.saturating_add(1);
        let count = *count;
        // A new kind of ending (or none) restarts the count; a capture within
        // the same kind of ending does not (6.3: "the 16-move rule still applies").
        let kind = ending_of(&after);
        self.ending = match (self.ending, kind) {
            (Some((d, limit, n)), Some((d2, limit2))) if d == d2 && limit == limit2 => {
                Some((d, limit, n + 1))
            }
            (_, Some((d, limit))) => Some((d, limit, 0)),
            (_, None) => None,
        };
        if count >= 3 {
            return Some(Draw::Repetition);
        }
        // Plies: a move of each side.
        let king_limit = 2 * after.variant.king_moves_limit();
        if self.king_plies >= king_limit {
            return Some(Draw::KingMoves);
        }
        match self.ending {
            Some((d, limit, n)) if n >= limit => Some(d),
            _ => None,
        }
    }

    /// The state of the draws now.
    pub fn status(&self) -> DrawStatus {
        DrawStatus {
            repetitions: self.seen.get(&self.current).copied().unwrap_or(1),
            king_plies: self.king_plies,
            ending: self.ending.map(|(d, limit, n)| (d, limit.saturating_sub(n).div_ceil(2))),
        }
    }
}

/// The ending of 6.3/6.4 a position is in, with its limit in plies.
fn ending_of(pos: &Position) -> Option<(Draw, u32)> {
    for strong in [Color::White, Color::Black] {
        let weak = strong.other();
        let (w, s) = (pos.pieces(weak), pos.pieces(strong));
        // The weaker side: exactly one king.
        if w.count_ones() != 1 || w & pos.kings == 0 {
            continue;
        }
        let kings = (s & pos.kings).count_ones();
        let men = (s & !pos.kings).count_ones();
        let long = matches!((kings, men), (3, 0) | (2, 1) | (1, 2));
        let short = matches!((kings, men), (2, 0) | (1, 1) | (1, 0));
        if short {
            return Some((Draw::ShortEnding, 10));
        }
        if !long {
            continue;
        }
        return match pos.variant {
            Variant::International => Some((Draw::LongEnding, 32)),
            Variant::Draughts64 => {
                let diagonal = main_diagonal(pos.variant);
                if w & diagonal != 0 && s & diagonal == 0 {
                    Some((Draw::LongEnding, 10))
                } else if kings == 3 && s & pos.kings & diagonal != 0 {
                    Some((Draw::LongEnding, 30))
                } else {
                    None // the 64 version: article 6.2 applies instead
                }
            }
        };
    }
    None
}

/// The long diagonal a1–h8 of the 8×8 board (the "main line", 2.4).
fn main_diagonal(variant: Variant) -> u64 {
    squares(variant.all())
        .filter(|sq| {
            let (row, col) = sq.coords(variant);
            row + col == variant.size() - 1
        })
        .fold(0, |m, sq| m | sq.bit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::Piece;
    use crate::draughts::movegen::legal_moves;

    fn pos(variant: Variant, turn: Color, pieces: &[(u8, Color, bool)]) -> Position {
        let mut p = Position::empty(variant, turn);
        for &(n, color, king) in pieces {
            p.put(variant.square(n).unwrap(), Piece { color, king });
        }
        p
    }

    fn step(w: &mut DrawWatch, from: u8, to: u8) -> Option<Draw> {
        let v = w.current.variant;
        let mv = legal_moves(&w.current)
            .into_iter()
            .find(|m| m.from == v.square(from).unwrap() && m.to == v.square(to).unwrap())
            .unwrap_or_else(|| panic!("{from}-{to} legal"));
        w.played(&mv)
    }

    #[test]
    fn threefold_repetition_6_1() {
        let p = pos(
            Variant::International,
            Color::White,
            &[
                (46, Color::White, true),
                (1, Color::Black, true),
                (30, Color::White, false),
                (21, Color::Black, false),
            ],
        );
        let mut w = DrawWatch::new(p);
        let mut results = Vec::new();
        for _ in 0..2 {
            for (a, b) in [(46, 41), (1, 6), (41, 46), (6, 1)] {
                results.push(step(&mut w, a, b));
            }
        }
        assert_eq!(results[..7], [None; 7]);
        assert_eq!(results[7], Some(Draw::Repetition));
        assert_eq!(w.status().repetitions, 3);
    }

    /// A king's move built directly: the counter does not judge legality.
    fn king_move(from: u8, to: u8) -> Move {
        let v = Variant::International;
        Move {
            from: v.square(from).unwrap(),
            to: v.square(to).unwrap(),
            path: Vec::new(),
            captured: Vec::new(),
            promotes: false,
        }
    }

    /// A path of `len` different squares from `start`, one diagonal step at a time, avoiding `avoid`.
    fn walk_of(v: Variant, start: u8, len: usize, avoid: &[u8]) -> Vec<u8> {
        fn go(v: Variant, path: &mut Vec<u8>, len: usize, avoid: &[u8]) -> bool {
            if path.len() == len {
                return true;
            }
            let at = v.square(*path.last().unwrap()).unwrap();
            for dir in crate::draughts::board::Dir::ALL {
                if let Some(next) = v.neighbour(at, dir).map(|s| s.number())
                    && !path.contains(&next)
                    && !avoid.contains(&next)
                {
                    path.push(next);
                    if go(v, path, len, avoid) {
                        return true;
                    }
                    path.pop();
                }
            }
            false
        }
        let mut path = vec![start];
        assert!(go(v, &mut path, len, avoid));
        path
    }

    #[test]
    fn twenty_five_moves_of_kings_only_6_2() {
        // A king and a man each: no ending of 6.3/6.4. The white king walks 25
        // different squares while the black king goes 2-7-2-7…: no position
        // stands three times.
        let p = pos(
            Variant::International,
            Color::White,
            &[
                (46, Color::White, true),
                (2, Color::Black, true),
                (35, Color::White, false),
                (26, Color::Black, false),
            ],
        );
        let walk = walk_of(Variant::International, 46, 26, &[2, 7, 35, 26]);
        let mut w = DrawWatch::new(p);
        for i in 0..25 {
            let white = w.played(&king_move(walk[i], walk[i + 1]));
            let (a, b) = if i % 2 == 0 { (2, 7) } else { (7, 2) };
            let black = w.played(&king_move(a, b));
            if i < 24 {
                assert_eq!((white, black), (None, None), "move {}", i + 1);
            } else {
                assert_eq!((white, black), (None, Some(Draw::KingMoves)));
            }
        }
        assert_eq!(w.status().king_plies, 50);
        // A man's move starts the count again.
        let mut w = DrawWatch::new(p);
        w.played(&king_move(46, 41));
        w.played(&king_move(2, 7));
        assert_eq!(w.status().king_plies, 2);
        let man = Move { promotes: false, ..king_move(35, 30) };
        w.played(&man);
        assert_eq!(w.status().king_plies, 0);
    }

    #[test]
    fn the_sixteen_move_ending_6_3_and_the_five_move_ending_6_4() {
        let p = pos(
            Variant::International,
            Color::White,
            &[
                (46, Color::White, true),
                (47, Color::White, true),
                (48, Color::White, true),
                (5, Color::Black, true),
            ],
        );
        assert_eq!(DrawWatch::new(p).status().ending, Some((Draw::LongEnding, 16)));
        let q = pos(
            Variant::International,
            Color::White,
            &[(46, Color::White, true), (47, Color::White, false), (1, Color::Black, true)],
        );
        let mut w = DrawWatch::new(q);
        assert_eq!(w.status().ending, Some((Draw::ShortEnding, 5)));
        let moves = [(46, 41), (1, 6), (41, 36), (6, 1), (36, 31), (1, 7), (31, 26), (7, 1), (26, 21)];
        for (i, (a, b)) in moves.into_iter().enumerate() {
            assert_eq!(step(&mut w, a, b), None, "ply {}", i + 1);
        }
        assert_eq!(w.status().ending, Some((Draw::ShortEnding, 1)));
        assert_eq!(step(&mut w, 1, 6), Some(Draw::ShortEnding));
    }

    #[test]
    fn the_64_square_main_diagonal_cases_6_3() {
        let v = Variant::Draughts64;
        // Every case is three white kings against one black king, White to move.
        let three_kings_against_one = |black: &str, white: [&str; 3]| {
            let d = |s: &str| v.parse_square(s).unwrap().number();
            let kings: Vec<(u8, Color, bool)> = std::iter::once((d(black), Color::Black, true))
                .chain(white.map(|s| (d(s), Color::White, true)))
                .collect();
            pos(v, Color::White, &kings)
        };
        // The weaker king holds the main diagonal: 5 moves each.
        let p = three_kings_against_one("b2", ["c1", "e1", "g1"]);
        assert_eq!(DrawWatch::new(p).status().ending, Some((Draw::LongEnding, 5)));
        // Three kings, the stronger side on the main diagonal: 15 moves.
        let q = three_kings_against_one("b4", ["d4", "e1", "g1"]);
        assert_eq!(DrawWatch::new(q).status().ending, Some((Draw::LongEnding, 15)));
        // Otherwise 6.2 applies.
        let r = three_kings_against_one("b4", ["c1", "e1", "g1"]);
        assert_eq!(DrawWatch::new(r).status().ending, None);
    }
}
