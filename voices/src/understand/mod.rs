//! Understanding spoken moves and commands (issue 6).
//!
//! The listening side of the phrasebooks: the same entries the station
//! speaks, with every accepted alternative, are what it listens for, so one
//! file per language serves both directions. Two products:
//!
//! * [`Understanding::grammar`] — the phrase list for the recogniser (Vosk)
//!   in a position: every legal move in every accepted phrasing, the
//!   commands, and "\[unk\]";
//! * [`Understanding::understand`] — a transcript back to a move, a command,
//!   a question ([`Understood::Ask`]) or a rejection, never a wrong move.
//!
//! ```
//! use station_voices::understand::{Understanding, Understood};
//! use station_voices::{VoiceSettings, position_from_fen};
//!
//! let understanding = Understanding::new(&VoiceSettings::language("de"))?;
//! let pos = position_from_fen("startpos")?;
//! let heard = understanding.understand(&pos, "Springer Felix drei", Some(0.95));
//! assert_eq!(heard.line(), "move g1f3 Nf3");
//! assert!(understanding.grammar(&pos).contains("springer gustav eins felix drei"));
//! # Ok::<(), station_voices::VoiceError>(())
//! ```
//!
//! Each phrase of the grammar keeps to one letter style, and the styles after the first offer each
//! word's first form only, so the grammar stays small enough to rebuild after every move. Repair by sound (issue 33) is in `sounds`, `pronounce`, `nearness`, `repair`,
//! `prior` (his board's move known) and `readings` (Vosk's n-best); questions are answered from
//! the board in `answer`, and the record by ear is `record`.

mod answer;
mod draughts;
mod grammar;
mod lexicon;
mod matching;
mod nearness;
mod prior;
mod pronounce;
mod readings;
mod record;
mod repair;
mod sounds;
mod spoken;

use std::fmt;
use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, File, Move, Position, Rank, Role, Square};

pub use crate::command_words::{CommandWord, CommandWords};
pub use draughts::{DraughtsUnderstood, draughts_command, pdn_of};
pub use grammar::Grammar;
pub use pronounce::{Pronouncer, words_to_pronounce};
pub use readings::MIN_READING_SHARE;
pub use record::{RecordCursor, RecordMark, RecordStep};

use crate::error::VoiceError;
use crate::fen::position_from_fen;
use crate::phrasebook::Phrasebooks;
use crate::settings::VoiceSettings;
use crate::wording::Wording;
use grammar::Forms;
use lexicon::{LexError, Lexicon, normalise};
use matching::Matched;
use prior::Verdict;
use repair::Repairs;
use spoken::Spoken;

/// Below this recogniser confidence (the weakest word's) a move is
/// confirmed before it counts (`[speech] move_confidence`). Measured with
/// the Korean proxy model (issue 14, `word_confidence_of_right_and_misheard_phrases`):
/// right transcripts have a weakest word of 1.00 at the median and p10, so
/// from 0.7 to 0.95 the same one right transcript in 45 is asked, while 0.9
/// asks 36 of 66 misheard ones against 12 at 0.6.
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.9;
/// Below this recogniser confidence a command is not acted on
/// (`[speech] command_confidence`); the same measurement as for moves.
pub const DEFAULT_COMMAND_CONFIDENCE: f32 = 0.9;
/// Below this recogniser confidence a move whose phrase is one known
/// mishearing away from another legal move is confirmed first
/// (`[speech] sure_confidence`): only a transcript the recogniser is
/// entirely sure of is made when an alike-sounding legal move exists.
pub const DEFAULT_SURE_CONFIDENCE: f32 = 0.99;

/// Whose pieces a question is about, seen from the speaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The speaker's own pieces.
    Mine,
    /// The opponent's pieces.
    His,
}

impl Side {
    /// "mine" or "his".
    pub fn name(self) -> &'static str {
        match self {
            Side::Mine => "mine",
            Side::His => "his",
        }
    }
}

