//! The TOML shape of a phrasebook file and its validation into a [`Phrasebook`].
//!
//! Kept apart from [`Phrasebook`] so the in-memory form can use fixed arrays
//! (no lookups while wording a move) while the file stays readable tables.

use std::collections::BTreeMap;

use serde::Deserialize;
use shakmaty::Role;

use super::{ClockWords, Phrasebook, PieceWords, Words};
use crate::command_words::CommandWords;
use crate::command_words::{KEYS as COMMAND_KEYS, OPTIONAL_KEYS as COMMAND_OPTIONAL_KEYS};
use crate::entry::Entry;
use crate::error::VoiceError;
use crate::listening::{LetterStyle, ListeningWords, Substitution};
use crate::message::{Message, Messages};
use crate::numbers::{Agreement, CountedNoun, Gender, NumberWords, PluralRule, gender_index};
use crate::san_letters::{ClockLine, SAN_KEYS, SanLetters};

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
    /// The piece letters of a written move; optional in a loaded file (SAN's then).
    #[serde(default)]
    san: Option<BTreeMap<String, String>>,
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
    /// The start position read to him (optional).
    #[serde(default)]
    setup: Option<BTreeMap<String, EntryFile>>,
    /// What the station says about an engine opponent (optional, issue 26).
    #[serde(default)]
    practice: Option<BTreeMap<String, EntryFile>>,
    /// Listening only: other file names, fillers, promotion phrasings.
    #[serde(default)]
    listening: Option<ListeningFile>,
    /// Listening only: known mishearings for the repair (`[[repair]]`).
    #[serde(default)]
    repair: Vec<RepairFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListeningFile {
    /// Style name → the eight files' words.
    #[serde(default)]
    letters: BTreeMap<String, Vec<EntryFile>>,
    #[serde(default)]
    fillers: Vec<String>,
    #[serde(default)]
    promotion: Vec<String>,
    #[serde(default)]
    promotion_pieces: BTreeMap<String, EntryFile>,
    /// A word → spellings a speech model may list instead.
    #[serde(default)]
    spellings: BTreeMap<String, Vec<String>>,
    /// A word → its espeak-ng phonemes (issue 33).
    #[serde(default)]
    phonemes: BTreeMap<String, String>,
}

