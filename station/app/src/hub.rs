//! The hub between the daemon loop and its web server (console, mirror, API):
//! the latest state snapshot, the live event stream, and operator commands.
//!
//! The daemon loop is single-threaded and owns the table; the web server runs on
//! its own threads. They meet only here: the loop publishes, the server reads
//! and sends commands that the loop executes in order (and journals).
//!
//! [`OperatorCommand`] is the `POST /api/command` contract: `clock_press` is the assistant's hand for a
//! player without a lever; [`OperatorCommand::from_json`] refuses unknown fields and over-long or
//! control-character texts; [`OperatorCommand::loggable`] hides a sealed move.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use station_core::clock::Side;
use station_core::input::Input;
use station_core::table::ClockCommand;
use std::sync::{Arc, RwLock};

/// An operator command, as `POST /api/command` takes it: `{"cmd": "...", ...}`.
/// Every console control goes through one of these, so everything is scriptable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum OperatorCommand {
    /// Start the clock (the game's first move may be made).
    ClockStart,
    /// Pause both clocks (arbiter).
    ClockPause,
    /// Resume after a pause.
    ClockResume,
    /// Press a player's clock for him: the assistant's hand (D.2.10) when the
    /// player has no lever of his own (a sighted player on a DGT board without a
    /// clock). The same D.2.4 gate as a lever: it counts only after his move.
    ClockPress {
        /// `white` or `black`.
        side: String,
    },
    /// Add time to a side's clock (Art. 7.5.5: two minutes after an illegal
    /// move), journaled with who and why.
    AddTime {
        /// `white` or `black`.
        side: String,
        /// Milliseconds added.
        ms: u64,
        /// Who gave the time.
        #[serde(default)]
        who: Option<String>,
        /// Why.
        #[serde(default)]
        why: Option<String>,
    },
    /// Set a side's remaining time (Article 6.14), logged with who and why.
    SetTime {
        /// `white` or `black`.
        side: String,
        /// Remaining milliseconds.
        ms: u64,
        /// Who corrected it.
        #[serde(default)]
        who: Option<String>,
        /// Why.
        #[serde(default)]
        why: Option<String>,
    },
    /// Set the move counter.
    SetMoves {
        /// Moves made.
        moves: u32,
        /// Who.
        #[serde(default)]
        who: Option<String>,
        /// Why.
        #[serde(default)]
        why: Option<String>,
    },
    /// Draughts: the opponent lets the irregularity the board shows stand
    /// (5.4, 5.7: play goes on from the board's position).
    Accept,
    /// Draughts: the opponent wants the irregularity corrected (5.4): the
    /// station says what to put back, square by square.
    Correct,
    /// Enter a move for the side to move, e.g. the sighted player's move when
    /// his board is not sensed: any ICCF Appendix A notation (SAN, Polish,
    /// ICCF numeric, long, figurine) or UCI, read by `station_core::notation`;
    /// PDN in a draughts game.
    EnterMove {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
        /// The operator confirmed the move as it was echoed back. Without it, a
        /// text whose reading needed anything beyond its exact notation (a
        /// lower-case piece letter, a missing capture or check sign) changes
        /// nothing and is answered `{"ok":false,"confirm":true,"san":…,
        /// "number":…,"text":…,"needed":[…],"words":…}` (see [`crate::move_echo`]).
        #[serde(default)]
        confirm: Option<bool>,
    },
    /// Practice against an engine (issue 26, `[opponent]`): `take_back`,
    /// `hint`, `new_game` (with `game`: a famous game's position by number),
    /// `stronger`, `weaker`, `review`, `resign` — what he may also say or press.
    Practice {
        /// What.
        action: String,
        /// `new_game`: the famous game's number.
        #[serde(default)]
        game: Option<u16>,
    },
    /// Enter a player's scoresheet (every move from the start, in any notation
    /// the core reads); a disagreement
    /// starts the D.2.9 records procedure.
    Scoresheet {
        /// The moves.
        moves: Vec<String>,
    },
    /// Take the last move back (arbiter decision).
    TakeBack,
    /// Accept the clock proposal of a records discrepancy.
    AcceptClockProposal {
        /// The discrepancy.
        id: u64,
    },
    /// Record a draw offer (written `=` on the scoresheet).
    DrawOffer {
        /// `white` or `black`.
        side: String,
    },
    /// The draw offer was accepted: the game is drawn by agreement (Art. 9.1).
    AcceptDraw,
    /// The player to move claims a draw (Art. 9.2/9.3), about the position now
    /// or with his written move not yet played (9.2(a)/9.3(a)); the station
    /// checks it and stops the clock, the arbiter confirms with `confirm_claim`.
    ClaimDraw {
        /// `white` or `black`.
        side: String,
        /// The written move (any notation the core reads), if any.
        #[serde(default, rename = "move")]
        mv: Option<String>,
    },
    /// The arbiter confirms the station's verdict on the draw claim (Art. 9.5).
    ConfirmClaim,
    /// The arbiter found that the move of `ply` was illegal (Art. 7.4): the
    /// position before it is reinstated, the clocks set as they were then, two
    /// minutes to the opponent, the third illegal move loses.
    IllegalMove {
        /// The 1-based ply of the illegal move.
        ply: usize,
    },
    /// Claim a flag fall.
    ClaimFlag {
        /// The side whose flag fell.
        side: String,
    },
    /// Adjourn: seal a move without showing it (Guidelines I.2).
    Adjourn {
        /// The sealed move (any notation the core reads); never shown or announced.
        sealed_move: String,
        /// Adjourned before the end of the session: the ms left in it, taken
        /// from the sealer's clock (Guidelines I.1.2).
        #[serde(default)]
        session_left_ms: Option<u64>,
    },
    /// Resume without the player who replies (Guidelines I.9.2): his clock
    /// runs, the envelope stays shut until he comes (`open_envelope`).
    ResumeReplierAbsent,
    /// Open the envelope (I.9.2 the replier came; I.9.3 the sealer came).
    OpenEnvelope,
    /// The sealer is absent (I.9.3): the reply sealed in a new envelope, the clock switched.
    SealReply {
        /// The reply as written; never shown or announced.
        sealed_move: String,
    },
    /// The envelope is lost (I.12.1): play goes on from the adjourned position.
    EnvelopeLost,
    /// Resume an adjourned game.
    ResumeAdjourned,
    /// What the blind player said, as the recogniser (or a helper) heard it: a
    /// move is checked against his board (D.2.3.3, D.2.8).
    Spoken {
        /// The words.
        text: String,
        /// The recogniser's confidence (0–1), if any.
        #[serde(default)]
        confidence: Option<f32>,
    },
    /// Start a new game (at once: the next command plays into it).
    NewGame {
        /// From a FEN.
        #[serde(default)]
        fen: Option<String>,
        /// Chess960 start position number (0–959).
        #[serde(default)]
        chess960: Option<u16>,
        /// The scoresheet so far: the game starts after these moves.
        #[serde(default)]
        moves: Vec<String>,
        /// White player (the configured `[tags]` otherwise).
        #[serde(default)]
        white: Option<String>,
        /// Black player.
        #[serde(default)]
        black: Option<String>,
        /// Event.
        #[serde(default)]
        event: Option<String>,
        /// Site.
        #[serde(default)]
        site: Option<String>,
        /// Round.
        #[serde(default)]
        round: Option<String>,
        /// Board number.
        #[serde(default)]
        board: Option<String>,
    },
    /// End the game with a result (a resignation, a flag decision, an agreed
    /// draw, the arbiter's decision).
    Result {
        /// `1-0`, `0-1` or `1/2-1/2` (draughts `2-0`, `0-2`, `1-1`).
        result: String,
        /// Why, in the arbiter's words ("White resigned").
        #[serde(default)]
        reason: String,
        /// The PGN `Termination` value, when he names it.
        #[serde(default)]
        termination: Option<String>,
    },
}

