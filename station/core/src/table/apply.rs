//! The table's one entry point: [`Table::apply`] takes a typed [`Input`] at its
//! time of arrival and returns what it decided. The daemon calls it for every
//! input and the journal restore calls it again with the same inputs, so the
//! two can never drift apart.
//!
//! Time passes up to the input's arrival `t`, then the input is consumed; a refusal is an error
//! that changes nothing (what time decided before it comes first in the next call).

use super::{Phase, Table, TableError};
use crate::Millis;
use crate::clock::ClockReading;
use crate::event::Event;
use crate::game::Game;
use crate::input::{Input, Occupancy};

impl Table {
    /// Applies one input that arrived at `t`: time passes up to `t` (whatever
    /// settled before it is decided first), then the input is consumed.
    ///
    /// A refused input is an error and changes nothing; what the passing of
    /// time decided before it is never lost: it comes first in the next
    /// call's events.
    pub fn apply(&mut self, t: Millis, input: &Input) -> Result<Vec<Event>, TableError> {
        let mut out = std::mem::take(&mut self.refusals.deferred);
        self.tick(t, &mut out);
        match self.consume(t, input, &mut out) {
            Ok(()) => {
                self.start_clock_when_set_up(t, &mut out);
                self.fold_record(&out);
                Ok(out)
            }
            Err(e) => {
                self.refusals.deferred = out;
                self.refusals.refused += 1;
                Err(e)
            }
        }
    }

    /// How many inputs were refused since the table was made (each one is
    /// journaled with its reason, so a restore counts the same).
    pub fn refused(&self) -> u64 {
        self.refusals.refused
    }

    fn consume(&mut self, t: Millis, input: &Input, out: &mut Vec<Event>) -> Result<(), TableError> {
        // The inputs whose meaning is the game's own (the play's, by the configured start).
        if let Some(done) = super::play::Play::consume(self, t, input, out) {
            return done;
        }
        match input {
            Input::Tick | Input::Button { .. } | Input::Link { .. } => Ok(()),
            Input::Scan { occ: occ @ Occupancy::Squares50(_), .. } => Err(TableError::Invalid(format!(
                "13-digit draughts scan `{}` while the game is chess",
                occ.hex()
            ))),
            Input::IrregularityDecision { .. } => {
                Err(TableError::Invalid("irregularity decisions are for draughts games".into()))
            }
            &Input::Scan { board, occ: Occupancy::Squares64(occ) } => {
                self.on_scan(board, t, occ, out);
                Ok(())
            }
            Input::Pieces { fen, .. } => {
                let board = board_of(fen)?;
                self.on_pieces(t, &board, out);
                Ok(())
            }
            Input::Field { square, piece, .. } => {
                let sq = square.parse().map_err(|_| TableError::Invalid(format!("square `{square}`")))?;
                let piece = match piece {
                    Some(c) => Some(
                        shakmaty::Piece::from_char(*c)
                            .ok_or_else(|| TableError::Invalid(format!("piece `{c}`")))?,
                    ),
                    None => None,
                };
                self.on_field(t, sq, piece, out);
                Ok(())
            }
            Input::Scoresheet { moves } => self.scoresheet(moves, t, out),
            Input::EnterMove { mv } => self.enter_move(mv, t, out),
            Input::TakeBack => self.take_back(t, out),
            Input::Announce { mv } => self.announce_uci(mv, t, out),
            Input::Adjourn { sealed, session_left_ms } => {
                self.adjourn_early(sealed, session_left_ms.unwrap_or(0), t, out)
            }
            Input::ResumeReplierAbsent => self.resume_replier_absent(t, out),
            Input::OpenEnvelope => self.open_envelope(t, out),
            Input::SealReply { sealed } => self.seal_reply(sealed, t, out),
            Input::EnvelopeLost => self.envelope_lost(t, out),
            Input::ResumeAdjourned => self.resume_adjourned(t, out),
            Input::Resign { side } => self.resign(*side, t, out),
            Input::ClockPress { side } => self.clock_press(*side, t, out),
            Input::Clock { action, .. } => {
                let cmd = input
                    .clock_command()
                    .ok_or_else(|| TableError::Invalid(format!("clock command `{action}`")))?;
                self.clock_command(cmd, t, out)
            }
            &Input::ClockReading { white_ms, black_ms, running, white_flag, black_flag } => {
                let reading = ClockReading { white_ms, black_ms, running, white_flag, black_flag };
                self.on_clock_reading(reading, t, out)
            }
            Input::DrawOffer { side } => self.draw_offer(*side, t, out),
            Input::AcceptDraw => self.accept_draw(t, out),
            Input::ClaimDraw { side, mv } => self.claim_draw(*side, mv.as_deref(), t, out),
            Input::ConfirmClaim => self.confirm_claim(t, out),
            Input::IllegalMove { ply } => self.illegal_move(*ply, t, out),
            Input::NewGame { fen, chess960, moves, tags } => {
                let start = match (fen, chess960) {
                    (Some(fen), _) => Game::from_fen(fen).map_err(|e| TableError::Invalid(e.to_string()))?,
                    (None, Some(n)) => Game::chess960(*n).ok_or_else(|| {
                        TableError::Invalid(format!("{n} is not a Chess960 number (0-959)"))
                    })?,
                    (None, None) => Game::default(),
                };
                self.new_game(start, moves, tags, t, out)
            }
            Input::Result { result, reason, termination } => {
                self.finish(result, reason, termination.as_deref(), t, out)
            }
        }
    }

    /// Whether a game is being played (inputs about moves make sense).
    pub fn is_playing(&self) -> bool {
        self.phase == Phase::Playing
    }
}

/// The pieces of a board FEN (placement only).
pub(crate) fn board_of(fen: &str) -> Result<shakmaty::Board, TableError> {
    shakmaty::fen::Fen::from_ascii(format!("{fen} w - - 0 1").as_bytes())
        .map(|f| f.into_setup().board)
        .map_err(|e| TableError::Invalid(format!("board `{fen}`: {e}")))
}
