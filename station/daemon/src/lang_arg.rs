//! `--lang`: any built-in phrasebook's code, found from the phrasebook files
//! (so a new language needs no change here); a wrong code is answered with
//! the codes there are.

use clap::builder::PossibleValuesParser;

/// The parser of a `--lang` that names a built-in phrasebook.
pub fn builtin_language() -> PossibleValuesParser {
    PossibleValuesParser::new(station_voices::BUILTIN_LANGUAGES)
}

/// The built-in languages for a message: "cs, de, en, …".
pub fn builtin_list() -> String {
    station_voices::BUILTIN_LANGUAGES.join(", ")
}
