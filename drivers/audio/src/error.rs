//! What can go wrong on the audio path. None of it may stop a game: callers
//! log the error, surface it in the speaker's status and fall back to the
//! next voice.

use std::path::PathBuf;

use thiserror::Error;

/// An audio-path failure.
#[derive(Debug, Error)]
pub enum AudioError {
    /// No output device has the configured name.
    #[error("no audio output device named {0:?} (`station devices` lists them)")]
    NoSuchDevice(String),
    /// The host has no default output device (no sound card).
    #[error("no default audio output device")]
    NoDefaultDevice,
    /// No default input device (microphone) for recording.
    #[error("no default audio input device (microphone)")]
    NoInputDevice,
    /// The device exists but could not be opened or failed while playing.
    #[error("audio device {device:?}: {problem}")]
    Device {
        /// Device name.
        device: String,
        /// What failed.
        problem: String,
    },
    /// A voice pack is missing or malformed.
    #[error("voice pack {path}: {problem}")]
    Pack {
        /// The pack folder or file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// A voice pack has no clip for a word the utterance needs.
    #[error("voice pack {language:?} has no clip for {word:?}")]
    MissingWord {
        /// Pack language.
        language: String,
        /// The word (or key) without a clip.
        word: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Audio data that is not a WAV file this code can read.
    #[error("WAV {origin}: {problem}")]
    Wav {
        /// File name or "espeak-ng output".
        origin: String,
        /// What is wrong.
        problem: String,
    },
    /// espeak-ng is missing, failed or took too long.
    #[error("espeak-ng: {0}")]
    Espeak(String),
    /// speech-dispatcher (through the `tts` crate) is unavailable or failed.
    #[error("speech-dispatcher: {0}")]
    Tts(String),
    /// Recording from the microphone failed.
    #[error("recording: {0}")]
    Recording(String),
    /// A phrasebook or wording problem.
    #[error(transparent)]
    Voice(#[from] station_voices::VoiceError),
}

impl AudioError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        AudioError::Io { path: path.into(), source }
    }

    pub(crate) fn wav(origin: impl Into<String>, problem: impl ToString) -> Self {
        AudioError::Wav { origin: origin.into(), problem: problem.to_string() }
    }
}
