//! What a speaker is asked to say: owned text plus, where known, the pack key
//! of every word, and how urgent it is.

use station_voices::{Announcement, Message, Wording};

use station_voices::voice_pack::{message_key, word_key};

/// How urgent an utterance is. Higher pre-empts lower: an urgent message cuts
/// off a move being read, a move cuts off a clock report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Said only when nothing else is waiting (hints); dropped otherwise.
    Low,
    /// Messages, clock reports: queued in order.
    Normal,
    /// Move announcements: a newer move replaces a stale one, queued or playing.
    Move,
    /// Flag fall, board mismatch, arbiter: pre-empts everything else.
    Urgent,
}

/// One word of an utterance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtteranceWord {
    /// Pack key if the word came from the wording ("letter.e"), else looked up by text.
    pub key: Option<&'static str>,
    /// What is said.
    pub text: String,
}

/// Something to say, owned so it can cross to the speaker's thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Utterance {
    text: String,
    words: Vec<UtteranceWord>,
}

impl Utterance {
    /// Free text (clock reports, results): pack clips are found by text.
    pub fn text(text: impl Into<String>) -> Self {
        Self { text: text.into(), words: Vec::new() }
    }

    /// A worded move or correction: every token keeps its pack key.
    pub fn from_announcement(announcement: &Announcement<'_>) -> Self {
        let words: Vec<UtteranceWord> = announcement
            .tokens()
            .iter()
            .map(|t| UtteranceWord { key: Some(word_key(t.id)), text: t.text.to_owned() })
            .collect();
        Self { text: announcement.to_string(), words }
    }

    /// One of the station's messages in the wording's language.
    pub fn message(wording: &Wording, message: Message) -> Self {
        let text = wording.message(message).to_owned();
        Self { words: vec![UtteranceWord { key: Some(message_key(message)), text: text.clone() }], text }
    }

    /// The whole text, as shown on the event stream.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Keyed words, if the utterance came from the wording; empty for free text.
    pub fn words(&self) -> &[UtteranceWord] {
        &self.words
    }

    /// Number of words said (keyed tokens, or whitespace-separated words).
    pub fn word_count(&self) -> usize {
        if self.words.is_empty() { self.text.split_whitespace().count() } else { self.words.len() }
    }
}

impl std::fmt::Display for Utterance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}
