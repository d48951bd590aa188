//! Every change to the record, told (issue 22 §6): a take-back and what to
//! put back on the board, a draw claim and its outcome, time added to or set
//! on a clock, a revised move, the blind player's board right again, the
//! result in words. The blind player hears each in his language
//! (`speaking`); the mirror shows the latest as one line in its page's.
//!
//! [`Told`] follows the durable events and turns them into [`Change`]s (the
//! take-backs of one moment are one change); [`word`] says a change in one
//! listener's words from his side of the board. Nothing here is read out as
//! a symbol: results are words ("Weiß gewinnt"), never "1-0" (the tests' `symbols` scan).
//!
//! `Told` folds the durable events into a `GameRecord` of its own, the record as told: a move taken
//! back is gone from the table before its event is said, not yet from the record as told. It folds
//! every one of them (the start with its scoresheet moves, a resume with the moves it names), so an
//! event about an earlier moment is worded from the record as it was then, never from the table,
//! which may be further on by the time the event is said (issue 37). A change
//! carries what the clock's correction log says (time added or set, the move counter) and, for a
//! take-back, the steps that put a board back. `speaking` says the changes to him at the end of
//! each batch; the latest batch's are the mirror's line (`/api/state` `change`).

use crate::draw_facts::capitalise;
pub use crate::games::Said;
use shakmaty::{Chess, Color, Position, Role};
use station_core::Game;
use station_core::clock::{CorrectionChange, Side};
use station_core::correction::{Step, steps_between};
use station_core::draws::DrawFacts;
use station_core::event::About;
use station_core::event::GameResult;
use station_core::record::GameRecord;
use station_core::table::Table;
use station_core::{BoardRole, Event, Millis};
use station_voices::{Message, Wording, say_duration, say_moves};

/// Who a change is worded for: the side of the board he plays, and whether
/// he is the blind player (who is told what to put back on his peg board;
/// the mirror shows one short line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewer {
    /// The colour he plays.
    pub color: Color,
    /// The blind player (private earphone), not the mirror.
    pub blind: bool,
}

/// One change to the record, as told.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Moves taken back at one moment (the arbiter's take-back, D.2.9's
    /// records procedure, an illegal move of Art. 7.4), oldest first, with the
    /// steps that put a board showing them back, and who is to move now.
    TakenBack {
        /// The moves taken back, oldest first.
        moves: Vec<Said>,
        /// What a hand does to the board: the pieces back where they stood.
        steps: Vec<Step>,
        /// Art. 7.4: the first of them was an illegal move.
        illegal: bool,
        /// The side to move after the take-back.
        to_move: Color,
    },
    /// A draw claim: both clocks stop, the arbiter decides (Art. 9.5).
    DrawClaimed {
        /// The claimant.
        side: Side,
        /// His written move, not yet played.
        written: Option<Said>,
        /// The ground the record upholds (`threefold_repetition`, `fifty_moves`), if any.
        ground: Option<String>,
        /// What the record says about the position.
        facts: DrawFacts,
    },
    /// The arbiter's decision on a draw claim.
    ClaimDecided {
        /// Upheld (a draw follows) or rejected (play goes on).
        correct: bool,
    },
    /// Time added to a clock.
    TimeAdded {
        /// Whose clock.
        side: Side,
        /// How much was added.
        added_ms: Millis,
        /// Its time now.
        now_ms: Millis,
    },
    /// A clock set to a time.
    TimeSet {
        /// Whose clock.
        side: Side,
        /// Its time now.
        now_ms: Millis,
    },
    /// The operator set the clock's move counter.
    MovesSet {
        /// The moves counted now.
        moves: u32,
    },
    /// A move announced before was replaced by this one.
    Revised(Said),
    /// The board shows the game again: his own after a difference he was
    /// told (`his`), or every board after a D.2.9 discrepancy.
    BoardRight {
        /// His board had a difference he was told of.
        his: bool,
    },
    /// The game is over.
    Result {
        /// Who won, a draw, or none (`*`): said in words, never as the symbol.
        result: GameResult,
        /// A keyword (`resignation`, `agreement` …) or the arbiter's free text.
        reason: String,
        /// The PGN `Termination` (`time forfeit`, `adjudication` …), when given.
        termination: Option<String>,
    },
}

