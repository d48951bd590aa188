//! The start position said to the blind player so he can set up his board
//! (ICCF Appendix B, Chess960 on the peg board): the start's number and
//! White's first rank piece by piece ("Anna Turm, Bella Springer, …"), and
//! his set-up checked square by square in the words of the board
//! differences ("Bella eins: Läufer fehlt").
//!
//! Pure wording: the position, its number and the differences come from the
//! rules core (`station_core::setup`).

use shakmaty::{File, Role, Square};

use crate::message::Message;
use crate::wording::Wording;

pub use crate::phrasebook::SetupWords;

/// One square where his board differs from the position it should show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareDifference {
    /// The square.
    pub square: Square,
    /// The piece that should stand there, if any.
    pub expected: Option<Role>,
    /// Whether a peg is in the hole.
    pub peg: bool,
}

/// At most this many squares are named: a board knocked over is a matter for the arbiter.
pub const DIFFERENCE_SQUARES: usize = 6;

impl Wording {
    /// The start position's first rank, piece by piece from a to h, after
    /// its Chess960 number: "Chess960 Nummer null, weiße Grundreihe. Anna
    /// Läufer, Bella Läufer, Cesar Dame, …". Empty squares are left out.
    pub fn word_setup(&self, number: u16, first_rank: &[Option<Role>; 8]) -> String {
        let book = self.phrasebook();
        let mut out = match book.setup() {
            Some(words) => words.intro.say().replace("{n}", &book.numbers().spell(u64::from(number))),
            None => String::new(),
        };
        let mut first = true;
        for (file, role) in File::ALL.into_iter().zip(first_rank) {
            let Some(role) = role else { continue };
            if !out.is_empty() {
                out.push_str(if first { ". " } else { ", " });
            }
            first = false;
            let [letter, _] = self.word_square(Square::from_coords(file, shakmaty::Rank::First));
            out.push_str(letter.text);
            out.push(' ');
            out.push_str(self.word_piece(*role).text);
        }
        out
    }

    /// What differs between his board and the position, square by square:
    /// "Ihr Brett weicht von der Partie ab. Eva eins: König fehlt. David drei:
    /// Stift zu viel" (at most `DIFFERENCE_SQUARES`, then the arbiter).
    pub fn word_difference(&self, diff: &[SquareDifference]) -> String {
        let mut parts = vec![self.message(Message::BoardDiffers).to_owned()];
        for d in diff.iter().take(DIFFERENCE_SQUARES) {
            let [letter, rank] = self.word_square(d.square);
            let square = format!("{} {}", letter.text, rank.text);
            let part = match (d.expected, d.peg) {
                (Some(role), false) => self
                    .message(Message::SquareMissing)
                    .replace("{square}", &square)
                    .replace("{piece}", self.word_piece(role).text),
                (None, true) => self.message(Message::SquareExtra).replace("{square}", &square),
                _ => continue,
            };
            parts.push(part);
        }
        if diff.len() > DIFFERENCE_SQUARES {
            parts.push(self.message(Message::CallArbiter).to_owned());
        }
        parts.join(". ")
    }

    /// His set-up checked: the differences as [`word_difference`](Self::word_difference)
    /// says them, or that it shows the start position.
    pub fn word_setup_check(&self, diff: &[SquareDifference]) -> String {
        if !diff.is_empty() {
            return self.word_difference(diff);
        }
        match self.phrasebook().setup() {
            Some(words) => words.correct.say().to_owned(),
            None => self.message(Message::PositionRestored).to_owned(),
        }
    }
}
