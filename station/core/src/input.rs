//! Every input a table consumes: what the daemon feeds [`Table::apply`] and
//! what the journal records, in one vocabulary, so a restore is the same
//! calls in the same order.
//!
//! The values are typed: an [`Occupancy`] holds 64 squares, or a 10×10 draughts board's 50, and is
//! written in the journal as the boards send it (16 or 13 hex digits), so old journals read and
//! write back byte for byte. The inputs are scans, pieces, buttons, link changes, operator commands
//! ([`ClockCommand`] among them), spoken announcements, clock readings and ticks. This module owns
//! the scan's wire format for both `table` and `journal`, so neither depends on the other for it.
//!
//! [`Table::apply`]: crate::table::Table::apply

use crate::Millis;
use crate::clock::{ClockReading, Side};
use crate::event::LinkStatus;
use crate::role::BoardRole;
use serde::{Deserialize, Serialize};
use shakmaty::Bitboard;

/// An operator's clock command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockCommand {
    /// Start the clock.
    Start,
    /// Pause it.
    Pause,
    /// Resume it.
    Resume,
    /// Set a side's remaining time (Article 6.14).
    SetTime {
        /// Whose.
        side: Side,
        /// Remaining ms.
        ms: Millis,
        /// Who.
        who: String,
        /// Why.
        why: String,
    },
    /// Add time to a side's clock: an arbiter's two minutes after an illegal
    /// move (Art. 7.5.5), time given after a disturbance.
    AddTime {
        /// Whose.
        side: Side,
        /// Added ms.
        ms: Millis,
        /// Who.
        who: String,
        /// Why.
        why: String,
    },
    /// Set the moves made by both sides (the move counter).
    SetMoves {
        /// Full moves made.
        moves: u32,
        /// Who.
        who: String,
        /// Why.
        why: String,
    },
}

/// A board's occupancy as it was scanned, in standard orientation.
///
/// The journal writes it as hex digits, as the boards send it: 16 for a
/// board of 64 squares (a1 = bit 0; chess and 64-square draughts), 13 for
/// the 50 playable squares of a 10×10 draughts board (bit n−1 = square n).
/// Any other text is refused when the line is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupancy {
    /// The 64 squares of an 8×8 board.
    Squares64(Bitboard),
    /// The 50 playable squares of a 10×10 board (bits beyond 50 are the
    /// draughts table's to refuse, so a journal holding one restores alike).
    Squares50(u64),
}

impl Occupancy {
    /// The journal's hex form.
    pub fn hex(self) -> String {
        match self {
            Occupancy::Squares64(bb) => occ_hex(bb),
            Occupancy::Squares50(bits) => format!("{bits:013X}"),
        }
    }

    /// Reads the journal's hex form: 16 or 13 hex digits.
    pub fn parse(text: &str) -> Result<Occupancy, String> {
        let value = u64::from_str_radix(text, 16)
            .ok()
            .filter(|_| text.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| format!("occupancy `{text}` is not hex digits"))?;
        match text.len() {
            16 => Ok(Occupancy::Squares64(Bitboard(value))),
            13 => Ok(Occupancy::Squares50(value)),
            n => Err(format!("occupancy `{text}` has {n} digits (16 for an 8×8 board, 13 for a 10×10 one)")),
        }
    }

    /// How many hex digits the board sent (16 or 13), for refusals.
    pub fn digits(self) -> usize {
        match self {
            Occupancy::Squares64(_) => 16,
            Occupancy::Squares50(_) => 13,
        }
    }
}

impl Serialize for Occupancy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.hex())
    }
}

