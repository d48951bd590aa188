//! A phrasebook: every word the station speaks in one language.
//!
//! One TOML file per language in `voices/phrasebooks/`; the build script compiles in every file
//! there, so no code lists the languages. The file's shape and its checks are [`file`]; the word
//! types of the optional tables (`[draughts]`, `[setup]`) live here too, so the wording modules
//! read them without depending on each other.

use std::path::Path;
use std::sync::{Arc, OnceLock};

#[cfg(test)]
mod command_tables_tests;
mod file;

use shakmaty::{File, Rank, Role};

use crate::entry::Entry;
use crate::error::VoiceError;
use crate::message::{Message, Messages};
use crate::numbers::{CountedNoun, NumberWords};
use crate::san_letters::{ClockLine, SanLetters};
use file::PhrasebookFile;

/// The English book's source: the fallback of optional messages.
pub(crate) const ENGLISH_SOURCE: &str = include_str!("../phrasebooks/en.toml");

// `BUILTIN_LANGUAGES` and `BUILTIN_SOURCES`, found by `build.rs` from the
// files in `phrasebooks/`: a new language is one new file.
include!(concat!(env!("OUT_DIR"), "/builtin_phrasebooks.rs"));

/// Declares the words of a phrasebook table and its keys from one list of
/// fields: each key is its field's name, so the struct, the key list and the
/// reader that fills one from the other cannot drift apart.
macro_rules! keyed_words {
    (
        $(#[$meta:meta])*
        pub struct $name:ident, keys $keys:ident = $table:literal {
            $($(#[$field_meta:meta])* $field:ident,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$field_meta])* pub $field: Entry,)*
        }

        #[doc = concat!("The keys of the `[", $table, "]` phrasebook table, in [`", stringify!($name), "`] order.")]
        pub(crate) const $keys: [&str; [$(stringify!($field)),*].len()] = [$(stringify!($field)),*];

        impl $name {
            /// The words from the table's entries, read in key order.
            pub(crate) fn from_entries([$($field),*]: [Entry; $keys.len()]) -> Self {
                $name { $($field),* }
            }

            /// Every entry with its key, in key order.
            pub fn entries(&self) -> [(&'static str, &Entry); $keys.len()] {
                [$((stringify!($field), &self.$field)),*]
            }
        }
    };
}

keyed_words! {
    /// Fixed words of move announcements, results and the draw offer.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Words, keys WORD_KEYS = "words" {
        /// Between the moving piece (or pawn file) and the target square.
        capture,
        /// After a checking move.
        check,
        /// After a mating move (instead of check).
        mate,
        /// After a move that stalemates.
        stalemate,
        /// After an en passant capture.
        en_passant,
        /// O-O.
        short_castling,
        /// O-O-O.
        long_castling,
        /// Before a from-square ("von", "z").
        from,
        /// Before a to-square in corrections ("nach", "na").
        to,
        /// "zurück": a piece is to be put back.
        back,
        /// A draw is offered.
        draw_offer,
        /// 1-0.
        white_wins,
        /// 0-1.
        black_wins,
        /// ½-½.
        draw,
    }
}

keyed_words! {
    /// The words of the `[draughts]` table: move words, and the sentences that
    /// name the irregularities (5.4, VIII.2.4, VIII.3.1), the fixes and the draws
    /// of article 6. Placeholders in braces are filled by `draughts::word_*`.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DraughtsWords, keys DRAUGHTS_KEYS = "draughts" {
        /// Between start and end of a capture ("bije", "schlägt", "takes").
        capture,
        /// Before the intermediate squares of a multiple capture ("przez", "über", "via").
        via,
        /// After a move that made a king (3.7: "damka", "Dame", "king").
        king,
        /// 5.4.1: two moves in a row; `{move}` and `{second}` are the moves.
        two_moves_in_a_row,
        /// 5.4.2: a man moved backward; `{move}`.
        wrong_direction,
        /// 5.4.5: a move of the side not to move; `{move}`.
        opponents_piece,
        /// 5.4.6: a move while capturing was compulsory; `{move}`, `{required}`.
        capture_omitted,
        /// 5.4.8: fewer pieces taken than the maximum; `{move}`, `{taken}`, `{required}`.
        fewer_than_maximum,
        /// 5.4.11: captured pieces left on the board; `{move}`, `{squares}`.
        not_all_removed,
        /// 5.4.12/5.4.14: a piece removed that was not captured; `{move}`, `{squares}`.
        wrong_piece_removed,
        /// 5.4.10: the captured pieces removed out of order (4.11); `{move}`.
        removal_order,
        /// VIII.3.1: the board shows another move; `{ply}`, `{move}` (the board's), `{second}` (the game's).
        boards_differ,
        /// VIII.2.4: the board does not show the accepted move; `{ply}`, `{move}`.
        not_executed,
        /// VIII.3.1.2: the records differ from move `{ply}`: back to the last
        /// position both agree on, the arbiter corrects the clocks.
        records_differ,
        /// A fix: take the piece off `{square}`.
        remove,
        /// A fix: put `{piece}` on `{square}`.
        put,
        /// A white man (in `put`).
        white_man,
        /// A white king (in `put`).
        white_king,
        /// A black man (in `put`).
        black_man,
        /// A black king (in `put`).
        black_king,
        /// 5.7: the opponent let the position stand; play goes on from it.
        accepted,
        /// The opponent asked for the board to be corrected; the fixes follow.
        correct,
        /// 6.1: how often the position stood on the board; `{n}`.
        draw_repetition,
        /// 6.2: moves of kings only each; `{n}` of `{limit}`.
        draw_king_moves,
        /// 6.3: the long ending against a lone king; `{n}` moves each left.
        draw_long_ending,
        /// 6.4: the short ending against a lone king; `{n}` moves each left.
        draw_short_ending,
        /// The game ended in a draw of article 6 ("the game is considered drawn").
        drawn,
    }
}

keyed_words! {
    /// The words of the `[setup]` table.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SetupWords, keys SETUP_KEYS = "setup" {
        /// Before the first rank; `{n}` is the start's number in words
        /// ("Chess960 Nummer fünfhundertachtzehn, weiße Grundreihe").
        intro,
        /// His board shows the start position.
        correct,
    }
}

/// The keys of the optional `[practice]` phrasebook table (issue 26: an engine opponent).
pub const PRACTICE_KEYS: [&str; 17] = [
    "missing",
    "crashed",
    "hung",
    "garbage",
    "illegal_move",
    "ready",
    "hint",
    "level",
    "full_strength",
    "taken_back",
    "nothing_to_take_back",
    "not_your_move",
    "new_game",
    "no_such_game",
    "review_wait",
    "review_item",
    "review_none",
];

/// The words of the `[practice]` table: what the station says about the
/// engine opponent (its faults, a hint, its level, a take-back, the review).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PracticeWords {
    pub(crate) words: [Entry; PRACTICE_KEYS.len()],
}

