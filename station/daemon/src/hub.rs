//! The hub between the daemon loop and its web server (console, mirror, API):
//! the latest state snapshot, the live event stream, and operator commands.
//!
//! The daemon loop is single-threaded and owns the table; the web server runs on
//! its own threads. They meet only here: the loop publishes, the server reads
//! and sends commands that the loop executes in order (and journals).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::{Arc, RwLock};

/// An operator command, as `POST /api/command` takes it: `{"cmd": "...", ...}`.
/// Every console control goes through one of these, so everything is scriptable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
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
    /// Enter a move (SAN or UCI) for the side to move, e.g. the sighted player's
    /// move when his board is not sensed.
    EnterMove {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Enter a player's scoresheet (SAN or UCI from the start); a disagreement
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
    /// Claim a flag fall.
    ClaimFlag {
        /// The side whose flag fell.
        side: String,
    },
    /// Adjourn: seal a move without showing it (Guidelines I.2).
    Adjourn {
        /// The sealed move (SAN or UCI); never shown or announced.
        sealed_move: String,
    },
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
    /// Start a new game.
    NewGame {
        /// From a FEN.
        #[serde(default)]
        fen: Option<String>,
        /// Chess960 start position number (0–959).
        #[serde(default)]
        chess960: Option<u16>,
    },
}

/// A command with the channel its answer goes back on.
pub struct CommandRequest {
    /// The command.
    pub command: Command,
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
        command: Command,
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

    /// Daemon side: publishes one event (JSON). Nobody listening is fine.
    pub fn publish_event(&self, json: &str) {
        let _ = self.events.send(Arc::from(json));
    }
}

#[cfg(test)]
mod add_time_tests {
    use super::Command;

    #[test]
    fn add_time_is_an_operator_command_with_who_and_why() {
        let json = r#"{"cmd":"add_time","side":"black","ms":120000,"who":"arbiter","why":"Art. 7.5.5"}"#;
        let cmd: Command = serde_json::from_str(json).unwrap();
        assert_eq!(
            cmd,
            Command::AddTime {
                side: "black".into(),
                ms: 120_000,
                who: Some("arbiter".into()),
                why: Some("Art. 7.5.5".into())
            }
        );
        assert!(serde_json::from_str::<Command>(r#"{"cmd":"add_time","side":"black"}"#).is_err());
    }
}