/// A command the speaker gave instead of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpokenCommand {
    /// Read the clock (Annex D.2.6.1).
    Time,
    /// Say the last move again.
    Repeat,
    /// The last announcement or move was wrong.
    Correction,
    /// Yes (answer to a confirm question).
    Yes,
    /// No.
    No,
    /// The speaker offers a draw.
    DrawOffer,
    /// The speaker resigns.
    Resign,
    /// Where is a piece kind; `side` is `None` when neither "my" nor "his"
    /// was said (the station then reads both sides).
    WhereIs {
        /// The piece kind asked about.
        role: Role,
        /// Whose pieces, if said.
        side: Option<Side>,
    },
    /// What stands on a square.
    WhatStandsOn(Square),
    /// Read all pieces of one side.
    ReadPieces(Side),
    /// Say again what differs between his board and the game.
    ReadDifference,
    /// A question about the draw facts ("Remis Stand"): never an offer.
    DrawStatus,
    /// Read the last five moves of the record with their numbers.
    ReadRecord,
    /// One move back in the record, like a tape.
    RecordBack,
    /// One move forward in the record.
    RecordForward,
    /// Jump to a move number in the record ("Zug dreiundzwanzig"); any
    /// number up to 999 is understood, the record says whether it exists.
    GoToMove(u16),
    /// The squares of one rank with their pieces ("Reihe vier").
    ReadRank(Rank),
    /// The squares of one file with their pieces ("Linie Eva").
    ReadFile(File),
    /// The pieces each side has lost.
    Material,
    /// End the current answer at once.
    Silence,
    /// Speak faster (every voice).
    Faster,
    /// Speak slower (every voice).
    Slower,
    /// The talking clock reads the time used from now on ("Zeit verbraucht").
    ClockUsed,
    /// The talking clock reads the time left from now on ("Restzeit").
    ClockRemaining,
    /// Practice (issue 26): take back his last move and the engine's reply.
    TakeBack,
    /// Practice: a hint, one move, in words.
    Hint,
    /// Practice: a new game, from the start or (with a number) from a famous game's position.
    NewGame(Option<u16>),
    /// Practice: the engine one level stronger from the next game on.
    Stronger,
    /// Practice: the engine one level weaker from the next game on.
    Weaker,
    /// Practice: after the game, the moves where his evaluation dropped most.
    Review,
}

impl SpokenCommand {
    /// The stable name: `time`, `repeat`, `correction`, `yes`, `no`,
    /// `draw_offer`, `resign`, `where_is`, `what_stands_on`, `read_pieces`,
    /// `read_difference`, `draw_status`, `read_record`, `record_back`,
    /// `record_forward`, `go_to_move`, `read_rank`, `read_file`, `material`,
    /// `silence`, `faster`, `slower`, `clock_used`, `clock_remaining`,
    /// `take_back`, `hint`, `new_game`, `stronger`, `weaker`, `review`.
    pub fn name(&self) -> &'static str {
        match self {
            SpokenCommand::Time => "time",
            SpokenCommand::Repeat => "repeat",
            SpokenCommand::Correction => "correction",
            SpokenCommand::Yes => "yes",
            SpokenCommand::No => "no",
            SpokenCommand::DrawOffer => "draw_offer",
            SpokenCommand::Resign => "resign",
            SpokenCommand::WhereIs { .. } => "where_is",
            SpokenCommand::WhatStandsOn(_) => "what_stands_on",
            SpokenCommand::ReadPieces(_) => "read_pieces",
            SpokenCommand::ReadDifference => "read_difference",
            SpokenCommand::DrawStatus => "draw_status",
            SpokenCommand::ReadRecord => "read_record",
            SpokenCommand::RecordBack => "record_back",
            SpokenCommand::RecordForward => "record_forward",
            SpokenCommand::GoToMove(_) => "go_to_move",
            SpokenCommand::ReadRank(_) => "read_rank",
            SpokenCommand::ReadFile(_) => "read_file",
            SpokenCommand::Material => "material",
            SpokenCommand::Silence => "silence",
            SpokenCommand::Faster => "faster",
            SpokenCommand::Slower => "slower",
            SpokenCommand::ClockUsed => "clock_used",
            SpokenCommand::ClockRemaining => "clock_remaining",
            SpokenCommand::TakeBack => "take_back",
            SpokenCommand::Hint => "hint",
            SpokenCommand::NewGame(_) => "new_game",
            SpokenCommand::Stronger => "stronger",
            SpokenCommand::Weaker => "weaker",
            SpokenCommand::Review => "review",
        }
    }
}

