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

    /// The recording device of D.2.7: the sound of a spoken move the station
    /// accepted in `events[from..]` is kept for its ply ("Ja" to a question
    /// keeps the sound of the move asked about). A failure is told once, as a
    /// `device_status` `recording`; the game and the journal go on untouched.
    pub(super) fn keep_spoken_audio(
        &mut self,
        audio: Option<Vec<i16>>,
        yes: bool,
        from: usize,
        t: Millis,
        events: &mut Vec<Event>,
    ) {
        let Some(keeper) = self.recorder.keeper.as_mut() else { return };
        let accepted = events[from..].iter().find_map(|e| match e {
            Event::GameMove { ply, by: BoardRole::Blind, revised: false, .. } => Some(*ply),
            Event::AnnouncementChecked { ply, matches: true, .. } => Some(*ply),
            _ => None,
        });
        let sound = if yes { self.recorder.spoken_audio.take() } else { audio };
        let (Some(ply), Some(game_id)) = (accepted, self.table.game_id()) else {
            // Not (yet) a move: kept for a "Ja" that makes it one.
            if !yes {
                self.recorder.spoken_audio = sound;
            }
            return;
        };
        self.recorder.spoken_audio = None;
        let Some(sound) = sound else { return };
        match keeper.keep(game_id, ply, &sound) {
            Ok(path) => {
                tracing::debug!(ply, path = %path.display(), "spoken move kept");
                if self.recorder.failed.take().is_some() {
                    events.push(device_status("recording", None, "connected", None, t));
                }
            }
            Err(e) => {
                let detail = format!("{e}; the game goes on, the journal is untouched");
                let reason = match &e {
                    crate::kept_audio::NotKept::Full { .. } => "full".to_owned(),
                    crate::kept_audio::NotKept::Write { source, .. } => source.kind().to_string(),
                };
                if self.recorder.failed.as_deref() != Some(reason.as_str()) {
                    tracing::error!("{detail}");
                    eprintln!("station: {detail}");
                    events.push(device_status("recording", None, "unavailable", Some(detail), t));
                    self.recorder.failed = Some(reason);
                }
            }
        }
    }
}
