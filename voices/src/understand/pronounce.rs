//! How the listening words sound (issue 33): each phrasebook's
//! `[listening.phonemes]` (espeak-ng's phonemes, made once by `station
//! voices phonemes` and kept in the file, so no utterance waits for
//! espeak-ng), a [`Pronouncer`] for words outside it, and the spelling as the
//! documented last resort.

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::Arc;

use shakmaty::{File, Rank, Role};

use super::lexicon::normalise;
use super::sounds::{self, Phone};
use crate::entry::Entry;
use crate::phrasebook::Phrasebook;

/// Says how a word of a language sounds: espeak-ng's phonemes as
/// `espeak-ng -x --sep=_ -v LANG` writes them, or `None` when it cannot.
/// The station's drivers run espeak-ng (and keep what it said); a word the
/// phrasebook's `[listening.phonemes]` holds never gets here.
pub trait Pronouncer: Debug + Send + Sync {
    /// The phonemes of `word` (lower case, one word) in `lang`.
    fn phonemes(&self, lang: &str, word: &str) -> Option<String>;
}

/// The `[words]` only the station says (a piece put back, the results): he
/// does not say them in a move or a command.
const STATION_ONLY: [&str; 4] = ["back", "white_wins", "black_wins", "draw"];

/// Every single word a phrasebook listens for in moves and commands, lower
/// case, sorted: the words `[listening.phonemes]` should hold.
pub fn words_to_pronounce(book: &Phrasebook) -> Vec<String> {
    let mut entries: Vec<&Entry> = Vec::new();
    entries.extend(File::ALL.iter().map(|f| book.letter(*f)));
    entries.extend(Rank::ALL.iter().map(|r| book.rank(*r)));
    entries.extend(Role::ALL.iter().map(|r| book.piece(*r)));
    entries.extend(
        book.words().entries().into_iter().filter(|(key, _)| !STATION_ONLY.contains(key)).map(|(_, e)| e),
    );
    let listening = book.listening();
    for style in &listening.letter_styles {
        entries.extend(style.letters.iter());
    }
    entries.extend(listening.promotion_pieces.iter().map(|(_, e)| e));
    if let Some(commands) = book.command_words() {
        entries.extend(commands.words().iter().map(|(_, e)| e));
    }
    let mut out: Vec<String> = entries
        .iter()
        .flat_map(|e| e.accepted())
        .chain(listening.fillers.iter().map(String::as_str))
        .chain(listening.promotion.iter().map(String::as_str))
        .flat_map(|form| normalise(form).split(' ').map(str::to_owned).collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The sounds of words, by the phrasebooks of one listening configuration.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pronunciations {
    lang: String,
    known: HashMap<String, Vec<Phone>>,
    pronouncer: Option<Arc<dyn Pronouncer>>,
    /// Listening words with no pronunciation in their phrasebook: read by
    /// their spelling, or asked of the pronouncer.
    unpronounced: Vec<String>,
}

impl Pronunciations {
    /// The pronunciations of `books` (the first book that has a word wins:
    /// the sentence language first).
    pub(crate) fn new(books: &[&Phrasebook], pronouncer: Option<Arc<dyn Pronouncer>>) -> Pronunciations {
        let lang = books.first().map_or_else(String::new, |b| b.code().to_owned());
        let mut known = HashMap::new();
        for book in books {
            for (word, phonemes) in &book.listening().phonemes {
                known.entry(word.clone()).or_insert_with(|| sounds::parse(phonemes));
            }
        }
        let mut unpronounced = Vec::new();
        for book in books {
            for word in words_to_pronounce(book) {
                if !known.contains_key(&word) && !unpronounced.contains(&word) {
                    unpronounced.push(word);
                }
            }
        }
        let mut p = Pronunciations { lang, known, pronouncer: None, unpronounced };
        p.set_pronouncer(pronouncer);
        p
    }

    /// Asks `pronouncer` for the words the phrasebooks leave out, now, and
    /// for heard words outside them when they come.
    pub(crate) fn set_pronouncer(&mut self, pronouncer: Option<Arc<dyn Pronouncer>>) {
        if let Some(p) = &pronouncer {
            let lang = self.lang.clone();
            self.unpronounced.retain(|word| match p.phonemes(&lang, word) {
                Some(phonemes) => {
                    self.known.insert(word.clone(), sounds::parse(&phonemes));
                    false
                }
                None => true,
            });
        }
        self.pronouncer = pronouncer;
    }

    /// Listening words read by their spelling (no phonemes anywhere).
    pub(crate) fn unpronounced(&self) -> &[String] {
        &self.unpronounced
    }

    /// The sounds of one word (lower case).
    pub(crate) fn of(&self, word: &str) -> Vec<Phone> {
        if let Some(known) = self.known.get(word) {
            return known.clone();
        }
        if let Some(phonemes) = self.pronouncer.as_ref().and_then(|p| p.phonemes(&self.lang, word)) {
            return sounds::parse(&phonemes);
        }
        sounds::from_spelling(word)
    }

    /// The sounds of a phrase (normalised words, joined).
    pub(crate) fn of_phrase(&self, phrase: &str) -> Vec<Phone> {
        phrase.split(' ').filter(|w| !w.is_empty()).flat_map(|w| self.of(w)).collect()
    }
}