/// `alike = [...]` (each may be heard for each other) or `heard = [...]`
/// with `meant`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RepairFile {
    #[serde(default)]
    alike: Vec<String>,
    #[serde(default)]
    heard: Vec<String>,
    #[serde(default)]
    meant: Option<String>,
    cost: u8,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionFile {
    or: String,
    empty: String,
    none: String,
    /// Joins the ends of a run of empty squares ("bis"); optional (issue 18).
    #[serde(default)]
    through: Option<String>,
    /// Ends a correction read back in the record ("zurückgenommen"); optional (issue 18).
    #[serde(default)]
    taken_back: Option<String>,
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
    /// Heads the answer in time used (issue 18); optional in a loaded file.
    #[serde(default)]
    used: Option<String>,
    /// The Braille display's clock line; optional in a loaded file (English's then).
    #[serde(default)]
    line: Option<ClockLineFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockLineFile {
    white: String,
    black: String,
    #[serde(rename = "move")]
    moves: String,
    used: String,
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
    /// Whole words for 0–99 the template does not make ("veintidós").
    #[serde(default)]
    exact: BTreeMap<String, String>,
    /// An exact hundred's word where it differs ("cien").
    #[serde(default)]
    hundreds_alone: BTreeMap<String, String>,
    /// Tens digit → the tens word inside compounds (Hungarian "huszon").
    #[serde(default)]
    compound_ten: BTreeMap<String, String>,
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
    #[serde(default)]
    exact: BTreeMap<String, String>,
    #[serde(default)]
    hundreds: BTreeMap<String, String>,
}

/// The English book's text of `message`, read from its source (the fallback
/// of an optional message a loaded book lacks).
fn english_message(message: Message) -> Option<&'static str> {
    static MESSAGES: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    MESSAGES
        .get_or_init(|| {
            #[derive(Deserialize)]
            struct Messages {
                messages: BTreeMap<String, toml::Value>,
            }
            let Ok(file) = toml::from_str::<Messages>(super::ENGLISH_SOURCE) else { return BTreeMap::new() };
            file.messages
                .into_iter()
                .filter_map(|(id, value)| match value {
                    toml::Value::String(say) => Some((id, say)),
                    toml::Value::Table(t) => {
                        t.get("say").and_then(|s| s.as_str()).map(|s| (id, s.to_owned()))
                    }
                    _ => None,
                })
                .collect()
        })
        .get(message.id())
        .map(String::as_str)
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

    /// Whole words keyed by a number 0–99.
    fn exact(&self, what: &str, table: BTreeMap<String, String>) -> Result<BTreeMap<u8, String>, VoiceError> {
        let mut out = BTreeMap::new();
        for (key, word) in table {
            match key.parse::<u8>() {
                Ok(n) if n < 100 && !word.trim().is_empty() => {
                    out.insert(n, word);
                }
                _ => return self.fail(format!("{what}: key {key:?} is not a number 0-99 with a word")),
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
                exact: self.exact(&format!("numbers.genders.{name}.exact"), agreement.exact)?,
                hundreds: self.digits(&format!("numbers.genders.{name}.hundreds"), agreement.hundreds)?,
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
            exact: self.exact("numbers.exact", file.exact)?,
            hundreds_alone: self.digits("numbers.hundreds_alone", file.hundreds_alone)?,
            compound_ten: self.digits("numbers.compound_ten", file.compound_ten)?,
            genders,
        })
    }

    fn messages(&self, mut table: BTreeMap<String, EntryFile>) -> Result<Messages, VoiceError> {
        let mut out = Vec::with_capacity(Message::ALL.len());
        for message in Message::ALL {
            let entry = match table.remove(message.id()) {
                Some(entry) => Entry::from(entry),
                // A book written before the record's changes were told (issue
                // 22) still reads: those sentences come from the English book.
                None => match english_message(message).filter(|_| message.is_optional()) {
                    Some(say) => Entry::new(say.to_owned(), Vec::new()),
                    None => return self.fail(format!("[messages] lacks {:?}", message.id())),
                },
            };
            out.push(entry);
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
    /// The `[san]` table: a letter for each piece but the pawn, none unknown,
    /// and letters a written move reads back from; SAN's own without it.
    fn san(&self, table: Option<BTreeMap<String, String>>) -> Result<SanLetters, VoiceError> {
        let Some(mut table) = table else { return Ok(SanLetters::english()) };
        let mut letters = Vec::with_capacity(SAN_KEYS.len());
        for key in SAN_KEYS {
            let Some(letter) = table.remove(key) else {
                return self.fail(format!("[san] lacks {key:?}"));
            };
            letters.push(letter);
        }
        if let Some(extra) = table.keys().next() {
            return self.fail(format!("[san] has unknown key {extra:?}"));
        }
        let Ok(letters) = <[String; SAN_KEYS.len()]>::try_from(letters) else {
            return self.fail("[san] has the wrong number of letters".to_owned());
        };
        SanLetters::new(letters)
            .or_else(|why| self.fail(format!("[san]: {why}: a move could not be read back")))
    }

    /// The `[clock.line]` table: no empty word; English's without it.
    fn clock_line(&self, file: Option<ClockLineFile>) -> Result<ClockLine, VoiceError> {
        let Some(file) = file else { return Ok(ClockLine::default()) };
        for (key, word) in
            [("white", &file.white), ("black", &file.black), ("move", &file.moves), ("used", &file.used)]
        {
            if word.trim().is_empty() {
                return self.fail(format!("[clock.line] {key:?} is empty"));
            }
        }
        Ok(ClockLine { white: file.white, black: file.black, moves: file.moves, used: file.used })
    }

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
        for (key, word) in COMMAND_OPTIONAL_KEYS {
            let Some(entry) = table.remove(key) else { continue };
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
        let through = match q.through {
            Some(word) if word.trim().is_empty() => {
                return self.fail("[question] \"through\" is empty".to_owned());
            }
            Some(word) => word,
            None => "-".to_owned(),
        };
        let taken_back = match q.taken_back {
            Some(word) if word.trim().is_empty() => {
                return self.fail("[question] \"taken_back\" is empty".to_owned());
            }
            Some(word) => word,
            None => "-".to_owned(),
        };
        Ok(Some(CommandWords::new(code, words, q.or, [q.empty, q.none, through, taken_back])))
    }
}

impl Checker<'_> {
    fn listening(&self, file: Option<ListeningFile>) -> Result<ListeningWords, VoiceError> {
        let Some(file) = file else { return Ok(ListeningWords::default()) };
        let mut letter_styles = Vec::new();
        for (name, entries) in file.letters {
            let len = entries.len();
            let entries: Vec<Entry> = entries.into_iter().map(Entry::from).collect();
            if entries.iter().any(|e| e.accepted().any(|f| f.trim().is_empty())) {
                return self.fail(format!("[listening.letters] {name:?} has an empty word"));
            }
            let Ok(letters) = <[Entry; 8]>::try_from(entries) else {
                return self.fail(format!("[listening.letters] {name:?} needs 8 words, has {len}"));
            };
            letter_styles.push(LetterStyle { name, letters });
        }
        let mut promotion_pieces = Vec::new();
        for (key, entry) in file.promotion_pieces {
            let role = match key.as_str() {
                "queen" => Role::Queen,
                "rook" => Role::Rook,
                "bishop" => Role::Bishop,
                "knight" => Role::Knight,
                _ => return self.fail(format!("[listening.promotion_pieces] unknown piece {key:?}")),
            };
            promotion_pieces.push((role, Entry::from(entry)));
        }
        for (what, list) in [("fillers", &file.fillers), ("promotion", &file.promotion)] {
            if list.iter().any(|w| w.trim().is_empty()) {
                return self.fail(format!("[listening] {what} has an empty word"));
            }
        }
        let mut spellings = Vec::new();
        for (word, others) in file.spellings {
            if word.trim().is_empty() || others.is_empty() || others.iter().any(|o| o.trim().is_empty()) {
                return self
                    .fail(format!("[listening.spellings] {word:?} needs a word and at least one spelling"));
            }
            spellings.push((word.to_lowercase(), others.iter().map(|o| o.to_lowercase()).collect()));
        }
        let mut phonemes = Vec::new();
        for (word, sounds) in file.phonemes {
            if word.trim().is_empty() || word.contains(' ') || sounds.trim().is_empty() {
                return self.fail(format!(
                    "[listening.phonemes] {word:?} needs one word and its phonemes (station voices phonemes)"
                ));
            }
            phonemes.push((word.to_lowercase(), sounds));
        }
        Ok(ListeningWords {
            letter_styles,
            fillers: file.fillers,
            promotion: file.promotion,
            promotion_pieces,
            spellings,
            phonemes,
        })
    }

    fn repairs(&self, rows: Vec<RepairFile>) -> Result<Vec<Substitution>, VoiceError> {
        let mut out = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            let n = i + 1;
            if row.why.trim().is_empty() {
                return self.fail(format!("[[repair]] {n} has no why"));
            }
            if !(1..=9).contains(&row.cost) {
                return self.fail(format!("[[repair]] {n}: cost must be 1-9"));
            }
            let pairs: Vec<(String, String)> = match (row.alike.is_empty(), row.heard.is_empty(), row.meant) {
                (false, true, None) if row.alike.len() >= 2 => row
                    .alike
                    .iter()
                    .flat_map(|h| {
                        row.alike.iter().filter(move |m| *m != h).map(move |m| (h.clone(), m.clone()))
                    })
                    .collect(),
                (true, false, Some(meant)) => row.heard.iter().map(|h| (h.clone(), meant.clone())).collect(),
                _ => {
                    return self.fail(format!(
                        "[[repair]] {n}: either alike (two words or more) or heard with meant"
                    ));
                }
            };
            for (heard, meant) in pairs {
                let (heard, meant) = (heard.trim().to_lowercase(), meant.trim().to_lowercase());
                if heard.is_empty() || meant.is_empty() || heard.contains(' ') {
                    return self.fail(format!("[[repair]] {n}: heard must be one word, meant not empty"));
                }
                out.push(Substitution { heard, meant, cost: row.cost, why: row.why.clone() });
            }
        }
        Ok(out)
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
        Ok(Phrasebook {
            letters: check.table("letters", self.letters, LETTER_KEYS)?,
            ranks: check.table("ranks", self.ranks, RANK_KEYS)?,
            pieces: PieceWords {
                names: check.table("pieces", self.pieces, PIECE_KEYS)?,
                letters: check.san(self.san)?,
            },
            words: Words::from_entries(check.table("words", self.words, super::WORD_KEYS)?),
            clock: ClockWords {
                own: self.clock.own,
                opponent: self.clock.opponent,
                hour: noun(self.clock.hour),
                minute: noun(self.clock.minute),
                second: noun(self.clock.second),
                moves: noun(self.clock.moves),
                // A book without the word: the English one, never an answer
                // that sounds like the time left.
                used: self
                    .clock
                    .used
                    .filter(|w| !w.trim().is_empty())
                    .unwrap_or_else(|| "time used".to_owned()),
                line: check.clock_line(self.clock.line)?,
            },
            numbers: check.numbers(self.numbers)?,
            messages: check.messages(self.messages)?,
            commands: check.commands(&self.code, self.commands, self.question)?,
            listening: check.listening(self.listening)?,
            repairs: check.repairs(self.repair)?,
            draughts: match self.draughts {
                Some(table) => Some(super::DraughtsWords::from_entries(check.table(
                    "draughts",
                    table,
                    super::DRAUGHTS_KEYS,
                )?)),
                None => None,
            },
            setup: match self.setup {
                Some(table) => {
                    Some(super::SetupWords::from_entries(check.table("setup", table, super::SETUP_KEYS)?))
                }
                None => None,
            },
            practice: match self.practice {
                Some(table) => Some(super::PracticeWords {
                    words: check.table("practice", table, super::PRACTICE_KEYS)?,
                }),
                None => None,
            },
            code: self.code,
            name: self.name,
        })
    }
}