impl<'de> Deserialize<'de> for Occupancy {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Occupancy::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// An input the core consumed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Input {
    /// An occupancy scan, in the journal as hex digits whose count says which
    /// board it came from (see [`Occupancy`]); a table of the other game
    /// refuses it.
    Scan {
        /// Which board.
        board: BoardRole,
        /// Occupancy.
        occ: Occupancy,
    },
    /// A button.
    Button {
        /// Which board.
        board: BoardRole,
        /// Button number.
        button: u8,
        /// Pressed or released.
        pressed: bool,
    },
    /// A link came or went.
    Link {
        /// Which board.
        board: BoardRole,
        /// Connected or not.
        status: LinkStatus,
    },
    /// An operator entered a player's scoresheet (D.2.9).
    Scoresheet {
        /// The moves, SAN or UCI.
        moves: Vec<String>,
    },
    /// A full board from a piece-sensing board (board FEN).
    Pieces {
        /// Which board.
        board: BoardRole,
        /// The placement, as the board part of a FEN.
        fen: String,
    },
    /// One square of a piece-sensing board changed.
    Field {
        /// Which board.
        board: BoardRole,
        /// The square.
        square: String,
        /// FEN letter of the piece now there, none when emptied.
        #[serde(default)]
        piece: Option<char>,
    },
    /// The operator entered a move.
    EnterMove {
        /// SAN or UCI.
        #[serde(rename = "move")]
        mv: String,
    },
    /// The arbiter took the last move back.
    TakeBack,
    /// The blind player announced a move aloud (what was understood, UCI;
    /// in a draughts game its PDN with the full path, `28x17x6`).
    Announce {
        /// UCI (draughts: PDN).
        #[serde(rename = "move")]
        mv: String,
    },
    /// The game was adjourned; the sealed move (the journal is the envelope).
    Adjourn {
        /// As written (any notation); read only when the envelope is opened (I.8).
        sealed: String,
        /// Adjourned before the end of the session: the time left in it,
        /// taken from the sealer's clock (Guidelines I.1.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_left_ms: Option<Millis>,
    },
    /// The adjourned game resumed.
    ResumeAdjourned,
    /// A player resigned (confirmed).
    Resign {
        /// Who.
        side: Side,
    },
    /// A clock button press.
    ClockPress {
        /// The side whose button it was.
        side: Side,
    },
    /// An operator's clock command.
    Clock {
        /// `start`, `pause`, `resume`, `set_time`, `set_moves`.
        action: String,
        /// For `set_time`.
        #[serde(default)]
        side: Option<Side>,
        /// For `set_time` (ms) and `set_moves` (moves).
        #[serde(default)]
        value: Option<u64>,
        /// Who.
        #[serde(default)]
        who: Option<String>,
        /// Why.
        #[serde(default)]
        why: Option<String>,
    },
    /// A reading of the external master clock that differs from the one before.
    ClockReading {
        /// White's display, ms.
        white_ms: Millis,
        /// Black's display, ms.
        black_ms: Millis,
        /// The side whose time runs; none when the clock stands.
        #[serde(default)]
        running: Option<Side>,
        /// White's flag shown.
        #[serde(default)]
        white_flag: bool,
        /// Black's flag shown.
        #[serde(default)]
        black_flag: bool,
    },
    /// The operator ended the game and set up a new start (standard, a FEN
    /// or a Chess960 number); the table waits for the boards to show it.
    NewGame {
        /// The start position as FEN.
        #[serde(default)]
        fen: Option<String>,
        /// The Chess960 start position number (0–959).
        #[serde(default)]
        chess960: Option<u16>,
        /// The scoresheet so far (any notation the station reads): the game
        /// starts after these moves (the boards were already playing).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        moves: Vec<String>,
        /// The tags named for this game (players, event, site, round, board).
        #[serde(default, flatten)]
        tags: crate::pgn::TagOverrides,
    },
    /// The arbiter ends the game with a result (a resignation, a flag decision,
    /// an agreed draw, his decision) and the reason in his words.
    Result {
        /// `1-0`, `0-1`, `1/2-1/2` (draughts `2-0`, `0-2`, `1-1`).
        result: String,
        /// Why, in his words ("White resigned", "Black's flag fell").
        #[serde(default)]
        reason: String,
        /// The PGN `Termination` value, when he names it (else read from the reason).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        termination: Option<String>,
    },
    /// A player offered a draw (Art. 9.1).
    DrawOffer {
        /// Who.
        side: Side,
    },
    /// The offer was accepted: the game is drawn by agreement (Art. 9.1).
    AcceptDraw,
    /// The player to move claims a draw (Art. 9.2/9.3), with his written move
    /// not yet played (9.2(a)/9.3(a)) or about the position now.
    ClaimDraw {
        /// The claimant.
        side: Side,
        /// His written move (any notation the station reads).
        #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
        mv: Option<String>,
    },
    /// The arbiter confirms the station's verdict on the pending claim (9.5).
    ConfirmClaim,
    /// The arbiter found that the move of `ply` was illegal (Art. 7.4).
    IllegalMove {
        /// The 1-based ply of the illegal move.
        ply: usize,
    },
    /// Resumption without the player who replies (Guidelines I.9.2): his
    /// clock runs, the envelope stays shut.
    ResumeReplierAbsent,
    /// The envelope is opened (I.9.2 when the replier comes; I.9.3 the reply's
    /// envelope when the sealer comes).
    OpenEnvelope,
    /// The sealer is absent (I.9.3): his opponent seals his reply in a new
    /// envelope and switches the clock.
    SealReply {
        /// As written.
        sealed: String,
    },
    /// The envelope is lost (I.12.1): play goes on from the adjourned position.
    EnvelopeLost,
    /// Draughts: the opponent's decision on the irregularity the board shows
    /// (5.4, 5.9), entered by the assistant: `accept` (the position stands,
    /// 5.7) or `correct` (put back as it was).
    IrregularityDecision {
        /// `accept` or `correct`.
        decision: String,
    },
    /// Time passed and the core decided something (journaled only when it did),
    /// so a restore reproduces decisions at the moments they were taken.
    Tick,
}

