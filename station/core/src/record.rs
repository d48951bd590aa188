//! The game record: what a tournament keeps of a game, folded once from the
//! events the table decided.
//!
//! The arbiter signs it, D.2.9 compares it, the blind player reads it by ear
//! and in Braille. Every view of a game (the console, `/game.pgn`, every
//! export, the restore, the record read by ear, the Braille display, the hall)
//! reads a [`GameRecord`] and nothing else, so they cannot disagree. The table
//! keeps one, folding every event it emits ([`GameRecord::apply`]); the same
//! fold over a journal's events (`journal::Contents::record`) gives the same
//! record, which is what exports and the hall read.
//!
//! A record holds the tags, the moves (SAN, UCI or PDN, who made each, the mover's clock after it),
//! the marks where they happened (draw offers, take-backs and illegal-move corrections, draw claims
//! and their outcome, clock corrections, adjournments) and how the game ended (result, reason,
//! `Termination`). The views that read it: `/game.pgn`, `/api/state` (`moves`, `tags`, `result`,
//! `marks`), every `station export` format, the restore (the inputs must reproduce the journal's
//! record, else the journal's record wins), the record read by ear, the Braille display, the hall's
//! board state and `/hall.pgn`. The property test in `record/tests.rs` folds 10,000 random games
//! again and restores them at random points.

use crate::Millis;
use crate::clock::Side;
use crate::draughts::DraughtsPath;
use crate::event::{BoardRole, Event, PlayedMove};
use crate::pgn::SevenTags;
use serde::{Deserialize, Serialize};

/// One move of the record, as it was agreed and announced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMove {
    /// 1-based half-move number from the start position.
    pub ply: usize,
    /// SAN with check or mate suffix (draughts: the PDN).
    pub san: String,
    /// The move played: UCI for chess, the PDN path for draughts (its JSON
    /// key is `uci`, as before the move was typed).
    #[serde(rename = "uci")]
    pub played: PlayedMove,
    /// Draughts: the move in PDN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdn: Option<DraughtsPath>,
    /// The board it was made on (its side's owner); none for moves of a
    /// scoresheet the game was started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<BoardRole>,
    /// When it was agreed.
    pub t_ms: Millis,
    /// The mover's remaining time once his clock was pressed for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<Millis>,
    /// The move was revised after it was first announced.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revised: bool,
}

/// Something that happened to the record between two moves, kept where it
/// happened (`after`: the ply it follows, 0 before the first move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mark", rename_all = "snake_case")]
pub enum Mark {
    /// A draw offer (Art. 9.1), written "(=)" after the offering player's move.
    DrawOffer {
        /// The ply it follows.
        after: usize,
        /// Who offered.
        side: Side,
        /// When the offer was made.
        t_ms: Millis,
    },
    /// Moves taken back (by the arbiter, or after an illegal move, Art. 7.4):
    /// the record went back to `after`.
    TakenBack {
        /// The ply the record went back to.
        after: usize,
        /// The moves taken back, oldest first (UCI).
        moves: Vec<String>,
        /// The same moves in SAN.
        sans: Vec<String>,
        /// Taken back because the arbiter found an illegal move.
        illegal: bool,
        /// When the record went back.
        t_ms: Millis,
    },
    /// A draw claim (Art. 9.2/9.3) and, once the arbiter decided, its outcome.
    DrawClaim {
        /// The ply of the position claimed about.
        after: usize,
        /// The claimant.
        side: Side,
        /// The station's verdict.
        correct: bool,
        /// `threefold_repetition` or `fifty_moves` when correct.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ground: Option<String>,
        /// The arbiter's decision once taken (upheld or not).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decided: Option<bool>,
        /// When claimed.
        t_ms: Millis,
    },
    /// A clock corrected by hand (time set or added, the move counter set).
    ClockAdjusted {
        /// The ply it follows.
        after: usize,
        /// `time_set`, `time_added`, `moves_set`.
        action: String,
        /// Whose clock, when one side's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        /// Who.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        who: Option<String>,
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
        /// `time_added`: how much.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        added_ms: Option<Millis>,
        /// The side's time once corrected, when the event said it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        remaining_ms: Option<Millis>,
        /// When the clock was corrected.
        t_ms: Millis,
    },
    /// The game was adjourned with a sealed move after `after`.
    Adjourned {
        /// The ply it follows.
        after: usize,
        /// When the game was adjourned.
        t_ms: Millis,
    },
    /// The adjourned game resumed.
    Resumed {
        /// The ply it follows.
        after: usize,
        /// When play resumed.
        t_ms: Millis,
    },
}