impl fmt::Display for SpokenCommand {
    /// The name and its arguments: `where_is mine queen`, `where_is any
    /// knight`, `what_stands_on e4`, `read_pieces his`, `go_to_move 23`,
    /// `read_rank 4`, `read_file e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            SpokenCommand::WhereIs { role, side } => {
                write!(f, " {} {}", side.map_or("any", Side::name), role_name(*role))
            }
            SpokenCommand::WhatStandsOn(square) => write!(f, " {square}"),
            SpokenCommand::ReadPieces(side) => write!(f, " {}", side.name()),
            SpokenCommand::GoToMove(number) | SpokenCommand::NewGame(Some(number)) => write!(f, " {number}"),
            SpokenCommand::ReadRank(rank) => write!(f, " {}", rank.char()),
            SpokenCommand::ReadFile(file) => write!(f, " {}", file.char()),
            _ => Ok(()),
        }
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// Why the station asks back instead of taking a move.
#[derive(Debug, Clone, PartialEq)]
pub enum AskReason {
    /// Several legal moves fit every word said.
    Ambiguous,
    /// The move fits, but the recogniser was unsure (its confidence).
    LowConfidence(f32),
    /// The moves fit only if part of what was said is ignored (why, in words).
    Inexact(String),
    /// No legal move fits the words heard; these fit after known
    /// mishearings were repaired (what was heard, what fits).
    Repaired(String),
    /// The move fits, but one known mishearing away lies another legal move
    /// and the recogniser was not sure enough (its confidence).
    Twin(f32),
}

impl Eq for AskReason {}

impl fmt::Display for AskReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskReason::Ambiguous => f.write_str("several moves fit"),
            AskReason::LowConfidence(c) => write!(f, "recogniser confidence {c:.2} is low"),
            AskReason::Inexact(why) | AskReason::Repaired(why) => f.write_str(why),
            AskReason::Twin(c) => {
                write!(f, "another move sounds alike and the recogniser confidence {c:.2} is not sure")
            }
        }
    }
}

/// Why a transcript was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum RejectReason {
    /// Nothing was said.
    Empty,
    /// The recogniser heard something outside its grammar ("\[unk\]").
    NotUnderstood,
    /// A word that is not a listening word of this language.
    UnknownWord(String),
    /// The words do not form a move or a command (what is wrong).
    Malformed(String),
    /// A well-formed move that no legal move fits (what was said).
    NoSuchMove(String),
    /// The position has no legal moves.
    NoMoves,
    /// A command heard with too little confidence to act on.
    LowConfidence(f32),
}

impl Eq for RejectReason {}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RejectReason::Empty => f.write_str("nothing was said"),
            RejectReason::NotUnderstood => f.write_str("not understood (outside the expected words)"),
            RejectReason::UnknownWord(word) => write!(f, "unknown word {word:?}"),
            RejectReason::Malformed(what) => write!(f, "not a move or command: {what}"),
            RejectReason::NoSuchMove(what) => f.write_str(what),
            RejectReason::NoMoves => f.write_str("no legal moves: the game is over"),
            RejectReason::LowConfidence(c) => {
                write!(f, "recogniser confidence {c:.2} is too low for a command")
            }
        }
    }
}

/// What a transcript means in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Understood {
    /// Exactly one legal move, heard confidently.
    Move {
        /// The move.
        mv: Move,
        /// UCI ("g1f3", castling as "e1g1").
        uci: String,
        /// SAN with check or mate sign ("Nf3", "Qxf7#").
        san: String,
    },
    /// Said with the board's move known ([`Understanding::understand_expecting`]):
    /// the words clearly name another legal move, a slip of the tongue (D.2.8).
    Slip {
        /// The move the words name.
        mv: Move,
        /// UCI ("g1f3", castling as "e1g1").
        uci: String,
        /// SAN with check or mate sign.
        san: String,
    },
    /// The station must ask back (see [`Understanding::confirm_question`]).
    Ask {
        /// The legal moves that fit, in move-generation order.
        candidates: Vec<Move>,
        /// Why it asks.
        reason: AskReason,
    },
    /// A command.
    Command(SpokenCommand),
    /// Not a move, not a command.
    Reject(RejectReason),
}