impl Input {
    /// The scan of a board (standard square numbering).
    pub fn scan(board: BoardRole, occ: Bitboard) -> Input {
        Input::Scan { board, occ: Occupancy::Squares64(occ) }
    }

    /// The scan of a 10×10 draughts board (bit n−1 = square n).
    pub fn scan50(board: BoardRole, bits: u64) -> Input {
        Input::Scan { board, occ: Occupancy::Squares50(bits) }
    }

    /// A short name of the input's kind, for logs and refusals.
    pub fn kind(&self) -> &'static str {
        match self {
            Input::Scan { .. } => "scan",
            Input::Button { .. } => "button",
            Input::Link { .. } => "link",
            Input::Scoresheet { .. } => "scoresheet",
            Input::Pieces { .. } => "pieces",
            Input::Field { .. } => "field",
            Input::EnterMove { .. } => "enter_move",
            Input::TakeBack => "take_back",
            Input::Announce { .. } => "announce",
            Input::Adjourn { .. } => "adjourn",
            Input::ResumeAdjourned => "resume_adjourned",
            Input::Resign { .. } => "resign",
            Input::ClockPress { .. } => "clock_press",
            Input::Clock { .. } => "clock",
            Input::ClockReading { .. } => "clock_reading",
            Input::NewGame { .. } => "new_game",
            Input::Result { .. } => "result",
            Input::DrawOffer { .. } => "draw_offer",
            Input::AcceptDraw => "accept_draw",
            Input::ClaimDraw { .. } => "claim_draw",
            Input::ConfirmClaim => "confirm_claim",
            Input::IllegalMove { .. } => "illegal_move",
            Input::ResumeReplierAbsent => "resume_replier_absent",
            Input::OpenEnvelope => "open_envelope",
            Input::SealReply { .. } => "seal_reply",
            Input::EnvelopeLost => "envelope_lost",
            Input::IrregularityDecision { .. } => "irregularity_decision",
            Input::Tick => "tick",
        }
    }

    /// The journal form of a master clock reading.
    pub fn from_clock_reading(r: &ClockReading) -> Input {
        Input::ClockReading {
            white_ms: r.white_ms,
            black_ms: r.black_ms,
            running: r.running,
            white_flag: r.white_flag,
            black_flag: r.black_flag,
        }
    }

    /// The journal form of an operator's clock command.
    pub fn from_clock_command(cmd: &ClockCommand) -> Input {
        let (action, side, value, who, why) = match cmd {
            ClockCommand::Start => ("start", None, None, None, None),
            ClockCommand::Pause => ("pause", None, None, None, None),
            ClockCommand::Resume => ("resume", None, None, None, None),
            ClockCommand::SetTime { side, ms, who, why } => {
                ("set_time", Some(*side), Some(*ms), Some(who.clone()), Some(why.clone()))
            }
            ClockCommand::AddTime { side, ms, who, why } => {
                ("add_time", Some(*side), Some(*ms), Some(who.clone()), Some(why.clone()))
            }
            ClockCommand::SetMoves { moves, who, why } => {
                ("set_moves", None, Some(u64::from(*moves)), Some(who.clone()), Some(why.clone()))
            }
        };
        Input::Clock { action: action.into(), side, value, who, why }
    }

    /// The operator's clock command a `Clock` input records.
    pub fn clock_command(&self) -> Option<ClockCommand> {
        let Input::Clock { action, side, value, who, why } = self else { return None };
        let who = who.clone().unwrap_or_default();
        let why = why.clone().unwrap_or_default();
        Some(match action.as_str() {
            "start" => ClockCommand::Start,
            "pause" => ClockCommand::Pause,
            "resume" => ClockCommand::Resume,
            "set_time" => ClockCommand::SetTime { side: (*side)?, ms: (*value)?, who, why },
            "add_time" => ClockCommand::AddTime { side: (*side)?, ms: (*value)?, who, why },
            "set_moves" => ClockCommand::SetMoves { moves: u32::try_from((*value)?).ok()?, who, why },
            _ => return None,
        })
    }
}

