//! Every built-in language has the read-only pages' words: the mirror's and
//! the player page's `TEXT` tables and the text board's `BOARD_WORDS` have an
//! entry for each phrasebook `station_voices` ships, with every key the
//! reference entry has. A new phrasebook without its page words fails here
//! (the page would otherwise fall back to English without a word).

use std::collections::BTreeMap;

/// One table: language code → (key → text).
type Table = BTreeMap<String, BTreeMap<String, String>>;

/// The object literal `const NAME = { lang: { key: 'text', … }, … };` of a
/// page's script, read with a small reader of just that shape (identifier
/// keys, quoted strings, `//` comments).
fn table(script: &str, name: &str) -> Table {
    let start = script.find(&format!("const {name} = {{")).unwrap_or_else(|| panic!("no `const {name}`"));
    let mut r = Reader { s: &script[start + name.len() + 9..], at: 0 };
    r.expect('{');
    let mut out = Table::new();
    while !r.eat('}') {
        let lang = r.ident();
        r.expect(':');
        r.expect('{');
        let mut words = BTreeMap::new();
        while !r.eat('}') {
            let key = r.ident();
            r.expect(':');
            let text = r.string();
            assert!(words.insert(key.clone(), text).is_none(), "{name}.{lang}.{key} twice");
            r.eat(',');
        }
        assert!(out.insert(lang.clone(), words).is_none(), "{name}.{lang} twice");
        r.eat(',');
    }
    out
}

struct Reader<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.at..]
    }
    /// Skips blanks and `//` comments.
    fn blank(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }
    fn eat(&mut self, c: char) -> bool {
        self.blank();
        let hit = self.rest().starts_with(c);
        if hit {
            self.at += c.len_utf8();
        }
        hit
    }
    fn expect(&mut self, c: char) {
        assert!(self.eat(c), "expected {c:?} at {:?}", &self.rest()[..self.rest().len().min(40)]);
    }
    fn ident(&mut self) -> String {
        self.blank();
        let n = self.rest().find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(0);
        assert!(n > 0, "expected a key at {:?}", &self.rest()[..self.rest().len().min(40)]);
        let id = self.rest()[..n].to_owned();
        self.at += n;
        id
    }
    /// A '…' or "…" string (a backslash escapes the next character).
    fn string(&mut self) -> String {
        self.blank();
        let quote = self.rest().chars().next().filter(|c| *c == '\'' || *c == '"');
        let quote = quote.unwrap_or_else(|| panic!("expected a string at {:?}", &self.rest()[..40]));
        self.at += 1;
        let mut text = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => text.extend(chars.next().map(|(_, c)| c)),
                c if c == quote => {
                    self.at += i + 1;
                    return text;
                }
                c => text.push(c),
            }
        }
        panic!("an unterminated string");
    }
}

/// Every built-in language has an entry with every key of `reference`'s, none empty.
fn complete(table: &Table, what: &str, reference: &str, languages: &[&str]) {
    let keys: Vec<&String> = table[reference].keys().collect();
    assert!(keys.len() > 5, "{what}.{reference} read: {keys:?}");
    for lang in languages {
        let words = table
            .get(*lang)
            .unwrap_or_else(|| panic!("{what} has no words for the built-in language {lang:?}"));
        let missing: Vec<&&String> = keys.iter().filter(|k| !words.contains_key(k.as_str())).collect();
        assert!(missing.is_empty(), "{what}.{lang} lacks {missing:?}");
        let extra: Vec<&String> = words.keys().filter(|k| !keys.contains(k)).collect();
        assert!(extra.is_empty(), "{what}.{lang} has keys {reference} has not: {extra:?}");
        assert!(words.values().all(|w| !w.trim().is_empty()), "{what}.{lang} has an empty word");
    }
}

#[test]
fn every_builtin_language_has_the_mirror_and_player_words() {
    let languages = station_voices::BUILTIN_LANGUAGES;
    assert!(languages.contains(&"en") && languages.len() >= 3, "{languages:?}");
    let mirror = table(include_str!("assets/mirror.js"), "TEXT");
    let player = table(include_str!("assets/player.js"), "TEXT");
    complete(&mirror, "mirror.js TEXT", "en", &languages);
    complete(&player, "player.js TEXT", "en", &languages);
    // English words the text board with plurals of its own; every other
    // built-in language has a BOARD_WORDS entry.
    let board = table(include_str!("assets/common.js"), "BOARD_WORDS");
    let others: Vec<&str> = languages.iter().copied().filter(|l| *l != "en").collect();
    complete(&board, "common.js BOARD_WORDS", "de", &others);
    // A language's own words, not English copied in: its title differs.
    for lang in others {
        for (what, t) in [("mirror", &mirror), ("player", &player)] {
            assert_ne!(t[lang]["title"], t["en"]["title"], "the {what} page's title in {lang} is English");
        }
    }
}

#[test]
fn the_reader_reads_what_the_pages_write() {
    let t = table(
        "x; const TEXT = {\n  // a comment\n  en: { a: 'it\\'s', b: \"“q”\", },\n  de: { a: 'x' },\n};",
        "TEXT",
    );
    assert_eq!(t["en"]["a"], "it's");
    assert_eq!(t["en"]["b"], "“q”");
    assert_eq!(t["de"].len(), 1);
}
