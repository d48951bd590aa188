//! A sensed board's life cycle: waiting for the initial position, playing a game,
//! finished. Turns the tracker's observations into events.

use crate::Millis;
use crate::diff::square_diff;
use crate::event::{BoardRole, Event};
use crate::game::Game;
use crate::inference::{BoardTracker, Observation, TrackerConfig};
use shakmaty::{Bitboard, KnownOutcome, Outcome, Position};

/// What a session needs to know.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// The board it follows.
    pub role: BoardRole,
    /// Inference timing.
    pub tracker: TrackerConfig,
    /// The position a game starts from (the standard one by default).
    pub start: Game,
}

impl SessionConfig {
    /// The standard start position on the given board.
    pub fn standard(role: BoardRole, tracker: TrackerConfig) -> Self {
        SessionConfig { role, tracker, start: Game::default() }
    }
}

/// Where a session is in its life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No game: waiting for the board to show the initial position.
    Waiting,
    /// A game is in progress.
    Playing,
    /// The game ended on the board; a new one starts when the initial position is set up.
    Finished,
}

/// One board's session.
#[derive(Clone, Debug)]
pub struct Session {
    cfg: SessionConfig,
    phase: Phase,
    tracker: Option<BoardTracker>,
    game_id: Option<String>,
    sensed: Bitboard,
    last_change: Millis,
    settled: bool,
    scratch: Vec<Observation>,
}

impl Session {
    /// A session waiting for the initial position.
    pub fn new(cfg: SessionConfig) -> Self {
        Session {
            cfg,
            phase: Phase::Waiting,
            tracker: None,
            game_id: None,
            sensed: Bitboard::EMPTY,
            last_change: 0,
            settled: true,
            scratch: Vec::new(),
        }
    }

    /// A session continuing a game whose start was sensed as `sensed` at `t`
    /// (used when restoring from a journal).
    pub fn resume(cfg: SessionConfig, game_id: String, start: Game, sensed: Bitboard, t: Millis) -> Self {
        let tracker = BoardTracker::new(cfg.tracker, start, sensed, t);
        Session {
            phase: Phase::Playing,
            tracker: Some(tracker),
            game_id: Some(game_id),
            sensed,
            last_change: t,
            settled: true,
            scratch: Vec::new(),
            cfg,
        }
    }

