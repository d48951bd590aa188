//! Heard text as the recogniser writes it, the one rule chess and draughts
//! listening both read words by (a leaf: it depends on no other module).

/// Lower case, words of letters, digits, apostrophes and what `keep` says,
/// one space between words: the way Vosk writes what it heard.
pub(crate) fn normalise_keeping(text: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_alphanumeric() || c == '\'' || keep(c) {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}
