//! From heard text to meanings: every accepted form of every word the
//! station listens for, looked up longest phrase first.

use std::collections::HashMap;

use shakmaty::{File, Rank, Role};

use crate::announcement::WordId;
use crate::command_words::{CommandWord, CommandWords};
use crate::entry::Entry;
use crate::phrasebook::Phrasebook;

/// What one heard word (or fixed phrase) means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Meaning {
    /// A word of move announcements.
    Move(WordId),
    /// A command word.
    Command(CommandWord),
    /// A number word ("dreiundzwanzig", "dwadzieścia trzy"), 1 to 999, for
    /// move numbers; the rank words keep their meaning as ranks.
    Number(u16),
    /// A word that means nothing ("äh"): dropped.
    Filler,
}

/// The highest number listened for (move numbers; the number words stop here).
pub(crate) const MAX_NUMBER: u16 = 999;

/// Lower-cases and splits heard or typed text the way Vosk writes its words:
/// letters, digits and apostrophes make words; everything else separates
/// them ("Kurze-Rochade!" is "kurze rochade"). "[unk]" is kept whole.
pub(crate) fn normalise(text: &str) -> String {
    crate::heard_text::normalise_keeping(text, |c| c == '[' || c == ']')
}

/// Why text could not be turned into meanings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LexError {
    /// Nothing but silence.
    Empty,
    /// The recogniser marked a stretch as not in its grammar.
    Unheard,
    /// A word that is in none of the listening words of this language.
    Unknown(String),
}

/// Longest-match lookup of normalised phrases.
#[derive(Debug, Clone)]
pub(crate) struct Lexicon {
    phrases: HashMap<String, Meaning>,
    longest: usize,
    conflicts: Vec<String>,
}

impl Lexicon {
    /// The words of a sentence phrasebook, letter and rank names (possibly
    /// from other phrasebooks, as the arbiter may decide) and command words.
    pub(crate) fn new(
        sentence: &Phrasebook,
        letters: &Phrasebook,
        ranks: &Phrasebook,
        commands: &CommandWords,
    ) -> Lexicon {
        let mut lexicon = Lexicon { phrases: HashMap::new(), longest: 1, conflicts: Vec::new() };
        for file in File::ALL {
            lexicon.add(letters.letter(file), Meaning::Move(WordId::Letter(file)));
            for style in &letters.listening().letter_styles {
                lexicon.add(&style.letters[file.to_usize()], Meaning::Move(WordId::Letter(file)));
            }
        }
        for rank in Rank::ALL {
            lexicon.add(ranks.rank(rank), Meaning::Move(WordId::Rank(rank)));
        }
        for role in Role::ALL {
            lexicon.add(sentence.piece(role), Meaning::Move(WordId::Piece(role)));
        }
        let words = sentence.words();
        for (entry, id) in [
            (&words.capture, WordId::Capture),
            (&words.check, WordId::Check),
            (&words.mate, WordId::Mate),
            (&words.stalemate, WordId::Stalemate),
            (&words.en_passant, WordId::EnPassant),
            (&words.short_castling, WordId::ShortCastling),
            (&words.long_castling, WordId::LongCastling),
            (&words.from, WordId::From),
            (&words.to, WordId::To),
        ] {
            lexicon.add(entry, Meaning::Move(id));
        }
        let listening = sentence.listening();
        for filler in &listening.fillers {
            lexicon.add(&Entry::new(filler.clone(), Vec::new()), Meaning::Filler);
        }
        // "promote to queen", "na hetmana": the promotion piece, said after the target.
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            let meaning = Meaning::Move(WordId::Piece(role));
            let mut pieces: Vec<&str> = sentence.piece(role).accepted().collect();
            for (r, entry) in &listening.promotion_pieces {
                if *r == role {
                    lexicon.add(entry, meaning);
                    pieces.extend(entry.accepted());
                }
            }
            for intro in &listening.promotion {
                for piece in &pieces {
                    lexicon.add(&Entry::new(format!("{intro} {piece}"), Vec::new()), meaning);
                }
            }
        }
        lexicon.add(&words.draw_offer, Meaning::Command(CommandWord::DrawOffer));
        for (word, entry) in commands.words() {
            lexicon.add(entry, Meaning::Command(*word));
        }
        // Number words only where no other word is said alike: "vier" stays
        // a rank, and a move number may be a rank word.
        if commands.entry(CommandWord::GoToMove).is_some() || commands.entry(CommandWord::ReadRank).is_some()
        {
            for n in 1..=MAX_NUMBER {
                let key = normalise(&sentence.numbers().spell(u64::from(n)));
                if !key.is_empty() && !lexicon.phrases.contains_key(&key) {
                    lexicon.longest = lexicon.longest.max(key.split(' ').count());
                    lexicon.phrases.insert(key, Meaning::Number(n));
                }
            }
        }
        lexicon
    }

    /// Adds every accepted form; a form already meaning something else keeps
    /// its first meaning and is recorded as a conflict (tests keep the
    /// built-in books free of them).
    fn add(&mut self, entry: &Entry, meaning: Meaning) {
        for form in entry.accepted() {
            let key = normalise(form);
            if key.is_empty() {
                continue;
            }
            self.longest = self.longest.max(key.split(' ').count());
            match self.phrases.get(&key) {
                Some(old) if *old != meaning => self.conflicts.push(key),
                Some(_) => {}
                None => {
                    self.phrases.insert(key, meaning);
                }
            }
        }
    }

    /// Forms that mean two different things (the first meaning is kept).
    pub(crate) fn conflicts(&self) -> &[String] {
        &self.conflicts
    }

    /// The meanings of normalised text, longest phrase first.
    pub(crate) fn read(&self, normalised: &str) -> Result<Vec<Meaning>, LexError> {
        let words: Vec<&str> = normalised.split(' ').filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return Err(LexError::Empty);
        }
        let mut out = Vec::with_capacity(words.len());
        let mut key = String::with_capacity(64);
        let mut at = 0;
        while at < words.len() {
            let mut found = None;
            for len in (1..=self.longest.min(words.len() - at)).rev() {
                key.clear();
                for (i, word) in words[at..at + len].iter().enumerate() {
                    if i > 0 {
                        key.push(' ');
                    }
                    key.push_str(word);
                }
                if let Some(meaning) = self.phrases.get(key.as_str()) {
                    found = Some((*meaning, len));
                    break;
                }
            }
            match found {
                Some((Meaning::Filler, len)) => at += len,
                Some((meaning, len)) => {
                    out.push(meaning);
                    at += len;
                }
                None if words[at] == "[unk]" => return Err(LexError::Unheard),
                None => return Err(LexError::Unknown(words[at].to_owned())),
            }
        }
        if out.is_empty() {
            return Err(LexError::Empty);
        }
        Ok(out)
    }

    /// Whether a normalised phrase is a listening form.
    pub(crate) fn knows(&self, phrase: &str) -> bool {
        self.phrases.contains_key(phrase)
    }

    /// Whether a heard word means nothing ("äh", "the").
    pub(crate) fn is_filler(&self, word: &str) -> bool {
        matches!(self.phrases.get(word), Some(Meaning::Filler))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_follows_vosk() {
        assert_eq!(normalise("  Kurze-Rochade! "), "kurze rochade");
        assert_eq!(normalise("Springer, Felix drei?"), "springer felix drei");
        assert_eq!(normalise("where's [unk]"), "where's [unk]");
        assert_eq!(normalise("WIEŻA"), "wieża");
        assert_eq!(normalise("..."), "");
    }
}
