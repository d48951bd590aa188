//! Draws by the record (Article 9 of the Laws, 2001 text): how often a
//! position has occurred, how many moves were made without a pawn move or a
//! capture, whether a claim under 9.2 or 9.3 (also with a written move not
//! yet played, 9.2(a)/9.3(a)) is correct, and the clock correction 9.5 applies
//! to an incorrect one.
//!
//! Facts only: nothing here judges a position beyond what the record shows.
//!
//! Position identity follows 9.2: the side to move, castling rights and legal en passant rights.
//! Repetitions and the half-move clock are known at every ply. The table's side of draws (offers,
//! agreement, claims: the clock stops, the arbiter confirms) is `table::draws`.

use crate::Millis;
use crate::game::Game;
use shakmaty::{Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Square};
use std::collections::HashMap;

/// What makes two positions "the same" under Art. 9.2: the same player to
/// move, the same pieces on the same squares, and the same possible moves —
/// so the same castling rights and the same (really possible) en passant capture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    board: Board,
    turn: Color,
    castling: Bitboard,
    en_passant: Option<Square>,
}

impl PositionKey {
    /// The key of a position.
    pub fn of(pos: &Chess) -> Self {
        PositionKey {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling: pos.castles().castling_rights(),
            // Only an en passant capture that is legal changes the possible moves.
            en_passant: pos.ep_square(EnPassantMode::Legal),
        }
    }
}

/// The draw facts of one position of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawFacts {
    /// The ply the position was reached at (0 = start).
    pub ply: usize,
    /// How often this position has occurred up to this ply, this one included (Art. 9.2).
    pub repetitions: u32,
    /// Half-moves since the last pawn move or capture (the FEN half-move clock).
    pub halfmove_clock: u32,
}

impl DrawFacts {
    /// Moves (of both players, Art. 9.3) made without a pawn move or a capture.
    pub fn moves_without_pawn_or_capture(&self) -> u32 {
        self.halfmove_clock / 2
    }

    /// Art. 9.2: the position has occurred at least three times.
    pub fn threefold(&self) -> bool {
        self.repetitions >= 3
    }

    /// Art. 9.3: the last 50 moves of each player had no pawn move and no capture.
    pub fn fifty_moves(&self) -> bool {
        self.halfmove_clock >= 100
    }
}

/// The draw facts of every position of the record, from the start (index = ply).
pub fn facts_all(game: &Game) -> Vec<DrawFacts> {
    let mut seen: HashMap<PositionKey, u32> = HashMap::with_capacity(game.ply() + 1);
    (0..=game.ply())
        .filter_map(|ply| game.position_at(ply).map(|pos| (ply, pos)))
        .map(|(ply, pos)| {
            let count = seen.entry(PositionKey::of(pos)).or_insert(0);
            *count += 1;
            DrawFacts { ply, repetitions: *count, halfmove_clock: pos.halfmoves() }
        })
        .collect()
}

/// The draw facts of the current position.
pub fn facts(game: &Game) -> DrawFacts {
    let key = PositionKey::of(game.position());
    let repetitions = (0..=game.ply())
        .filter_map(|ply| game.position_at(ply))
        .filter(|pos| PositionKey::of(pos) == key)
        .count();
    DrawFacts {
        ply: game.ply(),
        repetitions: u32::try_from(repetitions).unwrap_or(u32::MAX),
        halfmove_clock: game.position().halfmoves(),
    }
}

/// The ground of a draw claim the record upholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimGround {
    /// Art. 9.2: the same position for at least the third time.
    Repetition,
    /// Art. 9.3: 50 moves of each player without a pawn move or a capture.
    FiftyMoves,
}

impl ClaimGround {
    /// The `game_over` reason of a draw on this ground.
    pub fn reason(self) -> &'static str {
        match self {
            ClaimGround::Repetition => "threefold_repetition",
            ClaimGround::FiftyMoves => "fifty_moves",
        }
    }
}

/// The station's check of a draw claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimCheck {
    /// The ground the record upholds; `None`: the claim is incorrect.
    pub ground: Option<ClaimGround>,
    /// The facts of the position the claim is about: after the written move
    /// (9.2(a)/9.3(a)) or the current one (9.2(b)/9.3(b)).
    pub facts: DrawFacts,
}

impl ClaimCheck {
    /// The record upholds the claim.
    pub fn correct(&self) -> bool {
        self.ground.is_some()
    }
}

/// Checks a claim of the player to move: with `written` (his written move,
/// which must be legal), the position it will produce; without, the current one.
/// A repetition is preferred to the fifty moves when both hold.
pub fn check_claim(game: &Game, written: Option<Move>) -> ClaimCheck {
    let facts = match written {
        Some(mv) => {
            let mut after = game.clone();
            after.push(mv);
            facts(&after)
        }
        None => facts(game),
    };
    let ground = if facts.threefold() {
        Some(ClaimGround::Repetition)
    } else if facts.fifty_moves() {
        Some(ClaimGround::FiftyMoves)
    } else {
        None
    };
    ClaimCheck { ground, facts }
}

/// Time added to the opponent of an incorrect claimant (Art. 9.5).
pub const INCORRECT_CLAIM_BONUS_MS: Millis = 3 * 60_000;

/// The claimant's remaining time after an incorrect claim (Art. 9.5, 2001):
/// more than two minutes — half of it is taken, at most three minutes; between
/// one and two minutes — one minute is left; less than one minute — unchanged.
pub fn claimant_time_after_incorrect_claim(remaining: Millis) -> Millis {
    const MINUTE: Millis = 60_000;
    if remaining > 2 * MINUTE {
        remaining - (remaining / 2).min(3 * MINUTE)
    } else if remaining > MINUTE {
        MINUTE
    } else {
        remaining
    }
}

#[cfg(test)]
mod tests;
