//! Offline speech recognition with Vosk (libvosk from the project's set-up).
//!
//! The recognition path, the same for a WAV file and the microphone:
//! samples (any rate, mono or stereo, i16 or f32) → [`pcm::Resampler`] to
//! 16 kHz mono → [`Listener`] (a Vosk recogniser restricted to the grammar
//! of the position, word confidences on) → [`Transcript`], which
//! `station_voices::understand` turns into a move or a command.
//!
//! * [`model`] — finding and loading a language's acoustic model, with a clear
//!   message naming the model to install when it is missing.
//! * [`pcm`] — downmixing and band-limited resampling, streaming.
//! * [`wav`] — reading WAV files.
//! * [`listener`] — the recogniser with a grammar; [`recognise_wav`].
//! * [`vad`] — energy-based voice activity detection and push-to-talk.
//! * [`mute`] — not listening while the station speaks: the audio output
//!   sets a shared [`MuteFlag`]; the capture path drops samples while it is
//!   set and for a short release time after.
//! * [`capture`] — the cpal microphone and the pure [`Utterances`] path.
//! * [`decisive`] — when a partial result already decides the utterance.
//!
//! The recogniser gives its n-best readings on request, each with its share of the likelihood
//! (the app's listening thread asks for 5); `decisive` says when a partial result is a whole
//! phrase that nothing longer in the grammar changes. The microphone's capture carries a mute
//! flag (`mute`), held by the audio speakers while they talk.

pub mod capture;
pub mod decisive;
pub mod error;
pub mod listener;
pub mod model;
pub mod mute;
pub mod pcm;
pub mod vad;
pub mod wav;

#[cfg(test)]
mod korean_tests;

pub use capture::{CaptureSettings, MicError, Microphone, Utterances, input_devices};
pub use decisive::Decisive;
pub use error::SpeechError;
pub use listener::{Listener, Transcript, WavRecognition, recognise_wav, recognise_wav_with_model_dir};
pub use model::{ModelError, expected_model, load_model};
pub use mute::{MuteFlag, MuteGate, MuteGuard};
pub use pcm::{InputFormat, Resampler, Samples, TARGET_RATE, resample_to_16k_mono};
pub use vad::{EnergyVad, PushToTalk, VadEvent, VadSettings, level_db};
/// A loaded Vosk model (what [`load_model`] returns).
pub use vosk::Model;
pub use wav::{WavAudio, WavSamples, read_wav};
