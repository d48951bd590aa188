//! The app's side of each game: what the station says of a chess or a
//! draughts game (its moves as words, the draw question, the console's last
//! move), one [`GameWords`] implementation per game in [`chess`] and
//! [`draughts`].
//!
//! The core's [`Rules`] decide the game; these are its words, which live
//! above the core (they need the phrasebooks). Each is found by the rules'
//! name ([`words_of`]), as the rules themselves are ([`station_core::rules::named`]),
//! so no view asks "is this draughts?".
//!
//! `GameWords` answers the draw question from the record, gives the console's `last_move`, a
//! move as told (`Said`), the words of a move the board did not make, and `station announce`'s
//! lines; `games::chess` and `games::draughts` (one per variant) are found by the rules' name
//! (`words_of`). The views (`snapshot`, `told`, `speaking`, the speech desk) call it and never
//! ask whether the table plays draughts. In a draughts game it answers the draws of I.6.1–6.4
//! (the position's count, kings-only moves against 25/20, the moves left in a 6.3/6.4 ending).

use anyhow::Result;
use serde_json::Value;
use shakmaty::{Chess, Move};
use station_core::Game;
use station_core::draughts::{DraughtsPath, Variant};
use station_core::event::PlayedMove;
use station_core::record::{GameRecord, RecordedMove};
use station_core::rules::Rules;
use station_core::table::Table;
use station_voices::{VoiceSettings, Wording};

pub mod chess;
pub mod draughts;

/// `station announce` arguments: moves or a clock reading to put into words.
pub struct AnnounceOptions {
    /// Wording settings (language, letters, ranks, pawns, long form).
    pub voice: VoiceSettings,
    /// Start position (standard when absent; chess only).
    pub fen: Option<String>,
    /// The moves, played one after another: in any notation the core reads
    /// for chess (SAN, Polish, ICCF, long, figurine, UCI), by their squares
    /// for draughts (`32-28`, `28x17x6`; `c3-d4` on 8×8).
    pub moves: Vec<String>,
    /// `WHITE_MS,BLACK_MS` for a clock reading (chess).
    pub clock: Option<String>,
    /// Moves made, for the clock reading.
    pub moves_made: Option<u32>,
    /// Whose earphone the clock reading is for (white by default).
    pub side_black: bool,
}

/// What the station says of one game kind.
pub trait GameWords: Sync {
    /// The blind player's draw question answered from the table's record
    /// (chess: Art. 9.2/9.3; draughts: I.6.1–6.4); `None` without a game.
    fn draw_facts_text(&self, wording: &Wording, table: &Table) -> Option<String>;

    /// The console's `last_move`: `chess` is what the record's chess game
    /// gives (its SAN and the words of each language); a game written
    /// otherwise gives its own.
    fn last_move(&self, table: &Table, record: Option<&GameRecord>, chess: Option<Value>) -> Option<Value>;

    /// The words of the move `mv` (as the game's events carry it: a chess
    /// move, a draughts move in PDN), in `wording`'s language. A chess move
    /// is worded in `before`, the position of the record as told before it
    /// (never the table's now, which may be further on); `None` without it.
    /// A draughts move is worded by its squares (`before` is none). A move
    /// that is no move there is said as nothing.
    fn move_at(&self, wording: &Wording, before: Option<&Chess>, mv: &PlayedMove) -> Option<String>;

    /// The move of `ply` (1-based) on a record as told: `m` is its recorded
    /// move, `game` the told record's chess game (a chess move is said in
    /// its position); `None` when there is no such move.
    fn said(&self, table: &Table, game: Option<&Game>, m: &RecordedMove, ply: usize) -> Option<Said>;

    /// The `announce` command: one line of words per move (or the clock reading).
    fn announce(&self, opts: &AnnounceOptions) -> Result<Vec<String>>;
}

/// A move as it was on the record, to be said in anyone's words.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    /// A chess move and the position it was played in.
    Chess {
        /// The position before the move.
        before: Chess,
        /// The move.
        mv: Move,
    },
    /// A draughts move by its squares.
    Draughts {
        /// The rules played.
        variant: Variant,
        /// The move as PDN writes it.
        pdn: DraughtsPath,
        /// It made a king.
        king: bool,
    },
}

impl Said {
    /// The move in `w`'s words ("Springer Felix drei", "zweiunddreißig — achtundzwanzig").
    pub fn words(&self, w: &Wording) -> String {
        match self {
            Said::Chess { before, mv } => chess::said_words(w, before, mv),
            Said::Draughts { variant, pdn, king } => draughts::said_words(w, *variant, pdn, *king),
        }
    }
}

/// Chess's words.
pub static CHESS: chess::ChessWords = chess::ChessWords;
/// International draughts' words (squares by number).
pub static INTERNATIONAL: draughts::DraughtsWords =
    draughts::DraughtsWords(station_core::draughts::Variant::International);
/// 64-square draughts' words (squares by letter and rank).
pub static DRAUGHTS64: draughts::DraughtsWords =
    draughts::DraughtsWords(station_core::draughts::Variant::Draughts64);

/// Every game's words, by its rules' name.
static WORDS: [(&str, &dyn GameWords); 3] =
    [("chess", &CHESS), ("draughts", &INTERNATIONAL), ("draughts64", &DRAUGHTS64)];

/// The words of the game `rules` play.
pub fn words_of(rules: &dyn Rules) -> &'static dyn GameWords {
    by_rules(&WORDS, rules)
}

/// The entry of `entries` named as `rules` are; the first (chess) for a name
/// none has — every table lists all three games, which a test of each checks.
pub(crate) fn by_rules<T: ?Sized>(
    entries: &'static [(&'static str, &'static T)],
    rules: &dyn Rules,
) -> &'static T {
    entries.iter().find(|(name, _)| *name == rules.name()).unwrap_or(&entries[0]).1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each game's words are its own: a move each game reads, said as that game says it.
    #[test]
    fn every_game_has_its_own_words() {
        let said = [
            ("chess", "e4", "Eva four"),
            ("draughts", "32-28", "thirty-two — twenty-eight"),
            ("draughts64", "c3-d4", "Cesar three — David four"),
        ];
        assert_eq!(said.map(|(name, _, _)| name), station_core::rules::ALL.map(|r| r.name()));
        for (name, mv, words) in said {
            let rules = station_core::rules::named(name).unwrap();
            let opts = AnnounceOptions {
                voice: VoiceSettings::language("en"),
                fen: None,
                moves: vec![mv.into()],
                clock: None,
                moves_made: None,
                side_black: false,
            };
            assert_eq!(words_of(rules).announce(&opts).unwrap(), [words], "{name}");
        }
    }
}
