//! Words a speech model cannot hear (issue 24 §2). Vosk drops grammar words
//! its model does not list, silently: a German model without "Hector" could
//! never hear the h-file. Every grammar is compared with the model's word
//! list; a word it lacks is replaced by a spelling the phrasebook names and
//! the model knows (`[listening.spellings]`, read back as the word), and the
//! words left missing are reported once each.
//!
//! The model's word list is read through the `Lexicon` trait (`vosk_model_find_word`; a word list
//! in tests). The missing words go out as `Heard::MissingWords`, then `device_status`
//! `speech_model` `missing_words` with `words`.

use std::collections::{BTreeMap, HashMap};

/// What can say whether it lists a word: the model (`vosk_model_find_word`),
/// or a word list in tests.
pub trait Lexicon {
    /// Whether the recogniser can output `word`.
    fn knows(&mut self, word: &str) -> bool;
}

impl Lexicon for station_audio::speech::Model {
    fn knows(&mut self, word: &str) -> bool {
        self.find_word(word).is_some()
    }
}

/// One language's vocabulary check, kept for the listening thread's life:
/// each word is looked up once.
#[derive(Debug, Default)]
pub struct Vocabulary {
    /// Word → other spellings, from the phrasebook.
    spellings: BTreeMap<String, Vec<String>>,
    /// Word → what the grammar uses for it (itself, a spelling, or nothing).
    known: HashMap<String, Option<String>>,
    /// Spelling used → the word it stands for.
    back: HashMap<String, String>,
    /// Words already reported missing.
    reported: std::collections::HashSet<String>,
}

/// A grammar fitted to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// The phrases, each missing word replaced by a spelling the model knows
    /// (phrases with a word the model cannot hear at all stay as they are:
    /// Vosk drops that word, the rest of the phrase still helps).
    pub phrases: Vec<String>,
    /// Words the model lacks (no known spelling) not reported before, sorted.
    pub newly_missing: Vec<String>,
}

impl Vocabulary {
    /// A check with the phrasebook's other spellings of `lang` (none for an
    /// unknown language).
    pub fn for_language(lang: &str) -> Vocabulary {
        let spellings = station_voices::Phrasebook::builtin(lang)
            .map(|book| book.listening().spellings.iter().cloned().collect())
            .unwrap_or_default();
        Vocabulary::with_spellings(spellings)
    }

    /// A check with explicit spellings (word → alternatives, lower case).
    pub fn with_spellings(spellings: BTreeMap<String, Vec<String>>) -> Vocabulary {
        Vocabulary { spellings, ..Vocabulary::default() }
    }

    /// What the grammar says for `word`: itself when the model lists it,
    /// else its first listed spelling, else `None`.
    fn resolve(&mut self, lexicon: &mut impl Lexicon, word: &str) -> Option<String> {
        if let Some(known) = self.known.get(word) {
            return known.clone();
        }
        let found = if lexicon.knows(word) {
            Some(word.to_owned())
        } else {
            self.spellings.get(word).and_then(|others| others.iter().find(|o| lexicon.knows(o)).cloned())
        };
        if let Some(spelling) = found.as_ref().filter(|s| s.as_str() != word) {
            self.back.insert(spelling.clone(), word.to_owned());
        }
        self.known.insert(word.to_owned(), found.clone());
        found
    }

    /// Fits `phrases` to the model: spellings put in, missing words found.
    pub fn fit(&mut self, lexicon: &mut impl Lexicon, phrases: &[String]) -> Fitted {
        let mut newly_missing = Vec::new();
        let mut fitted = Vec::with_capacity(phrases.len());
        for phrase in phrases {
            let mut words = Vec::new();
            for word in phrase.split_whitespace() {
                // Vosk's own symbols ("[unk]") are not words of a language.
                if word.starts_with('[') {
                    words.push(word.to_owned());
                    continue;
                }
                match self.resolve(lexicon, word) {
                    Some(said) => words.push(said),
                    None => {
                        if self.reported.insert(word.to_owned()) {
                            newly_missing.push(word.to_owned());
                        }
                        words.push(word.to_owned());
                    }
                }
            }
            fitted.push(words.join(" "));
        }
        newly_missing.sort();
        Fitted { phrases: fitted, newly_missing }
    }

    /// Every word of `phrases` the model lacks (no spelling helps), sorted,
    /// whether reported before or not (`station doctor`).
    pub fn missing(&mut self, lexicon: &mut impl Lexicon, phrases: &[String]) -> Vec<String> {
        let mut missing = std::collections::BTreeSet::new();
        for word in phrases.iter().flat_map(|p| p.split_whitespace()).filter(|w| !w.starts_with('[')) {
            if self.resolve(lexicon, word).is_none() {
                missing.insert(word.to_owned());
            }
        }
        missing.into_iter().collect()
    }