/// The longest tag value (a player's name, the event), in characters.
pub const MAX_TAG: usize = 100;

/// The longest `who` or `why` of a clock or counter correction, in characters.
pub const MAX_NOTE: usize = 200;
/// The longest move (`move`, `sealed_move`, a scoresheet entry), in characters.
pub const MAX_MOVE: usize = 16;
/// The most moves a scoresheet may hold (plies).
pub const MAX_SCORESHEET: usize = 1200;
/// The longest spoken text, in characters.
pub const MAX_SPOKEN: usize = 500;
/// The longest FEN, in characters.
pub const MAX_FEN: usize = 100;

/// The commands that take no field besides `cmd`: serde does not hold a unit
/// variant of an internally tagged enum to `deny_unknown_fields`, so
/// [`OperatorCommand::from_json`] does.
const BARE_COMMANDS: &[&str] = &[
    "clock_start",
    "clock_pause",
    "clock_resume",
    "take_back",
    "resume_adjourned",
    "accept_draw",
    "confirm_claim",
    "resume_replier_absent",
    "open_envelope",
    "envelope_lost",
    "accept",
    "correct",
];

/// Where an operator command goes.
#[derive(Debug)]
pub enum Routed {
    /// Straight to the table, as this input.
    Input(Input),
    /// A pass-through command with a wrong value: refused with this reason.
    Wrong(String),
    /// To the station, which does more than pass it on.
    Station(Box<OperatorCommand>),
}

