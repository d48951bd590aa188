//! The blind player's speech preferences kept across restarts (issue 18):
//! the speaking rate he chose with "schneller"/"langsamer". A small TOML
//! file beside the journal directory (`journal` → `journal.speech.toml`),
//! not in it: the journal directory holds journals only. A missing or
//! unreadable file means the defaults (and a warning), never a refusal to start.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Percent points one "faster" or "slower" changes the rate by.
pub const RATE_STEP: u32 = 15;

/// What is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeechState {
    /// The blind player's speaking rate in percent of normal.
    pub rate_percent: u32,
    /// What the talking clock reads, once he chose by command or button
    /// (until then `[voice] clock_reading`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_reading: Option<station_voices::ClockReading>,
}

impl Default for SpeechState {
    fn default() -> Self {
        SpeechState { rate_percent: 100, clock_reading: None }
    }
}

/// The state file of a journal directory: its sibling `NAME.speech.toml`.
pub fn state_path(journal_dir: &Path) -> PathBuf {
    let name = journal_dir.file_name().map_or_else(|| "journal".into(), |n| n.to_string_lossy().into_owned());
    journal_dir.with_file_name(format!("{name}.speech.toml"))
}

impl SpeechState {
    /// The state in `path`; the defaults when there is none or it is unreadable (logged).
    pub fn load(path: &Path) -> SpeechState {
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).unwrap_or_else(|e| {
                tracing::warn!(path = %path.display(), "speech state unreadable, using defaults: {e}");
                SpeechState::default()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => SpeechState::default(),
            Err(e) => {
                tracing::warn!(path = %path.display(), "speech state unreadable, using defaults: {e}");
                SpeechState::default()
            }
        }
    }

    /// Writes the state (a new file renamed over the old: never half written).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = toml::to_string(self).map_err(std::io::Error::other)?;
        let tmp = path.with_extension("toml.new");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, path)
    }

    /// One step faster or slower, within the speaker's range.
    pub fn step(self, faster: bool) -> SpeechState {
        let rate = if faster {
            self.rate_percent.saturating_add(RATE_STEP)
        } else {
            self.rate_percent.saturating_sub(RATE_STEP)
        };
        let rate = rate.clamp(
            station_drivers::audio::stretch::MIN_RATE_PERCENT,
            station_drivers::audio::stretch::MAX_RATE_PERCENT,
        );
        SpeechState { rate_percent: rate, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_is_kept_across_restarts_and_a_bad_file_means_defaults() {
        let dir = std::env::temp_dir().join(format!("speech-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let journal = dir.join("journal");
        let path = state_path(&journal);
        assert_eq!(path, dir.join("journal.speech.toml"));
        assert_eq!(SpeechState::load(&path), SpeechState::default());
        let faster = SpeechState::default().step(true).step(true);
        assert_eq!(faster.rate_percent, 130);
        faster.save(&path).unwrap();
        assert_eq!(SpeechState::load(&path), faster);
        let mut slow = SpeechState::default();
        for _ in 0..10 {
            slow = slow.step(false);
        }
        assert_eq!(slow.rate_percent, station_drivers::audio::stretch::MIN_RATE_PERCENT);
        let used = SpeechState { clock_reading: Some(station_voices::ClockReading::Used), ..faster };
        used.save(&path).unwrap();
        assert_eq!(SpeechState::load(&path), used);
        assert_eq!(SpeechState::load(&path).step(true).clock_reading, used.clock_reading);
        std::fs::write(&path, "rate_percent = \"fast\"\n").unwrap();
        assert_eq!(SpeechState::load(&path), SpeechState::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
