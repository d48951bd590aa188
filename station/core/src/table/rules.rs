//! The rules of the game a table plays: chess, international draughts or
//! 64-square draughts, one [`Rules`] implementation each.
//!
//! Everything the table and its views would otherwise decide by asking "is
//! this draughts?" is a method here, so the game's kind is branched on in
//! [`chess`] and [`draughts`] and nowhere else. A table holds one
//! `&'static dyn Rules`, chosen once: from the configuration's name
//! ([`named`]), from a journal header's start FEN ([`from_fen`]) or from a
//! draughts variant ([`for_variant`]).
//!
//! The rules hold the games' fixed facts only: the results (`win_for`: `1-0` or `2-0`), the
//! start a game has unless configured otherwise (`start`: a [`Start`]), the scans a board link
//! refuses and why (`refuses_scan`), the export format, why an engine cannot play the sighted
//! side (`engine_refusal`) and the journal header's name (`header_name`; `NamedRules` writes and
//! reads it, left out for chess; the config names them in `[game] rules`). No capability is a
//! `bool`: a game that differs says what it does instead. What a game does at the table (its
//! start, the inputs whose meaning is its own, its restore from a journal) is its play's
//! (`table::play`), chosen by the table's configured [`Start`], which names its game: a table's
//! rules are its start's.
//!
//! Why a trait object and not `Table<R: Rules>`: the rules are known only at run time (the
//! config, or the header of the journal being restored), so a generic table would either make
//! every caller match on an enum of three tables or make the app, the views and the exports
//! generic and built three times; one indirect call per input costs nothing measurable
//! (`station bench`).

use crate::clock::Side;
use crate::draughts::Variant;
use crate::event::{BoardRole, PlayedMove};
use crate::table::Table;
use crate::table::play::Play;
pub use crate::table::start::Start;
use shakmaty::Bitboard;

pub mod chess;
pub mod draughts;

pub use chess::Chess;
pub use draughts::{Draughts64, International};

/// The table's side of the seam: its rules, chosen once, and what it reads through them.
impl Table {
    /// A table that plays draughts (`variant`) instead of chess: the same
    /// inputs, events, clock and journal; scans are the draughts board's.
    pub fn with_draughts(self, variant: Variant) -> Self {
        self.with_rules(for_variant(variant))
    }

    /// A table that plays by `rules` (chess unless told otherwise): chosen
    /// once, from the configuration or the journal header.
    /// The configured start stays when it is of these rules' game; otherwise
    /// the game starts from the rules' own start.
    pub fn with_rules(mut self, rules: &'static dyn Rules) -> Self {
        if of_start(&self.cfg.start).name() != rules.name() {
            self.cfg.start = rules.start();
        }
        self
    }

    /// The rules the table plays by: its start's.
    pub fn rules(&self) -> &'static dyn Rules {
        of_start(&self.cfg.start)
    }

    /// The agreed position's FEN (PDN FEN for draughts); none before the first game.
    pub fn fen(&self) -> Option<String> {
        self.seat.play.as_ref().map(Play::fen)
    }

    /// Plies on the agreed record and the side to move; none before the first game.
    pub fn turn(&self) -> Option<(usize, Side)> {
        self.seat.play.as_ref().map(Play::turn)
    }

    /// The mirror board's occupancy when it is a peg board: what a journal
    /// header keeps of it (the piece board's pieces are kept instead).
    pub fn mirror_pegs(&self) -> Option<Bitboard> {
        let draughts_pegs = self.seat.draughts().is_some_and(|d| d.senses(BoardRole::Mirror));
        self.tracker(BoardRole::Mirror)
            .map(|m| m.sensed())
            .or_else(|| draughts_pegs.then(|| self.sensed[BoardRole::Mirror]))
    }

    /// The draughts variant when the table plays draughts.
    pub fn draughts_variant(&self) -> Option<Variant> {
        self.rules().draughts_variant()
    }

    /// The draughts game in progress or just finished.
    pub fn draughts(&self) -> Option<&crate::table::draughts_play::DraughtsPlay> {
        self.seat.draughts()
    }

    /// The agreed moves as the record writes them (UCI for chess, PDN for
    /// draughts); none before the first game.
    pub fn record_moves(&self) -> Option<Vec<PlayedMove>> {
        self.seat.play.as_ref().map(Play::record_moves)
    }

    /// The occupancy that starts a game.
    pub(in crate::table) fn start_occupancy(&self) -> Bitboard {
        self.cfg.start.occupancy()
    }

    /// The start position's FEN (PDN FEN for draughts).
    pub(in crate::table) fn start_fen(&self) -> String {
        self.cfg.start.fen()
    }
}