impl OperatorCommand {
    /// The table input a command only passes through (the clock, scoresheet,
    /// decisions, adjournment, take-back, result: the same words the journal
    /// records), or the command back when the station does more than pass it on.
    pub fn route(self) -> Routed {
        match self.into_input() {
            Ok(input) => Routed::Input(input),
            Err(why) => match why {
                Ok(command) => Routed::Station(Box::new(command)),
                Err(wrong) => Routed::Wrong(wrong),
            },
        }
    }

    /// [`route`](Self::route)'s work: `Err(Ok(command))` for a command the
    /// station handles, `Err(Err(reason))` for a wrong value.
    #[allow(clippy::result_large_err)] // one command, moved once: boxing buys nothing
    fn into_input(self) -> Result<Input, Result<OperatorCommand, String>> {
        let side = |s: &str| match s {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            other => Err(Err(format!("`{other}` is not white or black"))),
        };
        let who = |w: Option<String>| w.unwrap_or_else(|| "operator".into());
        let clock = |cmd: ClockCommand| Ok(Input::from_clock_command(&cmd));
        match self {
            OperatorCommand::ClockStart => clock(ClockCommand::Start),
            OperatorCommand::ClockPause => clock(ClockCommand::Pause),
            OperatorCommand::ClockResume => clock(ClockCommand::Resume),
            OperatorCommand::ClockPress { side: s } => Ok(Input::ClockPress { side: side(&s)? }),
            OperatorCommand::SetTime { side: s, ms, who: w, why } => clock(ClockCommand::SetTime {
                side: side(&s)?,
                ms,
                who: who(w),
                why: why.unwrap_or_default(),
            }),
            OperatorCommand::AddTime { side: s, ms, who: w, why } => clock(ClockCommand::AddTime {
                side: side(&s)?,
                ms,
                who: who(w),
                why: why.unwrap_or_default(),
            }),
            OperatorCommand::SetMoves { moves, who: w, why } => {
                clock(ClockCommand::SetMoves { moves, who: who(w), why: why.unwrap_or_default() })
            }
            OperatorCommand::Scoresheet { moves } => Ok(Input::Scoresheet { moves }),
            OperatorCommand::Accept => Ok(Input::IrregularityDecision { decision: "accept".into() }),
            OperatorCommand::Correct => Ok(Input::IrregularityDecision { decision: "correct".into() }),
            OperatorCommand::AcceptDraw => Ok(Input::AcceptDraw),
            OperatorCommand::ConfirmClaim => Ok(Input::ConfirmClaim),
            OperatorCommand::IllegalMove { ply } => Ok(Input::IllegalMove { ply }),
            OperatorCommand::TakeBack => Ok(Input::TakeBack),
            OperatorCommand::Adjourn { sealed_move, session_left_ms } => {
                Ok(Input::Adjourn { sealed: sealed_move, session_left_ms })
            }
            OperatorCommand::ResumeReplierAbsent => Ok(Input::ResumeReplierAbsent),
            OperatorCommand::OpenEnvelope => Ok(Input::OpenEnvelope),
            OperatorCommand::SealReply { sealed_move } => Ok(Input::SealReply { sealed: sealed_move }),
            OperatorCommand::EnvelopeLost => Ok(Input::EnvelopeLost),
            OperatorCommand::ResumeAdjourned => Ok(Input::ResumeAdjourned),
            OperatorCommand::Result { result, reason, termination } => {
                Ok(Input::Result { result, reason, termination })
            }
            other => Err(Ok(other)),
        }
    }

