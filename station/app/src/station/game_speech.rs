//! The seam between the speech desk and each game's spoken moves: what
//! a game's speech gives the desk ([`GameSpeech`]) and what an utterance
//! understood in it does ([`SpokenMeaning`]).
//!
//! [`GameSpeech`] gives a game's grammar key and phrases and what an utterance means in the
//! position he speaks about; [`SpokenMeaning`] gives its `heard` line, whether its sound may be
//! kept, and acts on it.

use super::Station;
use anyhow::Result;
use serde_json::Value;
use station_core::{Event, Millis};

/// How the blind player's words are heard in one game kind: the grammar
/// the recogniser listens with, and what an utterance means. Chess (pieces
/// and squares, [`ChessSpeech`]) and draughts (square numbers,
/// `spoken_draughts`) each have one, found by the rules' name (`speech_desk::speech_of`).
pub(super) trait GameSpeech: Sync {
    /// The grammar's key: what it was built for (the position he speaks
    /// about, and the choices of a question open), so it is built again only
    /// when that changes.
    fn grammar_key(&self, station: &Station) -> String;

    /// The grammar's phrases for the key (the configured extra phrases are added by the station).
    fn grammar(&self, station: &mut Station) -> Result<Vec<String>>;

    /// What he said means in the position he speaks about.
    fn understand(&self, station: &mut Station, said: Said<'_>) -> Result<Box<dyn SpokenMeaning>, String>;
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

    /// Acts on it: a move announced to the table, a question asked back, a command carried out.
    fn act(self: Box<Self>, station: &mut Station, t: Millis, events: &mut Vec<Event>) -> Acted;
}
