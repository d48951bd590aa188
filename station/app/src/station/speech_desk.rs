//! The speech desk: the listening thread, the understanding of the blind
//! player's language, the grammar it listens with and what he was asked back.
//!
//! The desk has one path for every game: `spoken`, `handle_heard`, `grammar_key` and
//! `grammar_phrases`, and `refresh_grammar`, which builds a grammar only when its key changed.
//! A game's speech reads a `SpeechView` and names a `Deed`, which `carry_out` journals and says.
//! `speech_of` finds the game's speech by the rules' name. A question asked back is an `Asked` (a
//! move, a draw offer, a resignation, draughts captures with the same squares).

use super::game_speech::{Acted, Deed, GameSpeech, Said, SpeechView, SpokenMeaning};
use super::*;
use crate::listening::Listening;
use station_core::event::About;
use station_voices::understand::Understanding;

/// A question the blind player answers with yes or no.
pub(super) enum Asked {
    /// "Springer Felix drei?": this move, in the position (FEN) it was asked in.
    Move { fen: String, mv: shakmaty::Move },
    /// "Remis?": he offers a draw.
    DrawOffer,
    /// "Ich gebe auf?": he resigns.
    Resign,
    /// Draughts moves (PDN) asked about in the position (PDN FEN) they fit:
    /// one answered with yes, several with the choice's number.
    Draughts { fen: String, moves: Vec<String>, question: String },
}

/// Speech input, as the station keeps it.
#[derive(Default)]
pub(super) struct SpeechDesk {
    /// The listening thread (microphone and recogniser).
    pub listening: Option<Listening>,
    /// The understanding of the blind player's language.
    pub understanding: Option<Understanding>,
    /// What the grammar the recogniser listens with was built for (see [`GameSpeech::grammar_key`]).
    pub grammar_built_for: Option<String>,
    /// What the blind player was asked to confirm with yes.
    pub asked: Option<Asked>,
}

/// Every game's speech, by its rules' name.
static SPEECH: [(&str, &dyn GameSpeech); 3] = [
    ("chess", &super::spoken_chess::ChessSpeech),
    ("draughts", &super::spoken_draughts::INTERNATIONAL),
    ("draughts64", &super::spoken_draughts::DRAUGHTS64),
];

/// The speech of the game `rules` play.
pub(super) fn speech_of(rules: &dyn station_core::rules::Rules) -> &'static dyn GameSpeech {
    crate::games::by_rules(&SPEECH, rules)
}

impl SpeechDesk {
    /// The understanding of the blind player's language, built once; words
    /// outside its phrasebooks are asked of espeak-ng once each (issue 33).
    pub fn understanding(&mut self, config: &Config) -> Result<&Understanding> {
        if self.understanding.is_none() {
            let pronouncer = std::sync::Arc::new(station_audio::EspeakPronouncer::default());
            let understanding = config.speech.understanding(&config.voice)?.with_pronouncer(pronouncer);
            if !understanding.unpronounced().is_empty() {
                tracing::warn!(
                    words = ?understanding.unpronounced(),
                    "listening words without phonemes (station voices phonemes): compared by their spelling"
                );
            }
            self.understanding = Some(understanding);
        }
        Ok(self.understanding.as_ref().expect("just built"))
    }

    /// The understanding for an answer by button; none when it cannot be built (logged).
    pub fn words_for_answer(&mut self, config: &Config) -> Option<&Understanding> {
        self.understanding(config).inspect_err(|e| tracing::warn!("no words for the answer: {e:#}")).ok()
    }

    /// What a game's speech reads: `table` and the question open, with the
    /// understanding of his language (built once).
    pub fn hearing<'a>(
        &'a mut self,
        config: &Config,
        table: &'a Table,
    ) -> Result<(SpeechView<'a>, &'a Understanding)> {
        self.understanding(config)?;
        let understanding = self.understanding.as_ref().expect("just built");
        Ok((SpeechView { table, asked: self.asked.as_ref() }, understanding))
    }

    /// What the speech of the table's game reads: `table` and the question open.
    pub fn view<'a>(&'a self, table: &'a Table) -> SpeechView<'a> {
        SpeechView { table, asked: self.asked.as_ref() }
    }

    /// What the grammar the recogniser should listen with now is built for
    /// (the position he speaks about, a question's choices).
    pub fn grammar_key(&self, table: &Table) -> String {
        speech_of(table.rules()).grammar_key(self.view(table))
    }

    /// The phrases of that grammar, plus the configured extra phrases.
    pub fn grammar_phrases(&mut self, config: &Config, table: &Table) -> Result<Vec<String>> {
        let (view, understanding) = self.hearing(config, table)?;
        let mut phrases = speech_of(table.rules()).grammar(view, understanding);
        phrases.extend(config.speech.extra_phrases.iter().map(|p| p.to_lowercase()));
        Ok(phrases)
    }

    /// After every change, the recogniser listens for the moves of the new
    /// position (and the choices of a question open).
    pub fn refresh_grammar(&mut self, config: &Config, table: &Table) {
        if self.listening.is_none() {
            return;
        }
        let key = self.grammar_key(table);
        if self.grammar_built_for.as_deref() == Some(key.as_str()) {
            return;
        }
        match self.grammar_phrases(config, table) {
            Ok(phrases) => {
                if let Some(l) = &self.listening {
                    l.set_grammar(phrases);
                }
                self.grammar_built_for = Some(key);
            }
            Err(e) => tracing::warn!(error = %e, "no grammar for the new position"),
        }
    }

    /// A push-to-talk source (`blind:N`, `gamepad:NAME`) was pressed or released.
    pub fn push_to_talk(&self, config: &Config, source: &str, pressed: bool) {
        if let (Some(l), Some(Action::PushToTalk)) = (&self.listening, config.buttons.action_of(source)) {
            l.push_to_talk(pressed);
        }
    }
}

