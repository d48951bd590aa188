//! The blind player's spoken draughts moves (issue 17 §5): the recogniser
//! listens for the legal moves of the draughts position he speaks about
//! (start and end square, with and without the capture word) and the command
//! words; what it hears is understood against those moves. Exactly one fits:
//! it is announced to the table (`Input::Announce` with its PDN), which checks
//! it against his board. Several captures with the same start and end: asked
//! back with the choices by number, answered with the number (or yes to a
//! question about one move). Commands go the way of the chess path.
//!
//! One `DraughtsSpeech` per variant; a question open is an `Asked::Draughts`, and the listening
//! grammar is keyed on the draughts position and that question.

use super::Asked;
use super::game_speech::{Deed, GameSpeech, Said, SpeechView, SpokenMeaning};
use crate::announce_draughts::say_square;
use serde_json::json;
use station_core::draughts::movegen::legal_moves;
use station_core::draughts::{Position, Variant};
use station_core::table::Table;
use station_core::table::draughts_play::fen;
use station_voices::draughts::DraughtsMoveText;
use station_voices::understand::{DraughtsUnderstood, SpokenCommand, Understanding};

/// What was heard in a draughts position, understood once: the `heard` event
/// names it, then the station acts on it.
pub(super) struct DraughtsHeard {
    fen: String,
    /// The legal moves as the voices say them, and their PDN (full path).
    legal: Vec<DraughtsMoveText>,
    pdn: Vec<String>,
    /// The moves of the question open in this position (its choices).
    open: Vec<String>,
    understood: DraughtsUnderstood,
}

impl SpokenMeaning for DraughtsHeard {
    fn line(&self) -> String {
        self.understood.line(&self.legal)
    }

    fn is_answer(&self) -> bool {
        matches!(
            self.understood,
            DraughtsUnderstood::Choice(_) | DraughtsUnderstood::Command(SpokenCommand::Yes)
        )
    }

    fn is_move(&self) -> bool {
        matches!(self.understood, DraughtsUnderstood::Move(_) | DraughtsUnderstood::Ask { .. })
    }

    fn act(self: Box<Self>, view: SpeechView<'_>, understanding: &Understanding) -> Deed {
        let DraughtsHeard { fen, legal, pdn, open, understood } = *self;
        let announce =
            |mv: &str| Deed::Announce { mv: mv.to_owned(), answer: json!({"understood": "move", "pdn": mv}) };
        match understood {
            DraughtsUnderstood::Move(i) => announce(&pdn[i]),
            DraughtsUnderstood::Choice(k) => match open.get(k) {
                Some(mv) => announce(mv),
                None => Deed::Answer(json!({"understood": format!("choice {}", k + 1)})),
            },
            DraughtsUnderstood::Command(SpokenCommand::Yes) if !open.is_empty() => {
                if let [one] = open.as_slice() {
                    return announce(one);
                }
                // Yes answers no question of several choices: asked again.
                let question = match view.asked {
                    Some(Asked::Draughts { question, .. }) => question.clone(),
                    _ => String::new(),
                };
                Deed::Repeat { answer: json!({"understood": "command yes", "question": question}), question }
            }
            DraughtsUnderstood::Ask { candidates, .. } => {
                let question = understanding.draughts_question(&legal, &candidates);
                let moves: Vec<String> = candidates.iter().filter_map(|&i| pdn.get(i).cloned()).collect();
                let answer = json!({"understood": "ask", "question": question, "choices": moves});
                let asked = Some(Asked::Draughts { fen, moves, question: question.clone() });
                Deed::Ask { question, asked, answer }
            }
            // The other commands are the same in every game.
            DraughtsUnderstood::Command(command) => Deed::Command(command),
            DraughtsUnderstood::Reject(reason) => {
                Deed::Answer(json!({"understood": format!("reject {reason}")}))
            }
        }
    }
}

/// Draughts spoken in one variant: moves by their squares, choices by number.
pub(super) struct DraughtsSpeech(Variant);

/// International draughts spoken (square numbers).
pub(super) static INTERNATIONAL: DraughtsSpeech = DraughtsSpeech(Variant::International);
/// 64-square draughts spoken (letter and rank).
pub(super) static DRAUGHTS64: DraughtsSpeech = DraughtsSpeech(Variant::Draughts64);

impl DraughtsSpeech {
    /// The position he speaks about in a game: before his latest unannounced
    /// move, or the current one; none before a game.
    fn announced(table: &Table) -> Option<Position> {
        table.draughts().and_then(|d| d.announce_position(table.config(), table.announced_ply()))
    }

