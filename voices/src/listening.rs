//! Listening-only vocabulary of a phrasebook (issue 14): the ways players
//! say files besides the Annex D names, filler words, promotion phrasings,
//! how the words sound (issue 33), and known mishearings the sound does not
//! explain.
//!
//! All optional in the file (`[listening]`, `[[repair]]`), so a phrasebook
//! made for speaking alone still reads.
//!
//! `[listening]` holds plain, NATO and spelling-alphabet letters, fillers, promotion phrasings,
//! `spellings` a speech model may list instead of a word, and `phonemes`, how each word sounds;
//! `[[repair]]` rows are known mishearings, each with its cost and reason.

use shakmaty::Role;

use crate::entry::Entry;

/// One way of naming the eight files ("plain": a … h; "nato": alpha …
/// hotel; a national spelling alphabet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LetterStyle {
    /// The style's name in the file.
    pub name: String,
    /// The eight files' words, a first.
    pub letters: [Entry; 8],
}

/// Words heard besides those the station speaks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListeningWords {
    /// Other names of the files, by style.
    pub letter_styles: Vec<LetterStyle>,
    /// Words said between the others that mean nothing ("the", "äh", "yyy").
    pub fillers: Vec<String>,
    /// Words that introduce a promotion piece ("promote to", "wird", "na").
    pub promotion: Vec<String>,
    /// Forms a promotion piece takes after those words, besides its name
    /// (Polish accusative: "na hetmana").
    pub promotion_pieces: Vec<(Role, Entry)>,
    /// Other spellings of a word for a speech model that does not list it
    /// (`[listening.spellings]`, lower case: "hector" → ["hektor"]); the
    /// station listens for the first one the model knows and reads it back
    /// as the word.
    pub spellings: Vec<(String, Vec<String>)>,
    /// How each listening word sounds (`[listening.phonemes]`, lower case):
    /// espeak-ng's phonemes for the language as `espeak-ng -x --sep=_`
    /// writes them ("eva" → "_!_'e:_v_A:"), made by `station voices
    /// phonemes`. The repair of misheard words compares sounds by them.
    pub phonemes: Vec<(String, String)>,
}

/// A known mishearing the sound of the words does not explain: the
/// recogniser wrote `heard` where the player said `meant` (`[[repair]]`).
/// The repair takes it as that near (cost 1 as near as a close-sounding
/// word, each step more a little farther) when the sounds say less.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    /// What the recogniser wrote (one word, lower case).
    pub heard: String,
    /// What the player said (a listening form, lower case).
    pub meant: String,
    /// The cost (1 = a common confusion).
    pub cost: u8,
    /// Why this confusion is in the table.
    pub why: String,
}
