//! The blind player's speech preferences kept across restarts (issue 18):
//! the speaking rate he chose with "schneller"/"langsamer". A small TOML
//! file beside the journal directory (`journal` → `journal.speech.toml`),
//! not in it: the journal directory holds journals only. A missing or
//! unreadable file means the defaults (and a warning), never a refusal to start.
//!
//! The file keeps the clock reading he chose too (time left or time used, D.2.10.4), which
//! overrides `[voice] clock_reading` once set.

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
    pub clock_reading: Option<station_voices::ClockTimeRead>,
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
        let rate =
            rate.clamp(station_audio::stretch::MIN_RATE_PERCENT, station_audio::stretch::MAX_RATE_PERCENT);
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
        assert_eq!(slow.rate_percent, station_audio::stretch::MIN_RATE_PERCENT);
        let used = SpeechState { clock_reading: Some(station_voices::ClockTimeRead::Used), ..faster };
        used.save(&path).unwrap();
        assert_eq!(SpeechState::load(&path), used);
        assert_eq!(SpeechState::load(&path).step(true).clock_reading, used.clock_reading);
        std::fs::write(&path, "rate_percent = \"fast\"\n").unwrap();
        assert_eq!(SpeechState::load(&path), SpeechState::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Issue 18 through the daemon's own paths (heard speech as the listening
/// thread hands it over, operator commands as the console sends them): the
/// clock read in time used and kept across a restart, and a take-back read
/// back where it happened, before and after the restart.
#[cfg(test)]
mod station_tests {
    use crate::hub::{CommandRequest, OperatorCommand};
    use crate::station::Station;
    use station_core::Event;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use crate::station::test_support::{self, Seen, config, observed, say, started};

    fn start(dir: &Path) -> (Station, Seen) {
        let text = "[boards.blind]\ndriver = \"none\"\n\n[clock]\ntime_control = \"5400+30\"\nauto_press = true\n\n[voice]\nlanguage = \"de\"\n\n[speech]\nenabled = true\nmicrophone = false\n\n[audio.private]\nvoices = [\"text\"]\n";
        let mut station = started(config(text), &dir.join("journal"));
        station.enable_voices().unwrap();
        let seen = observed(&mut station);
        station.tick().unwrap();
        station.drain(Duration::from_secs(5)).unwrap();
        (station, seen)
    }

    fn operator(station: &mut Station, json: &str) {
        let command = OperatorCommand::from_json(json.as_bytes()).unwrap();
        let (reply, answer) = crossbeam_channel::bounded(1);
        station.command(CommandRequest { command, reply }, Instant::now()).unwrap();
        station.drain(Duration::from_secs(5)).unwrap();
        answer.recv_timeout(Duration::from_secs(5)).unwrap().unwrap();
    }

    /// The last thing said privately about `about`.
    fn said(seen: &Seen, about: &str) -> String {
        seen.lock()
            .unwrap()
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::Announcement { listener, about: a, text, .. }
                    if *listener == station_core::event::Listener::Private && a == about =>
                {
                    Some(text.clone())
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("nothing said about {about}"))
    }

    fn scratch() -> PathBuf {
        test_support::scratch("speech-state-station")
    }

    #[test]
    fn time_used_and_a_take_back_are_read_and_survive_a_restart() {
        let dir = scratch();
        let (mut station, seen) = start(&dir);
        say(&mut station, "Eva vier");
        operator(&mut station, r#"{"cmd": "enter_move", "move": "e7e5"}"#);
        say(&mut station, "Springer Felix drei");
        operator(&mut station, r#"{"cmd": "take_back"}"#);
        say(&mut station, "Springer Felix drei");
        let record = "Zug eins Sie Eva vier, Gegner Eva fünf, Korrektur Sie Springer Felix drei zurückgenommen. Zug zwei Sie Springer Felix drei";
        say(&mut station, "Partie");
        assert_eq!(said(&seen, "record"), record);
        say(&mut station, "Zeit");
        assert!(said(&seen, "clock").starts_with("Sie: "), "{}", said(&seen, "clock"));
        say(&mut station, "Zeit verbraucht");
        let used = said(&seen, "clock");
        assert!(used.starts_with("Verbrauchte Zeit. Sie: ") && used.ends_with("Zwei Züge."), "{used}");
        drop(station);

        // After a restart: the reading he chose, and the correction where it happened.
        let (mut station, seen) = start(&dir);
        say(&mut station, "Zeit");
        assert!(said(&seen, "clock").starts_with("Verbrauchte Zeit. "), "{}", said(&seen, "clock"));
        say(&mut station, "Partie");
        assert_eq!(said(&seen, "record"), record);
        say(&mut station, "Restzeit");
        assert!(said(&seen, "clock").starts_with("Sie: "), "{}", said(&seen, "clock"));
        drop(station);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