impl Change {
    /// The `about` of the announcement that tells it.
    pub fn about(&self) -> About {
        match self {
            Change::TakenBack { .. } => About::TakeBack,
            Change::DrawClaimed { .. } | Change::ClaimDecided { .. } => About::DrawClaim,
            Change::TimeAdded { .. } | Change::TimeSet { .. } | Change::MovesSet { .. } => About::Clock,
            Change::Revised(_) => About::Move,
            Change::BoardRight { .. } => About::Restored,
            Change::Result { .. } => About::Result,
        }
    }
}

/// Take-backs of one moment, gathered into one change.
#[derive(Debug)]
struct PendingTakeBack {
    t: Millis,
    /// The lowest ply taken back so far.
    first: usize,
    moves: Vec<Said>,
    /// The board with every one of them played.
    after: Option<shakmaty::Board>,
    illegal: bool,
}

/// The record as the durable events told it (the one fold of
/// `station_core::record`), followed to name what changes: a move taken back
/// is gone from the table by the time its event is told, not yet from this
/// record.
#[derive(Debug, Default)]
pub struct Told {
    /// The record as told so far.
    record: Option<GameRecord>,
    /// Its chess positions (none for draughts), worked out once per change.
    game: Option<Game>,
    pending: Option<PendingTakeBack>,
    /// His board's own move revised; told unless the record's revision follows.
    revised_on_his_board: Option<(usize, Said)>,
    /// A board came right; told once per moment.
    right: Option<bool>,
    /// His board's difference was told and not yet put right.
    his_difference: bool,
    /// Clock corrections of one moment already matched to their events, per side.
    matched: Vec<(Millis, Side)>,
}

impl Told {
    /// Nothing followed yet.
    pub fn new() -> Told {
        Told::default()
    }

    /// The position before `ply` of the chess record as told, if known.
    pub fn position_before(&self, ply: usize) -> Option<&Chess> {
        self.game.as_ref()?.position_at(ply.checked_sub(1)?)
    }

    /// The position the chess record as told stands at now (after its last
    /// move); none for draughts or before a game.
    pub fn position(&self) -> Option<&Chess> {
        self.game.as_ref().map(Game::position)
    }

    /// Folds `event` into the record as told.
    fn fold(&mut self, event: &Event) {
        if let Some(r) = self.record.as_mut() {
            r.apply(event);
            self.game = r.chess_game();
        }
    }

    /// The record as told is `record` from now on.
    fn take(&mut self, record: Option<GameRecord>) {
        self.game = record.as_ref().and_then(GameRecord::chess_game);
        self.record = record;
    }

    /// Plies on the record as told.
    pub fn plies(&self) -> usize {
        self.record.as_ref().map_or(0, GameRecord::ply)
    }

    /// The move of `ply` (1-based) as it was said: a chess move in the
    /// position of the record as told. The table gives the game's words (its
    /// rules are the configuration's, the same for every game of the run)
    /// and, for draughts, the game's own facts of the move (its variant,
    /// whether it made a king).
    fn said(&self, ply: usize, table: &Table) -> Option<Said> {
        let m = self.record.as_ref()?.moves.get(ply.checked_sub(1)?)?;
        crate::games::words_of(table.rules()).said(table, self.game.as_ref(), m, ply)
    }

