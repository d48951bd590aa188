//! The piece letters a language writes its moves with (`[san]` of a
//! phrasebook): German "Sf3", Hungarian "Hf3", Russian "Кf3" for SAN's
//! "Nf3"; and the short words of the clock line (`[clock.line]`).
//!
//! Letters may be more than one character (Russian and Ukrainian write the
//! king "Кр"), so the moves are rewritten as strings. A move written with a
//! language's letters reads back as the same SAN: a letter holds no
//! character of SAN itself (files, ranks, `x`, `=`, `+`, `#`, `-`, `O`), and
//! no two letters are the same, so the longest letter that starts at a point
//! of the text is the one written there (Russian "Кр" before "К").

use shakmaty::Role;

/// SAN's own letters, in [`SanLetters`] order: king, queen, rook, bishop, knight.
const ENGLISH: [char; 5] = ['K', 'Q', 'R', 'B', 'N'];

/// The keys of the `[san]` table, in [`SanLetters`] order.
pub(crate) const SAN_KEYS: [&str; 5] = ["king", "queen", "rook", "bishop", "knight"];

/// What SAN writes besides the piece letters: files, ranks, captures,
/// promotion, check, mate, castling (also with zeros), annotations.
const SAN_SIGNS: &str = "abcdefgh12345678x=+#-O0!?:";

/// The piece letters of one language, one for each piece but the pawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanLetters {
    letters: [String; 5],
}

impl Default for SanLetters {
    fn default() -> Self {
        SanLetters::english()
    }
}

impl SanLetters {
    /// SAN's letters, K Q R B N (a loaded phrasebook without `[san]`).
    pub fn english() -> SanLetters {
        SanLetters { letters: ENGLISH.map(String::from) }
    }

    /// The letters of king, queen, rook, bishop and knight, checked to read
    /// back: the problem in words when they cannot.
    pub(crate) fn new(letters: [String; 5]) -> Result<SanLetters, String> {
        for (key, letter) in SAN_KEYS.iter().zip(&letters) {
            if letter.is_empty() || letter.chars().any(char::is_whitespace) {
                return Err(format!("{key} {letter:?} is no letter"));
            }
            if let Some(sign) = letter.chars().find(|c| SAN_SIGNS.contains(*c)) {
                return Err(format!(
                    "{key} {letter:?} holds {sign:?}, which a move writes for something else"
                ));
            }
        }
        for (i, letter) in letters.iter().enumerate() {
            if let Some(j) = letters[..i].iter().position(|other| other == letter) {
                return Err(format!("{} and {} are both {letter:?}", SAN_KEYS[j], SAN_KEYS[i]));
            }
        }
        Ok(SanLetters { letters })
    }

    /// The letter of a piece ("S" for the German knight); `None` for a pawn,
    /// which SAN writes without one.
    pub fn letter(&self, role: Role) -> Option<&str> {
        index(role).map(|i| self.letters[i].as_str())
    }

    /// Whether every letter is plain ASCII (what a Braille table made for
    /// Latin letters carries).
    pub fn is_ascii(&self) -> bool {
        self.letters.iter().all(|l| l.is_ascii())
    }

    /// SAN (K Q R B N) written with these letters: "Nxf3+" → "Sxf3+",
    /// "b8=Q" → "b8=D"; files, squares and castling stay as they are.
    pub fn write(&self, san: &str) -> String {
        let mut out = String::with_capacity(san.len());
        for c in san.chars() {
            match ENGLISH.iter().position(|&e| e == c) {
                Some(i) => out.push_str(&self.letters[i]),
                None => out.push(c),
            }
        }
        out
    }

    /// A move written with these letters back in SAN's: "Крe2" → "Ke2",
    /// "Кf3" → "Nf3". Characters that are no letter of these stay as they are.
    pub fn read(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            // The longest letter that starts here ("Кр" before "К").
            let found = (0..self.letters.len())
                .filter(|&i| rest.starts_with(self.letters[i].as_str()))
                .max_by_key(|&i| self.letters[i].len());
            match found {
                Some(i) => {
                    out.push(ENGLISH[i]);
                    rest = &rest[self.letters[i].len()..];
                }
                None => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        out
    }
}

/// A piece's place in [`SanLetters`]; `None` for a pawn.
fn index(role: Role) -> Option<usize> {
    match role {
        Role::King => Some(0),
        Role::Queen => Some(1),
        Role::Rook => Some(2),
        Role::Bishop => Some(3),
        Role::Knight => Some(4),
        Role::Pawn => None,
    }
}

/// The short words of the clock line on a Braille display
/// (`W 1:02:03 S 0:58:00 Zug 23 verbraucht`): `[clock.line]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockLine {
    /// Before White's time ("W").
    pub white: String,
    /// Before Black's time ("S").
    pub black: String,
    /// Before the number of moves made ("Zug").
    pub moves: String,
    /// After the line when it shows the time used ("verbraucht").
    pub used: String,
}

impl Default for ClockLine {
    /// English's, for a loaded phrasebook without `[clock.line]`.
    fn default() -> Self {
        ClockLine { white: "W".into(), black: "B".into(), moves: "move".into(), used: "used".into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(l: [&str; 5]) -> Result<SanLetters, String> {
        SanLetters::new(l.map(str::to_owned))
    }

    #[test]
    fn letters_of_more_than_one_character_read_back() {
        let ru = letters(["Кр", "Ф", "Л", "С", "К"]).unwrap();
        for san in ["Ke2", "Kxe2", "Nf3", "Nbd7", "N1xe2+", "exd8=N#", "O-O-O", "Qh4", "Rae1", "Bb5"] {
            let written = ru.write(san);
            assert_eq!(ru.read(&written), san, "{written}");
        }
        assert_eq!(ru.write("Kxe2"), "Крxe2");
        assert_eq!(ru.write("Ne2"), "Кe2");
        assert_eq!(ru.letter(Role::King), Some("Кр"));
        assert_eq!(ru.letter(Role::Pawn), None);
        assert!(!ru.is_ascii() && SanLetters::english().is_ascii());
    }

    #[test]
    fn letters_that_cannot_be_read_back_are_refused() {
        let same = letters(["K", "D", "T", "L", "D"]).unwrap_err();
        assert!(same.contains("queen and knight"), "{same}");
        // A file letter, or castling's O, would read back as something else.
        assert!(letters(["K", "D", "T", "b", "S"]).unwrap_err().contains("bishop"));
        assert!(letters(["K", "L", "V", "O", "R"]).unwrap_err().contains("'O'"));
        assert!(letters(["K", "D", "T", "L", ""]).is_err());
        assert!(letters(["K", "D", "T", "L", "S p"]).is_err());
    }
}
