//! The words the station listens for besides moves: commands such as "time"
//! or "where is my queen", one small TOML file per language.
//!
//! They live beside this module rather than in the phrasebooks because a
//! phrasebook rejects unknown keys (a typo must not silently drop a word),
//! and these words are only ever heard, never spoken.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::entry::Entry;
use crate::error::VoiceError;

const BUILTIN_SOURCES: [(&str, &str); 3] = [
    ("de", include_str!("commands/de.toml")),
    ("pl", include_str!("commands/pl.toml")),
    ("en", include_str!("commands/en.toml")),
];

/// What a command word stands for, independent of language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandWord {
    /// Read the clock.
    Time,
    /// Say the last move again.
    Repeat,
    /// The last announcement was wrong.
    Correction,
    /// Yes (answer to a confirm question).
    Yes,
    /// No.
    No,
    /// A draw is offered (the phrasebook's `draw_offer`).
    DrawOffer,
    /// The speaker resigns.
    Resign,
    /// "where is" (followed by a piece).
    WhereIs,
    /// "what stands on" (followed by a square).
    WhatStandsOn,
    /// "my".
    Mine,
    /// "his" (the opponent's).
    His,
    /// Read all of the speaker's pieces.
    ReadMyPieces,
    /// Read all of the opponent's pieces.
    ReadHisPieces,
}

/// Keys of the `[commands]` table, in a fixed order (draw offer excluded:
/// it comes from the phrasebook).
const KEYS: [(&str, CommandWord); 12] = [
    ("time", CommandWord::Time),
    ("repeat", CommandWord::Repeat),
    ("correction", CommandWord::Correction),
    ("yes", CommandWord::Yes),
    ("no", CommandWord::No),
    ("resign", CommandWord::Resign),
    ("where_is", CommandWord::WhereIs),
    ("what_stands_on", CommandWord::WhatStandsOn),
    ("mine", CommandWord::Mine),
    ("his", CommandWord::His),
    ("read_my_pieces", CommandWord::ReadMyPieces),
    ("read_his_pieces", CommandWord::ReadHisPieces),
];

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum EntryFile {
    Plain(String),
    Full {
        say: String,
        #[serde(default)]
        also: Vec<String>,
    },
}

impl From<EntryFile> for Entry {
    fn from(file: EntryFile) -> Self {
        match file {
            EntryFile::Plain(say) => Entry::new(say, Vec::new()),
            EntryFile::Full { say, also } => Entry::new(say, also),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    code: String,
    commands: BTreeMap<String, EntryFile>,
    question: QuestionFile,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionFile {
    or: String,
}

/// The listening words of one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandWords {
    code: String,
    words: Vec<(CommandWord, Entry)>,
    or: String,
}

impl CommandWords {
    /// The built-in command words for a language code ("de", "pl", "en").
    pub fn builtin(code: &str) -> Option<CommandWords> {
        let (_, text) = BUILTIN_SOURCES.iter().find(|(c, _)| *c == code)?;
        CommandWords::from_toml_str(text, &format!("built-in commands {code}")).ok()
    }

    /// No command words at all: moves are still understood (for a language
    /// that has a phrasebook but no command file yet).
    pub fn none(code: &str) -> CommandWords {
        CommandWords { code: code.to_owned(), words: Vec::new(), or: "/".to_owned() }
    }

    /// Parses a command-words file; `origin` names it in errors. Every key
    /// of the `[commands]` table is required and unknown keys are errors.
    ///
    /// # Errors
    /// [`VoiceError::PhrasebookSyntax`] or [`VoiceError::PhrasebookInvalid`].
    pub fn from_toml_str(text: &str, origin: &str) -> Result<CommandWords, VoiceError> {
        let mut file: File = toml::from_str(text).map_err(|source| VoiceError::PhrasebookSyntax {
            origin: origin.to_owned(),
            source: Box::new(source),
        })?;
        let invalid = |problem: String| VoiceError::PhrasebookInvalid { origin: origin.to_owned(), problem };
        let mut words = Vec::with_capacity(KEYS.len());
        for (key, word) in KEYS {
            let entry: Entry =
                file.commands.remove(key).ok_or_else(|| invalid(format!("[commands] lacks {key:?}")))?.into();
            if entry.accepted().any(|form| form.trim().is_empty()) {
                return Err(invalid(format!("[commands] {key:?} has an empty form")));
            }
            words.push((word, entry));
        }
        if let Some(extra) = file.commands.keys().next() {
            return Err(invalid(format!("[commands] has unknown key {extra:?}")));
        }
        Ok(CommandWords { code: file.code, words, or: file.question.or })
    }

    /// The language code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Every command word with its entry.
    pub fn words(&self) -> &[(CommandWord, Entry)] {
        &self.words
    }

    /// The entry of one command word (`None` for the draw offer, which is
    /// the phrasebook's, or when the file has no words).
    pub fn entry(&self, word: CommandWord) -> Option<&Entry> {
        self.words.iter().find(|(w, _)| *w == word).map(|(_, e)| e)
    }

    /// The word between the candidates of a confirm question ("oder").
    pub fn or(&self) -> &str {
        &self.or
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_command_files_parse() {
        for (code, text) in BUILTIN_SOURCES {
            let words = CommandWords::from_toml_str(text, code).unwrap();
            assert_eq!(words.code(), code);
            assert_eq!(words.words().len(), KEYS.len());
        }
    }

    #[test]
    fn unknown_and_missing_keys_are_errors() {
        let text = BUILTIN_SOURCES[0].1.replace("time =", "tiem =");
        let err = CommandWords::from_toml_str(&text, "x").unwrap_err().to_string();
        assert!(err.contains("time"), "{err}");
    }
}