    /// Follows one durable event; returns the changes it completes, in order
    /// (a take-back is complete once an event of another moment follows,
    /// or the batch ends: [`Told::flush`]).
    ///
    /// Everything about the moment of `event` comes from the event and the
    /// record as told, never from `table`, which may be further on (a
    /// take-back or a new game later in the same batch). The table is read
    /// only for what does not change with the moment: the configuration (the
    /// blind player's colour, the rules and so the game's words), the start
    /// of the game a `game_resumed` names (the same for every moment of
    /// that game), the clock's correction log where an older event lacks its
    /// figures (entries stamped with the event's own time), and the moves
    /// before the first event followed ([`Told::catch_up`]).
    pub fn observe(&mut self, event: &Event, table: &Table) -> Vec<Change> {
        let mut out = Vec::new();
        if !self.continues(event) {
            out.extend(self.flush());
        }
        let blind = table.config().blind_color;
        match event {
            Event::GameStarted { game_id, fen, t_ms, .. } => {
                *self = Told::new();
                let record = GameRecord::new(game_id.clone(), fen.clone(), Default::default(), *t_ms);
                self.take(Some(record));
                self.fold(event);
            }
            Event::GameResumed { game_id, moves, t_ms, .. } => {
                let start = self.start_of(game_id, table);
                *self = Told::new();
                let record =
                    start.map(|(fen, tags)| GameRecord::started(game_id.clone(), fen, tags, *t_ms, moves));
                self.take(record);
            }
            Event::GameMove { ply, revised, .. } => {
                self.catch_up(table, ply.saturating_sub(1));
                // A move said again after a restart folds to nothing (the record's own rule).
                self.fold(event);
                let said = self.said(*ply, table);
                if *revised {
                    if self.revised_on_his_board.as_ref().is_some_and(|(p, _)| p == ply) {
                        self.revised_on_his_board = None;
                    }
                    out.extend(said.map(Change::Revised));
                }
            }
            Event::MoveRevised { board: BoardRole::Blind, ply, uci, .. } => {
                // His own move, revised on his board: the record's revision
                // (a `game_move` with `revised`) says it if it follows.
                let own = self.position_before(*ply).is_some_and(|p| p.turn() == blind);
                if let Some(before) = self.position_before(*ply).filter(|_| own).cloned()
                    && let Some(mv) = uci.to_move(&before)
                {
                    self.revised_on_his_board = Some((*ply, Said::Chess { before, mv }));
                }
            }
            Event::TakenBack { ply, t_ms, .. } => {
                self.catch_up(table, *ply);
                let after = self.game.as_ref().map(|g| g.position().board().clone());
                let said = self.said(*ply, table);
                self.fold(event);
                let pending = self.pending.get_or_insert(PendingTakeBack {
                    t: *t_ms,
                    first: *ply,
                    moves: Vec::new(),
                    after,
                    illegal: false,
                });
                pending.first = *ply;
                pending.moves.splice(0..0, said);
            }
            Event::IllegalMoveFound { ply, .. } => {
                if let Some(p) = self.pending.as_mut().filter(|p| p.first == *ply) {
                    p.illegal = true;
                }
            }
            Event::ClockChanged { action, side, who, added_ms, remaining_ms, t_ms, .. } => {
                let told = (*remaining_ms).map(|now_ms| (*added_ms, now_ms));
                out.extend(self.clock_change(action, *side, who.as_deref(), told, *t_ms, table));
            }
            Event::DrawClaimed {
                side,
                ply,
                written,
                ground,
                repetitions,
                moves_without_pawn_or_capture,
                ..
            } => {
                let written = written.as_ref().and_then(|san| {
                    let before = self.game.as_ref()?.position_at(*ply)?.clone();
                    let mv = san.san.to_move(&before).ok()?;
                    Some(Said::Chess { before, mv })
                });
                out.push(Change::DrawClaimed {
                    side: *side,
                    written,
                    ground: ground.clone(),
                    facts: DrawFacts {
                        ply: *ply,
                        repetitions: *repetitions,
                        halfmove_clock: moves_without_pawn_or_capture.saturating_mul(2),
                    },
                });
            }
            Event::DrawClaimDecided { correct, .. } => out.push(Change::ClaimDecided { correct: *correct }),
            Event::BoardMismatch { board: BoardRole::Blind, .. } => self.his_difference = true,
            Event::BoardRestored { board: BoardRole::Blind, .. } if self.his_difference => {
                self.his_difference = false;
                self.right = Some(true);
            }
            Event::DiscrepancyResolved { .. } => {
                self.right = Some(self.right.unwrap_or(false));
            }
            Event::GameOver { result, reason, termination, .. } => out.push(Change::Result {
                result: result.clone(),
                reason: reason.clone(),
                termination: termination.clone(),
            }),
            _ => {}
        }
        out
    }

    /// What is still gathered, complete now (the batch ended).
    pub fn flush(&mut self) -> Vec<Change> {
        let mut out = Vec::new();
        if let Some(p) = self.pending.take() {
            let before = self.game.as_ref().and_then(|g| g.position_at(p.first.saturating_sub(1)));
            let steps = match (&p.after, before) {
                (Some(after), Some(before)) => steps_between(after, before.board()),
                _ => Vec::new(),
            };
            let to_move = match (before, p.moves.first()) {
                (Some(pos), _) => pos.turn(),
                // Draughts: White moves at odd plies.
                _ if p.first % 2 == 1 => Color::White,
                _ => Color::Black,
            };
            out.push(Change::TakenBack { moves: p.moves, steps, illegal: p.illegal, to_move });
        }
        if let Some((_, said)) = self.revised_on_his_board.take() {
            out.push(Change::Revised(said));
        }
        if let Some(his) = self.right.take() {
            out.push(Change::BoardRight { his });
        }
        self.matched.clear();
        out
    }

