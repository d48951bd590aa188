//! Reading a position given as FEN. Moves written in a notation are read by
//! one module only, `station_core::notation` (this crate words moves, it does
//! not read them).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::error::VoiceError;

/// The position of a FEN; "startpos" (or an empty string) is the initial position.
///
/// # Errors
/// [`VoiceError::BadPosition`].
pub fn position_from_fen(fen: &str) -> Result<Chess, VoiceError> {
    let fen = fen.trim();
    if fen.is_empty() || fen == "startpos" {
        return Ok(Chess::default());
    }
    let bad = |problem: String| VoiceError::BadPosition { fen: fen.to_owned(), problem };
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| bad(e.to_string()))?;
    parsed.into_position(CastlingMode::Standard).map_err(|e| bad(e.to_string()))
}