impl Mark {
    /// The ply the mark follows.
    pub fn plies_played(&self) -> usize {
        match self {
            Mark::DrawOffer { after, .. }
            | Mark::TakenBack { after, .. }
            | Mark::DrawClaim { after, .. }
            | Mark::ClockAdjusted { after, .. }
            | Mark::Adjourned { after, .. }
            | Mark::Resumed { after, .. } => *after,
        }
    }
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnd {
    /// `1-0`, `0-1`, `1/2-1/2` (draughts `2-0`, `0-2`, `1-1`); `*` when a new
    /// game ended this one unfinished.
    pub result: String,
    /// Why: a keyword the station words (`checkmate`, `resignation`,
    /// `agreement`, …) or the arbiter's own words.
    pub reason: String,
    /// The PGN `Termination` tag's value (`normal`, `time forfeit`, …).
    pub termination: String,
    /// When the game ended.
    pub t_ms: Millis,
}

/// The record of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's identifier (and its journal's name).
    pub game_id: String,
    /// The start position (FEN; a draughts game's PDN FEN).
    pub start_fen: String,
    /// When the game started.
    pub started_ms: Millis,
    /// The game's tags (players, event, site, round, board, date).
    pub tags: SevenTags,
    /// The moves, in order.
    pub moves: Vec<RecordedMove>,
    /// Draw offers, take-backs, claims, clock corrections and adjournments,
    /// in the order they happened.
    pub marks: Vec<Mark>,
    /// How the game ended; none while it goes on.
    pub end: Option<GameEnd>,
    /// The game is adjourned (a sealed move waits in the envelope).
    pub adjourned: bool,
}

/// The PGN `Termination` value of a `game_over` reason: the station's
/// keywords are mapped; the arbiter's own words are read for the few cases
/// the standard names, and are an adjudication otherwise.
pub fn termination_of(reason: &str) -> &'static str {
    let r = reason.to_lowercase();
    match r.as_str() {
        "checkmate"
        | "stalemate"
        | "insufficient_material"
        | "resignation"
        | "agreement"
        | "threefold_repetition"
        | "fifty_moves"
        | "no_pieces"
        | "no_move"
        | "king_moves"
        | "long_ending"
        | "short_ending" => "normal",
        "new_game" => "unterminated",
        "illegal_moves" => "rules infraction",
        "flag" | "time_forfeit" => "time forfeit",
        _ if r.contains("flag") || r.contains("time") || r.contains("zeit") || r.contains("czas") => {
            "time forfeit"
        }
        _ if r.contains("illegal") => "rules infraction",
        _ if r.contains("abandon") || r.contains("did not appear") || r.contains("absent") => "abandoned",
        _ if r.contains("resign")
            || r.contains("agree")
            || r.contains("mate")
            || r.contains("repetition")
            || r.contains("aufgegeben")
            || r.contains("poddał") =>
        {
            "normal"
        }
        _ => "adjudication",
    }
}

