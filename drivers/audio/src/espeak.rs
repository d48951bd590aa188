//! espeak-ng as a spawned process: renders text (or [[phonemes]]) to samples.
//! Used to build voice packs and as the fallback voice when a pack lacks a word.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::error::AudioError;
use super::pcm::Clip;
use super::wav::parse_wav_bytes;

/// How to run espeak-ng.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Espeak {
    /// The program, normally `espeak-ng` on the `PATH`.
    pub program: PathBuf,
    /// Speaking speed in words per minute (espeak-ng's default is 175).
    pub speed_wpm: u32,
    /// Longest a single rendering may take; a stuck process is killed so the
    /// caller never hangs.
    pub timeout: Duration,
}

impl Default for Espeak {
    fn default() -> Self {
        Self { program: PathBuf::from("espeak-ng"), speed_wpm: 165, timeout: Duration::from_secs(10) }
    }
}

/// The espeak-ng voice for a language code: English is said the British way,
/// as FIDE writes it; other codes are espeak-ng voice names already.
pub fn espeak_voice(language: &str) -> &str {
    match language {
        "en" => "en-gb",
        other => other,
    }
}

impl Espeak {
    /// Whether the program runs at all.
    pub fn available(&self) -> bool {
        Command::new(&self.program)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Renders `text` with `voice`. Text goes in on stdin so it can never be
    /// mistaken for an option; `[[…]]` in it is read as espeak phonemes.
    ///
    /// # Errors
    /// [`AudioError::Espeak`] if the program is missing, fails, says nothing
    /// or exceeds the time-out; [`AudioError::Wav`] for output it cannot parse.
    pub fn render(&self, voice: &str, text: &str) -> Result<Clip, AudioError> {
        let mut child = Command::new(&self.program)
            .args(["-v", voice, "-s", &self.speed_wpm.to_string(), "--stdout"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| AudioError::Espeak(format!("cannot run {}: {e}", self.program.display())))?;
        if let Some(mut stdin) = child.stdin.take() {
            // A failed write shows up as empty output below.
            let _ = stdin.write_all(text.as_bytes());
        }
        let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(AudioError::Espeak("no output pipes".to_owned()));
        };
        // Read on a helper thread so a stuck process cannot block us past the time-out.
        let (tx, rx) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let mut err = String::new();
            let read = stdout.read_to_end(&mut out).map(|_| ());
            let _ = stderr.read_to_string(&mut err);
            let _ = tx.send((read, out, err));
        });
        let result = rx.recv_timeout(self.timeout);
        let status = match &result {
            Ok(_) => child.wait().ok(),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                None
            }
        };
        let (read, out, err) = result
            .map_err(|_| AudioError::Espeak(format!("no answer within {:?} for {text:?}", self.timeout)))?;
        read.map_err(|e| AudioError::Espeak(format!("reading output: {e}")))?;
        if !status.is_some_and(|s| s.success()) {
            return Err(AudioError::Espeak(format!("failed for voice {voice:?}: {}", err.trim())));
        }
        let clip = parse_wav_bytes(&out, "espeak-ng output")?;
        if clip.samples.is_empty() {
            return Err(AudioError::Espeak(format!("said nothing for {text:?} ({})", err.trim())));
        }
        Ok(clip)
    }
}
