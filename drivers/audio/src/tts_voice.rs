//! speech-dispatcher through the `tts` crate: the voice a screen-reader user
//! already knows. It runs on its own thread and is only ever sent commands,
//! so a daemon that never answers cannot block a listener; and as it never
//! reports the end of speech without a device, the end is estimated.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, TrySendError};

use super::error::AudioError;

enum Command {
    Speak(String),
    Stop,
}

/// A connected speech-dispatcher voice.
pub(crate) struct TtsVoice {
    commands: Sender<Command>,
}

/// How the speech ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TtsOutcome {
    /// The estimated duration passed.
    Done,
    /// Stopped by a pre-empting utterance.
    Cut,
}

impl TtsVoice {
    /// Connects (autospawning the daemon if it is installed so) within `timeout`.
    pub fn connect(language: &str, timeout: Duration) -> Result<TtsVoice, AudioError> {
        let (ready_tx, ready_rx) = crossbeam_channel::bounded::<Result<(), String>>(1);
        let (tx, rx) = crossbeam_channel::bounded::<Command>(8);
        let language = language.to_owned();
        std::thread::Builder::new()
            .name("tts".to_owned())
            .spawn(move || {
                // Created on this thread and never moved: the crate's handle is an Rc.
                let mut tts = match tts::Tts::new(tts::Backends::SpeechDispatcher) {
                    Ok(tts) => tts,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                if let Ok(voices) = tts.voices()
                    && let Some(voice) = voices.iter().find(|v| v.language().as_str().starts_with(&language))
                {
                    let _ = tts.set_voice(voice);
                }
                let _ = ready_tx.send(Ok(()));
                for command in rx {
                    let result = match command {
                        Command::Speak(text) => tts.speak(text, true).map(|_| ()),
                        Command::Stop => tts.stop().map(|_| ()),
                    };
                    if let Err(e) = result {
                        tracing::warn!(error = %e, "speech-dispatcher command failed");
                    }
                }
            })
            .map_err(|e| AudioError::Tts(format!("cannot start thread: {e}")))?;
        match ready_rx.recv_timeout(timeout) {
            Ok(Ok(())) => Ok(TtsVoice { commands: tx }),
            Ok(Err(e)) => Err(AudioError::Tts(e)),
            Err(_) => Err(AudioError::Tts(format!("no connection within {timeout:?}"))),
        }
    }

    /// Says `text`, returning once its estimated duration has passed or
    /// `stop` is set.
    pub fn speak(&self, text: &str, stop: &AtomicBool) -> Result<TtsOutcome, AudioError> {
        self.send(Command::Speak(text.to_owned()))?;
        let until = Instant::now() + estimated_duration(text);
        while Instant::now() < until {
            if stop.load(Ordering::Relaxed) {
                let _ = self.send(Command::Stop);
                return Ok(TtsOutcome::Cut);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(TtsOutcome::Done)
    }

    fn send(&self, command: Command) -> Result<(), AudioError> {
        self.commands.try_send(command).map_err(|e| match e {
            TrySendError::Full(_) => AudioError::Tts("not answering (commands pile up)".to_owned()),
            TrySendError::Disconnected(_) => AudioError::Tts("connection thread ended".to_owned()),
        })
    }
}

/// About how long speech-dispatcher takes to say `text` at its default rate
/// (roughly 14 characters a second, plus start-up), capped so a long text
/// never holds the queue for more than 20 s.
pub(crate) fn estimated_duration(text: &str) -> Duration {
    let chars = text.chars().count() as u64;
    Duration::from_millis((300 + chars * 70).min(20_000))
}