/// The rules of one game kind: what differs between chess and draughts for
/// the table, the journal and every view of a game.
pub trait Rules: std::fmt::Debug + Send + Sync {
    /// The name the configuration and the console use (`chess`, `draughts`, `draughts64`).
    fn name(&self) -> &'static str;

    /// The draughts variant when the game is draughts (what the draughts
    /// position, sensor and wording need); `None` for chess.
    fn draughts_variant(&self) -> Option<Variant>;

    /// The results the arbiter may give, win, loss and draw from White's side
    /// (`1-0`… for chess, `2-0`… for draughts).
    fn results(&self) -> &'static [&'static str];

    /// The result when `side` wins (a resignation, a lost sealed move, the
    /// third illegal move): `1-0`/`0-1` in chess, `2-0`/`0-2` in draughts.
    fn win_for(&self, side: Side) -> &'static str {
        let results = self.results();
        if side == Side::White { results[0] } else { results[1] }
    }

    /// The position a game starts from unless the configuration names
    /// another (a chess start from a FEN, Chess960): the standard chess start,
    /// a draughts variant's initial position.
    fn start(&self) -> Start;

    /// Why a board's scan of `size` is dropped and named (a chess board's
    /// 16 digits in a 10×10 game, a draughts board's 13 digits in chess);
    /// `None` when the game reads it.
    fn refuses_scan(&self, size: ScanSize) -> Option<&'static str>;

    /// The file format the game's record is exported in (`pgn` or `pdn`).
    fn export_format(&self) -> &'static str;

    /// Why a UCI engine (the practice partner, `[opponent]`) cannot play the
    /// sighted side, in the words the configuration check says; `None` when
    /// one can (the engines the station drives play chess).
    fn engine_refusal(&self) -> Option<&'static str>;

    /// The name a journal header writes in its `rules` key; `None` for
    /// chess, whose header leaves the key out, as every header did before draughts.
    fn header_name(&self) -> Option<&'static str>;

    /// The rules a journal header that read as these stands for: a header
    /// naming draughts rules keeps them; one naming none (chess's, or one
    /// written before the key) is judged by its start FEN's form ([`from_fen`]).
    fn header_rules(&self, fen: &str) -> &'static dyn Rules;
}

/// The rules a journal header names, kept as the rules themselves: written
/// and read by their [`name`](Rules::name) (the key left out for chess, see
/// [`Rules::header_name`]), equal when their names are.
#[derive(Clone, Copy, Debug)]
pub struct NamedRules(pub &'static dyn Rules);

impl NamedRules {
    /// Whether a header leaves the key out (serde's `skip_serializing_if`).
    pub fn unnamed_in_header(&self) -> bool {
        self.0.header_name().is_none()
    }
}

impl Default for NamedRules {
    /// A header without the key names no rules: chess's, until its FEN says otherwise.
    fn default() -> Self {
        NamedRules(&CHESS)
    }
}

impl std::ops::Deref for NamedRules {
    type Target = dyn Rules;

    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for NamedRules {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name()
    }
}

impl serde::Serialize for NamedRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

impl<'de> serde::Deserialize<'de> for NamedRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match <Option<String> as serde::Deserialize>::deserialize(d)? {
            None => Ok(NamedRules::default()),
            Some(name) => {
                named(&name).map(NamedRules).ok_or_else(|| serde::de::Error::custom(format!("rules {name}")))
            }
        }
    }
}

/// A peg board's scan by its size: what [`Rules::refuses_scan`] judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanSize {
    /// 16 hex digits: the 64 squares of an 8×8 board.
    Squares64,
    /// 13 hex digits: the 50 dark squares of a 10×10 draughts board.
    Squares50,
}

/// Chess.
pub static CHESS: Chess = Chess;
/// International draughts (10×10).
pub static INTERNATIONAL: International = International;
/// 64-square draughts (8×8).
pub static DRAUGHTS64: Draughts64 = Draughts64;
/// Every game the station plays (what any table of the games' own parts must list).
pub static ALL: [&'static dyn Rules; 3] = [&CHESS, &INTERNATIONAL, &DRAUGHTS64];

/// The rules of the game `start` begins (a start names its game).
pub fn of_start(start: &Start) -> &'static dyn Rules {
    match start {
        Start::Chess(_) => &CHESS,
        Start::Draughts(variant) => for_variant(*variant),
    }
}

/// The rules named `name` as the configuration names them (`chess`,
/// `draughts`, `draughts64`).
pub fn named(name: &str) -> Option<&'static dyn Rules> {
    ALL.into_iter().find(|r| r.name() == name)
}