    /// Replaces the game in progress by one rebuilt elsewhere (a journal whose
    /// inputs no longer reproduce its recorded moves), with the board sensed as `sensed`.
    pub fn replace_game(&mut self, game: Game, sensed: Bitboard, t: Millis) {
        self.tracker = Some(BoardTracker::new(self.cfg.tracker, game, sensed, t));
        self.phase = Phase::Playing;
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The game in progress or just finished.
    pub fn game(&self) -> Option<&Game> {
        self.tracker.as_ref().map(BoardTracker::game)
    }

    /// The tracker of the game in progress or just finished.
    pub fn tracker(&self) -> Option<&BoardTracker> {
        self.tracker.as_ref()
    }

    /// The current game's identifier.
    pub fn game_id(&self) -> Option<&str> {
        self.game_id.as_deref()
    }

    /// The board this session follows.
    pub fn role(&self) -> BoardRole {
        self.cfg.role
    }

    /// The configuration.
    pub fn config(&self) -> &SessionConfig {
        &self.cfg
    }

    /// When [`tick`](Self::tick) is next needed.
    pub fn deadline(&self) -> Option<Millis> {
        match self.phase {
            Phase::Playing => self.tracker.as_ref().and_then(BoardTracker::deadline),
            Phase::Waiting | Phase::Finished => {
                (!self.settled).then(|| self.last_change + self.cfg.tracker.settle_ms)
            }
        }
    }

    /// Feeds one scan in standard square numbering.
    pub fn on_scan(&mut self, t: Millis, occ: Bitboard, out: &mut Vec<Event>) {
        self.tick(t, out);
        match self.phase {
            Phase::Playing => {
                let tracker = self.tracker.as_mut().expect("playing has a tracker");
                tracker.on_scan(t, occ, &mut self.scratch);
                self.flush(out);
            }
            Phase::Waiting | Phase::Finished => {
                if occ != self.sensed {
                    self.sensed = occ;
                    self.last_change = t.max(self.last_change);
                    self.settled = false;
                }
            }
        }
    }

    /// Lets time pass up to `t`.
    pub fn tick(&mut self, t: Millis, out: &mut Vec<Event>) {
        match self.phase {
            Phase::Playing => {
                let tracker = self.tracker.as_mut().expect("playing has a tracker");
                tracker.tick(t, &mut self.scratch);
                self.flush(out);
            }
            Phase::Waiting | Phase::Finished => {
                let settle_at = self.last_change + self.cfg.tracker.settle_ms;
                if !self.settled && t >= settle_at {
                    self.settled = true;
                    if self.sensed == self.cfg.start.position().board().occupied() {
                        self.start_game(settle_at, out);
                    }
                }
            }
        }
    }

    fn start_game(&mut self, t: Millis, out: &mut Vec<Event>) {
        let game_id = format!("game-{t}");
        let game = self.cfg.start.clone();
        out.push(Event::GameStarted { game_id: game_id.clone(), fen: game.fen(), t_ms: t });
        self.tracker = Some(BoardTracker::new(self.cfg.tracker, game, self.sensed, t));
        self.game_id = Some(game_id);
        self.phase = Phase::Playing;
    }

    fn flush(&mut self, out: &mut Vec<Event>) {
        let tracker = self.tracker.as_ref().expect("flush only while a tracker exists");
        let game = tracker.game();
        let board = self.cfg.role;
        for obs in self.scratch.drain(..) {
            match obs {
                Observation::Touch { square, piece, t } => out.push(Event::Touch {
                    board,
                    square: square.to_string(),
                    piece: piece.char().to_string(),
                    t_ms: t,
                }),
                Observation::Moved { ply, mv, promotion_assumed, t } => {
                    // The tracker may have moved on since (a revision in the same
                    // tick), so read this ply's SAN by number.
                    out.push(Event::Move {
                        ply,
                        san: san_at(game, ply),
                        uci: game.uci(mv),
                        board,
                        t_ms: t,
                        fen: fen_at(game, ply),
                        promotion_assumed,
                    });
                }
                Observation::Revised { ply, mv, replaces, t, .. } => out.push(Event::MoveRevised {
                    ply,
                    san: san_at(game, ply),
                    uci: game.uci(mv),
                    replaces: game.uci(replaces),
                    board,
                    t_ms: t,
                    fen: fen_at(game, ply),
                }),
                Observation::Mismatch { reason, sensed, candidates, takeback_to_ply, t } => {
                    out.push(Event::BoardMismatch {
                        board,
                        reason,
                        diff: square_diff(game.position().board(), sensed),
                        candidates: candidates.iter().map(|m| game.uci(*m)).collect(),
                        takeback_to_ply,
                        t_ms: t,
                    })
                }
                Observation::Restored { t } => out.push(Event::BoardRestored { board, t_ms: t }),
            }
        }
        if let Outcome::Known(outcome) = game.outcome() {
            let t = out.last().map_or(0, Event::t_ms);
            let reason = match outcome {
                KnownOutcome::Decisive { .. } => "checkmate",
                KnownOutcome::Draw if game.position().legal_moves().is_empty() => "stalemate",
                KnownOutcome::Draw => "insufficient_material",
            };
            out.push(Event::GameOver { result: outcome.to_string(), reason: reason.into(), t_ms: t });
            self.phase = Phase::Finished;
            self.sensed = tracker.sensed();
            self.settled = true;
        }
    }
}

fn san_at(game: &Game, ply: usize) -> String {
    game.sans().get(ply - 1).map(ToString::to_string).unwrap_or_default()
}

fn fen_at(game: &Game, ply: usize) -> String {
    game.position_at(ply)
        .map(|p| shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal).to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn scan(s: &mut Session, t: Millis, occ: Bitboard, out: &mut Vec<Event>) {
        s.on_scan(t, occ, out);
    }

    #[test]
    fn a_game_starts_when_the_initial_position_settles_and_ends_on_mate() {
        let mut s = Session::new(SessionConfig::standard(BoardRole::Blind, TrackerConfig::default()));
        let mut out = Vec::new();
        let start = Game::default().position().board().occupied();
        scan(&mut s, 0, start.without(Square::A1), &mut out);
        scan(&mut s, 100, start, &mut out);
        s.tick(399, &mut out);
        assert_eq!(s.phase(), Phase::Waiting);
        s.tick(400, &mut out);
        assert_eq!(s.phase(), Phase::Playing);
        assert!(matches!(&out[0], Event::GameStarted { t_ms: 400, .. }));
        // Fool's mate.
        let mut t = 1000;
        let mut occ = start;
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            let (from, to): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
            occ = occ.without(from);
            scan(&mut s, t, occ, &mut out);
            occ = occ.with(to);
            scan(&mut s, t + 150, occ, &mut out);
            t += 1000;
            s.tick(t, &mut out);
        }
        let sans: Vec<_> = out
            .iter()
            .filter_map(|e| match e {
                Event::Move { san, .. } => Some(san.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
        assert!(
            matches!(out.last(), Some(Event::GameOver { result, reason, .. }) if result == "0-1" && reason == "checkmate")
        );
        assert_eq!(s.phase(), Phase::Finished);
        // Setting the pieces up again starts a new game.
        scan(&mut s, t + 5000, start, &mut out);
        s.tick(t + 6000, &mut out);
        assert_eq!(s.phase(), Phase::Playing);
        assert_eq!(s.game().unwrap().ply(), 0);
    }
}
