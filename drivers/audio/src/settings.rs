//! The `[audio]` table of the station config: packs folder and two listeners.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A way of speaking, tried in the listener's order; text is always the last resort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VoiceKind {
    /// Pre-recorded clips per word (lowest latency, same voice every time).
    Pack,
    /// espeak-ng rendering the whole text, played on the listener's device.
    Espeak,
    /// speech-dispatcher: the screen reader's voice, on its own audio path.
    Tts,
    /// No sound: the text only (always on the event stream anyway).
    Text,
}

/// One listener: the blind player's earphone or the public speaker.
///
/// ```toml
/// [audio.private]
/// device = "default"          # a name from `station devices`; substring match
/// language = "de"
/// voices = ["pack", "espeak", "tts"]
/// volume = 1.0
/// queue = 4                   # utterances waiting at most (oldest, least urgent dropped)
/// pace = true                 # keep non-pacing devices (ALSA null/file) at real time
/// speed_wpm = 165             # espeak-ng speed when it speaks whole texts
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ListenerSettings {
    /// Whether this listener speaks at all.
    pub enabled: bool,
    /// Output device name; `None` or "default" is the system default.
    pub device: Option<String>,
    /// Language code of what this listener hears (selects pack and voices).
    pub language: String,
    /// Voices in order of preference.
    pub voices: Vec<VoiceKind>,
    /// Linear gain applied to pack and espeak-ng speech.
    pub volume: f32,
    /// Most utterances waiting.
    pub queue: usize,
    /// Keep devices that do not pace themselves at real time.
    pub pace: bool,
    /// espeak-ng voice; `None` derives it from the language.
    pub espeak_voice: Option<String>,
    /// espeak-ng speed in words per minute.
    pub speed_wpm: u32,
    /// Longest wait for speech-dispatcher to connect.
    pub tts_connect_timeout_ms: u64,
}

impl Default for ListenerSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            device: None,
            language: "de".to_owned(),
            voices: vec![VoiceKind::Pack, VoiceKind::Espeak, VoiceKind::Tts],
            volume: 1.0,
            queue: 4,
            pace: true,
            espeak_voice: None,
            speed_wpm: 165,
            tts_connect_timeout_ms: 2_000,
        }
    }
}

/// Audio for the whole station.
///
/// ```toml
/// [audio]
/// packs_dir = "/var/lib/annexd/voices"   # <packs_dir>/<lang>/manifest.toml
///
/// [audio.private]      # the blind player's earphone
/// device = "USB"
/// language = "de"
///
/// [audio.public]       # a speaker for the opponent
/// enabled = true
/// device = "default"
/// language = "pl"
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AudioSettings {
    /// Folder of voice packs; `None` means no packs.
    pub packs_dir: Option<PathBuf>,
    /// The blind player's private channel.
    pub private: ListenerSettings,
    /// The public channel; off unless enabled.
    pub public: ListenerSettings,
}

impl Default for AudioSettings {
    fn default() -> Self {
        Self {
            packs_dir: None,
            private: ListenerSettings::default(),
            public: ListenerSettings { enabled: false, ..ListenerSettings::default() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_shape() {
        let text = r#"
            packs_dir = "/tmp/packs"
            [private]
            device = "USB"
            language = "de"
            voices = ["pack", "tts"]
            [public]
            enabled = true
            language = "pl"
        "#;
        let settings: AudioSettings = toml::from_str(text).unwrap_or_default();
        assert_eq!(settings.private.voices, vec![VoiceKind::Pack, VoiceKind::Tts]);
        assert!(settings.public.enabled);
        assert_eq!(settings.public.language, "pl");
        assert_eq!(settings.public.queue, 4);
        assert!(toml::from_str::<AudioSettings>("[private]\ntypo = 1").is_err());
    }
}
