//! Practice against an engine (issue 26): the engine's move is the sighted
//! side's move, entered like the console's `enter_move` (an `EnterMove`
//! input, journaled) once his move is made and checked legal; his board then
//! executes it and the table checks the execution like any opponent's move.
//! What a practising player asks for — take back, a hint, a new game (or a
//! famous game's position), the level, the review — is said, pressed or
//! sent from the console. After a restart the engine's moves are in the
//! journal's inputs: the engine is only asked about the position reached.
//!
//! The commands come by voice (`[commands]` `take_back`, `hint`, `new_game`, `stronger`, `weaker`,
//! `review`) or as the console's `practice` command. The engine's name and level are its side's PGN
//! tag. The table's `opponent_entered` (journaled in the header) keeps his board from deciding or
//! revising the engine's moves.

use super::{Station, device_status};
use crate::config::OpponentSettings;
use crate::hub::OperatorCommand;
use crate::opponent::{Answer, Mistake, Opponent, famous_position, position_of};
use anyhow::Result;
use crossbeam_channel::Receiver;
use serde_json::{Value, json};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use station_core::clock::Side;
use station_core::event::About;
use station_core::journal::Input;
use station_core::pgn::SevenTags;
use station_core::table::Phase;
use station_core::table::Table;
use station_core::{Event, Millis};
use station_engine::{EngineEvent, SearchLimit, SearchPosition};
use station_stamp::Stamped;
use station_voices::{Phrasebook, VoiceSettings, Wording};
use std::time::Instant;

/// What the player asks of his practice partner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeAction {
    /// His last move and the engine's reply back.
    TakeBack,
    /// One move, in words.
    Hint,
    /// A new game: from the start, or from a famous game's position by number.
    NewGame(Option<u16>),
    /// The engine one level stronger from the next game on.
    Stronger,
    /// One level weaker.
    Weaker,
    /// The moves where his evaluation dropped most.
    Review,
    /// He resigns.
    Resign,
}

impl PracticeAction {
    /// The console's `practice` command's `action` (and `game`).
    pub fn parse(action: &str, game: Option<u16>) -> Result<Self, String> {
        Ok(match action {
            "take_back" => PracticeAction::TakeBack,
            "hint" => PracticeAction::Hint,
            "new_game" => PracticeAction::NewGame(game),
            "stronger" => PracticeAction::Stronger,
            "weaker" => PracticeAction::Weaker,
            "review" => PracticeAction::Review,
            "resign" => PracticeAction::Resign,
            other => {
                return Err(format!(
                    "`{other}` is not take_back, hint, new_game, stronger, weaker, review or resign"
                ));
            }
        })
    }
}

/// The engine playing the sighted side (`[opponent]`, issue 26) and what it was asked.
#[derive(Default)]
pub(super) struct Practice {
    /// The engine, when one plays.
    pub opponent: Option<Opponent>,
}

/// What the station must do for a practice request, in this order: the
/// inputs given to the table (journaled; the first refused ends it), a new
/// game, a phrase said to him, a line for the log, the answer or the refusal.
#[derive(Default)]
pub(super) struct PracticeDeed {
    /// Inputs for the table, in order.
    pub inputs: Vec<Input>,
    /// A new game from this position (none: the start); its answer is the request's.
    pub new_game: Option<Option<String>>,
    /// The `[practice]` phrase said to him, and its fields.
    pub say: Option<(&'static str, Vec<(&'static str, String)>)>,
    /// A line for the log (an `announcement` to the `log` listener).
    pub log: Option<String>,
    /// The answer to the request (with a new game: the new game's).
    pub answer: Value,
    /// Why the request was refused, once the phrase is said.
    pub refused: Option<String>,
}

impl PracticeDeed {
    /// A phrase said to him, and the answer.
    fn say(key: &'static str, answer: Value) -> Self {
        PracticeDeed { say: Some((key, Vec::new())), answer, ..Default::default() }
    }
}