    /// The position the recogniser listens for: the one he speaks about, or
    /// before a game the initial position.
    fn position(&self, table: &Table) -> Position {
        Self::announced(table).unwrap_or_else(|| Position::initial(self.0))
    }
}

impl GameSpeech for DraughtsSpeech {
    fn grammar_key(&self, view: SpeechView<'_>) -> String {
        let fen = fen(&self.position(view.table));
        let choices = view.open_choices(&fen).len();
        format!("{fen} {choices}")
    }

    fn grammar(&self, view: SpeechView<'_>, understanding: &Understanding) -> Vec<String> {
        let pos = self.position(view.table);
        let choices = view.open_choices(&fen(&pos)).len();
        let (legal, _) = move_texts(&pos);
        understanding.draughts_grammar(&legal, choices).into_phrases()
    }

    fn understand(
        &self,
        view: SpeechView<'_>,
        understanding: &Understanding,
        said: Said<'_>,
    ) -> Result<Box<dyn SpokenMeaning>, String> {
        let pos = Self::announced(view.table).ok_or("no game in progress")?;
        let fen = fen(&pos);
        let (legal, pdn) = move_texts(&pos);
        let open = view.open_choices(&fen);
        let understood = understanding.understand_draughts(said.text, said.confidence, &legal, open.len());
        Ok(Box::new(DraughtsHeard { fen, legal, pdn, open, understood }))
    }
}

