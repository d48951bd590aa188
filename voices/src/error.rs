//! Everything that can go wrong in this crate.

use std::path::PathBuf;

/// An error from loading phrasebooks, choosing voices or wording a move.
#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    /// No phrasebook with this language code is known.
    #[error("no phrasebook for language {0:?}")]
    UnknownLanguage(String),
    /// A phrasebook file is not valid TOML or does not have the expected shape.
    #[error("phrasebook {origin} is not readable: {source}")]
    PhrasebookSyntax {
        /// Where the text came from (a path or "built-in `<code>`").
        origin: String,
        /// The TOML error.
        #[source]
        source: Box<toml::de::Error>,
    },
    /// A phrasebook parses but misses or misuses a word.
    #[error("phrasebook {origin}: {problem}")]
    PhrasebookInvalid {
        /// Where the text came from.
        origin: String,
        /// What is wrong, in words.
        problem: String,
    },
    /// A phrasebook file could not be read.
    #[error("cannot read phrasebook {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The FEN is not a legal standard chess position.
    #[error("bad position {fen:?}: {problem}")]
    BadPosition {
        /// The FEN as given.
        fen: String,
        /// What is wrong.
        problem: String,
    },
    /// The move text is neither SAN nor UCI, or is not legal in the position.
    #[error("move {text:?} is not legal here: {problem}")]
    BadMove {
        /// The move as given.
        text: String,
        /// What is wrong.
        problem: String,
    },
}