/// Formats an occupancy as 16 hex digits, a1 = bit 0.
pub fn occ_hex(bb: Bitboard) -> String {
    format!("{:016x}", u64::from(bb))
}

/// Parses 16 hex digits.
pub fn parse_occ_hex(s: &str) -> Option<Bitboard> {
    (s.len() == 16).then(|| u64::from_str_radix(s, 16).ok().map(Bitboard)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Journal lines written before scans were typed read back as the same
    /// input and are written again byte for byte.
    #[test]
    fn scans_read_and_write_the_journal_s_hex_forms() {
        for line in [
            r#"{"kind":"scan","board":"blind","occ":"ffff00000000ffff"}"#,
            r#"{"kind":"scan","board":"mirror","occ":"3FFFFFFFFFFFF"}"#,
            r#"{"kind":"scan","board":"blind","occ":"0000000000000"}"#,
        ] {
            let input: Input = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&input).unwrap(), line);
        }
        let chess: Input =
            serde_json::from_str(r#"{"kind":"scan","board":"blind","occ":"FFFF00000000FFFF"}"#).unwrap();
        assert_eq!(chess, Input::scan(BoardRole::Blind, Bitboard(0xFFFF_0000_0000_FFFF)));
        let draughts: Input =
            serde_json::from_str(r#"{"kind":"scan","board":"blind","occ":"00000000FFFFF"}"#).unwrap();
        assert_eq!(draughts, Input::scan50(BoardRole::Blind, 0xF_FFFF));
    }

    #[test]
    fn a_scan_of_another_length_or_not_hex_is_refused_when_read() {
        for occ in ["", "ffff", "ffff00000000fffff", "zzzz00000000ffff", "+fff00000000ffff", "-000000000001"]
        {
            let line = format!(r#"{{"kind":"scan","board":"blind","occ":"{occ}"}}"#);
            let err = serde_json::from_str::<Input>(&line).unwrap_err();
            assert!(err.to_string().contains("occupancy"), "{occ}: {err}");
        }
    }
}