    /// Parses a command as `POST /api/command` takes it and checks its bounds:
    /// an unknown command or field, a field of the wrong type, an over-long
    /// text or a control character in one is an error that says which.
    pub fn from_json(body: &[u8]) -> Result<OperatorCommand, String> {
        let value: Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        if let Value::Object(fields) = &value
            && let Some(Value::String(cmd)) = fields.get("cmd")
            && BARE_COMMANDS.contains(&cmd.as_str())
            && let Some(extra) = fields.keys().find(|k| *k != "cmd")
        {
            return Err(format!("unknown field `{extra}`: `{cmd}` takes no fields"));
        }
        let command: OperatorCommand = serde_json::from_value(value).map_err(|e| e.to_string())?;
        command.check_bounds()?;
        Ok(command)
    }

    /// Every text field within its bound and free of control characters.
    fn check_bounds(&self) -> Result<(), String> {
        let side = |s: &String| text("side", s, 5);
        let note = |name: &str, s: &Option<String>| s.as_ref().map_or(Ok(()), |s| text(name, s, MAX_NOTE));
        match self {
            OperatorCommand::ClockPress { side: s }
            | OperatorCommand::DrawOffer { side: s }
            | OperatorCommand::ClaimFlag { side: s } => side(s),
            OperatorCommand::SetTime { side: s, who, why, .. }
            | OperatorCommand::AddTime { side: s, who, why, .. } => {
                side(s)?;
                note("who", who)?;
                note("why", why)
            }
            OperatorCommand::SetMoves { who, why, .. } => {
                note("who", who)?;
                note("why", why)
            }
            OperatorCommand::EnterMove { mv, .. } => text("move", mv, MAX_MOVE),
            OperatorCommand::Practice { action, .. } => text("action", action, 20),
            OperatorCommand::ClaimDraw { side: s, mv } => {
                side(s)?;
                mv.as_ref().map_or(Ok(()), |m| text("move", m, MAX_MOVE))
            }
            OperatorCommand::Adjourn { sealed_move, .. } | OperatorCommand::SealReply { sealed_move } => {
                text("sealed_move", sealed_move, MAX_MOVE)
            }
            OperatorCommand::Scoresheet { moves } => {
                if moves.len() > MAX_SCORESHEET {
                    return Err(format!("`moves` holds {} moves; at most {MAX_SCORESHEET}", moves.len()));
                }
                moves.iter().try_for_each(|m| text("moves", m, MAX_MOVE))
            }
            OperatorCommand::Spoken { text: t, confidence } => {
                if confidence.is_some_and(|c| !(0.0..=1.0).contains(&c)) {
                    return Err("`confidence` is not between 0 and 1".into());
                }
                text("text", t, MAX_SPOKEN)
            }
            OperatorCommand::NewGame { fen, moves, white, black, event, site, round, board, .. } => {
                fen.as_ref().map_or(Ok(()), |f| text("fen", f, MAX_FEN))?;
                if moves.len() > MAX_SCORESHEET {
                    return Err(format!("`moves` holds {} moves; at most {MAX_SCORESHEET}", moves.len()));
                }
                moves.iter().try_for_each(|m| text("moves", m, MAX_MOVE))?;
                for (name, value) in [
                    ("white", white),
                    ("black", black),
                    ("event", event),
                    ("site", site),
                    ("round", round),
                    ("board", board),
                ] {
                    value.as_ref().map_or(Ok(()), |v| text(name, v, MAX_TAG))?;
                }
                Ok(())
            }
            OperatorCommand::Result { result, reason, termination } => {
                text("result", result, 7)?;
                text("reason", reason, MAX_NOTE)?;
                termination.as_ref().map_or(Ok(()), |v| text("termination", v, 32))
            }
            OperatorCommand::ClockStart
            | OperatorCommand::ClockPause
            | OperatorCommand::ClockResume
            | OperatorCommand::TakeBack
            | OperatorCommand::AcceptDraw
            | OperatorCommand::ConfirmClaim
            | OperatorCommand::IllegalMove { .. }
            | OperatorCommand::ResumeReplierAbsent
            | OperatorCommand::OpenEnvelope
            | OperatorCommand::EnvelopeLost
            | OperatorCommand::AcceptClockProposal { .. }
            | OperatorCommand::Accept
            | OperatorCommand::Correct
            | OperatorCommand::ResumeAdjourned => Ok(()),
        }
    }

