//! When the recogniser's partial result already decides (issue 14): the
//! words so far are a whole phrase of the grammar, and every longer phrase
//! that begins with them adds only words that change nothing (check, mate,
//! en passant). Then waiting for the silence that ends the utterance gains
//! nothing: the listening thread finishes the utterance at once.
//!
//! Pure: phrases in, a yes or no out.

use std::collections::BTreeSet;

/// The grammar of a position seen as prefixes.
#[derive(Debug, Clone, Default)]
pub struct Decisive {
    phrases: BTreeSet<String>,
    /// Neutral endings, each as its words.
    endings: Vec<Vec<String>>,
}

impl Decisive {
    /// The phrases of the recogniser's grammar (lower case, as Vosk writes
    /// them) and the neutral endings of the language.
    pub fn new(phrases: &[impl AsRef<str>], endings: &[impl AsRef<str>]) -> Decisive {
        let phrases =
            phrases.iter().map(|p| p.as_ref().trim().to_lowercase()).filter(|p| !p.is_empty()).collect();
        let mut endings: Vec<Vec<String>> = endings
            .iter()
            .map(|e| e.as_ref().split_whitespace().map(str::to_lowercase).collect::<Vec<_>>())
            .filter(|e: &Vec<String>| !e.is_empty())
            .collect();
        // Longest first, so "schach matt" is taken before "schach".
        endings.sort_by_key(|e| std::cmp::Reverse(e.len()));
        Decisive { phrases, endings }
    }

    /// Whether `partial` (a partial result) is a whole phrase that no longer
    /// phrase of the grammar changes.
    pub fn decides(&self, partial: &str) -> bool {
        let partial = partial.trim();
        if partial.is_empty() || partial.contains("[unk]") || !self.phrases.contains(partial) {
            return false;
        }
        let prefix = format!("{partial} ");
        self.phrases
            .range::<str, _>((std::ops::Bound::Included(prefix.as_str()), std::ops::Bound::Unbounded))
            .take_while(|p| p.starts_with(&prefix))
            .all(|longer| self.neutral(&longer[prefix.len()..]))
    }

    /// Whether `rest` is made of neutral endings only.
    fn neutral(&self, rest: &str) -> bool {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut at = 0;
        'next: while at < words.len() {
            for ending in &self.endings {
                let end = at + ending.len();
                if end <= words.len() && words[at..end].iter().zip(ending).all(|(w, e)| *w == e) {
                    at = end;
                    continue 'next;
                }
            }
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_phrase_decides_unless_a_longer_one_means_more() {
        let grammar = [
            "springer felix drei",
            "springer felix drei schach",
            "springer gustav eins felix drei",
            "eva vier",
            "remis",
            "remis stand",
            "dame hektor fünf schach matt",
            "dame hektor fünf",
            "[unk]",
        ];
        let d = Decisive::new(&grammar, &["schach", "matt", "schachmatt", "en passant"]);
        assert!(d.decides("springer felix drei"));
        assert!(d.decides("eva vier"));
        assert!(d.decides("dame hektor fünf"));
        assert!(d.decides("remis stand"));
        // A longer phrase means something else: wait for the end.
        assert!(!d.decides("remis"));
        // Not a whole phrase yet.
        assert!(!d.decides("springer gustav"));
        assert!(!d.decides("springer"));
        assert!(!d.decides(""));
        assert!(!d.decides("[unk]"));
        assert!(!d.decides("bauer eva vier"));
    }
}
