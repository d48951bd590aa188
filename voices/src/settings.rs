//! Which voices the station uses: the `[voice]` table of the station config.

use serde::{Deserialize, Serialize};

/// How moves are worded. Deserialised from the station's `[voice]` table:
///
/// ```toml
/// [voice]
/// language = "pl"     # sentence words: pieces, capture, check, clock, messages
/// letters = "de"      # optional: Annex D letters (Anna, Bella, … David, Eva …)
/// ranks = "pl"        # optional: rank words from another phrasebook
/// name_pawns = false  # "Bauer Eva vier" instead of "Eva vier"
/// long_form = false   # always say the from-square too
/// move_reading = "letters"  # or "iccf": moves read as ICCF numbers, digit by digit
/// clock_reading = "remaining"  # or "used": what the talking clock reads (D.2.10.4)
/// ```
///
/// Annex D.2.1 lets the arbiter decide otherwise than the German defaults,
/// hence letters and ranks can come from a phrasebook other than `language`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VoiceSettings {
    /// Language code of the sentence words.
    pub language: String,
    /// Language code of the letter names; `None` means `language`.
    pub letters: Option<String>,
    /// Language code of the rank words; `None` means `language`.
    pub ranks: Option<String>,
    /// Name the pawn like any other piece.
    pub name_pawns: bool,
    /// Say the from-square and the to-square of every move.
    pub long_form: bool,
    /// How moves are read to him: letter names (Annex D.2.1) or ICCF
    /// numbers (ICCF Appendix A: e2-e4 = "fünf zwei fünf vier").
    pub move_reading: MoveReading,
    /// What the talking clock reads on request: the time left (the default)
    /// or the time each side used (D.2.10.4); switchable by a spoken command.
    pub clock_reading: ClockTimeRead,
}

/// What the talking clock reads: the time left on each clock or the time each
/// side used. Either comes with the number of moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockTimeRead {
    /// The time each clock shows.
    #[default]
    Remaining,
    /// The time each side's clock has run (Annex D.2.10.4 "time used").
    Used,
}

impl ClockTimeRead {
    /// The other reading (a toggle button).
    pub fn other(self) -> ClockTimeRead {
        match self {
            ClockTimeRead::Remaining => ClockTimeRead::Used,
            ClockTimeRead::Used => ClockTimeRead::Remaining,
        }
    }

    /// `remaining` or `used`, as the config writes it.
    pub fn name(self) -> &'static str {
        match self {
            ClockTimeRead::Remaining => "remaining",
            ClockTimeRead::Used => "used",
        }
    }
}

/// How a move is read aloud (`[voice] move_reading`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveReading {
    /// Piece, letter name and rank word ("Springer Felix drei").
    #[default]
    Letters,
    /// The ICCF numeric notation digit by digit: from-square, to-square, the
    /// promotion digit (1 queen, 2 rook, 3 bishop, 4 knight); castling as
    /// the king's move ("sieben eins sechs drei"). Check and mate are said
    /// after the digits.
    Iccf,
}

impl Default for VoiceSettings {
    /// German, as Annex D.2.1 recommends.
    fn default() -> Self {
        Self {
            language: "de".to_owned(),
            letters: None,
            ranks: None,
            name_pawns: false,
            long_form: false,
            move_reading: MoveReading::Letters,
            clock_reading: ClockTimeRead::Remaining,
        }
    }
}

impl VoiceSettings {
    /// Settings with this sentence language and everything else default.
    pub fn language(code: &str) -> Self {
        Self { language: code.to_owned(), ..Self::default() }
    }

    /// The language code the letter names come from.
    pub fn letters_language(&self) -> &str {
        self.letters.as_deref().unwrap_or(&self.language)
    }

    /// The language code the rank words come from.
    pub fn ranks_language(&self) -> &str {
        self.ranks.as_deref().unwrap_or(&self.language)
    }
}