impl Practice {
    /// What a page needs to say that this is a practice game and who plays
    /// (`/api/state` `practice`): the engine's name and level, its colour and
    /// his (`blind`); `null` when no engine plays.
    pub fn state(&self, blind: shakmaty::Color) -> Value {
        let Some(o) = &self.opponent else { return Value::Null };
        let name = |c: shakmaty::Color| if c == shakmaty::Color::White { "white" } else { "black" };
        json!({
            "engine": o.tag(),
            "elo": o.elo(),
            "engine_color": name(!blind),
            "player_color": name(blind),
        })
    }

    /// `tags` with the engine's name and level on its side (his is `blind`).
    pub fn tags(&self, mut tags: SevenTags, blind: shakmaty::Color) -> SevenTags {
        if let Some(o) = &self.opponent {
            match !blind {
                shakmaty::Color::White => tags.white = o.tag(),
                shakmaty::Color::Black => tags.black = o.tag(),
            }
        }
        tags
    }

    /// Once his move is made (the agreed record has it), the engine is asked
    /// for its reply, once per position; when it is not its move, its own
    /// search is called off.
    pub fn turn(&mut self, table: &Table, limit: Option<SearchLimit>) {
        let engine = !table.config().blind_color;
        let Some(o) = self.opponent.as_mut() else { return };
        match table.agreed() {
            Some(g)
                if table.phase() == Phase::Playing
                    && g.position().turn() == engine
                    && !g.position().is_game_over() =>
            {
                o.want_move(position_of(g), limit);
            }
            _ => o.not_to_move(),
        }
    }

    /// What he asked for, by voice, button or console, in the game at `table`.
    pub fn ask(&mut self, action: PracticeAction, table: &Table) -> Result<PracticeDeed, String> {
        let Some(o) = self.opponent.as_mut() else {
            return Err("no engine opponent: practice needs [opponent]".into());
        };
        let his = table.config().blind_color;
        Ok(match action {
            PracticeAction::TakeBack => {
                let Some(g) = table.agreed() else { return Err("no game".into()) };
                let plies = g.ply();
                let last_is_his = plies > 0 && g.position_at(plies - 1).is_some_and(|p| p.turn() == his);
                // His move and the engine's reply; only his while the engine thinks.
                let n = match (last_is_his, plies) {
                    (true, _) => 1,
                    (false, p) if p >= 2 => 2,
                    _ => 0,
                };
                if n == 0 {
                    return Ok(PracticeDeed::say(
                        "nothing_to_take_back",
                        json!({"ok": false, "taken_back": 0}),
                    ));
                }
                o.cancel();
                // Told once: the take-back's own announcement names the moves
                // and where each goes back (`told`); a "Taken back" before it
                // would say it twice.
                let inputs = vec![Input::TakeBack; n];
                PracticeDeed { inputs, answer: json!({"ok": true, "taken_back": n}), ..Default::default() }
            }
            PracticeAction::Hint => match table.agreed() {
                Some(g) if table.phase() == Phase::Playing && g.position().turn() == his => {
                    o.hint(position_of(g));
                    PracticeDeed { answer: json!({"ok": true, "asked": "hint"}), ..Default::default() }
                }
                _ => PracticeDeed::say("not_your_move", json!({"ok": false})),
            },
            PracticeAction::NewGame(number) => {
                let fen = match number {
                    None => None,
                    Some(n) => match famous_position(n) {
                        Some((name, fen)) => {
                            tracing::info!(n, name, "a famous game's position");
                            Some(fen)
                        }
                        None => {
                            let refused = Some(format!("there is no famous game {n} (1-3)"));
                            return Ok(PracticeDeed {
                                refused,
                                ..PracticeDeed::say("no_such_game", Value::Null)
                            });
                        }
                    },
                };
                o.begin_game();
                // The engine's name and level reach the tags through the default tags (`apply`).
                PracticeDeed {
                    new_game: Some(fen),
                    say: Some(("new_game", Vec::new())),
                    ..Default::default()
                }
            }
            PracticeAction::Stronger | PracticeAction::Weaker => {
                let level = o.step_level(action == PracticeAction::Stronger);
                let say = match level {
                    Some(elo) => ("level", vec![("elo", elo.to_string())]),
                    None => ("full_strength", Vec::new()),
                };
                let log = format!(
                    "engine level from the next game: {}",
                    level.map_or("full".into(), |e| e.to_string())
                );
                let answer = json!({"ok": true, "elo": o.elo(), "next_elo": level});
                PracticeDeed { say: Some(say), log: Some(log), answer, ..Default::default() }
            }
            PracticeAction::Review => match table.agreed() {
                Some(g) if !o.thinking() && g.ply() > 0 => {
                    o.review(g, his);
                    PracticeDeed::say("review_wait", json!({"ok": true, "asked": "review", "plies": g.ply()}))
                }
                _ => PracticeDeed::say("not_your_move", json!({"ok": false})),
            },
            PracticeAction::Resign => PracticeDeed {
                inputs: vec![Input::Resign { side: Side::from(his) }],
                answer: json!({"ok": true, "resigned": true}),
                ..Default::default()
            },
        })
    }
}

