//! Heard text as the recogniser writes it, the one rule chess and draughts
//! listening both read words by (a leaf: it depends on no other module).

/// Lower case, words of letters, digits, apostrophes and what `keep` says,
/// one space between words: the way Vosk writes what it heard. The
/// apostrophes Ukrainian is typed with ("п’ять", "пʼять") are the ASCII one
/// the phrasebooks write ("п'ять").
pub(crate) fn normalise_keeping(text: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = if is_apostrophe(c) { '\'' } else { c };
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

/// The apostrophe and the characters typed for it inside a word: the right
/// single quotation mark and the modifier letter apostrophe.
fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '\u{02BC}')
}

#[cfg(test)]
mod tests {
    use super::normalise_keeping;

    #[test]
    fn cyrillic_is_lower_cased_and_every_apostrophe_is_one() {
        let plain = |t: &str| normalise_keeping(t, |_| false);
        assert_eq!(plain("КОНЬ ЭФ-ТРИ!"), "конь эф три");
        assert_eq!(plain("Е БЬЁТ, дэ пять."), "е бьёт дэ пять");
        for typed in ["п'ять", "п’ять", "пʼять", "ПʼЯТЬ"] {
            assert_eq!(plain(typed), "п'ять", "{typed}");
        }
        assert_eq!(plain("Dáma bere É čtyři"), "dáma bere é čtyři");
        assert_eq!(plain("Vezér üti Ö"), "vezér üti ö");
    }
}
