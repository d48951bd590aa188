//! Rendering an utterance to a WAV file (`station announce … --wav FILE`):
//! through the voice pack, or espeak-ng directly when the pack cannot say it.

use std::path::Path;

use super::error::AudioError;
use super::espeak::{Espeak, espeak_voice};
use super::pack::VoicePack;
use super::pcm::Clip;
use super::settings::VoiceKind;
use super::utterance::Utterance;
use super::wav::write_wav;

/// Which voice renders: the pack first if given, else (or when it lacks a
/// word) espeak-ng.
#[derive(Debug)]
pub struct RenderVoice<'a> {
    /// The pack, if one is loaded.
    pub pack: Option<&'a VoicePack>,
    /// Language code, for the espeak-ng voice.
    pub language: String,
    /// espeak-ng invocation for the fallback.
    pub espeak: Espeak,
    /// Linear gain.
    pub volume: f32,
}

impl<'a> RenderVoice<'a> {
    /// Pack (if any) with espeak-ng fallback in `language`.
    pub fn new(pack: Option<&'a VoicePack>, language: &str) -> Self {
        Self { pack, language: language.to_owned(), espeak: Espeak::default(), volume: 1.0 }
    }
}

/// Says `utterance` into a clip; returns it and the voice used.
///
/// # Errors
/// [`AudioError::Espeak`] if the pack cannot say it and espeak-ng fails.
pub fn render_clip(utterance: &Utterance, voice: &RenderVoice<'_>) -> Result<(Clip, VoiceKind), AudioError> {
    if let Some(pack) = voice.pack {
        match pack.render(utterance, voice.volume) {
            Ok(clip) => return Ok((clip, VoiceKind::Pack)),
            Err(e) => tracing::warn!(error = %e, "pack cannot render; using espeak-ng"),
        }
    }
    let mut clip = voice.espeak.render(espeak_voice(&voice.language), utterance.as_str())?;
    if (voice.volume - 1.0).abs() > f32::EPSILON {
        for s in &mut clip.samples {
            *s = (f32::from(*s) * voice.volume).clamp(-32768.0, 32767.0) as i16;
        }
    }
    Ok((clip, VoiceKind::Espeak))
}

/// Renders `utterance` to a mono 16-bit WAV file at `path`; returns the voice used.
///
/// # Errors
/// As [`render_clip`], or [`AudioError::Io`] writing the file.
pub fn render_wav(
    utterance: &Utterance,
    voice: &RenderVoice<'_>,
    path: &Path,
) -> Result<VoiceKind, AudioError> {
    let (clip, kind) = render_clip(utterance, voice)?;
    write_wav(path, &clip)?;
    Ok(kind)
}
