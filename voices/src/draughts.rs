//! Draughts moves in words (issue 17, the code's VIII.2.3): start and end square
//! by number ("trzydzieści dwa — dwadzieścia osiem"), the capture word between
//! them for a capture, the intermediate squares of a multiple capture on request,
//! a new king named. On the 64-square board the squares are said a1–h8 with the
//! phrasebook's letter and rank words.
//!
//! Pure wording: which move was played, and whether it made a king, comes from
//! the rules core; here squares are numbers or coordinates.

use shakmaty::{File, Rank};

use crate::entry::Entry;
use crate::error::VoiceError;
use crate::phrasebook::Phrasebook;

/// The keys of the `[draughts]` phrasebook table, in [`DraughtsWords`] order.
pub(crate) const KEYS: [&str; 3] = ["capture", "via", "king"];

/// The words of the `[draughts]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraughtsWords {
    /// Between start and end of a capture ("bije", "schlägt", "takes").
    pub capture: Entry,
    /// Before the intermediate squares of a multiple capture ("przez", "über", "via").
    pub via: Entry,
    /// After a move that made a king (3.7: "damka", "Dame", "king").
    pub king: Entry,
}

/// A draughts square as it is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraughtsSquare {
    /// International draughts: FMJD number 1–50.
    Number(u8),
    /// The 64-square version: a file and a rank (a1–h8).
    Coordinates(File, Rank),
}

/// A move to be said: its squares and what kind of move it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraughtsMoveText {
    /// The start square.
    pub from: DraughtsSquare,
    /// The end square.
    pub to: DraughtsSquare,
    /// The intermediate landing squares of a multiple capture (4.9), in order.
    pub via: Vec<DraughtsSquare>,
    /// A capture.
    pub capture: bool,
    /// The move made a king.
    pub king: bool,
}

/// Says `mv` in `book`'s language; with `with_path` the intermediate squares too.
/// Quiet moves: "32 — 28"; captures: "28 bije 6"; a new king: "… damka".
pub fn word_draughts_move(
    book: &Phrasebook,
    mv: &DraughtsMoveText,
    with_path: bool,
) -> Result<String, VoiceError> {
    let words = book.draughts().ok_or_else(|| VoiceError::PhrasebookInvalid {
        origin: book.code().to_owned(),
        problem: "no [draughts] table".to_owned(),
    })?;
    let mut out = say_square(book, mv.from)?;
    if mv.capture {
        out.push(' ');
        out.push_str(words.capture.say());
        out.push(' ');
    } else {
        // The dash is a pause between two numbers that would otherwise run together.
        out.push_str(" — ");
    }
    out.push_str(&say_square(book, mv.to)?);
    if with_path && !mv.via.is_empty() {
        out.push(' ');
        out.push_str(words.via.say());
        for sq in &mv.via {
            out.push(' ');
            out.push_str(&say_square(book, *sq)?);
        }
    }
    if mv.king {
        out.push(' ');
        out.push_str(words.king.say());
    }
    Ok(out)
}

fn say_square(book: &Phrasebook, sq: DraughtsSquare) -> Result<String, VoiceError> {
    match sq {
        DraughtsSquare::Number(n) if (1..=50).contains(&n) => Ok(book.numbers().spell(u64::from(n))),
        DraughtsSquare::Number(n) => Err(VoiceError::PhrasebookInvalid {
            origin: book.code().to_owned(),
            problem: format!("draughts square {n} is not on the board (1–50)"),
        }),
        DraughtsSquare::Coordinates(file, rank) => {
            Ok(format!("{} {}", book.letter(file).say(), book.rank(rank).say()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8, via: &[u8], capture: bool, king: bool) -> DraughtsMoveText {
        DraughtsMoveText {
            from: DraughtsSquare::Number(from),
            to: DraughtsSquare::Number(to),
            via: via.iter().map(|&n| DraughtsSquare::Number(n)).collect(),
            capture,
            king,
        }
    }

    fn say(lang: &str, m: &DraughtsMoveText, with_path: bool) -> String {
        word_draughts_move(Phrasebook::builtin(lang).unwrap(), m, with_path).unwrap()
    }

    #[test]
    fn golden_quiet_moves_and_captures_by_number() {
        let quiet = mv(32, 28, &[], false, false);
        assert_eq!(say("pl", &quiet, false), "trzydzieści dwa — dwadzieścia osiem");
        assert_eq!(say("de", &quiet, false), "zweiunddreißig — achtundzwanzig");
        assert_eq!(say("en", &quiet, false), "thirty-two — twenty-eight");
        let capture = mv(28, 17, &[], true, false);
        assert_eq!(say("pl", &capture, false), "dwadzieścia osiem bije siedemnaście");
        assert_eq!(say("de", &capture, false), "achtundzwanzig schlägt siebzehn");
        assert_eq!(say("en", &capture, false), "twenty-eight takes seventeen");
    }

    #[test]
    fn golden_multiple_capture_path_on_request_and_a_new_king() {
        let multi = mv(28, 6, &[17], true, false);
        assert_eq!(say("pl", &multi, false), "dwadzieścia osiem bije sześć");
        assert_eq!(say("pl", &multi, true), "dwadzieścia osiem bije sześć przez siedemnaście");
        assert_eq!(say("de", &multi, true), "achtundzwanzig schlägt sechs über siebzehn");
        let crowned = mv(7, 1, &[], false, true);
        assert_eq!(say("pl", &crowned, false), "siedem — jeden damka");
        assert_eq!(say("de", &crowned, false), "sieben — eins Dame");
        assert_eq!(say("en", &crowned, false), "seven — one king");
    }

    #[test]
    fn the_64_square_version_says_letters_and_ranks_and_bad_squares_are_errors() {
        let m = DraughtsMoveText {
            from: DraughtsSquare::Coordinates(File::C, Rank::Third),
            to: DraughtsSquare::Coordinates(File::D, Rank::Fourth),
            via: Vec::new(),
            capture: false,
            king: false,
        };
        let book = Phrasebook::builtin("de").unwrap();
        let expected = format!(
            "{} {} — {} {}",
            book.letter(File::C).say(),
            book.rank(Rank::Third).say(),
            book.letter(File::D).say(),
            book.rank(Rank::Fourth).say()
        );
        assert_eq!(say("de", &m, false), expected);
        assert!(word_draughts_move(book, &mv(51, 1, &[], false, false), false).is_err());
    }
}
