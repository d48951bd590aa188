//! Per-language pronunciation overrides for espeak-ng: data files
//! (`overrides/<lang>.toml`) compiled in, or loaded from a user's file.

use std::collections::BTreeMap;
use std::path::Path;

use station_audio::AudioError;

const BUILTIN: [(&str, &str); 3] = [
    ("de", include_str!("overrides/de.toml")),
    ("pl", include_str!("overrides/pl.toml")),
    ("en", include_str!("overrides/en.toml")),
];

/// Word → what espeak-ng is given instead (respelling or `[[phonemes]]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    words: BTreeMap<String, String>,
}

impl Overrides {
    /// The built-in overrides for a language (empty for unknown ones).
    pub fn builtin(language: &str) -> Overrides {
        BUILTIN
            .iter()
            .find(|(code, _)| *code == language)
            .and_then(|(code, text)| match Overrides::from_toml_str(text, code) {
                Ok(o) => Some(o),
                Err(e) => {
                    // Compiled-in data, checked by a test: warn rather than panic.
                    tracing::warn!(%e, "built-in pronunciation overrides unreadable");
                    None
                }
            })
            .unwrap_or_default()
    }

    /// Parses an overrides file: a flat TOML table of word = replacement.
    ///
    /// # Errors
    /// [`AudioError::Pack`] for bad TOML.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Overrides, AudioError> {
        let words: BTreeMap<String, String> = toml::from_str(text)
            .map_err(|e| AudioError::Pack { path: origin.into(), problem: format!("overrides: {e}") })?;
        Ok(Overrides { words })
    }

    /// Reads an overrides file.
    ///
    /// # Errors
    /// [`AudioError::Io`] or as [`Overrides::from_toml_str`].
    pub fn load(path: &Path) -> Result<Overrides, AudioError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| AudioError::Io { path: path.to_owned(), source })?;
        Overrides::from_toml_str(&text, &path.display().to_string())
    }

    /// Adds or replaces one override.
    pub fn insert(&mut self, word: impl Into<String>, say: impl Into<String>) {
        self.words.insert(word.into(), say.into());
    }

    /// Later overrides win over these.
    pub fn extend(&mut self, other: &Overrides) {
        self.words.extend(other.words.iter().map(|(k, v)| (k.clone(), v.clone())));
    }

    /// Number of overridden words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether nothing is overridden.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The text to give espeak-ng for `text`: each whitespace-separated word
    /// replaced if it has an override, so "Kurze Rochade" benefits from the
    /// override of "Rochade" alone. A whole-phrase override wins.
    pub fn apply(&self, text: &str) -> String {
        if let Some(whole) = self.words.get(text) {
            return whole.clone();
        }
        text.split_whitespace()
            .map(|w| self.words.get(w).map_or(w, String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_files_parse() {
        for (code, text) in BUILTIN {
            assert!(Overrides::from_toml_str(text, code).is_ok(), "{code}");
        }
        assert!(!Overrides::builtin("de").is_empty());
        assert!(Overrides::builtin("xx").is_empty());
    }

    #[test]
    fn apply_replaces_words_and_phrases() {
        let de = Overrides::builtin("de");
        assert_eq!(de.apply("Kurze Rochade"), "Kurze [[rOS'a:d@]]");
        assert_eq!(de.apply("Springer"), "Springer");
        let mut o = Overrides::default();
        o.insert("Lange Rochade", "x");
        assert_eq!(o.apply("Lange Rochade"), "x");
    }
}