impl PracticeWords {
    /// The words of `key` (one of [`PRACTICE_KEYS`]); templates hold `{move}`,
    /// `{better}`, `{elo}` and `{n}`.
    pub fn word(&self, key: &str) -> Option<&str> {
        PRACTICE_KEYS.iter().position(|k| *k == key).map(|i| self.words[i].say())
    }
}

/// Words of the talking clock (Annex D.2.6.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockWords {
    /// Label of the listener's own time ("Sie", "Ty").
    pub own: String,
    /// Label of the opponent's time ("Gegner", "Przeciwnik").
    pub opponent: String,
    /// Hours.
    pub hour: CountedNoun,
    /// Minutes.
    pub minute: CountedNoun,
    /// Seconds.
    pub second: CountedNoun,
    /// Moves made.
    pub moves: CountedNoun,
    /// Heads the clock's answer when it reads the time used ("verbrauchte
    /// Zeit"), so the two readings differ by their words (issue 18).
    pub used: String,
    /// The short words of the clock line on a Braille display (`[clock.line]`).
    pub line: ClockLine,
}

/// The names of the pieces (`[pieces]`) and the letters a move is written
/// with (`[san]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PieceWords {
    /// King, queen, rook, bishop, knight, pawn.
    pub(crate) names: [Entry; 6],
    pub(crate) letters: SanLetters,
}

