//! Answers to the blind player's questions — where is a piece, what stands on
//! a square, his or his opponent's pieces — read from the board he asked
//! about and nothing else: no analysis, ever.
//!
//! Besides where and what: his or the opponent's pieces, a rank or a file (a run of empty squares
//! said once), and the material each side has lost against the usual set.

use shakmaty::{Board, Color, File, Rank, Role, Square};

use super::{Side, SpokenCommand, Understanding};

impl Understanding {
    /// The answer to a question command about `board`, seen by the player of
    /// colour `me`: "Dame David eins, Turm Anna eins", "Eva vier: Springer,
    /// Gegner", "Gegner: Dame: keine". `None` for commands that are not
    /// questions about the board.
    pub fn answer(&self, board: &Board, me: Color, command: &SpokenCommand) -> Option<String> {
        let clock = self.wording.phrasebook().clock();
        let label = |color: Color| if color == me { clock.own.as_str() } else { clock.opponent.as_str() };
        let color_of = |side: Side| if side == Side::Mine { me } else { !me };
        Some(match *command {
            SpokenCommand::ReadPieces(side) => self.listed(board, color_of(side), None),
            SpokenCommand::WhereIs { role, side: Some(side) } => {
                self.listed(board, color_of(side), Some(role))
            }
            SpokenCommand::WhereIs { role, side: None } => [me, !me]
                .iter()
                .map(|&c| format!("{}: {}", label(c), self.listed(board, c, Some(role))))
                .collect::<Vec<_>>()
                .join(". "),
            SpokenCommand::WhatStandsOn(square) => {
                let [letter, rank] = self.wording.word_square(square);
                match board.piece_at(square) {
                    Some(piece) => format!(
                        "{} {}: {}, {}",
                        letter.text,
                        rank.text,
                        self.wording.word_piece(piece.role).text,
                        label(piece.color)
                    ),
                    None => format!("{} {}: {}", letter.text, rank.text, self.empty),
                }
            }
            // A rank is named by its number and its squares by their letters; a file the other way round.
            SpokenCommand::ReadRank(rank) => {
                self.read_line(board, me, &File::ALL.map(|f| Square::from_coords(f, rank)), 1)
            }
            SpokenCommand::ReadFile(file) => {
                self.read_line(board, me, &Rank::ALL.map(|r| Square::from_coords(file, r)), 0)
            }
            SpokenCommand::Material => [me, !me]
                .iter()
                .map(|&c| format!("{}: {}", label(c), self.lost(board, c)))
                .collect::<Vec<_>>()
                .join(". "),
            _ => return None,
        })
    }

    /// A rank or file read out: its name (word `line` of its first square's
    /// two words), then its squares, each named by its other word.
    fn read_line(&self, board: &Board, me: Color, squares: &[Square], line: usize) -> String {
        let name = self.wording.word_square(squares[0])[line].text;
        format!(
            "{name} {}",
            self.line_of(board, me, squares, |sq| self.wording.word_square(sq)[1 - line].text)
        )
    }

    /// The squares of a rank or file in order, each named by `name` (its
    /// letter or its number): a piece with its owner, a run of empty squares
    /// as "Anna bis Cesar leer".
    fn line_of<'a>(
        &'a self,
        board: &Board,
        me: Color,
        squares: &[Square],
        name: impl Fn(Square) -> &'a str,
    ) -> String {
        let clock = self.wording.phrasebook().clock();
        let mut parts = Vec::new();
        let mut at = 0;
        while at < squares.len() {
            let square = squares[at];
            match board.piece_at(square) {
                Some(piece) => {
                    let owner = if piece.color == me { &clock.own } else { &clock.opponent };
                    parts.push(format!(
                        "{} {} {owner}",
                        name(square),
                        self.wording.word_piece(piece.role).text
                    ));
                    at += 1;
                }
                None => {
                    let end = (at..squares.len())
                        .take_while(|&i| board.piece_at(squares[i]).is_none())
                        .last()
                        .unwrap_or(at);
                    parts.push(match end - at {
                        0 => format!("{} {}", name(square), self.empty),
                        _ => {
                            format!("{} {} {} {}", name(square), self.through, name(squares[end]), self.empty)
                        }
                    });
                    at = end + 1;
                }
            }
        }
        parts.join(", ")
    }

    /// The pieces `color` has lost against the usual set (eight pawns, two
    /// each of rook, knight and bishop, one queen), most valuable first;
    /// a promoted piece counts against the pawns it came from.
    fn lost(&self, board: &Board, color: Color) -> String {
        let mut out = Vec::new();
        let mut promoted = 0;
        for (role, full) in [(Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)] {
            let have = board.by_piece(role.of(color)).count();
            promoted += have.saturating_sub(full);
            for _ in have..full {
                out.push(self.wording.word_piece(role).text.to_owned());
            }
        }
        let pawns = board.by_piece(Role::Pawn.of(color)).count() + promoted;
        for _ in pawns..8 {
            out.push(self.wording.word_piece(Role::Pawn).text.to_owned());
        }
        if out.is_empty() {
            return self.none.clone();
        }
        out.join(", ")
    }

    /// The pieces of `color` (of one kind, or all), king first, each with its
    /// square; "Dame: keine" when there is none of the kind.
    fn listed(&self, board: &Board, color: Color, role: Option<Role>) -> String {
        let roles: Vec<Role> = match role {
            Some(r) => vec![r],
            None => Role::ALL.iter().rev().copied().collect(),
        };
        let mut out = Vec::new();
        for r in roles {
            for square in board.by_piece(r.of(color)) {
                out.push(self.piece_on(r, square));
            }
        }
        if out.is_empty() {
            let what = role.map_or(String::new(), |r| format!("{}: ", self.wording.word_piece(r).text));
            return format!("{what}{}", self.none);
        }
        out.join(", ")
    }

    fn piece_on(&self, role: Role, square: Square) -> String {
        let [letter, rank] = self.wording.word_square(square);
        format!("{} {} {}", self.wording.word_piece(role).text, letter.text, rank.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::position_from_fen;
    use shakmaty::Position;

    fn answer(lang: &str, fen: &str, text: &str, me: Color) -> String {
        let u = Understanding::language(lang).unwrap();
        let pos = position_from_fen(fen).unwrap();
        let super::super::Understood::Command(command) = u.understand(&pos, text, None) else {
            panic!("{text:?} is not a command")
        };
        u.answer(pos.board(), me, &command).unwrap_or_default()
    }

    #[test]
    fn questions_are_answered_from_the_board() {
        let fen = "4k3/8/8/8/4N3/8/8/3QK2R w K - 0 1";
        assert_eq!(answer("de", fen, "Wo ist meine Dame", Color::White), "Dame David eins");
        assert_eq!(answer("de", fen, "Wo ist seine Dame", Color::White), "Dame: keine");
        assert_eq!(answer("de", fen, "Was steht auf Eva vier", Color::White), "Eva vier: Springer, Sie");
        assert_eq!(answer("de", fen, "Was steht auf Eva vier", Color::Black), "Eva vier: Springer, Gegner");
        assert_eq!(answer("de", fen, "Was steht auf Anna eins", Color::White), "Anna eins: leer");
        assert_eq!(
            answer("de", fen, "meine Figuren", Color::White),
            "König Eva eins, Dame David eins, Turm Hector eins, Springer Eva vier"
        );
        assert_eq!(answer("pl", fen, "bierki przeciwnika", Color::White), "król Ewa osiem");
        assert_eq!(
            answer("en", fen, "where is queen", Color::Black),
            "You: Queen: none. Opponent: Queen David one"
        );
    }
}