    /// Events that belong to what is gathered: take-backs of the same
    /// moment, the illegal move that caused them, the station's own
    /// clock-turn correction after them, the boards coming right, the
    /// record's revision of his board's revised move.
    fn continues(&self, event: &Event) -> bool {
        match event {
            Event::TakenBack { t_ms, ply, .. } => {
                self.pending.as_ref().is_none_or(|p| p.t == *t_ms && p.first == ply + 1)
            }
            Event::IllegalMoveFound { .. }
            | Event::BoardRestored { .. }
            | Event::BoardMismatch { .. }
            | Event::DiscrepancyResolved { .. }
            | Event::Announcement { .. } => true,
            Event::ClockChanged { action, who, .. } => {
                who.as_deref() == Some("station") && (action == "on_move_set" || action == "moves_set")
            }
            Event::GameMove { revised: true, ply, .. } => {
                self.pending.is_none() && self.revised_on_his_board.as_ref().is_some_and(|(p, _)| p == ply)
            }
            _ => false,
        }
    }

    /// A clock correction: how much and the time now, as the event `told`
    /// them (`(added, now)`); for an event without them (a journal of an
    /// older station), and for the move counter, which the event does not
    /// carry, from the clock's own log: its entries stamped with the event's
    /// time, which nothing later changes (the k-th event of a side at a
    /// moment is its k-th correction then).
    fn clock_change(
        &mut self,
        action: &str,
        side: Option<Side>,
        who: Option<&str>,
        told: Option<(Option<Millis>, Millis)>,
        t: Millis,
        table: &Table,
    ) -> Option<Change> {
        match (action, side) {
            ("time_added" | "time_set", Some(side)) => {
                let k = self.matched.iter().filter(|m| **m == (t, side)).count();
                self.matched.push((t, side));
                match (action, told) {
                    ("time_added", Some((Some(added_ms), now_ms))) => {
                        return Some(Change::TimeAdded { side, added_ms, now_ms });
                    }
                    ("time_set", Some((_, now_ms))) => return Some(Change::TimeSet { side, now_ms }),
                    _ => {}
                }
                let (from_ms, to_ms) = table
                    .clock()?
                    .corrections()
                    .iter()
                    .filter(|c| c.at == t)
                    .filter_map(|c| match c.change {
                        CorrectionChange::Remaining { side: s, from_ms, to_ms } if s == side => {
                            Some((from_ms, to_ms))
                        }
                        _ => None,
                    })
                    .nth(k)?;
                Some(if action == "time_added" {
                    Change::TimeAdded { side, added_ms: to_ms.saturating_sub(from_ms), now_ms: to_ms }
                } else {
                    Change::TimeSet { side, now_ms: to_ms }
                })
            }
            // The station's own counter after a take-back is part of the take-back.
            ("moves_set", _) if who != Some("station") => {
                let moves = table.clock()?.corrections().iter().rev().find_map(|c| match c.change {
                    CorrectionChange::Moves { to, .. } if c.at == t => Some(to),
                    _ => None,
                })?;
                Some(Change::MovesSet { moves })
            }
            _ => None,
        }
    }

    /// The start position and tags of the game `game_id`, for its
    /// `game_resumed` (which names its moves, not its start): the record as
    /// told's when it follows that game, else the table's. The table's is safe
    /// to read: a game's start is the same at every moment of it, and the
    /// game id says the table's record is that game's.
    fn start_of(&self, game_id: &str, table: &Table) -> Option<(String, station_core::pgn::SevenTags)> {
        [self.record.as_ref(), table.record()]
            .into_iter()
            .flatten()
            .find(|r| r.game_id == game_id)
            .map(|r| (r.start_fen.clone(), r.tags.clone()))
    }

    /// A record followed from the middle (events missed: the voices started
    /// after the game's start was delivered): the table's record as it was at
    /// `plies` plies, when it has them. Only the moves before the first event
    /// followed come from the table: their events were delivered before the
    /// voices existed, and every later event is folded here.
    fn catch_up(&mut self, table: &Table, plies: usize) {
        if self.plies() >= plies {
            return;
        }
        // Only a chess record replays as chess moves.
        let Some(mut record) = table.record().filter(|r| r.ply() >= plies && !r.is_draughts()).cloned()
        else {
            return;
        };
        record.moves.truncate(plies);
        self.take(Some(record));
    }
}