/// Every word the station speaks in one language, validated to be complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrasebook {
    pub(crate) code: String,
    pub(crate) name: String,
    pub(crate) letters: [Entry; 8],
    pub(crate) ranks: [Entry; 8],
    pub(crate) pieces: PieceWords,
    pub(crate) words: Words,
    pub(crate) clock: ClockWords,
    pub(crate) numbers: NumberWords,
    pub(crate) messages: Messages,
    /// What the station listens for besides moves (`[commands]`, `[question]`).
    pub(crate) commands: Option<crate::command_words::CommandWords>,
    /// Listening-only words (`[listening]`).
    pub(crate) listening: crate::listening::ListeningWords,
    /// Known mishearings (`[[repair]]`).
    pub(crate) repairs: Vec<crate::listening::Substitution>,
    /// The `[draughts]` words, when the phrasebook has them.
    pub(crate) draughts: Option<DraughtsWords>,
    /// The `[setup]` words (the start position read to him), when the phrasebook has them.
    pub(crate) setup: Option<SetupWords>,
    /// The `[practice]` words (an engine opponent), when the phrasebook has them.
    pub(crate) practice: Option<PracticeWords>,
}

impl Phrasebook {
    /// A built-in phrasebook by language code ("de", "pl", "en", … : see [`BUILTIN_LANGUAGES`]).
    pub fn builtin(code: &str) -> Option<&'static Phrasebook> {
        builtin_arc(code).map(|arc| &**arc)
    }

    /// Parses a phrasebook from TOML text; `origin` names it in errors.
    ///
    /// # Errors
    /// [`VoiceError::PhrasebookSyntax`] or [`VoiceError::PhrasebookInvalid`].
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Phrasebook, VoiceError> {
        let file: PhrasebookFile = toml::from_str(text).map_err(|source| VoiceError::PhrasebookSyntax {
            origin: origin.to_owned(),
            source: Box::new(source),
        })?;
        file.validate(origin)
    }

    /// Reads and parses a phrasebook file (for languages not built in).
    ///
    /// # Errors
    /// [`VoiceError::Io`] if unreadable, else as [`Phrasebook::from_toml_str`].
    pub fn load(path: &Path) -> Result<Phrasebook, VoiceError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| VoiceError::Io { path: path.to_owned(), source })?;
        Phrasebook::from_toml_str(&text, &path.display().to_string())
    }

    /// The command words the station listens for in this language (`None`
    /// when the phrasebook has no `[commands]` table: moves only).
    pub fn command_words(&self) -> Option<&crate::command_words::CommandWords> {
        self.commands.as_ref()
    }

    /// Listening-only words: other file names, fillers, promotion phrasings.
    pub fn listening(&self) -> &crate::listening::ListeningWords {
        &self.listening
    }

    /// The known mishearings of this language, one row per heard/meant pair.
    pub fn repairs(&self) -> &[crate::listening::Substitution] {
        &self.repairs
    }

    /// Language code, e.g. "de".
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Name of the language in itself, e.g. "Deutsch".
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The draughts words (`[draughts]`), when the phrasebook has them.
    pub fn draughts(&self) -> Option<&DraughtsWords> {
        self.draughts.as_ref()
    }

    /// The set-up words (`[setup]`), when the phrasebook has them.
    pub fn setup(&self) -> Option<&SetupWords> {
        self.setup.as_ref()
    }

    /// The practice words (`[practice]`), when the phrasebook has them.
    pub fn practice(&self) -> Option<&PracticeWords> {
        self.practice.as_ref()
    }

    /// The letter name of a file ("Anna" … "Hector").
    pub fn letter(&self, file: File) -> &Entry {
        &self.letters[file.to_usize()]
    }

    /// The word of a rank ("eins" … "acht").
    pub fn rank(&self, rank: Rank) -> &Entry {
        &self.ranks[rank.to_usize()]
    }

    /// The name of a piece kind.
    pub fn piece(&self, role: Role) -> &Entry {
        &self.pieces.names[role_index(role)]
    }

    /// The piece letters this language writes its moves with (`[san]`: German
    /// K D T L S, Russian Кр Ф Л С К): SAN rewritten with them for the
    /// Braille display, the mirror and the player's page, and read back from a
    /// record. A loaded phrasebook without `[san]` writes SAN's K Q R B N.
    pub fn san_letters(&self) -> &SanLetters {
        &self.pieces.letters
    }

    /// Fixed words of announcements.
    pub fn words(&self) -> &Words {
        &self.words
    }

    /// Words of the clock.
    pub fn clock(&self) -> &ClockWords {
        &self.clock
    }

    /// Number words and plural rules.
    pub fn numbers(&self) -> &NumberWords {
        &self.numbers
    }

    /// The text of one of the station's messages.
    pub fn message(&self, message: Message) -> &Entry {
        self.messages.get(message)
    }
}