    /// Heard text with each spelling read back as the word it stands for.
    pub fn restore(&self, text: &str) -> String {
        if self.back.is_empty() {
            return text.to_owned();
        }
        text.split_whitespace()
            .map(|w| self.back.get(w).map_or(w, String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The words a listener must hear in `lang` before a game: the grammar of
/// the start position, which holds the command words of its vocabulary.
pub fn start_grammar(lang: &str) -> Result<Vec<String>, station_voices::VoiceError> {
    let understanding = station_voices::understand::Understanding::language(lang)?;
    Ok(understanding.grammar(&shakmaty::Chess::default()).into_phrases())
}

/// Says the missing words in one line.
pub fn describe_missing(words: &[String]) -> String {
    format!(
        "the speech model cannot hear {} word{}: {}",
        words.len(),
        if words.len() == 1 { "" } else { "s" },
        words.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A made-up model vocabulary.
    struct Words(HashSet<&'static str>, usize);

    impl Lexicon for Words {
        fn knows(&mut self, word: &str) -> bool {
            self.1 += 1;
            self.0.contains(word)
        }
    }

    fn phrases(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn a_known_spelling_replaces_a_missing_word_and_is_read_back_as_it() {
        let mut model = Words(["springer", "felix", "drei", "hektor", "[unk]"].into_iter().collect(), 0);
        let spellings =
            [("hector".to_owned(), vec!["hecktor".to_owned(), "hektor".to_owned()])].into_iter().collect();
        let mut vocabulary = Vocabulary::with_spellings(spellings);
        let fitted =
            vocabulary.fit(&mut model, &phrases(&["springer felix drei", "springer hector drei", "[unk]"]));
        assert_eq!(fitted.phrases, phrases(&["springer felix drei", "springer hektor drei", "[unk]"]));
        assert!(fitted.newly_missing.is_empty(), "{:?}", fitted.newly_missing);
        assert_eq!(vocabulary.restore("springer hektor drei"), "springer hector drei");
        assert_eq!(vocabulary.restore("springer felix drei"), "springer felix drei");
    }

    #[test]
    fn missing_words_are_reported_once_and_looked_up_once() {
        let mut model = Words(["springer", "drei"].into_iter().collect(), 0);
        let mut vocabulary = Vocabulary::with_spellings(BTreeMap::new());
        let first = vocabulary.fit(&mut model, &phrases(&["springer felix drei", "springer gustav drei"]));
        assert_eq!(first.newly_missing, phrases(&["felix", "gustav"]));
        // The phrase stays: Vosk drops the word, the rest still helps.
        assert_eq!(first.phrases[0], "springer felix drei");
        let lookups = model.1;
        let second = vocabulary.fit(&mut model, &phrases(&["springer felix drei", "springer hector drei"]));
        assert_eq!(second.newly_missing, phrases(&["hector"]));
        assert_eq!(model.1, lookups + 1, "only the new word is looked up");
        assert_eq!(
            vocabulary.missing(&mut model, &phrases(&["springer felix drei", "springer hector drei"])),
            phrases(&["felix", "hector"])
        );
    }

    #[test]
    fn a_spelling_the_model_lacks_too_leaves_the_word_missing() {
        let mut model = Words(["springer"].into_iter().collect(), 0);
        let spellings = [("hector".to_owned(), vec!["hektor".to_owned()])].into_iter().collect();
        let mut vocabulary = Vocabulary::with_spellings(spellings);
        let fitted = vocabulary.fit(&mut model, &phrases(&["springer hector"]));
        assert_eq!(fitted.newly_missing, phrases(&["hector"]));
        assert_eq!(vocabulary.restore("springer hektor"), "springer hektor");
    }

    #[test]
    fn the_start_grammars_hold_the_annex_d_words_and_commands() {
        let de = start_grammar("de").unwrap();
        let words: HashSet<&str> = de.iter().flat_map(|p| p.split_whitespace()).collect();
        for word in ["springer", "felix", "hector", "drei", "unterschied"] {
            assert!(words.contains(word), "{word} not in the German start grammar");
        }
        let pl = start_grammar("pl").unwrap();
        assert!(pl.iter().any(|p| p.split_whitespace().any(|w| w == "feliks")));
    }

    #[test]
    fn the_korean_model_lacks_every_german_and_polish_word_and_each_is_said_once() {
        let dir = crate::station::test_support::korean_model();
        let mut model = station_audio::speech::load_model(&dir, "ko").unwrap();
        // The model does know its own words: the check is not blind.
        assert!(
            model.knows("[unk]") || model.knows("안녕하세요") || model.knows("네"),
            "no Korean word known"
        );
        for lang in ["de", "pl"] {
            let grammar = start_grammar(lang).unwrap();
            let all: std::collections::BTreeSet<String> = grammar
                .iter()
                .flat_map(|p| p.split_whitespace())
                .filter(|w| !w.starts_with('['))
                .map(str::to_owned)
                .collect();
            let mut vocabulary = Vocabulary::for_language(lang);
            let fitted = vocabulary.fit(&mut model, &grammar);
            assert_eq!(fitted.newly_missing, all.iter().cloned().collect::<Vec<_>>(), "{lang}");
            // The next position's grammar: nothing said again.
            let mut after = shakmaty::Chess::default();
            use shakmaty::Position;
            let e4 = after.legal_moves().into_iter().find(|m| m.to() == shakmaty::Square::E4).unwrap();
            after.play_unchecked(e4);
            let next = station_voices::understand::Understanding::language(lang)
                .unwrap()
                .grammar(&after)
                .into_phrases();
            let again = vocabulary.fit(&mut model, &next);
            assert!(
                again.newly_missing.iter().all(|w| !all.contains(w)),
                "{lang}: said again: {:?}",
                again.newly_missing
            );
        }
    }
}
