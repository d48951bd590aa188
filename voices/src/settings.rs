//! Which voices the station uses: the `[voice]` table of the station config.

use serde::{Deserialize, Serialize};

/// How moves are worded. Deserialised from the station's `[voice]` table:
///
/// ```toml
/// [voice]
/// language = "pl"     # sentence words: pieces, capture, check, clock, messages
/// letters = "de"      # optional: Annex D letters (Anna, Bella, … David, Eva …)
/// ranks = "pl"        # optional: rank words from another phrasebook
/// name_pawns = false  # "Bauer Eva vier" instead of "Eva vier"
/// long_form = false   # always say the from-square too
/// ```
///
/// Annex D.2.1 lets the arbiter decide otherwise than the German defaults,
/// hence letters and ranks can come from a phrasebook other than `language`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VoiceSettings {
    /// Language code of the sentence words.
    pub language: String,
    /// Language code of the letter names; `None` means `language`.
    pub letters: Option<String>,
    /// Language code of the rank words; `None` means `language`.
    pub ranks: Option<String>,
    /// Name the pawn like any other piece.
    pub name_pawns: bool,
    /// Say the from-square and the to-square of every move.
    pub long_form: bool,
}

impl Default for VoiceSettings {
    /// German, as Annex D.2.1 recommends.
    fn default() -> Self {
        Self { language: "de".to_owned(), letters: None, ranks: None, name_pawns: false, long_form: false }
    }
}

impl VoiceSettings {
    /// Settings with this sentence language and everything else default.
    pub fn language(code: &str) -> Self {
        Self { language: code.to_owned(), ..Self::default() }
    }

    /// The language code the letter names come from.
    pub fn letters_language(&self) -> &str {
        self.letters.as_deref().unwrap_or(&self.language)
    }

    /// The language code the rank words come from.
    pub fn ranks_language(&self) -> &str {
        self.ranks.as_deref().unwrap_or(&self.language)
    }
}
