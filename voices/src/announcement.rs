//! A worded move as a short list of tokens, one phrasebook entry each.

use std::fmt;

use shakmaty::{File, Rank, Role};

/// What a token stands for, independent of language: voice packs can key
/// their clips by it and recognisers can map heard words back to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WordId {
    /// Letter name of a file.
    Letter(File),
    /// Word of a rank.
    Rank(Rank),
    /// Name of a piece kind.
    Piece(Role),
    /// The capture word.
    Capture,
    /// Check.
    Check,
    /// Checkmate.
    Mate,
    /// Stalemate.
    Stalemate,
    /// En passant.
    EnPassant,
    /// O-O.
    ShortCastling,
    /// O-O-O.
    LongCastling,
    /// "from" (corrections).
    From,
    /// "to" (corrections).
    To,
    /// "back" (corrections).
    Back,
    /// A digit of ICCF numeric notation (1–8; a promotion digit 1–4), said
    /// with the language's number word.
    Digit(u8),
}

/// One spoken unit: a phrasebook entry, which may be a fixed phrase such as
/// "Kurze Rochade" (a voice pack records it as one clip).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What the token means.
    pub id: WordId,
    /// What is said.
    pub text: &'a str,
}

/// Most tokens any announcement needs: long form with piece, two squares,
/// capture, promotion, en passant, check or mate, stalemate is 10; a
/// correction is 8.
pub const MAX_TOKENS: usize = 12;

const FILLER: Token<'static> = Token { id: WordId::Back, text: "" };

/// A worded move (or correction): tokens in speaking order, on the stack.
#[derive(Clone, Copy)]
pub struct Announcement<'a> {
    tokens: [Token<'a>; MAX_TOKENS],
    len: usize,
}

impl<'a> Announcement<'a> {
    pub(crate) fn new() -> Self {
        Self { tokens: [FILLER; MAX_TOKENS], len: 0 }
    }

    /// Appends a token. The wording code never exceeds [`MAX_TOKENS`]; were it
    /// to, the extra token is dropped rather than panicking mid-game.
    pub(crate) fn push(&mut self, id: WordId, text: &'a str) {
        if let Some(slot) = self.tokens.get_mut(self.len) {
            *slot = Token { id, text };
            self.len += 1;
        }
    }

    /// The tokens in speaking order.
    pub fn tokens(&self) -> &[Token<'a>] {
        &self.tokens[..self.len]
    }

    /// The text of each token in speaking order.
    pub fn words(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.tokens().iter().map(|t| t.text)
    }

    /// Appends the space-joined text to `out` (reuse one buffer to avoid
    /// allocating per move).
    pub fn write_to(&self, out: &mut String) {
        for (i, word) in self.words().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        }
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.len
    }
}

impl fmt::Display for Announcement<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, word) in self.words().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(word)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Announcement<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.tokens()).finish()
    }
}

impl PartialEq for Announcement<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.tokens() == other.tokens()
    }
}

impl Eq for Announcement<'_> {}
