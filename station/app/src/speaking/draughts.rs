//! What is said in a draughts game: a move by its squares, an irregularity
//! or decision in each listener's language. The speaking path's one place
//! that asks for the draughts game (an announcement that is not the board's
//! move is worded by the game's `GameWords::move_at`).

use super::{Voices, say, say_move};
use crate::speaking::Listener;
use station_audio::{Priority, Utterance};
use station_core::draughts::DraughtsPath;
use station_core::event::About;
use station_core::table::Table;
use station_core::{Event, Millis};

impl Voices {
    /// A draughts move said by its squares (voices' draughts wording) to both listeners.
    pub(super) fn draughts_move(
        &mut self,
        ply: usize,
        path: &DraughtsPath,
        table: &Table,
        t: Millis,
        out: &mut Vec<Event>,
    ) {
        let Some(d) = table.draughts() else { return };
        let king = d.made_king(ply);
        // Announced by start and end square (VIII.2.3); a repeat asked for
        // says the intermediate squares of a multiple capture too.
        let word = |l: &Listener, with_path: bool| {
            crate::announce_draughts::say_move_with_path(
                l.wording.phrasebook(),
                d.variant(),
                path,
                king,
                with_path,
            )
            .ok()
        };
        let private = word(&self.private, false);
        let public = self.public.as_ref().and_then(|l| word(l, false));
        if let Some(text) = private.clone() {
            say_move(&self.private, Utterance::text(text.clone()), text, ply, t, out);
        }
        if let (Some(l), Some(text)) = (self.public.as_ref(), public) {
            say_move(l, Utterance::text(text.clone()), text, ply, t, out);
        }
        self.last_move =
            word(&self.private, true).map(|p| (p, self.public.as_ref().and_then(|l| word(l, true))));
        self.last_ply = Some(ply);
    }

    /// A draughts irregularity or decision said to both listeners, each in
    /// his language; the English `text` and `steps` when it cannot be worded.
    pub(super) fn say_draughts(
        &self,
        table: &Table,
        text: &str,
        steps: &[String],
        t: Millis,
        out: &mut Vec<Event>,
        word: impl Fn(&station_voices::Phrasebook, station_core::draughts::Variant) -> Option<String>,
    ) {
        let english =
            std::iter::once(text.to_owned()).chain(steps.iter().cloned()).collect::<Vec<_>>().join(". ");
        for l in std::iter::once(&self.private).chain(self.public.as_ref()) {
            let said = table
                .draughts()
                .and_then(|d| word(l.wording.phrasebook(), d.variant()))
                .unwrap_or_else(|| english.clone());
            say(l, Utterance::text(said.clone()), said, About::Correction, Priority::Urgent, t, out);
        }
    }
}
