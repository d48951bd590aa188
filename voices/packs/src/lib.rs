//! Building voice packs: every word a phrasebook's announcements need
//! (`station_voices::voice_pack::pack_words`) rendered with espeak-ng, its
//! pronunciation corrected by per-language [`Overrides`], trimmed of silence,
//! loudness-normalised and written as one WAV clip per distinct text with the
//! pack's `manifest.toml` (`station voices build`, scripts/setup).
//!
//! The pack's format, its loading and its speaking are `station-audio`'s
//! ([`station_audio::pack`]); so are espeak-ng, the clips' trimming and
//! loudness and WAV files, which this crate uses as the speakers do. A pack
//! recorded in a human voice is `station_audio::Recorder`'s: it needs the
//! microphone.

mod builder;
mod overrides;

pub use builder::{BuildOptions, BuildReport, build_pack};
pub use overrides::Overrides;
