//! Reading positions and moves given as text (FEN, SAN, UCI).

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

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

fn bad_move(text: &str, problem: impl ToString) -> VoiceError {
    VoiceError::BadMove { text: text.to_owned(), problem: problem.to_string() }
}

/// A legal move from SAN. Tolerates what scoresheets add: an "e.p." suffix,
/// zeros in castling ("0-0") and annotation marks ("!", "?").
///
/// # Errors
/// [`VoiceError::BadMove`].
pub fn parse_san(pos: &Chess, text: &str) -> Result<Move, VoiceError> {
    let trimmed = text.trim();
    let trimmed = trimmed.strip_suffix("e.p.").unwrap_or(trimmed).trim_end();
    let trimmed = trimmed.trim_end_matches(['!', '?']);
    let mut ascii = [0u8; 16];
    let bytes = trimmed.as_bytes();
    let Some(buf) = ascii.get_mut(..bytes.len()) else {
        return Err(bad_move(text, "too long for SAN"));
    };
    buf.copy_from_slice(bytes);
    if buf.starts_with(b"0-0") {
        for b in buf.iter_mut() {
            if *b == b'0' {
                *b = b'O';
            }
        }
    }
    let san = SanPlus::from_ascii(buf).map_err(|e| bad_move(text, e))?;
    san.san.to_move(pos).map_err(|e| bad_move(text, e))
}

/// A legal move from UCI ("e2e4", "e7e8q", "e1g1").
///
/// # Errors
/// [`VoiceError::BadMove`].
pub fn parse_uci(pos: &Chess, text: &str) -> Result<Move, VoiceError> {
    let uci: UciMove = text.trim().parse().map_err(|e| bad_move(text, e))?;
    uci.to_move(pos).map_err(|e| bad_move(text, e))
}

/// A legal move from SAN or UCI: SAN first, since "Nf3" is never UCI and a
/// UCI string that also reads as SAN ("e2e4") means the same move.
///
/// # Errors
/// [`VoiceError::BadMove`] with the SAN error if neither reads.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, VoiceError> {
    parse_san(pos, text).or_else(|san_error| parse_uci(pos, text).map_err(|_| san_error))
}
