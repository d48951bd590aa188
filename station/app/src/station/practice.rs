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
use crate::hub::Command;
use crate::opponent::{Answer, Mistake, Opponent, famous_position, position_of};
use anyhow::Result;
use crossbeam_channel::Receiver;
use serde_json::{Value, json};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use station_core::clock::Side;
use station_core::journal::Input;
use station_core::pgn::SevenTags;
use station_core::table::Phase;
use station_core::{Event, Millis};
use station_engine::{EngineEvent, SearchLimit, SearchPosition};
use station_stamp::Stamped;
use station_voices::{Phrasebook, Wording};
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

impl Station {
    /// Plays the sighted side with `opponent` from now on (`[opponent]`);
    /// `first` is its first report, taken while it started.
    pub fn attach_opponent(
        &mut self,
        (opponent, first): (Opponent, Option<Stamped<EngineEvent>>),
    ) -> Result<()> {
        self.opponent = Some(opponent);
        match first {
            Some(s) => self.handle_engine(s.event, s.at),
            None => Ok(()),
        }
    }

    /// The engine's reports, when an engine plays.
    pub fn engine_feed(&self) -> Option<Receiver<Stamped<EngineEvent>>> {
        self.opponent.as_ref().map(Opponent::events)
    }

    /// The engine's colour: the blind player's opponent.
    fn engine_color(&self) -> shakmaty::Color {
        !self.table.config().blind_color
    }

    /// What a page needs to say that this is a practice game and who plays
    /// (`/api/state` `practice`): the engine's name and level, its colour and
    /// his; `null` when no engine plays.
    pub(super) fn practice_state(&self) -> Value {
        let Some(o) = &self.opponent else { return Value::Null };
        let name = |c: shakmaty::Color| if c == shakmaty::Color::White { "white" } else { "black" };
        json!({
            "engine": o.tag(),
            "elo": o.elo(),
            "engine_color": name(self.engine_color()),
            "player_color": name(!self.engine_color()),
        })
    }

    /// The config's tags with the engine's name and level on its side.
    pub(super) fn practice_tags(&self, mut tags: SevenTags) -> SevenTags {
        if let Some(o) = &self.opponent {
            match self.engine_color() {
                shakmaty::Color::White => tags.white = o.tag(),
                shakmaty::Color::Black => tags.black = o.tag(),
            }
        }
        tags
    }

    /// After every turn of the loop: once his move is made (the agreed record
    /// has it), the engine is asked for its reply, once per position; when it
    /// is not its move, its own search is called off.
    pub fn practice_turn(&mut self) {
        let t = self.clock.now();
        let engine = self.engine_color();
        let limit = self.engine_limit(t);
        let Some(o) = self.opponent.as_mut() else { return };
        match self.table.agreed() {
            Some(g)
                if self.table.phase() == Phase::Playing
                    && g.position().turn() == engine
                    && !g.position().is_game_over() =>
            {
                o.want_move(position_of(g), limit);
            }
            _ => o.not_to_move(),
        }
    }

    /// The game's clock as the engine's limit, when no move time is set.
    fn engine_limit(&self, t: Millis) -> Option<SearchLimit> {
        let settings = self.config.opponent.as_ref()?;
        if settings.move_time_ms.is_some() {
            return None;
        }
        let clock = self.table.clock()?;
        Some(SearchLimit::Clock {
            wtime: clock.remaining(Side::White, t),
            btime: clock.remaining(Side::Black, t),
            winc: 0,
            binc: 0,
        })
    }

