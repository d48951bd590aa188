//! Language for the Annex D station: phrasebooks, the wording of moves and
//! the talking clock.
//!
//! FIDE Laws of Chess, Annex D.2.1: every move is announced clearly, with the
//! letter names Anna … Hector and (unless the arbiter decides otherwise) the
//! German rank words; castling and the promoted piece are said in words.
//! This crate turns moves and clock readings into those words; it does no
//! audio and no I/O beyond reading a phrasebook file on request.
//!
//! ```
//! use station_voices::{VoiceSettings, Wording, position_from_fen};
//!
//! let wording = Wording::new(&VoiceSettings::language("de"))?;
//! let pos = position_from_fen("startpos")?;
//! let nf3 = shakmaty::Move::Normal {
//!     role: shakmaty::Role::Knight,
//!     from: shakmaty::Square::G1,
//!     capture: None,
//!     to: shakmaty::Square::F3,
//!     promotion: None,
//! };
//! assert_eq!(wording.word_move(&pos, &nf3)?.to_string(), "Springer Felix drei");
//! assert_eq!(
//!     wording.clock_report(72 * 60_000, 58 * 60_000, 22),
//!     "Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."
//! );
//! # Ok::<(), station_voices::VoiceError>(())
//! ```

mod announcement;
mod clock;
mod command_words;
pub mod draughts;
mod entry;
mod error;
mod fen;
mod heard_text;
mod listening;
mod message;
mod numbers;
mod phrasebook;
mod san_letters;
mod settings;
mod setup;
pub mod understand;
pub mod voice_pack;
mod wording;

pub use announcement::{Announcement, MAX_TOKENS, Token, WordId};
pub use clock::{clock_report, clock_report_used, say_duration, say_moves};
pub use entry::Entry;
pub use error::VoiceError;
pub use fen::position_from_fen;
pub use listening::{LetterStyle, ListeningWords, Substitution};
pub use message::{Message, Messages};
pub use numbers::{Agreement, CountedNoun, Gender, NumberWords, PluralForm, PluralRule};
pub use phrasebook::{
    BUILTIN_LANGUAGES, ClockWords, PRACTICE_KEYS, Phrasebook, Phrasebooks, PracticeWords, Words,
    check_builtins,
};
pub use san_letters::{ClockLine, SanLetters};
pub use settings::{ClockTimeRead, MoveReading, VoiceSettings};
pub use setup::{SetupWords, SquareDifference};
pub use wording::Wording;
