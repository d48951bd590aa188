//! Offline speech recognition with Vosk (libvosk from the project's set-up).
//!
//! * [`model`] — finding and loading a language's acoustic model, with a clear
//!   message naming the model to install when it is missing.

pub mod model;

pub use model::{ModelError, expected_model, load_model};