    /// An engine report: its move entered, a hint or the review said, a fault named once.
    pub fn handle_engine(&mut self, event: EngineEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        let Some(o) = self.opponent.as_mut() else { return Ok(()) };
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
                if let Some(words) = self.current(&position).then(|| self.word_uci(&position, &uci)).flatten()
                {
                    self.practice_say("hint", &[("move", words)], t, &mut events);
                }
            }
            Answer::Reviewed(mistakes) => self.say_review(&mistakes, t, &mut events),
        }
        self.decide(events);
        self.practice_turn();
        Ok(())
    }

    /// True when `position` is still the game's.
    fn current(&self, position: &SearchPosition) -> bool {
        self.table.agreed().is_some_and(|g| position_of(g) == *position)
    }

    /// The engine's move: still its turn in the same position, it is entered
    /// as the sighted side's move (journaled as `enter_move`).
    fn engine_move(&mut self, uci: &str, position: &SearchPosition, t: Millis, events: &mut Vec<Event>) {
        if self.table.phase() != Phase::Playing || !self.current(position) {
            tracing::info!(uci, "the engine's move came for a position that is gone");
            return;
        }
        tracing::info!(uci, "the engine moves");
        if let Err(e) = self.apply(t, Input::EnterMove { mv: uci.to_owned() }, events) {
            tracing::warn!(uci, error = %e, "the engine's move was refused");
        }
    }

    /// A move (UCI) in his words, in `position`.
    fn word_uci(&self, position: &SearchPosition, uci: &str) -> Option<String> {
        let pos = position.to_position().ok()?;
        word_in(&self.wording()?, &pos, uci)
    }

    fn wording(&self) -> Option<Wording> {
        Wording::new(&self.config.voice).ok()
    }

    /// A practice phrase (`[practice]`, English when his phrasebook has none)
    /// with its `{name}` fields filled, said to him alone.
    fn practice_say(&self, key: &str, fill: &[(&str, String)], t: Millis, events: &mut Vec<Event>) {
        let text = practice_text(self.wording().as_ref(), key, fill);
        self.say_private(text, "practice", t, events);
    }

    fn say_review(&self, mistakes: &[Mistake], t: Millis, events: &mut Vec<Event>) {
        let (Some(g), Some(wording)) = (self.table.agreed(), self.wording()) else { return };
        if mistakes.is_empty() {
            self.practice_say("review_none", &[], t, events);
            return;
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
        self.say_private(items.join(". "), "practice", t, events);
    }

    /// What he asked for, by voice, button or console.
    pub(super) fn practice(
        &mut self,
        action: PracticeAction,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        if self.opponent.is_none() {
            return Err("no engine opponent: practice needs [opponent]".into());
        }
        let his = self.table.config().blind_color;
        match action {
            PracticeAction::TakeBack => {
                let Some(g) = self.table.agreed() else { return Err("no game".into()) };
                let plies = g.ply();
                let last_is_his = plies > 0 && g.position_at(plies - 1).is_some_and(|p| p.turn() == his);
                // His move and the engine's reply; only his while the engine thinks.
                let n = match (last_is_his, plies) {
                    (true, _) => 1,
                    (false, p) if p >= 2 => 2,
                    _ => 0,
                };
                if n == 0 {
                    self.practice_say("nothing_to_take_back", &[], t, events);
                    return Ok(json!({"ok": false, "taken_back": 0}));
                }
                if let Some(o) = self.opponent.as_mut() {
                    o.cancel();
                }
                for _ in 0..n {
                    self.apply(t, Input::TakeBack, events).map_err(|e| e.to_string())?;
                }
                // Told once: the take-back's own announcement names the moves
                // and where each goes back (`told`); a "Taken back" before it
                // would say it twice.
                Ok(json!({"ok": true, "taken_back": n}))
            }
            PracticeAction::Hint => {
                let position = match self.table.agreed() {
                    Some(g) if self.table.phase() == Phase::Playing && g.position().turn() == his => {
                        position_of(g)
                    }
                    _ => {
                        self.practice_say("not_your_move", &[], t, events);
                        return Ok(json!({"ok": false}));
                    }
                };
                if let Some(o) = self.opponent.as_mut() {
                    o.hint(position);
                }
                Ok(json!({"ok": true, "asked": "hint"}))
            }
            PracticeAction::NewGame(number) => {
                let fen = match number {
                    None => None,
                    Some(n) => match famous_position(n) {
                        Some((name, fen)) => {
                            tracing::info!(n, name, "a famous game's position");
                            Some(fen)
                        }
                        None => {
                            self.practice_say("no_such_game", &[], t, events);
                            return Err(format!("there is no famous game {n} (1-3)"));
                        }
                    },
                };
                if let Some(o) = self.opponent.as_mut() {
                    o.begin_game();
                }
                // The engine's name and level reach the tags through the default tags (`apply`).
                let new_game = Command::NewGame {
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
                let answer = self.execute(new_game, t, events)?;
                self.practice_say("new_game", &[], t, events);
                Ok(answer)
            }
            PracticeAction::Stronger | PracticeAction::Weaker => {
                let o = self.opponent.as_mut().ok_or("no engine")?;
                let level = o.step_level(action == PracticeAction::Stronger);
                match level {
                    Some(elo) => self.practice_say("level", &[("elo", elo.to_string())], t, events),
                    None => self.practice_say("full_strength", &[], t, events),
                }
                events.push(Event::Announcement {
                    listener: "log".into(),
                    text: format!(
                        "engine level from the next game: {}",
                        level.map_or("full".into(), |e| e.to_string())
                    ),
                    about: "practice".into(),
                    t_ms: t,
                });
                let elo = self.opponent.as_ref().and_then(Opponent::elo);
                Ok(json!({"ok": true, "elo": elo, "next_elo": level}))
            }
            PracticeAction::Review => {
                let engine_to_move = self.opponent.as_ref().is_some_and(Opponent::thinking);
                let game = self.table.agreed().cloned();
                match game {
                    Some(g) if !engine_to_move && g.ply() > 0 => {
                        self.practice_say("review_wait", &[], t, events);
                        if let Some(o) = self.opponent.as_mut() {
                            o.review(&g, his);
                        }
                        Ok(json!({"ok": true, "asked": "review", "plies": g.ply()}))
                    }
                    _ => {
                        self.practice_say("not_your_move", &[], t, events);
                        Ok(json!({"ok": false}))
                    }
                }
            }
            PracticeAction::Resign => {
                self.apply(t, Input::Resign { side: Side::from(his) }, events).map_err(|e| e.to_string())?;
                Ok(json!({"ok": true, "resigned": true}))
            }
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
