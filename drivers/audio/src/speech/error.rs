//! What can go wrong on the recognition path.

use std::path::PathBuf;

/// An error of reading audio, resampling, recognising or capturing.
#[derive(Debug, thiserror::Error)]
pub enum SpeechError {
    /// A WAV file could not be opened or decoded.
    #[error("cannot read WAV file {path}: {source}")]
    Wav {
        /// The file.
        path: PathBuf,
        /// The decoder's error.
        #[source]
        source: hound::Error,
    },
    /// The audio format cannot be used (what is wrong).
    #[error("unusable audio: {0}")]
    Format(String),
    /// libvosk refused the grammar or the recogniser could not be made.
    #[error("the recogniser could not be created with a grammar of {phrases} phrases: {problem}")]
    Recognizer {
        /// Size of the grammar.
        phrases: usize,
        /// What went wrong.
        problem: String,
    },
    /// libvosk failed to decode the audio.
    #[error("the recogniser failed on the audio: {0}")]
    Decode(String),
    /// The speech model could not be loaded.
    #[error(transparent)]
    Model(#[from] super::model::ModelError),
}