/// Index of a role in piece tables: king, queen, rook, bishop, knight, pawn
/// (the order of the `[pieces]` table).
pub(crate) fn role_index(role: Role) -> usize {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

/// The built-in phrasebooks, parsed once.
///
/// The data is compiled in and checked by the `builtin_phrasebooks_are_valid`
/// test, so a failure here is a build defect rather than bad input; such a
/// book is left out and asking for it reports an unknown language.
pub(crate) fn builtin_arc(code: &str) -> Option<&'static Arc<Phrasebook>> {
    static BOOKS: OnceLock<Vec<Arc<Phrasebook>>> = OnceLock::new();
    BOOKS
        .get_or_init(|| {
            BUILTIN_SOURCES
                .iter()
                .filter_map(|(code, text)| {
                    Phrasebook::from_toml_str(text, &format!("built-in {code}")).ok().map(Arc::new)
                })
                .collect()
        })
        .iter()
        .find(|book| book.code == code)
}

/// Parses the built-in phrasebooks afresh, reporting errors (for tests and
/// start-up checks).
///
/// # Errors
/// The first built-in phrasebook that fails to parse.
pub fn check_builtins() -> Result<(), VoiceError> {
    for (code, text) in BUILTIN_SOURCES {
        let book = Phrasebook::from_toml_str(text, &format!("built-in {code}"))?;
        if book.code != code {
            return Err(VoiceError::PhrasebookInvalid {
                origin: format!("built-in {code}"),
                problem: format!("declares code {:?}", book.code),
            });
        }
    }
    Ok(())
}

/// A set of phrasebooks to choose voices from: the built-in ones plus any
/// loaded at run time.
#[derive(Debug, Clone)]
pub struct Phrasebooks {
    books: Vec<Arc<Phrasebook>>,
}

impl Default for Phrasebooks {
    fn default() -> Self {
        Self::builtin()
    }
}

impl Phrasebooks {
    /// The built-in phrasebooks.
    pub fn builtin() -> Self {
        Self { books: BUILTIN_LANGUAGES.iter().filter_map(|code| builtin_arc(code).cloned()).collect() }
    }

    /// Adds a phrasebook, replacing one with the same code.
    pub fn insert(&mut self, book: Phrasebook) {
        self.books.retain(|b| b.code != book.code);
        self.books.push(Arc::new(book));
    }

    /// Loads a phrasebook file and adds it; returns its language code.
    ///
    /// # Errors
    /// As [`Phrasebook::load`].
    pub fn load(&mut self, path: &Path) -> Result<String, VoiceError> {
        let book = Phrasebook::load(path)?;
        let code = book.code.clone();
        self.insert(book);
        Ok(code)
    }

    /// The phrasebook for a language code.
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`].
    pub fn get(&self, code: &str) -> Result<Arc<Phrasebook>, VoiceError> {
        self.books
            .iter()
            .find(|b| b.code == code)
            .cloned()
            .ok_or_else(|| VoiceError::UnknownLanguage(code.to_owned()))
    }

    /// Codes of all available languages.
    pub fn codes(&self) -> impl Iterator<Item = &str> {
        self.books.iter().map(|b| b.code.as_str())
    }
}
