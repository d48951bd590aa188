//! The seam between the speech desk and each game's spoken moves: what
//! a game's speech gives the desk ([`GameSpeech`]) and what an utterance
//! understood in it does ([`SpokenMeaning`]).
//!
//! [`GameSpeech`] gives a game's grammar key and phrases and what an utterance means in the
//! position he speaks about; [`SpokenMeaning`] gives its `heard` line, whether its sound may be
//! kept, and what the station must do for it ([`Deed`]). A game reads the station only through a
//! [`SpeechView`] (the table and the question open) and changes nothing: the desk carries the deed
//! out, so what is journaled and said stays the station's.

use super::Asked;
use serde_json::Value;
use station_core::table::Table;
use station_voices::understand::{SpokenCommand, Understanding};

/// What a game's speech reads of the station: the table and the question open.
#[derive(Clone, Copy)]
pub(super) struct SpeechView<'a> {
    /// The table: the position he speaks about, his board's move.
    pub table: &'a Table,
    /// What the blind player was asked back and has not answered.
    pub asked: Option<&'a Asked>,
}

impl SpeechView<'_> {
    /// The moves of the draughts question open in the position with `fen`.
    pub fn open_choices(&self, fen: &str) -> Vec<String> {
        match self.asked {
            Some(Asked::Draughts { fen: asked, moves, .. }) if asked == fen => moves.clone(),
            _ => Vec::new(),
        }
    }
}

/// How the blind player's words are heard in one game kind: the grammar
/// the recogniser listens with, and what an utterance means. Chess (pieces
/// and squares, [`ChessSpeech`]) and draughts (square numbers,
/// `spoken_draughts`) each have one, found by the rules' name (`speech_desk::speech_of`).
pub(super) trait GameSpeech: Sync {
    /// The grammar's key: what it was built for (the position he speaks
    /// about, and the choices of a question open), so it is built again only
    /// when that changes.
    fn grammar_key(&self, view: SpeechView<'_>) -> String;

    /// The grammar's phrases for the key (the configured extra phrases are added by the station).
    fn grammar(&self, view: SpeechView<'_>, understanding: &Understanding) -> Vec<String>;

    /// What he said means in the position he speaks about.
    fn understand(
        &self,
        view: SpeechView<'_>,
        understanding: &Understanding,
        said: Said<'_>,
    ) -> Result<Box<dyn SpokenMeaning>, String>;
}

/// What the blind player said, as the recogniser (or a typed test line) gives it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Said<'a> {
    /// The words, the best reading.
    pub text: &'a str,
    /// The recogniser's confidence, when it gave one.
    pub confidence: Option<f32>,
    /// The recogniser's readings, best first (`text` the first), with their
    /// likelihood shares; empty when it gave one.
    pub readings: &'a [(String, f32)],
}

/// What acting on an utterance gives: the answer to the command, or why it was refused.
pub(super) type Acted = Result<Value, String>;

/// What was heard, understood once: the `heard` event names it, then the station acts on it.
pub(super) trait SpokenMeaning {
    /// The `heard` event's `understood`.
    fn line(&self) -> String;

    /// The answer to a question (yes, or a choice's number): the sound kept is the question's move's.
    fn is_answer(&self) -> bool;

    /// A move or a question about moves: its sound may be kept.
    fn is_move(&self) -> bool;

    /// What the station must do for it: a move announced to the table, a
    /// question asked back, a command carried out.
    fn act(self: Box<Self>, view: SpeechView<'_>, understanding: &Understanding) -> Deed;
}

/// What an utterance asks of the station, as its game understood it; the
/// speech desk carries it out (`Station::carry_out`).
pub(super) enum Deed {
    /// His move, as the game's inputs write it (UCI, PDN), announced to the
    /// table; `answer` once the table took it.
    Announce { mv: String, answer: Value },
    /// A question asked back, said to him; a yes (or a choice) answers `asked`.
    Ask { question: String, asked: Option<Asked>, answer: Value },
    /// Said to him again, the question open unchanged.
    Repeat { question: String, answer: Value },
    /// A command word, the same in every game.
    Command(SpokenCommand),
    /// Nothing to do but answer.
    Answer(Value),
}