    /// The command as it may be logged: the sealed move of an adjournment is a
    /// secret (Guidelines I.2) and never leaves the journal.
    pub fn loggable(&self) -> String {
        match self {
            OperatorCommand::Adjourn { .. } => r#"Adjourn { sealed_move: "(sealed)" }"#.to_owned(),
            OperatorCommand::SealReply { .. } => r#"SealReply { sealed_move: "(sealed)" }"#.to_owned(),
            other => format!("{other:?}"),
        }
    }
}

/// A text field of at most `max` characters without control characters.
fn text(name: &str, value: &str, max: usize) -> Result<(), String> {
    let chars = value.chars().count();
    if chars > max {
        return Err(format!("`{name}` is {chars} characters long; at most {max}"));
    }
    if value.chars().any(char::is_control) {
        return Err(format!("`{name}` holds a control character"));
    }
    Ok(())
}

/// A command with the channel its answer goes back on.
pub struct CommandRequest {
    /// The command.
    pub command: OperatorCommand,
    /// `Ok(json)` or `Err(reason)`.
    pub reply: crossbeam_channel::Sender<Result<Value, String>>,
}

/// What the web server reads and writes.
#[derive(Clone)]
pub struct Hub {
    snapshot: Arc<RwLock<Value>>,
    pgn: Arc<RwLock<String>>,
    events: tokio::sync::broadcast::Sender<Arc<str>>,
    commands: crossbeam_channel::Sender<CommandRequest>,
    /// The kept sound of the current game's spoken moves (D.2.7), by file
    /// name (`ply-023.wav`), for `GET /audio/{file}`.
    audio: Arc<RwLock<std::collections::BTreeMap<String, std::path::PathBuf>>>,
}

impl Hub {
    /// A hub and the receiving end of its command queue (for the daemon loop).
    pub fn new() -> (Hub, crossbeam_channel::Receiver<CommandRequest>) {
        let (commands, rx) = crossbeam_channel::bounded(64);
        let (events, _) = tokio::sync::broadcast::channel(4096);
        let hub = Hub {
            snapshot: Arc::new(RwLock::new(Value::Null)),
            pgn: Arc::new(RwLock::new(String::new())),
            events,
            commands,
            audio: Default::default(),
        };
        (hub, rx)
    }

    /// The latest state (`GET /api/state`).
    pub fn snapshot(&self) -> Value {
        self.snapshot.read().map(|s| s.clone()).unwrap_or(Value::Null)
    }

    /// The live game as PGN (`GET /game.pgn`).
    pub fn pgn(&self) -> String {
        self.pgn.read().map(|s| s.clone()).unwrap_or_default()
    }

    /// A receiver of every event published from now on, one JSON object each (`/ws`).
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<Arc<str>> {
        self.events.subscribe()
    }

    /// Queues a command for the daemon loop; the answer arrives on the returned channel.
    pub fn command(
        &self,
        command: OperatorCommand,
    ) -> Result<crossbeam_channel::Receiver<Result<Value, String>>, String> {
        let (reply, rx) = crossbeam_channel::bounded(1);
        self.commands
            .try_send(CommandRequest { command, reply })
            .map_err(|_| "the station is busy".to_owned())?;
        Ok(rx)
    }

