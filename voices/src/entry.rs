//! One word (or fixed phrase) of a phrasebook with the forms a listener accepts.
//!
//! Every word carries its accepted alternatives for listening; the listening-only command words
//! (`[commands]`, `[question]`) are entries too.

/// A word the station speaks, plus the other forms that mean the same when heard.
///
/// The speech-recognition side uses [`Entry::matches`] so that the phrasebook
/// stays the single source of truth for both directions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    say: String,
    also: Vec<String>,
}

impl Entry {
    /// An entry with its spoken form and accepted alternatives.
    pub fn new(say: impl Into<String>, also: Vec<String>) -> Self {
        Self { say: say.into(), also }
    }

    /// The form the station speaks.
    pub fn say(&self) -> &str {
        &self.say
    }

    /// Other forms accepted when listening (the spoken form is not repeated here).
    pub fn also(&self) -> &[String] {
        &self.also
    }

    /// Every accepted form, the spoken one first.
    pub fn accepted(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.say.as_str()).chain(self.also.iter().map(String::as_str))
    }

    /// Whether `heard` is one of the accepted forms, ignoring case and
    /// surrounding whitespace (recognisers rarely agree on capitalisation).
    pub fn matches(&self, heard: &str) -> bool {
        let heard = heard.trim();
        self.accepted().any(|form| form.to_lowercase() == heard.to_lowercase())
    }
}