/// The rules of a game that starts from `fen`, as a journal header gives
/// it: a PDN FEN (`W:W31,…`) is draughts, its variant guessed from its
/// squares; anything else is chess.
pub fn from_fen(fen: &str) -> &'static dyn Rules {
    crate::table::draughts_play::fen_variant(fen).map_or(&CHESS, for_variant)
}

/// The rules of a draughts variant.
pub fn for_variant(variant: Variant) -> &'static dyn Rules {
    draughts::of(variant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Input;

    #[test]
    fn names_choose_each_rules_and_nothing_else() {
        for name in ["chess", "draughts", "draughts64"] {
            assert_eq!(named(name).map(|r| r.name()), Some(name));
        }
        assert!(named("checkers").is_none());
        assert_eq!(named("draughts").and_then(|r| r.draughts_variant()), Some(Variant::International));
        assert_eq!(named("draughts64").and_then(|r| r.draughts_variant()), Some(Variant::Draughts64));
        assert_eq!(named("chess").and_then(|r| r.draughts_variant()), None);
    }

    #[test]
    fn a_header_fen_chooses_the_rules() {
        assert_eq!(from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").name(), "chess");
        let start10 = crate::table::draughts_play::fen(&crate::draughts::board::Position::initial(
            Variant::International,
        ));
        assert_eq!(from_fen(&start10).name(), "draughts");
        let start8 =
            crate::table::draughts_play::fen(&crate::draughts::board::Position::initial(Variant::Draughts64));
        assert_eq!(from_fen(&start8).name(), "draughts64");
    }

    /// A table of `rules` with no board at all: its game starts at once and
    /// moves are entered.
    fn table_of(rules: &'static dyn Rules) -> Table {
        let mut cfg = crate::table::TableConfig::single(crate::inference::TrackerConfig::default());
        cfg.blind_unsensed = true;
        let mut table = Table::new(cfg).with_rules(rules);
        table.apply(10_000, &Input::Tick).expect("time passes");
        table
    }

    #[test]
    fn the_table_plays_by_the_rules_it_was_given() {
        for (rules, first, fen_prefix) in [
            (&CHESS as &'static dyn Rules, "e4", "rnbqkbnr/pppppppp/8/8/4P3"),
            (&INTERNATIONAL, "32-28", "B:"),
        ] {
            let mut table = table_of(rules);
            assert_eq!(table.rules().name(), rules.name());
            assert_eq!(table.turn(), Some((0, Side::White)), "{}", rules.name());
            table.apply(11_000, &Input::EnterMove { mv: first.into() }).expect("a legal first move");
            assert_eq!(table.turn(), Some((1, Side::Black)), "{}", rules.name());
            let fen = table.fen().expect("a game is on");
            assert!(fen.starts_with(fen_prefix), "{}: {fen}", rules.name());
            assert_eq!(table.record_moves().map(|m| m.len()), Some(1));
            // The other game's results are refused.
            let other = if rules.results()[0] == "1-0" { "2-0" } else { "1-0" };
            let result =
                |r: &str| Input::Result { result: r.into(), reason: "resignation".into(), termination: None };
            assert!(table.apply(12_000, &result(other)).is_err(), "{}: {other} refused", rules.name());
            assert!(table.apply(13_000, &result(rules.results()[0])).is_ok(), "{}", rules.name());
        }
    }

    #[test]
    fn each_game_has_its_own_results_and_start() {
        assert_eq!(CHESS.results(), ["1-0", "0-1", "1/2-1/2"]);
        assert_eq!(INTERNATIONAL.results(), ["2-0", "0-2", "1-1"]);
        assert_eq!(CHESS.start().occupancy().count(), 32);
        assert_eq!(INTERNATIONAL.start().occupancy().count(), 40);
        assert_eq!(DRAUGHTS64.start().occupancy().count(), 24);
        assert_eq!(from_fen(&DRAUGHTS64.start().fen()).name(), "draughts64");
        for rules in ALL {
            assert_eq!(of_start(&rules.start()).name(), rules.name(), "a start names its rules");
        }
        let (chess64, chess50) =
            (CHESS.refuses_scan(ScanSize::Squares64), CHESS.refuses_scan(ScanSize::Squares50));
        assert_eq!((chess64, chess50), (None, Some("13-digit draughts scan while the game is chess")));
        let ten = INTERNATIONAL.refuses_scan(ScanSize::Squares64);
        assert_eq!(ten, Some("16-digit chess scan while the game is international draughts"));
        assert_eq!(INTERNATIONAL.refuses_scan(ScanSize::Squares50), None);
        for size in [ScanSize::Squares64, ScanSize::Squares50] {
            assert_eq!(DRAUGHTS64.refuses_scan(size), None, "{size:?}");
        }
    }
}