    /// Daemon side: publishes the state after a batch of events.
    pub fn publish_state(&self, snapshot: Value, pgn: String) {
        if let Ok(mut s) = self.snapshot.write() {
            *s = snapshot;
        }
        if let Ok(mut p) = self.pgn.write() {
            *p = pgn;
        }
    }

    /// Daemon side: the current game's kept sound, by ply (D.2.7).
    pub fn publish_audio(&self, files: &[(usize, std::path::PathBuf)]) {
        if let Ok(mut a) = self.audio.write() {
            *a = files.iter().map(|(ply, path)| (crate::kept_audio::file_name(*ply), path.clone())).collect();
        }
    }

    /// The file of a kept move's sound (`ply-023.wav`), if the current game has it.
    pub fn audio_file(&self, name: &str) -> Option<std::path::PathBuf> {
        self.audio.read().ok()?.get(name).cloned()
    }

    /// Daemon side: publishes one event (JSON). Nobody listening is fine.
    pub fn publish_event(&self, json: &str) {
        let _ = self.events.send(Arc::from(json));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_without_fields_refuses_an_extra_one() {
        for cmd in BARE_COMMANDS {
            assert!(OperatorCommand::from_json(format!(r#"{{"cmd":"{cmd}"}}"#).as_bytes()).is_ok(), "{cmd}");
            let err =
                OperatorCommand::from_json(format!(r#"{{"cmd":"{cmd}","ply":1}}"#).as_bytes()).unwrap_err();
            assert!(err.contains("unknown field `ply`"), "{cmd}: {err}");
        }
        // Commands with fields: serde's own rule.
        let err = OperatorCommand::from_json(br#"{"cmd":"claim_flag","side":"white","ply":1}"#).unwrap_err();
        assert!(err.contains("unknown field `ply`"), "{err}");
    }

    #[test]
    fn texts_are_bounded_at_their_limit() {
        let at = |n: usize| format!(r#"{{"cmd":"spoken","text":"{}"}}"#, "ä".repeat(n));
        assert!(OperatorCommand::from_json(at(MAX_SPOKEN).as_bytes()).is_ok(), "characters, not bytes");
        assert!(OperatorCommand::from_json(at(MAX_SPOKEN + 1).as_bytes()).is_err());
        let moves = vec!["e4"; MAX_SCORESHEET + 1];
        let body = serde_json::json!({"cmd": "scoresheet", "moves": moves}).to_string();
        assert!(OperatorCommand::from_json(body.as_bytes()).unwrap_err().contains("at most"));
    }

    #[test]
    fn the_sealed_move_is_never_loggable() {
        let sealed = OperatorCommand::from_json(br#"{"cmd":"adjourn","sealed_move":"Qxf7+"}"#).unwrap();
        assert!(!sealed.loggable().contains("Qxf7"), "{}", sealed.loggable());
        assert!(sealed.loggable().contains("Adjourn"));
        let other = OperatorCommand::from_json(br#"{"cmd":"enter_move","move":"Nf3"}"#).unwrap();
        assert!(other.loggable().contains("Nf3"));
    }

    #[test]
    fn add_time_is_an_operator_command_with_who_and_why() {
        let json = br#"{"cmd":"add_time","side":"black","ms":120000,"who":"arbiter","why":"Art. 7.5.5"}"#;
        assert_eq!(
            OperatorCommand::from_json(json).unwrap(),
            OperatorCommand::AddTime {
                side: "black".into(),
                ms: 120_000,
                who: Some("arbiter".into()),
                why: Some("Art. 7.5.5".into())
            }
        );
        assert!(OperatorCommand::from_json(br#"{"cmd":"add_time","side":"black"}"#).is_err());
        let long = format!(r#"{{"cmd":"add_time","side":"black","ms":1,"why":"{}"}}"#, "x".repeat(5000));
        assert!(OperatorCommand::from_json(long.as_bytes()).is_err(), "who and why are bounded");
    }
}