/// A mark as a PGN comment in English words, for the marks a reader of the
/// game needs (claims and clock corrections); `None` for the others (the
/// draw offer has its own "(=)", a take-back leaves no move to comment).
fn mark_in_words(mark: &Mark) -> Option<String> {
    let clock = crate::clock::format_clock;
    match mark {
        Mark::DrawClaim { side, correct, ground, decided, .. } => {
            let ground = match ground.as_deref() {
                Some("threefold_repetition") => " (threefold repetition)",
                Some("fifty_moves") => " (fifty moves without a pawn move or a capture)",
                _ => "",
            };
            let verdict = match (correct, decided) {
                // The game ended there: the result's comment says why.
                (true, Some(_)) => return None,
                (false, Some(_)) => "incorrect, as the arbiter confirmed (Art. 9.5)".to_owned(),
                (true, None) => format!("correct{ground}; the arbiter had not decided"),
                (false, None) => "incorrect; the arbiter had not decided".to_owned(),
            };
            Some(format!("{} claims a draw: {verdict}", side_name(*side)))
        }
        Mark::ClockAdjusted { action, side, who, why, added_ms, remaining_ms, .. } => {
            let whose = side.map_or_else(|| "The clocks".to_owned(), |s| format!("{}'s clock", side_name(s)));
            let what = match (action.as_str(), added_ms, remaining_ms) {
                ("time_added", Some(added), Some(now)) => {
                    format!("{whose}: {} added, now {}", minutes_in_words(*added), clock(*now))
                }
                ("time_added", _, _) => format!("{whose}: time added"),
                ("time_set", _, Some(now)) => format!("{whose} set to {}", clock(*now)),
                ("time_set", _, None) => format!("{whose} set"),
                _ => "The move counters set".to_owned(),
            };
            let by: Vec<&str> = [who.as_deref(), why.as_deref()].into_iter().flatten().collect();
            Some(match by.as_slice() {
                [] => what,
                by => format!("{what} ({})", by.join(": ")),
            })
        }
        _ => None,
    }
}