/// A change in `w`'s words, for `viewer`.
pub fn word(change: &Change, w: &Wording, viewer: Viewer) -> String {
    let m = |message| w.message(message);
    let book = w.phrasebook();
    let whose = |side: Side| {
        if Color::from(side) == viewer.color {
            book.clock().own.clone()
        } else {
            book.clock().opponent.clone()
        }
    };
    match change {
        Change::TakenBack { moves, steps, illegal, to_move } => {
            let said: Vec<String> = moves.iter().map(|s| s.words(w)).collect();
            let head = if *illegal { Message::IllegalTakenBack } else { Message::TakenBack };
            // Moves it cannot name (followed from the middle) leave the head alone.
            let head = m(head).replace("{moves}", &said.join(", "));
            let mut parts = vec![head.trim_end_matches([' ', ':']).to_owned()];
            if viewer.blind {
                parts.extend(steps.iter().map(|s| step_words(w, s)));
            }
            let turn = if *to_move == viewer.color { Message::YourMove } else { Message::OpponentToMove };
            parts.push(m(turn).to_owned());
            sentences(parts)
        }
        Change::DrawClaimed { side, written, ground, facts } => {
            let who = if Color::from(*side) == viewer.color {
                Message::YouClaimDraw
            } else {
                Message::OpponentClaimsDraw
            };
            let mut claim = m(who).to_owned();
            if let Some(written) = written {
                claim = format!("{claim} {}", m(Message::ClaimWritten).replace("{move}", &written.words(w)));
            }
            let finding = match ground.as_deref() {
                Some("threefold_repetition") => m(Message::GroundThreefold).to_owned(),
                Some("fifty_moves") => m(Message::GroundFiftyMoves).to_owned(),
                _ => crate::draw_facts::draw_facts_text(w, facts),
            };
            sentences(vec![claim, finding, m(Message::ClocksStopped).to_owned()])
        }
        Change::ClaimDecided { correct: true } => m(Message::ClaimUpheld).to_owned(),
        Change::ClaimDecided { correct: false } => m(Message::ClaimRejected).to_owned(),
        Change::TimeAdded { side, added_ms, now_ms } => m(Message::TimeAdded)
            .replace("{who}", &whose(*side))
            .replace("{amount}", &say_duration(book, *added_ms))
            .replace("{time}", &say_duration(book, *now_ms)),
        Change::TimeSet { side, now_ms } => m(Message::TimeSet)
            .replace("{who}", &whose(*side))
            .replace("{time}", &say_duration(book, *now_ms)),
        Change::MovesSet { moves } => m(Message::MovesSet).replace("{moves}", &say_moves(book, *moves)),
        Change::Revised(said) => format!("{}: {}", m(Message::MoveRevised), said.words(w)),
        Change::BoardRight { his: true } if viewer.blind => m(Message::BoardRightAgain).to_owned(),
        Change::BoardRight { .. } => m(Message::PositionRestored).to_owned(),
        Change::Result { result, reason, termination } => {
            result_words(w, result, reason, termination.as_deref())
        }
    }
}