impl Understood {
    /// One line for `station understand`: `move UCI SAN`, `slip UCI SAN`,
    /// `ask UCI…` (nearest first), `command NAME [ARGS]` or `reject REASON`.
    pub fn line(&self) -> String {
        match self {
            Understood::Move { uci, san, .. } => format!("move {uci} {san}"),
            Understood::Slip { uci, san, .. } => format!("slip {uci} {san}"),
            Understood::Ask { candidates, .. } => {
                let mut line = "ask".to_owned();
                for mv in candidates {
                    line.push(' ');
                    line.push_str(&uci(*mv));
                }
                line
            }
            Understood::Command(command) => format!("command {command}"),
            Understood::Reject(reason) => format!("reject {reason}"),
        }
    }
}

/// The move heard first, then the legal moves that sound alike, unless
/// there are too many to name.
fn with_twins(mv: Move, twins: Vec<Move>) -> Vec<Move> {
    let mut candidates = vec![mv];
    if twins.len() < repair::MAX_CHOICES {
        candidates.extend(twins);
    }
    candidates
}

/// A legal move made: with its UCI and SAN.
fn made(pos: &Chess, mv: Move) -> Understood {
    Understood::Move { mv, uci: uci(mv), san: SanPlus::from_move(pos.clone(), mv).to_string() }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// The listening side of one voice configuration.
#[derive(Debug, Clone)]
pub struct Understanding {
    wording: Wording,
    long_wording: Wording,
    /// His moves as he chose to hear them (`move_reading`: letters or ICCF
    /// numbers), for reading the record back; asking back stays in letters.
    record_wording: Wording,
    lexicon: Lexicon,
    repairs: Repairs,
    forms: Forms,
    or: String,
    empty: String,
    none: String,
    through: String,
    /// "Korrektur" and "zurückgenommen": a take-back read back in the record.
    correction: String,
    taken_back: String,
    min_confidence: f32,
    command_confidence: f32,
    sure_confidence: f32,
}

impl Understanding {
    /// Understanding with the built-in phrasebooks and command words.
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`] if a code in `settings` is not built in.
    pub fn new(settings: &VoiceSettings) -> Result<Understanding, VoiceError> {
        Understanding::with_phrasebooks(settings, &Phrasebooks::builtin())
    }

    /// Understanding of one built-in language with default settings.
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`].
    pub fn language(code: &str) -> Result<Understanding, VoiceError> {
        Understanding::new(&VoiceSettings::language(code))
    }

    /// Understanding choosing from `books`; command words are those of the
    /// sentence language's phrasebook, or none (moves only) when it has no
    /// `[commands]` — see [`Understanding::with_command_words`].
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`] if a code in `settings` is not in `books`.
    pub fn with_phrasebooks(
        settings: &VoiceSettings,
        books: &Phrasebooks,
    ) -> Result<Understanding, VoiceError> {
        let commands = books
            .get(&settings.language)?
            .command_words()
            .cloned()
            .unwrap_or_else(|| CommandWords::none(&settings.language));
        Understanding::with_command_words(settings, books, &commands)
    }

    /// Understanding with explicit command words (for loaded languages).
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`] if a code in `settings` is not in `books`.
    pub fn with_command_words(
        settings: &VoiceSettings,
        books: &Phrasebooks,
        commands: &CommandWords,
    ) -> Result<Understanding, VoiceError> {
        let record_wording = Wording::with_phrasebooks(settings, books)?;
        // He speaks moves by letter names; what is asked back is worded so,
        // whatever `move_reading` reads his moves to him as.
        let settings =
            &VoiceSettings { move_reading: crate::settings::MoveReading::Letters, ..settings.clone() };
        let sentence = books.get(&settings.language)?;
        let letters = books.get(settings.letters_language())?;
        let ranks = books.get(settings.ranks_language())?;
        let long = VoiceSettings { long_form: true, ..settings.clone() };
        let lexicon = Lexicon::new(&sentence, &letters, &ranks, commands);
        let repairs = Repairs::new([sentence.clone(), letters.clone(), ranks.clone()], &lexicon);
        Ok(Understanding {
            wording: Wording::with_phrasebooks(settings, books)?,
            long_wording: Wording::with_phrasebooks(&long, books)?,
            record_wording,
            lexicon,
            repairs,
            forms: Forms::new(&sentence, &letters, &ranks, commands),
            or: commands.or().to_owned(),
            empty: commands.empty().to_owned(),
            none: commands.no_such_piece().to_owned(),
            through: commands.through().to_owned(),
            correction: commands
                .entry(CommandWord::Correction)
                .map_or_else(|| "-".to_owned(), |e| e.say().to_owned()),
            taken_back: commands.taken_back().to_owned(),
            min_confidence: DEFAULT_MIN_CONFIDENCE,
            command_confidence: DEFAULT_COMMAND_CONFIDENCE,
            sure_confidence: DEFAULT_SURE_CONFIDENCE,
        })
    }

    /// Sets the confidence below which a move is asked back rather than taken
    /// and a command is rejected (default [`DEFAULT_MIN_CONFIDENCE`]).
    pub fn with_min_confidence(mut self, min_confidence: f32) -> Understanding {
        self.min_confidence = min_confidence;
        self.command_confidence = min_confidence;
        self
    }

    /// Sets the three confidence thresholds (`[speech] move_confidence`,
    /// `command_confidence`, `sure_confidence`): below `make` a move is asked
    /// back; below `command` a command is refused; below `sure` a move one
    /// known mishearing away from another legal move is asked back.
    pub fn with_confidences(mut self, make: f32, command: f32, sure: f32) -> Understanding {
        self.min_confidence = make;
        self.command_confidence = command;
        self.sure_confidence = sure;
        self
    }

    /// The words that may follow a complete move phrase without changing
    /// the move (check, mate, stalemate, en passant), lower-cased: the
    /// listening thread decides without waiting for them.
    pub fn neutral_endings(&self) -> Vec<String> {
        self.forms.neutral_endings()
    }

    /// The wording the station speaks with (for confirm questions and replies).
    pub fn wording(&self) -> &Wording {
        &self.wording
    }

    /// Listening forms that mean two different things in this configuration
    /// (the first meaning wins); empty for the built-in languages.
    pub fn conflicts(&self) -> &[String] {
        self.lexicon.conflicts()
    }

    /// The recogniser's phrase list for `pos`: every legal move in every
    /// accepted phrasing, the commands and "\[unk\]", lower-cased and
    /// deduplicated.
    pub fn grammar(&self, pos: &Chess) -> Grammar {
        self.forms.grammar(pos)
    }

    /// Lets `pronouncer` (espeak-ng, in the station) say how words sound
    /// that no phrasebook's `[listening.phonemes]` holds: listening words of
    /// a phrasebook without them now, heard or typed words outside the
    /// listening words when they come. Without one such words are compared
    /// by their spelling.
    pub fn with_pronouncer(mut self, pronouncer: Arc<dyn Pronouncer>) -> Understanding {
        self.repairs.set_pronouncer(pronouncer);
        self
    }

    /// Listening words whose sound no phrasebook (and no pronouncer) gives:
    /// the repair compares them by their spelling. Empty for the built-in
    /// languages.
    pub fn unpronounced(&self) -> &[String] {
        self.repairs.unpronounced()
    }

    /// Every legal move of `pos` with how near `text` comes to it by sound
    /// (0: word for word), nearest first: what the repair decides on, for
    /// measurements and tuning.
    pub fn sound_ranking(&self, pos: &Chess, text: &str) -> Vec<(Move, f32)> {
        self.repairs.hearing(&self.lexicon, &normalise(text)).rank(pos)
    }

    /// What `text` (a transcript, or typed words) means in `pos`, with no
    /// board to check it against (speech only).
    /// `confidence` is the recogniser's (0–1); `None` for typed text.
    pub fn understand(&self, pos: &Chess, text: &str, confidence: Option<f32>) -> Understood {
        self.understand_expecting(pos, text, confidence, None)
    }

    /// What `text` means in `pos` when his board already shows `board`, his
    /// move (issue 33, D.2.8): words the repair brings to it at a cost no
    /// other legal move beats are that move ([`Understood::Move`]); words that
    /// clearly name another legal move are a slip of the tongue
    /// ([`Understood::Slip`]); between the two the nearest moves are asked,
    /// nearest first. `[unk]` is a gap, not a contradiction. Without a board
    /// (`None`, or a move not legal in `pos`) as [`Understanding::understand`].
    pub fn understand_expecting(
        &self,
        pos: &Chess,
        text: &str,
        confidence: Option<f32>,
        board: Option<Move>,
    ) -> Understood {
        let normalised = normalise(text);
        let understood = self.understand_words(pos, &normalised, confidence);
        match board {
            Some(board) if pos.is_legal(board) => {
                self.with_board(pos, &normalised, confidence, board, understood)
            }
            _ => self.without_board(pos, &normalised, confidence, understood),
        }
    }

    fn without_board(
        &self,
        pos: &Chess,
        normalised: &str,
        confidence: Option<f32>,
        understood: Understood,
    ) -> Understood {
        match understood {
            // A phrase that names no legal move, or names one with something
            // unheard in it: repaired by sound, and only ever asked.
            Understood::Reject(
                RejectReason::NoSuchMove(_)
                | RejectReason::UnknownWord(_)
                | RejectReason::Malformed(_)
                | RejectReason::NotUnderstood,
            ) if !self.is_command(normalised) => match self.repairs.repair(&self.lexicon, pos, normalised) {
                Some(repaired) => {
                    let reason = AskReason::Repaired(format!(
                        "heard \"{normalised}\"; nearest by sound: {}",
                        self.confirm_question(pos, &repaired.moves)
                    ));
                    Understood::Ask { candidates: repaired.moves, reason }
                }
                None => understood,
            },
            // Made only when the recogniser is sure, or when no alike-sounding
            // phrase names another legal move; else the choices are named,
            // the move heard first.
            Understood::Move { mv, .. } if confidence.is_some_and(|c| c < self.sure_confidence) => {
                let twins = self.repairs.twins(&self.lexicon, pos, normalised, mv);
                if twins.is_empty() {
                    return understood;
                }
                let reason = AskReason::Twin(confidence.unwrap_or_default());
                Understood::Ask { candidates: with_twins(mv, twins), reason }
            }
            // Asked for a low confidence: the alike-sounding moves are named too.
            Understood::Ask { candidates, reason: reason @ AskReason::LowConfidence(_) }
                if candidates.len() == 1 =>
            {
                let twins = self.repairs.twins(&self.lexicon, pos, normalised, candidates[0]);
                Understood::Ask { candidates: with_twins(candidates[0], twins), reason }
            }
            other => other,
        }
    }

    /// Whether the words, what was not heard left out, are a command
    /// ("[unk] Zeit"), or begin with a command that takes words after it
    /// ("Reihe neun"): no move is to be made of them.
    fn is_command(&self, normalised: &str) -> bool {
        let rest: Vec<&str> = normalised.split(' ').filter(|w| *w != "[unk]").collect();
        let Ok(meanings) = self.lexicon.read(&rest.join(" ")) else { return false };
        matches!(spoken::read(&meanings), Ok(Spoken::Command(_)))
            || matches!(
                meanings.first(),
                Some(lexicon::Meaning::Command(
                    CommandWord::WhereIs
                        | CommandWord::WhatStandsOn
                        | CommandWord::ReadRank
                        | CommandWord::ReadFile
                        | CommandWord::GoToMove
                        | CommandWord::NewGame
                ))
            )
    }

    fn with_board(
        &self,
        pos: &Chess,
        normalised: &str,
        confidence: Option<f32>,
        board: Move,
        understood: Understood,
    ) -> Understood {
        if let Understood::Command(_)
        | Understood::Reject(
            RejectReason::Empty | RejectReason::LowConfidence(_) | RejectReason::NoMoves,
        ) = understood
        {
            return understood;
        }
        let mut hearing = self.repairs.hearing(&self.lexicon, normalised);
        if !hearing.has_words() || self.is_command(normalised) {
            return match understood {
                reject @ Understood::Reject(_) => reject,
                _ => Understood::Reject(RejectReason::NotUnderstood),
            };
        }
        let ranked = hearing.rank_held(pos);
        let sure = confidence.is_none_or(|c| c >= self.sure_confidence);
        match prior::judge(&ranked, board, sure) {
            Verdict::Board => made(pos, board),
            Verdict::Slip(mv) => match made(pos, mv) {
                Understood::Move { mv, uci, san } => Understood::Slip { mv, uci, san },
                other => other,
            },
            Verdict::Ask(candidates) => {
                let reason = AskReason::Repaired(format!(
                    "heard \"{normalised}\"; nearer another move than the board's: {}",
                    self.confirm_question(pos, &candidates)
                ));
                Understood::Ask { candidates, reason }
            }
            Verdict::Reject => match understood {
                reject @ Understood::Reject(_) => reject,
                _ => Understood::Reject(RejectReason::NoSuchMove(format!(
                    "\"{normalised}\" is near no legal move"
                ))),
            },
        }
    }

    fn understand_words(&self, pos: &Chess, normalised: &str, confidence: Option<f32>) -> Understood {
        let meanings = match self.lexicon.read(normalised) {
            Ok(meanings) => meanings,
            Err(LexError::Empty) => return Understood::Reject(RejectReason::Empty),
            Err(LexError::Unheard) => return Understood::Reject(RejectReason::NotUnderstood),
            Err(LexError::Unknown(word)) => return Understood::Reject(RejectReason::UnknownWord(word)),
        };
        let unsure = confidence.filter(|c| c.is_nan() || *c < self.min_confidence);
        let unsure_command = confidence.filter(|c| c.is_nan() || *c < self.command_confidence);
        match spoken::read(&meanings) {
            Err(what) => Understood::Reject(RejectReason::Malformed(what)),
            Ok(Spoken::Command(command)) => match unsure_command {
                Some(c) => Understood::Reject(RejectReason::LowConfidence(c)),
                None => Understood::Command(command),
            },
            Ok(Spoken::Move(spoken)) => match matching::match_move(pos, &spoken) {
                Matched::One(mv) => match unsure {
                    Some(c) => Understood::Ask { candidates: vec![mv], reason: AskReason::LowConfidence(c) },
                    None => made(pos, mv),
                },
                Matched::Ask(candidates, reason) => Understood::Ask { candidates, reason },
                Matched::None(reason) => Understood::Reject(reason),
            },
        }
    }

    /// The question that confirms candidates: "Springer Felix drei?" for one,
    /// long forms joined by the language's "or" for several ("Springer
    /// Bella eins David zwei oder Springer Felix drei David zwei?"). Moves
    /// not legal in `pos` are left out; no legal candidate gives "".
    pub fn confirm_question(&self, pos: &Chess, candidates: &[Move]) -> String {
        let wording = if candidates.len() > 1 { &self.long_wording } else { &self.wording };
        let mut out = String::new();
        for mv in candidates {
            let Ok(said) = wording.word_move(pos, mv) else { continue };
            if !out.is_empty() {
                out.push(' ');
                out.push_str(&self.or);
                out.push(' ');
            }
            said.write_to(&mut out);
        }
        if !out.is_empty() {
            out.push('?');
        }
        out
    }
}