/// "White" or "Black".
fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// "3 min", "2 min 30 s", "45 s".
fn minutes_in_words(ms: Millis) -> String {
    let s = ms / 1000;
    match (s / 60, s % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// A `game_over` reason in English words for the PGN comment: the station's
/// keywords worded, the arbiter's own words as he wrote them.
pub fn reason_in_words(reason: &str, result: &str) -> String {
    let loser = match result {
        "1-0" | "2-0" => "Black",
        "0-1" | "0-2" => "White",
        _ => "",
    };
    let winner = match loser {
        "Black" => "White",
        "White" => "Black",
        _ => "",
    };
    match reason {
        "checkmate" => format!("{winner} mates"),
        "stalemate" => "Stalemate".into(),
        "insufficient_material" => "Dead position: insufficient material".into(),
        "resignation" => format!("{loser} resigns"),
        "agreement" => "Draw by agreement".into(),
        "threefold_repetition" => "Draw claimed: threefold repetition".into(),
        "fifty_moves" => "Draw claimed: fifty moves without a pawn move or a capture".into(),
        "illegal_moves" => format!("{loser}'s third illegal move"),
        "new_game" => "Game not finished".into(),
        "no_pieces" => format!("{loser} has no pieces left"),
        "no_move" => format!("{loser} cannot move"),
        "king_moves" => "Draw: kings only moved (6.2)".into(),
        "long_ending" => "Draw: ending not won in time (6.3)".into(),
        "short_ending" => "Draw: ending not won in time (6.4)".into(),
        other => other.to_owned(),
    }
}

impl GameRecord {
    /// An empty record of a game started from `start_fen` at `t_ms`.
    pub fn new(
        game_id: impl Into<String>,
        start_fen: impl Into<String>,
        tags: SevenTags,
        t_ms: Millis,
    ) -> Self {
        GameRecord {
            game_id: game_id.into(),
            start_fen: start_fen.into(),
            started_ms: t_ms,
            tags,
            moves: Vec::new(),
            marks: Vec::new(),
            end: None,
            adjourned: false,
        }
    }

    /// The record of a game continued from `moves` after its start: a
    /// restored game, or one started from a scoresheet.
    pub fn started(
        game_id: impl Into<String>,
        start_fen: impl Into<String>,
        tags: SevenTags,
        t_ms: Millis,
        moves: &[PlayedMove],
    ) -> Self {
        let mut record = GameRecord::new(game_id, start_fen, tags, t_ms);
        record.start_moves(moves);
        record
    }

    /// A game whose journal was closed with `result` at `t_ms` before
    /// `game_over` events told why: the end is known, its reason not.
    pub fn closed(&mut self, result: &str, t_ms: Millis) {
        if self.end.is_none() {
            self.end = Some(GameEnd {
                result: result.to_owned(),
                reason: String::new(),
                termination: termination_of("").into(),
                t_ms,
            });
        }
    }

    /// The moves of a scoresheet the game was started from, before any
    /// move made on the boards. Their SAN is filled in by [`Self::with_sans`].
    fn start_moves<'a>(&mut self, moves: impl IntoIterator<Item = &'a PlayedMove>) {
        self.moves = moves
            .into_iter()
            .enumerate()
            .map(|(i, played)| RecordedMove {
                ply: i + 1,
                san: played.to_string(),
                pdn: played.draughts().cloned(),
                played: played.clone(),
                by: None,
                t_ms: self.started_ms,
                clock_ms: None,
                revised: false,
            })
            .collect();
        self.fill_sans();
    }

    /// Scoresheet moves carry UCI only: their SAN is worked out from the start.
    fn fill_sans(&mut self) {
        if self.moves.iter().all(|m| m.played != m.san.as_str() || m.pdn.is_some()) {
            return;
        }
        let Ok(mut game) = crate::game::Game::from_fen(&self.start_fen) else { return };
        for m in &mut self.moves {
            let Some(mv) = m.played.to_move(game.position()) else { return };
            let san = game.push(mv);
            if m.played == m.san.as_str() {
                m.san = san.to_string();
            }
        }
    }

    /// Folds one event into the record. Events of other kinds change nothing.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::GameStarted { game_id, fen, t_ms, tags, moves } => {
                let tags = tags.clone().unwrap_or_else(|| self.tags.clone());
                *self = GameRecord::new(game_id.clone(), fen.clone(), tags, *t_ms);
                self.start_moves(moves);
            }
            Event::GameMove { ply, san, uci, by, revised, t_ms, pdn } => {
                if *ply == 0 || *ply > self.moves.len() + 1 {
                    return;
                }
                // The same move again (a restart delivers and says again what
                // its listeners missed) is on the record already: folding it
                // again would cut the plies after it and its clock reading.
                let again = self.moves.get(ply - 1).is_some_and(|m| m.played == *uci && m.pdn == *pdn);
                if again && !*revised {
                    return;
                }
                self.moves.truncate(ply - 1);
                // A move replaced: marks after it were about moves no longer on the record.
                self.marks.retain(|m| m.plies_played() < *ply);
                self.moves.push(RecordedMove {
                    ply: *ply,
                    san: san.clone(),
                    played: uci.clone(),
                    pdn: pdn.clone(),
                    by: Some(*by),
                    t_ms: *t_ms,
                    clock_ms: None,
                    revised: *revised,
                });
            }
            Event::GameResumed { game_id, moves, .. }
                if *game_id == self.game_id && !self.moves.iter().map(|m| &m.played).eq(moves.iter()) =>
            {
                // A reader that saw only part of the game (a hall view joining
                // late): the resumed game's moves are the record's.
                self.start_moves(moves);
            }
            Event::TakenBack { ply, t_ms, .. } => self.take_back(*ply, *t_ms),
            Event::IllegalMoveFound { ply, .. } => {
                if let Some(Mark::TakenBack { after, illegal, .. }) = self.marks.last_mut()
                    && *after + 1 == *ply
                {
                    *illegal = true;
                }
            }
            Event::ClockPressed { ply: Some(ply), remaining_ms, .. } => {
                if let Some(m) = ply.checked_sub(1).and_then(|i| self.moves.get_mut(i)) {
                    m.clock_ms = Some(*remaining_ms);
                }
            }
            Event::DrawOffered { side, ply, t_ms } => {
                self.marks.push(Mark::DrawOffer { after: *ply, side: *side, t_ms: *t_ms })
            }
            Event::DrawClaimed { side, ply, correct, ground, t_ms, .. } => self.marks.push(Mark::DrawClaim {
                after: *ply,
                side: *side,
                correct: *correct,
                ground: ground.clone(),
                decided: None,
                t_ms: *t_ms,
            }),
            Event::DrawClaimDecided { correct, .. } => {
                if let Some(Mark::DrawClaim { decided, .. }) =
                    self.marks.iter_mut().rev().find(|m| matches!(m, Mark::DrawClaim { decided: None, .. }))
                {
                    *decided = Some(*correct);
                }
            }
            Event::ClockChanged { action, side, who, why, added_ms, remaining_ms, t_ms }
                if matches!(action.as_str(), "time_set" | "time_added")
                    || (action == "moves_set" && who.as_deref() != Some("station")) =>
            {
                self.marks.push(Mark::ClockAdjusted {
                    after: self.moves.len(),
                    action: action.clone(),
                    side: *side,
                    who: who.clone(),
                    why: why.clone(),
                    added_ms: *added_ms,
                    remaining_ms: *remaining_ms,
                    t_ms: *t_ms,
                })
            }
            Event::Adjourned { t_ms, .. } => {
                self.adjourned = true;
                self.marks.push(Mark::Adjourned { after: self.moves.len(), t_ms: *t_ms });
            }
            Event::AdjournmentResumed { t_ms } => {
                self.adjourned = false;
                self.marks.push(Mark::Resumed { after: self.moves.len(), t_ms: *t_ms });
            }
            Event::GameOver { result, reason, termination, t_ms } if self.end.is_none() => {
                self.end = Some(GameEnd {
                    result: result.to_string(),
                    reason: reason.clone(),
                    termination: termination.clone().unwrap_or_else(|| termination_of(reason).into()),
                    t_ms: *t_ms,
                });
            }
            _ => {}
        }
    }

    /// The record went back: take-backs of one moment (several plies) are one
    /// correction, named with every move it took back.
    fn take_back(&mut self, ply: usize, t_ms: Millis) {
        if ply == 0 || ply > self.moves.len() {
            return;
        }
        let to = ply - 1;
        let taken: Vec<RecordedMove> = self.moves.drain(to..).collect();
        let (mut moves, mut sans): (Vec<String>, Vec<String>) =
            taken.into_iter().map(|m| (m.played.to_string(), m.san)).unzip();
        let merged = match self.marks.last() {
            Some(Mark::TakenBack { after, t_ms: at, .. }) if *at == t_ms && *after == ply => self.marks.pop(),
            _ => None,
        };
        let illegal = match merged {
            Some(Mark::TakenBack { moves: later, sans: later_sans, illegal, .. }) => {
                moves.extend(later);
                sans.extend(later_sans);
                illegal
            }
            _ => false,
        };
        // Marks after the position the record went back to were about moves
        // no longer on it; the correction names those moves.
        self.marks.retain(|m| m.plies_played() <= to);
        self.marks.push(Mark::TakenBack { after: to, moves, sans, illegal, t_ms });
    }

    /// Plies on the record.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The result as PGN writes it: `*` while the game goes on.
    pub fn result(&self) -> &str {
        self.end.as_ref().map_or("*", |e| e.result.as_str())
    }

    /// The moves played, as events carry them.
    pub fn played_moves(&self) -> Vec<PlayedMove> {
        self.moves.iter().map(|m| m.played.clone()).collect()
    }

    /// The moves in UCI (draughts: PDN), as text for a reader outside.
    pub fn ucis(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.played.to_string()).collect()
    }

    /// The plies after which a draw offer's mark "(=)" is written (still on
    /// the record). An offer goes with the offering player's own move (Art.
    /// 9.1.2.1, Appendix C.13): one made before his move, when it was his
    /// turn, is written after the move he then made; only when he made none
    /// (the offer was accepted at once) does it stay where it was made.
    pub fn draw_offers(&self) -> Vec<usize> {
        self.marks
            .iter()
            .filter_map(|m| match m {
                Mark::DrawOffer { after, side, .. } if *after <= self.moves.len() => {
                    let his_turn = self.side_to_move_after(*after) == *side;
                    Some(if his_turn && *after < self.moves.len() { after + 1 } else { *after })
                }
                _ => None,
            })
            .collect()
    }

    /// Who is to move after `plies` half-moves from the start.
    fn side_to_move_after(&self, plies: usize) -> Side {
        // A chess FEN names the side to move in its second field, a PDN FEN first (`W:`/`B:`).
        let black_starts = if self.is_draughts() {
            self.start_fen.starts_with('B')
        } else {
            self.start_fen.split_whitespace().nth(1) == Some("b")
        };
        let first = if black_starts { Side::Black } else { Side::White };
        if plies.is_multiple_of(2) { first } else { first.opponent() }
    }

    /// The comments the PGN writes after a ply (0: before the first move),
    /// besides the clock and the draw-offer mark: draw claims and what the
    /// arbiter decided, and every correction of a clock with who, why and
    /// how much, so a `[%clk]` that jumps is explained where it jumps.
    pub fn comments(&self) -> Vec<(usize, String)> {
        self.marks
            .iter()
            .filter(|m| m.plies_played() <= self.moves.len())
            .filter_map(|m| Some((m.plies_played(), mark_in_words(m)?)))
            .collect()
    }

    /// The mover's clock after each ply, when it was pressed for it.
    pub fn clocks(&self) -> Vec<Option<Millis>> {
        self.moves.iter().map(|m| m.clock_ms).collect()
    }

    /// The chess game of the record (positions, SAN), when it is a chess game
    /// and every move is legal from the start.
    pub fn chess_game(&self) -> Option<crate::game::Game> {
        let mut game = crate::game::Game::from_fen(&self.start_fen).ok()?;
        for m in &self.moves {
            let mv = match m.played.to_move(game.position()) {
                Some(mv) => mv,
                // A reader that kept only the SAN (an older hall message).
                None => m.san.parse::<shakmaty::san::SanPlus>().ok()?.san.to_move(game.position()).ok()?,
            };
            game.push(mv);
        }
        Some(game)
    }

    /// Whether this is a draughts game (its start is a PDN FEN).
    pub fn is_draughts(&self) -> bool {
        // A PDN FEN names the side to move first (`W:`/`B:`); a chess FEN never does.
        self.start_fen.starts_with("W:") || self.start_fen.starts_with("B:")
    }

    /// The game as PGN: the tags, the moves with the clock after each when
    /// known and the draw-offer marks, the end's reason as a comment before the
    /// result, and the `Termination` tag.
    pub fn pgn(&self, time_control: Option<&crate::clock::TimeControl>) -> Option<String> {
        let game = self.chess_game()?;
        let end = self.end.as_ref().filter(|e| e.result != "*");
        let comment = end.map(|e| reason_in_words(&e.reason, &e.result)).filter(|r| !r.is_empty());
        let comments = self.comments();
        let extra = crate::pgn::Extra {
            termination: end.map(|e| e.termination.as_str()).or(Some("unterminated")),
            result_comment: comment.as_deref(),
            comments: &comments,
        };
        Some(crate::pgn::write_pgn_full(
            &game,
            &self.tags,
            self.result(),
            &self.clocks(),
            time_control,
            &self.draw_offers(),
            &extra,
        ))
    }
}

#[cfg(test)]
mod tests;