/// The end of a game in words: "Partie beendet. Weiß gewinnt, Schwarz hat
/// aufgegeben"; a keyword reason worded, the arbiter's free text only as
/// far as it names a resignation or an agreement, else by its termination
/// ("durch Entscheidung des Schiedsrichters"). The free text itself is never
/// read out: it is in whatever language the arbiter typed it, and a German
/// voice reading "White resigned" inside a German sentence says nothing a
/// player can follow; it stays on the console, in the journal and the PGN.
pub fn result_words(w: &Wording, result: &GameResult, reason: &str, termination: Option<&str>) -> String {
    let m = |message| w.message(message);
    let colour = |c: Color| m(if c == Color::White { Message::White } else { Message::Black });
    let outcome = match result {
        GameResult::WhiteWon | GameResult::WhiteWonDraughts => Some(Some(Color::White)),
        GameResult::BlackWon | GameResult::BlackWonDraughts => Some(Some(Color::Black)),
        GameResult::Draw | GameResult::DrawDraughts => Some(None),
        GameResult::Unfinished | GameResult::Other(_) => None,
    };
    let head = match outcome {
        Some(Some(winner)) => m(Message::Wins).replace("{side}", colour(winner)),
        Some(None) => m(Message::Drawn).to_owned(),
        None => m(Message::NoResult).to_owned(),
    };
    let loser = outcome.flatten().map(|winner| colour(!winner));
    let keyword = match reason {
        "checkmate" => Some(Message::ResultCheckmate),
        "resignation" => Some(Message::ResultResignation),
        "agreement" => Some(Message::ResultAgreement),
        "stalemate" => Some(Message::ResultStalemate),
        "threefold_repetition" => Some(Message::ResultThreefold),
        "fifty_moves" => Some(Message::ResultFiftyMoves),
        "insufficient_material" => Some(Message::ResultInsufficientMaterial),
        "illegal_moves" => Some(Message::ResultIllegalMoves),
        "new_game" => Some(Message::ResultNewGame),
        "no_pieces" => Some(Message::ResultNoPieces),
        "no_move" => Some(Message::ResultNoMove),
        "king_moves" => Some(Message::ResultKingMoves),
        "long_ending" | "short_ending" => Some(Message::ResultEnding),
        free => free_reason(free),
    };
    let by_termination = match termination {
        Some("time forfeit") => Some(Message::ResultTimeForfeit),
        Some("adjudication") => Some(Message::ResultAdjudication),
        Some("rules infraction") => Some(Message::ResultInfraction),
        Some("abandoned") => Some(Message::ResultAbandoned),
        _ => None,
    };
    let text = match keyword.or(by_termination).map(m) {
        Some(template) if loser.is_some() || !template.contains("{loser}") => {
            template.replace("{result}", &head).replace("{loser}", loser.unwrap_or_default())
        }
        _ => head,
    };
    match outcome {
        Some(_) => sentences(vec![m(Message::GameOver).to_owned(), text]),
        None => sentences(vec![text]),
    }
}

/// What an arbiter's free-text reason names, in the words a result is said
/// with: a resignation or an agreed draw, in the languages of the phrasebooks.
fn free_reason(reason: &str) -> Option<Message> {
    let r = reason.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| r.contains(w));
    if any(&["resign", "aufgegeben", "gibt auf", "aufgabe", "poddał", "poddaje", "poddanie"]) {
        Some(Message::ResultResignation)
    } else if any(&["agree", "vereinbar", "zgod"]) {
        Some(Message::ResultAgreement)
    } else {
        None
    }
}

/// One step of putting a board back, in words: a piece moved back ("Springer
/// von Felix drei zurück nach Gustav eins"), a captured piece put back, a
/// promoted piece taken off.
fn step_words(w: &Wording, step: &Step) -> String {
    let square = |sq| {
        let [letter, rank] = w.word_square(sq);
        format!("{} {}", letter.text, rank.text)
    };
    let piece = |role: Role| w.word_piece(role).text.to_owned();
    match *step {
        Step::Move { piece: p, from, to } => w.word_correction(p.role, from, to).to_string(),
        Step::Place { piece: p, to } => {
            w.message(Message::PieceBack).replace("{piece}", &piece(p.role)).replace("{square}", &square(to))
        }
        Step::Remove { piece: p, from } => {
            w.message(Message::PieceOff).replace("{piece}", &piece(p.role)).replace("{square}", &square(from))
        }
    }
}

/// Parts said as sentences; in a language whose messages open with a
/// capital letter, every sentence does.
fn sentences(parts: Vec<String>) -> String {
    let capital = parts.first().is_some_and(|p| p.starts_with(char::is_uppercase));
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| if capital { capitalise(&p) } else { p })
        .collect::<Vec<_>>()
        .join(". ")
}

/// The characters of `text` a voice would read out as symbols: `*`, `=`,
/// `+`, `#`, brackets, slashes, and a hyphen that is not inside a word
/// ("1-0", " - "); a dash between words is a pause and stays.
#[cfg(test)]
pub fn symbols(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    symbol_positions(&chars).into_iter().map(|i| chars[i]).collect()
}

/// Where in `chars` the symbols of [`symbols`] stand.
#[cfg(test)]
fn symbol_positions(chars: &[char]) -> Vec<usize> {
    chars
        .iter()
        .enumerate()
        .filter(|&(i, &c)| match c {
            '*' | '=' | '+' | '#' | '(' | ')' | '[' | ']' | '{' | '}' | '<' | '>' | '/' | '\\' | '|'
            | '½' | '@' | '%' | '&' | '_' | '~' | '^' | '"' => true,
            '-' => {
                let letter =
                    |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|c| c.is_alphabetic());
                !(letter(i.checked_sub(1)) && letter(Some(i + 1)))
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests;
