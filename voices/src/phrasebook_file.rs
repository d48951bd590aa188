//! The TOML shape of a phrasebook file and its validation into a [`Phrasebook`].
//!
//! Kept apart from [`Phrasebook`] so the in-memory form can use fixed arrays
//! (no lookups while wording a move) while the file stays readable tables.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::entry::Entry;
use crate::error::VoiceError;
use crate::message::{Message, Messages};
use crate::numbers::{Agreement, CountedNoun, Gender, NumberWords, PluralRule, gender_index};
use crate::phrasebook::{ClockWords, Phrasebook, Words};
use crate::understand::CommandWords;
use crate::understand::command_words::KEYS as COMMAND_KEYS;

/// A word as written in the file: plain, or with accepted alternatives.
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
pub(crate) struct PhrasebookFile {
    code: String,
    name: String,
    letters: BTreeMap<String, EntryFile>,
    ranks: BTreeMap<String, EntryFile>,
    pieces: BTreeMap<String, EntryFile>,
    words: BTreeMap<String, EntryFile>,
    clock: ClockFile,
    numbers: NumbersFile,
    messages: BTreeMap<String, EntryFile>,
    /// Listening only: the command words (speech input). Optional, so a
    /// phrasebook made for speaking alone still reads.
    #[serde(default)]
    commands: Option<BTreeMap<String, EntryFile>>,
    /// Listening only: the word between the candidates of a confirm question.
    #[serde(default)]
    question: Option<QuestionFile>,
    /// Draughts words (capture, via, king); optional so a chess-only phrasebook still reads.
    #[serde(default)]
    draughts: Option<BTreeMap<String, EntryFile>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionFile {
    or: String,
    empty: String,
    none: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockFile {
    own: String,
    opponent: String,
    hour: NounFile,
    minute: NounFile,
    second: NounFile,
    moves: NounFile,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NounFile {
    gender: Gender,
    one: String,
    few: Option<String>,
    other: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NumbersFile {
    plural: PluralRule,
    small: Vec<String>,
    tens: Vec<String>,
    hundreds: Vec<String>,
    hundred_join: String,
    compound: String,
    #[serde(default)]
    compound_unit: BTreeMap<String, String>,
    #[serde(default)]
    genders: BTreeMap<String, AgreementFile>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgreementFile {
    #[serde(default)]
    alone: BTreeMap<String, String>,
    #[serde(default)]
    unit: BTreeMap<String, String>,
}

const LETTER_KEYS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
const RANK_KEYS: [&str; 8] = ["1", "2", "3", "4", "5", "6", "7", "8"];
const PIECE_KEYS: [&str; 6] = ["king", "queen", "rook", "bishop", "knight", "pawn"];

/// Collects problems with the file so one error names the first of them.
struct Checker<'a> {
    origin: &'a str,
}

impl Checker<'_> {
    fn fail<T>(&self, problem: String) -> Result<T, VoiceError> {
        Err(VoiceError::PhrasebookInvalid { origin: self.origin.to_owned(), problem })
    }

    /// Takes exactly the entries named by `keys` out of `table`, in that order.
    fn table<const N: usize>(
        &self,
        section: &str,
        mut table: BTreeMap<String, EntryFile>,
        keys: [&str; N],
    ) -> Result<[Entry; N], VoiceError> {
        let mut out = Vec::with_capacity(N);
        for key in keys {
            let Some(entry) = table.remove(key) else {
                return self.fail(format!("[{section}] lacks {key:?}"));
            };
            let entry = Entry::from(entry);
            if entry.say().trim().is_empty() {
                return self.fail(format!("[{section}] {key:?} is empty"));
            }
            out.push(entry);
        }
        if let Some(extra) = table.keys().next() {
            return self.fail(format!("[{section}] has unknown key {extra:?}"));
        }
        match out.try_into() {
            Ok(array) => Ok(array),
            Err(_) => self.fail(format!("[{section}] has the wrong number of entries")),
        }
    }

    fn list<const N: usize>(&self, what: &str, list: Vec<String>) -> Result<[String; N], VoiceError> {
        let len = list.len();
        match list.try_into() {
            Ok(array) => Ok(array),
            Err(_) => self.fail(format!("numbers.{what} needs {N} words, has {len}")),
        }
    }

    fn digits(
        &self,
        what: &str,
        table: BTreeMap<String, String>,
    ) -> Result<[Option<String>; 10], VoiceError> {
        let mut out: [Option<String>; 10] = Default::default();
        for (key, word) in table {
            match key.parse::<usize>() {
                Ok(digit) if digit < 10 => out[digit] = Some(word),
                _ => return self.fail(format!("{what}: key {key:?} is not a digit 0-9")),
            }
        }
        Ok(out)
    }

    fn numbers(&self, file: NumbersFile) -> Result<NumberWords, VoiceError> {
        if !(file.compound.contains("{ten}") && file.compound.contains("{unit}")) {
            return self.fail("numbers.compound needs {ten} and {unit}".to_owned());
        }
        let mut genders: [Agreement; 3] = Default::default();
        for (name, agreement) in file.genders {
            let gender = match name.as_str() {
                "masculine" => Gender::Masculine,
                "feminine" => Gender::Feminine,
                "neuter" => Gender::Neuter,
                _ => return self.fail(format!("numbers.genders: unknown gender {name:?}")),
            };
            genders[gender_index(gender)] = Agreement {
                alone: self.digits(&format!("numbers.genders.{name}.alone"), agreement.alone)?,
                unit: self.digits(&format!("numbers.genders.{name}.unit"), agreement.unit)?,
            };
        }
        Ok(NumberWords {
            plural: file.plural,
            small: self.list("small", file.small)?,
            tens: self.list("tens", file.tens)?,
            hundreds: self.list("hundreds", file.hundreds)?,
            hundred_join: file.hundred_join,
            compound: file.compound,
            compound_unit: self.digits("numbers.compound_unit", file.compound_unit)?,
            genders,
        })
    }

    fn messages(&self, mut table: BTreeMap<String, EntryFile>) -> Result<Messages, VoiceError> {
        let mut out = Vec::with_capacity(Message::ALL.len());
        for message in Message::ALL {
            let Some(entry) = table.remove(message.id()) else {
                return self.fail(format!("[messages] lacks {:?}", message.id()));
            };
            out.push(Entry::from(entry));
        }
        if let Some(extra) = table.keys().next() {
            return self.fail(format!("[messages] has unknown key {extra:?}"));
        }
        match out.try_into() {
            Ok(array) => Ok(Messages(array)),
            Err(_) => self.fail("[messages] has the wrong number of entries".to_owned()),
        }
    }
}

impl Checker<'_> {
    /// The `[commands]` table: every key required, none unknown, no empty form;
    /// with it, `[question] or`.
    fn commands(
        &self,
        code: &str,
        table: Option<BTreeMap<String, EntryFile>>,
        question: Option<QuestionFile>,
    ) -> Result<Option<CommandWords>, VoiceError> {
        let Some(mut table) = table else {
            return match question {
                Some(_) => self.fail("[question] without [commands]".to_owned()),
                None => Ok(None),
            };
        };
        let mut words = Vec::with_capacity(COMMAND_KEYS.len());
        for (key, word) in COMMAND_KEYS {
            let Some(entry) = table.remove(key) else {
                return self.fail(format!("[commands] lacks {key:?}"));
            };
            let entry = Entry::from(entry);
            if entry.accepted().any(|form| form.trim().is_empty()) {
                return self.fail(format!("[commands] {key:?} has an empty form"));
            }
            words.push((word, entry));
        }
        if let Some(extra) = table.keys().next() {
            return self.fail(format!("[commands] has unknown key {extra:?}"));
        }
        let Some(q) = question else {
            return self.fail("[commands] needs [question] with or, empty and none".to_owned());
        };
        for (key, word) in [("or", &q.or), ("empty", &q.empty), ("none", &q.none)] {
            if word.trim().is_empty() {
                return self.fail(format!("[question] {key:?} is empty"));
            }
        }
        Ok(Some(CommandWords::new(code, words, q.or, [q.empty, q.none])))
    }
}

fn noun(file: NounFile) -> CountedNoun {
    CountedNoun { gender: file.gender, one: file.one, few: file.few, other: file.other }
}

impl PhrasebookFile {
    pub(crate) fn validate(self, origin: &str) -> Result<Phrasebook, VoiceError> {
        let check = Checker { origin };
        if self.code.trim().is_empty() {
            return check.fail("code is empty".to_owned());
        }
        let [
            capture,
            check_word,
            mate,
            stalemate,
            en_passant,
            short_castling,
            long_castling,
            from,
            to,
            back,
            draw_offer,
            white_wins,
            black_wins,
            draw,
        ] = check.table(
            "words",
            self.words,
            [
                "capture",
                "check",
                "mate",
                "stalemate",
                "en_passant",
                "short_castling",
                "long_castling",
                "from",
                "to",
                "back",
                "draw_offer",
                "white_wins",
                "black_wins",
                "draw",
            ],
        )?;
        Ok(Phrasebook {
            letters: check.table("letters", self.letters, LETTER_KEYS)?,
            ranks: check.table("ranks", self.ranks, RANK_KEYS)?,
            pieces: check.table("pieces", self.pieces, PIECE_KEYS)?,
            words: Words {
                capture,
                check: check_word,
                mate,
                stalemate,
                en_passant,
                short_castling,
                long_castling,
                from,
                to,
                back,
                draw_offer,
                white_wins,
                black_wins,
                draw,
            },
            clock: ClockWords {
                own: self.clock.own,
                opponent: self.clock.opponent,
                hour: noun(self.clock.hour),
                minute: noun(self.clock.minute),
                second: noun(self.clock.second),
                moves: noun(self.clock.moves),
            },
            numbers: check.numbers(self.numbers)?,
            messages: check.messages(self.messages)?,
            commands: check.commands(&self.code, self.commands, self.question)?,
            draughts: match self.draughts {
                Some(table) => {
                    let [capture, via, king] = check.table("draughts", table, crate::draughts::KEYS)?;
                    Some(crate::draughts::DraughtsWords { capture, via, king })
                }
                None => None,
            },
            code: self.code,
            name: self.name,
        })
    }
}
