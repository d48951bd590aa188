//! The recording device of D.2.7 (`[speech] keep_audio`): the sound of each
//! spoken move kept beside the journal.

use super::*;

/// What the recording device keeps and has told.
#[derive(Default)]
pub(super) struct Recorder {
    /// Where the kept sound goes, when recording is on.
    pub keeper: Option<crate::kept_audio::AudioKeeper>,
    /// The sound of the last spoken move not yet accepted (asked back: "Ja" accepts it).
    pub spoken_audio: Option<Vec<i16>>,
    /// The reason the recording failed, as last told (told once, again when it changes).
    pub failed: Option<String>,
}

impl Station {
    /// Keeps the spoken moves' sound through `writer` (tests: a full disk).
    #[cfg(test)]
    pub fn keep_audio_through(&mut self, writer: Box<dyn crate::kept_audio::AudioWriter>) {
        self.recorder.keeper = Some(crate::kept_audio::AudioKeeper::with_writer(
            self.pipeline.journals.path(),
            self.config.speech.keep_audio_max_mb,
            writer,
        ));
    }
}

impl Recorder {
    /// The recording device of D.2.7: the sound of a spoken move the station
    /// accepted in `decided` (what acting on the utterance decided) is kept
    /// for its ply of the game `game_id` ("Ja" to a question keeps the sound
    /// of the move asked about). A failure is told once, as the
    /// `device_status` `recording` returned for the station to journal; the
    /// game and the journal go on untouched.
    pub fn keep_spoken(
        &mut self,
        audio: Option<Vec<i16>>,
        yes: bool,
        decided: &[Event],
        game_id: Option<&str>,
        t: Millis,
    ) -> Option<Event> {
        let keeper = self.keeper.as_mut()?;
        let accepted = decided.iter().find_map(|e| match e {
            Event::GameMove { ply, by: BoardRole::Blind, revised: false, .. } => Some(*ply),
            Event::AnnouncementChecked { ply, matches: true, .. } => Some(*ply),
            _ => None,
        });
        let sound = if yes { self.spoken_audio.take() } else { audio };
        let (Some(ply), Some(game_id)) = (accepted, game_id) else {
            // Not (yet) a move: kept for a "Ja" that makes it one.
            if !yes {
                self.spoken_audio = sound;
            }
            return None;
        };
        self.spoken_audio = None;
        let sound = sound?;
        match keeper.keep(game_id, ply, &sound) {
            Ok(path) => {
                tracing::debug!(ply, path = %path.display(), "spoken move kept");
                self.failed.take().map(|_| device_status("recording", None, "connected", None, t))
            }
            Err(e) => {
                let detail = format!("{e}; the game goes on, the journal is untouched");
                let reason = match &e {
                    crate::kept_audio::NotKept::Full { .. } => "full".to_owned(),
                    crate::kept_audio::NotKept::Write { source, .. } => source.kind().to_string(),
                };
                if self.failed.as_deref() == Some(reason.as_str()) {
                    return None;
                }
                tracing::error!("{detail}");
                eprintln!("station: {detail}");
                self.failed = Some(reason);
                Some(device_status("recording", None, "unavailable", Some(detail), t))
            }
        }
    }
}
