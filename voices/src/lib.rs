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
//! assert_eq!(wording.word_san(&pos, "Nf3")?.to_string(), "Springer Felix drei");
//! assert_eq!(
//!     wording.clock_report(72 * 60_000, 58 * 60_000, 22),
//!     "Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."
//! );
//! # Ok::<(), station_voices::VoiceError>(())
//! ```

mod announcement;
mod clock;
pub mod draughts;
mod entry;
mod error;
mod listening;
mod message;
mod notation;
mod numbers;
mod phrasebook;
mod phrasebook_file;
mod settings;
pub mod understand;
mod wording;

pub use announcement::{Announcement, MAX_TOKENS, Token, WordId};
pub use clock::{clock_report, clock_report_used, say_duration, say_moves};
pub use entry::Entry;
pub use error::VoiceError;
pub use listening::{LetterStyle, ListeningWords, Substitution};
pub use message::{Message, Messages};
pub use notation::{parse_move, parse_san, parse_uci, position_from_fen};
pub use numbers::{Agreement, CountedNoun, Gender, NumberWords, PluralForm, PluralRule};
pub use phrasebook::{BUILTIN_LANGUAGES, ClockWords, Phrasebook, Phrasebooks, Words, check_builtins};
pub use settings::{ClockReading, VoiceSettings};
pub use wording::Wording;