/// The game's clock as the engine's limit, when no move time is set (`settings`).
fn engine_limit(settings: Option<&OpponentSettings>, table: &Table, t: Millis) -> Option<SearchLimit> {
    if settings?.move_time_ms.is_some() {
        return None;
    }
    let clock = table.clock()?;
    Some(SearchLimit::Clock {
        wtime: clock.remaining(Side::White, t),
        btime: clock.remaining(Side::Black, t),
        winc: 0,
        binc: 0,
    })
}

/// True when `position` is still the game's.
fn current(table: &Table, position: &SearchPosition) -> bool {
    table.agreed().is_some_and(|g| position_of(g) == *position)
}

/// His words (`voice`), when they can be had.
fn wording(voice: &VoiceSettings) -> Option<Wording> {
    Wording::new(voice).ok()
}

/// The review of his mistakes in the game at `table`, in his words; none
/// without a game or words.
fn review_text(table: &Table, voice: &VoiceSettings, mistakes: &[Mistake]) -> Option<String> {
    let (Some(g), Some(wording)) = (table.agreed(), wording(voice)) else { return None };
    if mistakes.is_empty() {
        return Some(practice_text(Some(&wording), "review_none", &[]));
    }
    let items: Vec<String> = mistakes
        .iter()
        .filter_map(|m| {
            let before = g.position_at(m.ply - 1)?;
            let fill = [
                ("n", before.fullmoves().to_string()),
                ("move", word_in(&wording, before, &m.played)?),
                ("better", word_in(&wording, before, &m.better)?),
            ];
            Some(practice_text(Some(&wording), "review_item", &fill))
        })
        .collect();
    Some(items.join(". "))
}

impl Station {
    /// Plays the sighted side with `opponent` from now on (`[opponent]`);
    /// `first` is its first report, taken while it started.
    pub fn attach_opponent(
        &mut self,
        (opponent, first): (Opponent, Option<Stamped<EngineEvent>>),
    ) -> Result<()> {
        self.practice.opponent = Some(opponent);
        match first {
            Some(s) => self.handle_engine(s.event, s.at),
            None => Ok(()),
        }
    }

    /// The engine's reports, when an engine plays.
    pub fn engine_feed(&self) -> Option<Receiver<Stamped<EngineEvent>>> {
        self.practice.opponent.as_ref().map(Opponent::events)
    }

    /// After every turn of the loop: once his move is made (the agreed record
    /// has it), the engine is asked for its reply, once per position; when it
    /// is not its move, its own search is called off.
    pub fn practice_turn(&mut self) {
        let limit = engine_limit(self.config.opponent.as_ref(), &self.table, self.clock.now());
        self.practice.turn(&self.table, limit);
    }