/// `station understand --lang L [--fen FEN] TEXT`: the one-line answer
/// (see [`Understood::line`]) for typed text, taken as fully confident.
///
/// # Errors
/// [`VoiceError::UnknownLanguage`] or [`VoiceError::BadPosition`].
pub fn understand_line(lang: &str, fen: &str, text: &str) -> Result<String, VoiceError> {
    let understanding = Understanding::language(lang)?;
    let pos = position_from_fen(fen)?;
    Ok(understanding.understand(&pos, text, None).line())
}

/// The move `text` names in `pos` (UCI, or SAN), or why it names none.
///
/// # Errors
/// [`VoiceError::BadMove`] for a text that is no legal move of `pos`.
pub fn legal_move(pos: &Chess, text: &str) -> Result<Move, VoiceError> {
    let bad = |problem: &str| VoiceError::BadMove { text: text.to_owned(), problem: problem.to_owned() };
    if let Ok(uci) = text.parse::<shakmaty::uci::UciMove>() {
        return uci.to_move(pos).map_err(|_| bad("not among the legal moves"));
    }
    let san = text.parse::<shakmaty::san::SanPlus>().map_err(|_| bad("neither UCI nor SAN"))?;
    san.san.to_move(pos).map_err(|_| bad("not among the legal moves"))
}

#[cfg(test)]
mod tests;