/// The legal moves of `pos` as the voices say them, and as PDN with their full path.
fn move_texts(pos: &Position) -> (Vec<DraughtsMoveText>, Vec<String>) {
    let v = pos.variant;
    legal_moves(pos)
        .into_iter()
        .map(|m| {
            let text = DraughtsMoveText {
                from: say_square(v, m.from),
                to: say_square(v, m.to),
                via: m.intermediate().iter().map(|&s| say_square(v, s)).collect(),
                capture: m.is_capture(),
                king: m.promotes,
            };
            (text, m.pdn(v, true))
        })
        .unzip()
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::station::test_support::{config, observed, started};
    use station_voices::understand::Understanding;
    use std::sync::{Arc, Mutex};

    /// A draughts station without boards, speech input on, the blind player speaking German.
    fn station(name: &str) -> (Station, Arc<Mutex<Vec<Event>>>) {
        let dir = crate::station::test_support::scratch(name);
        let text = "[boards.blind]\ndriver = \"none\"\n\n[game]\nrules = \"draughts\"\n\n[clock]\ntime_control = \"4800+60\"\nauto_press = true\n\n[voice]\nlanguage = \"de\"\n\n[speech]\nenabled = true\nmicrophone = false\n";
        let mut station = started(config(text), &dir.join("journal"));
        let events = observed(&mut station);
        station.tick().unwrap();
        station.drain(Duration::from_secs(5)).unwrap();
        assert!(station.table.draughts().is_some(), "a game without boards starts at once");
        (station, events)
    }

    fn hear(station: &mut Station, text: &str, confidence: f32) {
        let heard = Heard::Utterance {
            text: text.to_owned(),
            confidence,
            alternatives: Vec::new(),
            latency: Duration::from_millis(200),
            audio: None,
        };
        station.handle_heard(heard, Instant::now()).unwrap();
        station.drain(Duration::from_secs(5)).unwrap();
    }

    fn heard_lines(events: &Mutex<Vec<Event>>) -> Vec<String> {
        let events = events.lock().unwrap();
        events
            .iter()
            .filter_map(
                |e| if let Event::Heard { understood, .. } = e { Some(understood.clone()) } else { None },
            )
            .collect()
    }

    /// The listening thread's transcripts in a draughts game: understood against
    /// the draughts moves (a `heard` event naming the move), announced, agreed;
    /// an unsure one asked back and made by "ja"; the grammar follows the
    /// position and, while a question is open, its answers.
    #[test]
    fn heard_draughts_moves_are_understood_asked_back_and_the_grammar_follows() {
        let (mut station, events) = station("draughts-heard");
        let (key, phrases) = (
            station.speech.grammar_key(&station.table),
            station.speech.grammar_phrases(&station.config, &station.table).unwrap(),
        );
        assert!(phrases.contains(&"zweiunddreißig achtundzwanzig".to_owned()), "{phrases:?}");
        assert!(phrases.contains(&"zeit".to_owned()) && phrases.last().map(String::as_str) == Some("[unk]"));
        hear(&mut station, "zweiunddreißig achtundzwanzig", 1.0);
        assert_eq!(heard_lines(&events), ["move 32-28"]);
        assert_eq!(station.table.draughts().unwrap().moves(), ["32-28"]);
        let after = station.speech.grammar_key(&station.table);
        assert_ne!(after, key, "the grammar follows the position");
        // Black's reply entered; then an unsure transcript is asked, "ja" makes it.
        let mut out = Vec::new();
        station
            .apply(station.time_of(Instant::now()), Input::EnterMove { mv: "19-23".into() }, &mut out)
            .unwrap();
        station.decide(out);
        station.drain(Duration::from_secs(5)).unwrap();
        let before_ask = station.speech.grammar_key(&station.table);
        hear(&mut station, "achtundzwanzig schlägt neunzehn", 0.4);
        assert_eq!(heard_lines(&events).last().unwrap(), "ask 28x19");
        let (asked, phrases) = (
            station.speech.grammar_key(&station.table),
            station.speech.grammar_phrases(&station.config, &station.table).unwrap(),
        );
        assert_ne!(asked, before_ask, "a question open changes the grammar");
        assert!(phrases.contains(&"eins".to_owned()), "its choice is in the grammar");
        assert_eq!(station.table.draughts().unwrap().ply(), 2, "nothing made before the yes");
        hear(&mut station, "ja", 1.0);
        assert_eq!(station.table.draughts().unwrap().moves(), ["32-28", "19-23", "28x19"]);
        let said = events.lock().unwrap().iter().any(|e| {
            matches!(e, Event::Announcement { about, text, .. } if about == "question" && text == "achtundzwanzig schlägt neunzehn?")
        });
        assert!(said, "the question was said to him");
        // Words that name nothing legal: rejected, nothing made.
        hear(&mut station, "zweiunddreißig achtundzwanzig", 1.0);
        assert!(heard_lines(&events).last().unwrap().starts_with("reject"));
        assert_eq!(station.table.draughts().unwrap().ply(), 3);
    }

    /// Every legal move of every position of the first shared games (both
    /// sides), said by start and end in every built-in language, with and
    /// without the capture word: in the grammar, and understood as itself, or
    /// asked back with the other captures of the same squares — never another
    /// move. Figures (with `--nocapture`): phrases per grammar, time per transcript.
    #[test]
    fn every_move_of_the_shared_games_said_by_its_squares_is_understood_as_itself() {
        use super::move_texts;
        use station_core::draughts::pdn::read_games;
        use station_voices::draughts::{DraughtsMoveText, word_draughts_move};
        use station_voices::understand::DraughtsUnderstood;
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/draughts/selfplay-international.pdn");
        let games = read_games(&std::fs::read_to_string(path).expect("the shared draughts games")).unwrap();
        for lang in station_voices::BUILTIN_LANGUAGES {
            let un = Understanding::language(lang).unwrap();
            let book = un.wording().phrasebook();
            let capture = book.draughts().unwrap().capture.say().to_lowercase();
            let (mut heard, mut asked, mut phrases, mut grammars) = (0usize, 0usize, 0usize, 0usize);
            let started = Instant::now();
            for game in games.iter().take(20) {
                for pos in game.positions() {
                    let (legal, _) = move_texts(&pos);
                    let grammar = un.draughts_grammar(&legal, 0);
                    phrases += grammar.len();
                    grammars += 1;
                    for (i, mv) in legal.iter().enumerate() {
                        let plain = DraughtsMoveText { via: Vec::new(), king: false, ..mv.clone() };
                        let said = word_draughts_move(book, &plain, false).unwrap();
                        let bare = said.replace(&format!(" {capture} "), " ");
                        for text in [said.as_str(), bare.as_str()] {
                            assert!(grammar.contains(text), "{lang}: {text:?} not in the grammar");
                            heard += 1;
                            match un.understand_draughts(text, Some(1.0), &legal, 0) {
                                DraughtsUnderstood::Move(j) => assert_eq!(j, i, "{lang} {text:?}"),
                                DraughtsUnderstood::Ask { candidates, .. } => {
                                    asked += 1;
                                    assert!(candidates.contains(&i), "{lang} {text:?}: {candidates:?}");
                                    for c in candidates {
                                        let other = &legal[c];
                                        assert!(
                                            other.from == mv.from && other.to == mv.to,
                                            "{lang} {text:?}"
                                        );
                                    }
                                }
                                other => panic!("{lang} {text:?}: {other:?}"),
                            }
                        }
                    }
                }
            }
            let took = started.elapsed();
            eprintln!(
                "{lang}: {grammars} positions, {:.1} phrases a grammar, {heard} transcripts ({asked} asked back), {:.1} µs each (grammars included)",
                phrases as f64 / grammars as f64,
                took.as_secs_f64() * 1e6 / heard as f64
            );
        }
    }
}