    /// An engine report: its move entered, a hint or the review said, a fault named once.
    pub fn handle_engine(&mut self, event: EngineEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        let Some(o) = self.practice.opponent.as_mut() else { return Ok(()) };
        match o.on_event(event) {
            Answer::Nothing => {}
            Answer::Ready(name) => events.push(device_status("engine", Some(name), "connected", None, t)),
            Answer::Fault { kind, detail, first } => {
                let name = Some(o.tag());
                events.push(device_status("engine", name, kind.name(), Some(detail), t));
                if first {
                    self.practice_say(kind.name(), &[], t, &mut events);
                }
            }
            Answer::Move { uci, position } => self.engine_move(&uci, &position, t, &mut events),
            Answer::Hint { uci, position } => {
                let words = current(&self.table, &position)
                    .then(|| {
                        let pos = position.to_position().ok()?;
                        word_in(&wording(&self.config.voice)?, &pos, &uci)
                    })
                    .flatten();
                if let Some(words) = words {
                    self.practice_say("hint", &[("move", words)], t, &mut events);
                }
            }
            Answer::Reviewed(mistakes) => {
                if let Some(text) = review_text(&self.table, &self.config.voice, &mistakes) {
                    self.say_private(text, About::Practice, t, &mut events);
                }
            }
        }
        self.decide(events);
        self.practice_turn();
        Ok(())
    }

    /// The engine's move: still its turn in the same position, it is entered
    /// as the sighted side's move (journaled as `enter_move`).
    fn engine_move(&mut self, uci: &str, position: &SearchPosition, t: Millis, events: &mut Vec<Event>) {
        if self.table.phase() != Phase::Playing || !current(&self.table, position) {
            tracing::info!(uci, "the engine's move came for a position that is gone");
            return;
        }
        tracing::info!(uci, "the engine moves");
        if let Err(e) = self.apply(t, Input::EnterMove { mv: uci.to_owned() }, events) {
            tracing::warn!(uci, error = %e, "the engine's move was refused");
        }
    }

    /// A practice phrase (`[practice]`, English when his phrasebook has none)
    /// with its `{name}` fields filled, said to him alone.
    fn practice_say(&self, key: &str, fill: &[(&str, String)], t: Millis, events: &mut Vec<Event>) {
        let text = practice_text(wording(&self.config.voice).as_ref(), key, fill);
        self.say_private(text, About::Practice, t, events);
    }

    /// What he asked for, by voice, button or console: the practice part
    /// decides, the station journals and says it.
    pub(super) fn practice(
        &mut self,
        action: PracticeAction,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        let deed = self.practice.ask(action, &self.table)?;
        let PracticeDeed { inputs, new_game, say, log, mut answer, refused } = deed;
        for input in inputs {
            self.apply(t, input, events).map_err(|e| e.to_string())?;
        }
        if let Some(fen) = new_game {
            let new_game = OperatorCommand::NewGame {
                fen,
                chess960: None,
                moves: Vec::new(),
                white: None,
                black: None,
                event: None,
                site: None,
                round: None,
                board: None,
            };
            answer = self.execute(new_game, t, events)?;
        }
        if let Some((key, fill)) = say {
            self.practice_say(key, &fill, t, events);
        }
        if let Some(text) = log {
            events.push(Event::Announcement {
                listener: "log".into(),
                text,
                about: "practice".into(),
                t_ms: t,
            });
        }
        match refused {
            Some(why) => Err(why),
            None => Ok(answer),
        }
    }
}

/// A move (UCI) in a wording's words, in `pos`.
fn word_in(wording: &Wording, pos: &Chess, uci: &str) -> Option<String> {
    let mv = UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()?;
    wording.word_move(pos, &mv).ok().map(|a| a.to_string())
}

/// A `[practice]` phrase with its fields filled.
fn practice_text(wording: Option<&Wording>, key: &str, fill: &[(&str, String)]) -> String {
    let template = wording
        .and_then(|w| w.phrasebook().practice())
        .and_then(|p| p.word(key))
        .or_else(|| Phrasebook::builtin("en").and_then(Phrasebook::practice).and_then(|p| p.word(key)))
        .unwrap_or(key);
    fill.iter().fold(template.to_owned(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
}
