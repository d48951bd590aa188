//! The `[commands]` and `[question]` tables as the phrasebook reader takes them.

use crate::command_words::{KEYS, OPTIONAL_KEYS};
use crate::phrasebook::Phrasebook;

#[test]
fn every_builtin_phrasebook_has_every_command_word() {
    for code in crate::phrasebook::BUILTIN_LANGUAGES {
        let words = Phrasebook::builtin(code).unwrap().command_words().cloned().unwrap();
        assert_eq!(words.code(), code);
        assert_eq!(words.words().len(), KEYS.len() + OPTIONAL_KEYS.len());
        assert!(!words.or().is_empty());
    }
}

#[test]
fn unknown_and_missing_command_keys_are_errors() {
    let de = include_str!("../../phrasebooks/de.toml");
    let typo = de.replace("time =", "tiem =");
    let err = Phrasebook::from_toml_str(&typo, "x").unwrap_err().to_string();
    assert!(err.contains("time"), "{err}");
    let empty = de.replace("no = { say = \"Nein\"", "no = { say = \" \"");
    assert!(Phrasebook::from_toml_str(&empty, "x").is_err());
    let no_or = &de[..de.find("[question]").unwrap()];
    let err = Phrasebook::from_toml_str(no_or, "x").unwrap_err().to_string();
    assert!(err.contains("question"), "{err}");
    let no_empty = de.replace("empty = \"leer\"", "");
    assert!(Phrasebook::from_toml_str(&no_empty, "x").is_err());
}

#[test]
fn a_phrasebook_without_commands_still_reads() {
    let de = include_str!("../../phrasebooks/de.toml");
    let cut = &de[..de.find("[commands]").unwrap()];
    let book = Phrasebook::from_toml_str(cut, "x").unwrap();
    assert!(book.command_words().is_none());
}