impl Station {
    /// What the blind player said: a move is checked against his board, a
    /// question goes back to him, a refusal is said why.
    pub(super) fn spoken(
        &mut self,
        text: &str,
        confidence: Option<f32>,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        let (meaning, understanding) = self.understand(Said { text, confidence, readings: &[] })?;
        self.act_on(meaning, &understanding, t, events)
    }

    /// What he said means in the position he speaks about, and the
    /// understanding it was understood with (the deed is carried out with it).
    fn understand(&mut self, said: Said<'_>) -> Result<(Box<dyn SpokenMeaning>, Understanding), String> {
        let game = speech_of(self.table.rules());
        let (view, understanding) =
            self.speech.hearing(&self.config, &self.table).map_err(|e| e.to_string())?;
        let understanding = understanding.clone();
        Ok((game.understand(view, &understanding, said)?, understanding))
    }

    /// Acts on what he was understood to say: the game names the deed, the station carries it out.
    fn act_on(
        &mut self,
        meaning: Box<dyn SpokenMeaning>,
        understanding: &Understanding,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Acted {
        let deed = meaning.act(self.speech.view(&self.table), understanding);
        self.carry_out(deed, understanding, t, events)
    }

    /// What an utterance asks of the station, journaled and said.
    fn carry_out(
        &mut self,
        deed: Deed,
        understanding: &Understanding,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Acted {
        match deed {
            Deed::Announce { mv, answer } => {
                self.announce_spoken(understanding, &mv, t, events)?;
                Ok(answer)
            }
            Deed::Ask { question, asked, answer } => {
                self.speech.asked = asked;
                self.say_private(question, About::Question, t, events);
                Ok(answer)
            }
            Deed::Repeat { question, answer } => {
                self.say_private(question, About::Question, t, events);
                Ok(answer)
            }
            Deed::Command(command) => self.act_on_command(understanding, command, t, events),
            Deed::Answer(answer) => Ok(answer),
        }
    }

    /// A command word, the same in every game: a yes or no answers the
    /// question open (a draw offer, a resignation), a draw offer and a
    /// resignation are asked back first, the rest is carried out.
    fn act_on_command(
        &mut self,
        understanding: &Understanding,
        command: SpokenCommand,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        let answer = match command {
            SpokenCommand::Yes => self.speech.asked.take(),
            SpokenCommand::No => {
                self.speech.asked = None;
                None
            }
            _ => None,
        };
        let blind = Side::from(self.table.config().blind_color);
        match answer {
            Some(Asked::DrawOffer) => {
                self.apply(t, Input::DrawOffer { side: blind }, events).map_err(|e| e.to_string())?;
                let ply = self.table.turn().map_or(0, |(ply, _)| ply);
                let by = if blind == Side::White { "white" } else { "black" };
                events.push(Event::Announcement {
                    listener: "log".into(),
                    text: format!("draw offer by {by} after ply {ply}"),
                    about: "draw_offer".into(),
                    t_ms: t,
                });
                if let Some(v) = &self.voices {
                    v.get().say_public_draw_offer(t, events);
                }
                return Ok(json!({"understood": "command yes", "confirmed": "draw_offer", "ply": ply}));
            }
            Some(Asked::Resign) => {
                self.apply(t, Input::Resign { side: blind }, events).map_err(|e| e.to_string())?;
                return Ok(json!({"understood": "command yes", "confirmed": "resign"}));
            }
            _ => {}
        }
        match command {
            SpokenCommand::DrawOffer | SpokenCommand::Resign => {
                // Never on one word: a draw offer and a resignation need a yes.
                let book = understanding.wording().phrasebook();
                let (asked, words) = match command {
                    SpokenCommand::DrawOffer => (Asked::DrawOffer, book.words().draw_offer.say().to_owned()),
                    _ => (
                        Asked::Resign,
                        book.command_words()
                            .and_then(|c| c.entry(station_voices::understand::CommandWord::Resign))
                            .map_or_else(|| "resign".to_owned(), |e| e.say().to_owned()),
                    ),
                };
                let question = format!("{words}?");
                self.speech.asked = Some(asked);
                self.say_private(question.clone(), About::Question, t, events);
                Ok(
                    json!({"understood": format!("command {command}"), "command": command.name(), "question": question}),
                )
            }
            command if practice_action(&command).is_some() => {
                let action = practice_action(&command).ok_or("not a practice command")?;
                let mut answer = self.practice(action, t, events)?;
                if let Some(o) = answer.as_object_mut() {
                    o.insert("understood".into(), json!(format!("command {command}")));
                    o.insert("command".into(), json!(command.name()));
                }
                Ok(answer)
            }
            command => {
                if let Some(text) = board_answer(&self.table, understanding, &command) {
                    self.say_private(text, About::Answer, t, events);
                }
                if let Some(step) = RecordStep::of(&command)
                    && let Some(text) = self.reading.step(understanding, &self.table, step)
                {
                    self.say_private(text, About::Record, t, events);
                }
                if matches!(command, SpokenCommand::DrawStatus)
                    && let Some(text) = crate::games::words_of(self.table.rules())
                        .draw_facts_text(understanding.wording(), &self.table)
                {
                    // "Remis Stand" asks for the draw facts; "Remis" alone offers a draw.
                    self.say_private(text, About::DrawStatus, t, events);
                }
                if let Some(v) = &self.voices {
                    match command {
                        SpokenCommand::Time => v.get().say_time(&self.table, t, events),
                        SpokenCommand::Repeat => v.get().repeat_last_move(t, events),
                        SpokenCommand::ReadDifference => v.get().read_difference(&self.table, t, events),
                        SpokenCommand::Silence => v.get().silence(t, events),
                        _ => {}
                    }
                }
                match command {
                    SpokenCommand::ClockUsed => {
                        self.change_clock_reading(Some(station_voices::ClockTimeRead::Used), t, events)
                    }
                    SpokenCommand::ClockRemaining => {
                        self.change_clock_reading(Some(station_voices::ClockTimeRead::Remaining), t, events)
                    }
                    _ => {}
                }
                if let SpokenCommand::Faster | SpokenCommand::Slower = command {
                    let rate = self.change_rate(command == SpokenCommand::Faster, t, events);
                    return Ok(
                        json!({"understood": format!("command {command}"), "command": command.name(), "rate_percent": rate}),
                    );
                }
                Ok(json!({"understood": format!("command {command}"), "command": command.name()}))
            }
        }
    }

    /// His spoken move (`mv` as the game's inputs write it: UCI, PDN)
    /// announced to the table, which checks it against his board; a refusal
    /// is said to him. Any question asked back is answered by it.
    pub(super) fn announce_spoken(
        &mut self,
        understanding: &Understanding,
        mv: &str,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        self.speech.asked = None;
        if let Err(e) = self.apply(t, Input::Announce { mv: mv.to_owned() }, events) {
            let refused = understanding.wording().message(station_voices::Message::IllegalMove);
            self.say_private(refused.to_owned(), About::Refused, t, events);
            return Err(e.to_string());
        }
        Ok(())
    }

    /// A board question asked by button (`read_rank`, `read_file`).
    pub(super) fn answer_question(&mut self, command: &SpokenCommand, t: Millis, events: &mut Vec<Event>) {
        let text =
            self.speech.words_for_answer(&self.config).and_then(|u| board_answer(&self.table, u, command));
        if let Some(text) = text {
            self.say_private(text, About::Answer, t, events);
        }
    }

    /// A step through the record by button (`read_record`, `record_back`, `record_forward`).
    pub(super) fn read_record(&mut self, step: RecordStep, t: Millis, events: &mut Vec<Event>) {
        let text =
            self.speech.words_for_answer(&self.config).and_then(|u| self.reading.step(u, &self.table, step));
        if let Some(text) = text {
            self.say_private(text, About::Record, t, events);
        }
    }

    /// The blind player's draw question (the `draw_status` button, the spoken
    /// "Remis Stand"): the facts of the record, said to him privately.
    pub fn say_draw_facts(&mut self, t: Millis, events: &mut Vec<Event>) {
        let Ok(understanding) = self.speech.understanding(&self.config) else { return };
        let Some(text) =
            crate::games::words_of(self.table.rules()).draw_facts_text(understanding.wording(), &self.table)
        else {
            return;
        };
        self.say_private(text, About::DrawStatus, t, events);
    }

    /// Says `text` to the blind player (or, without voices, only records it as an event).
    pub(super) fn say_private(&self, text: String, about: About, t: Millis, events: &mut Vec<Event>) {
        match &self.voices {
            Some(v) => v.get().say_private(text, about, t, events),
            None => events.push(Event::Announcement {
                listener: station_core::event::Listener::Private,
                text,
                about,
                t_ms: t,
            }),
        }
    }

    /// Starts listening when speech input is enabled (microphone, or the
    /// test WAV input): the speakers mute it while they talk.
    pub fn enable_listening(&mut self) -> Result<()> {
        let speech = &self.config.speech;
        if !speech.enabled || !speech.microphone {
            return Ok(());
        }
        let mute = station_audio::speech::MuteFlag::new();
        if let Some(v) = &self.voices {
            v.get().mute_while_speaking(&mute);
        }
        let lang = speech.model_language(&self.config.voice).to_owned();
        let settings = speech.clone();
        let grammar = self.speech.grammar_phrases(&self.config, &self.table)?;
        self.speech.grammar_built_for = Some(self.speech.grammar_key(&self.table));
        self.speech.listening = Some(Listening::start(&settings, &lang, mute, grammar));
        tracing::info!(lang, model = %settings.model_dir(&lang).display(), "listening");
        Ok(())
    }

    /// What the listening thread heard, for the loop to select on.
    pub fn heard_events(&self) -> Option<Receiver<Heard>> {
        self.speech.listening.as_ref().map(Listening::heard)
    }

    /// Something the listening thread reported: an utterance goes the way of
    /// the `spoken` command (journaled announcement, checked by the table),
    /// after a `heard` event; a missing model or microphone is said once.
    pub fn handle_heard(&mut self, heard: Heard, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        match heard {
            Heard::Ready { device } => {
                events.push(device_status("microphone", Some(device), "connected", None, t))
            }
            Heard::MissingWords { words, model } => {
                let detail = format!(
                    "{} in {}: install the language's model (station models install), or name a spelling the model lists in the phrasebook's [listening.spellings]",
                    crate::vocabulary::describe_missing(&words),
                    model.display()
                );
                tracing::warn!("{detail}");
                eprintln!("station: {detail}");
                events.push(Event::DeviceStatus {
                    device: "speech_model".into(),
                    name: Some(model.display().to_string()),
                    status: "missing_words".into(),
                    detail: Some(detail),
                    words,
                    t_ms: t,
                });
            }
            Heard::Unavailable { device, detail } => {
                tracing::error!(device, "{detail}; the station runs on without speech input");
                eprintln!("station: {detail}; the station runs on without speech input");
                events.push(device_status(device, None, "unavailable", Some(detail), t));
            }
            Heard::Utterance { text, confidence, alternatives, latency, audio } => {
                let heard = |understood| Event::Heard {
                    text: text.clone(),
                    confidence,
                    understood,
                    latency_ms: Some(latency.as_millis() as u64),
                    t_ms: t,
                };
                // Understood once: the `heard` event says what, then it is acted on.
                let said = Said { text: &text, confidence: Some(confidence), readings: &alternatives };
                match self.understand(said) {
                    Ok((meaning, understanding)) => {
                        events.push(heard(meaning.line()));
                        let yes = meaning.is_answer();
                        // Only a move (or one asked back) may have its sound kept.
                        let audio = audio.filter(|_| yes || meaning.is_move());
                        let from = events.len();
                        if let Err(e) = self.act_on(meaning, &understanding, t, &mut events) {
                            tracing::info!(text, error = %e, "spoken input refused");
                        }
                        let kept =
                            self.recorder.keep_spoken(audio, yes, &events[from..], self.table.game_id(), t);
                        events.extend(kept);
                    }
                    Err(e) => events.push(heard(format!("reject {e}"))),
                }
            }
        }
        self.decide(events);
        Ok(())
    }
}

/// The answer to a question about the board, from his own board's state
/// only (no analysis): the record his board follows, or the agreed one
/// when he has no board.
fn board_answer(table: &Table, understanding: &Understanding, command: &SpokenCommand) -> Option<String> {
    let board = match (table.tracker(BoardRole::Blind), table.agreed()) {
        (Some(tracker), _) => tracker.game().position().board().clone(),
        (None, Some(agreed)) => agreed.position().board().clone(),
        (None, None) => return None,
    };
    understanding.answer(&board, table.config().blind_color, command)
}

#[cfg(test)]
mod tests {
    /// A game without its speech would be heard as chess.
    #[test]
    fn every_game_has_its_speech() {
        let names: Vec<_> = super::SPEECH.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, station_core::rules::ALL.map(|r| r.name()));
    }
}
