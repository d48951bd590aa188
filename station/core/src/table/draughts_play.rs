//! The draughts side of the table's rules seam: what differs from chess and
//! nothing else. The table keeps the life cycle, the clock, the journal
//! contract and the refusals; this keeps the draughts position, each peg
//! board's sensor ([`DraughtsTracker`]) and its own record, and the agreed
//! record built from them like the chess two-board procedure builds it:
//! each side's moves come from its owner's board (or the console when his
//! board is not sensed), every other board executes them (VIII.2.4), and a
//! board that shows something else is named with what puts it right
//! (VIII.3.1). An irregularity of 5.4 waits for the opponent's decision,
//! entered by the assistant (`accept` / `correct`).
//!
//! Its events carry structured facts (`kind`, `moves`, `ply`, `required`/`taken`, `squares`,
//! `fixes`) beside the console's English `text`/`steps`; the console's PDN is the agreed record
//! when his board is not sensed (VIII.2.4). A draw of article 6 ends the live game (`1-1`);
//! `replay --pdn` plays the sensor, not the table, and replays records past it. Tests are in
//! `table/draughts_tests.rs`.

use crate::Millis;
use crate::clock::Side;
use crate::diff::SquareDiff;
use crate::draughts::board::{Color, Position, Square, Variant, squares};
use crate::draughts::draws::{Draw, DrawStatus, DrawWatch};
use crate::draughts::irregular::Irregular;
use crate::draughts::movegen::{GameEnd, game_end};
use crate::draughts::moves::Move;
use crate::draughts::path::DraughtsPath;
use crate::draughts::pdn::find_move;
use crate::draughts::sensing::{DraughtsTracker, Irregularity, Sensed, SensorConfig};
use crate::event::{BoardRole, Decision, Event, MismatchReason, PieceFix, PlayedMove};
use crate::role::ByBoard;
use crate::tracker::Tracker;

/// Which draughts a table plays.
pub type DraughtsVariant = Variant;

/// One sensed board: its sensor and the moves it has executed.
#[derive(Clone, Debug)]
struct BoardState {
    tracker: DraughtsTracker,
    /// The board's own record (`tracker.ply()` entries).
    record: Vec<Move>,
    /// The board was named as not showing the game; said once until it does.
    diverged: bool,
}

/// An irregularity waiting for the opponent's decision.
#[derive(Clone, Debug)]
struct Pending {
    board: BoardRole,
    irregular: Irregular,
    sensed: u64,
}

/// A draughts game at the table.
#[derive(Clone, Debug)]
pub struct DraughtsPlay {
    variant: Variant,
    /// Positions of the agreed record: `[0]` the start, `[i]` after `i` plies.
    positions: Vec<Position>,
    /// The agreed moves as PDN writes them, full capture paths.
    moves: Vec<DraughtsPath>,
    /// The agreed moves as moves (none for an irregular move accepted, 5.7).
    played: Vec<Option<Move>>,
    boards: ByBoard<Option<BoardState>>,
    draws: DrawWatch,
    pending: Option<Pending>,
    /// A draw of article 6 the position reached (said on request).
    draw: Option<Draw>,
    /// The blind player's announcement made before his board showed the move, and when.
    pub(super) said_early: Option<(Move, Millis)>,
}

impl DraughtsPlay {
    /// A game of `variant` from its initial position; `sensed` says which
    /// boards are peg boards and what they show now.
    pub fn new(variant: Variant, sensor: SensorConfig, sensed: ByBoard<Option<u64>>) -> DraughtsPlay {
        let start = Position::initial(variant);
        let board = |occ: Option<u64>| {
            occ.map(|occ| {
                let mut tracker = DraughtsTracker::new(sensor, start);
                tracker.resync(start, 0, occ, 0);
                BoardState { tracker, record: Vec::new(), diverged: false }
            })
        };
        DraughtsPlay {
            variant,
            positions: vec![start],
            moves: Vec::new(),
            played: Vec::new(),
            boards: sensed.map(board),
            draws: DrawWatch::new(start),
            pending: None,
            draw: None,
            said_early: None,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The agreed position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("the start is always there")
    }

    /// Plies agreed.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The agreed moves as PDN writes them.
    pub fn moves(&self) -> &[DraughtsPath] {
        &self.moves
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        side(self.position().turn)
    }

    /// Whether the move of `ply` (1-based) made a king (3.7).
    pub fn made_king(&self, ply: usize) -> bool {
        self.played.get(ply.wrapping_sub(1)).and_then(Option::as_ref).is_some_and(|m| m.promotes)
    }

    /// Where the game stands toward the draws of article 6.
    pub fn draw_status(&self) -> DrawStatus {
        self.draws.status()
    }

    /// A draw of article 6 the game has reached, if any.
    pub fn draw(&self) -> Option<Draw> {
        self.draw
    }

    /// The start position in PDN FEN (`W:W31,…:B1,…`).
    pub fn start_fen(&self) -> String {
        fen(&self.positions[0])
    }

    /// The agreed position in PDN FEN.
    pub fn fen(&self) -> String {
        fen(self.position())
    }

    /// Whether `role`'s board is a sensed peg board of this game.
    pub fn senses(&self, role: BoardRole) -> bool {
        self.boards[role].is_some()
    }

    /// When a board's sensor next needs time to pass.
    pub fn deadline(&self) -> Option<Millis> {
        crate::tracker::earliest(self.boards.values().flatten().map(|b| &b.tracker))
    }

    /// The board that makes `side`'s moves: his peg board; with one peg board
    /// only (the sighted player's board not sensed) that board makes both
    /// sides' moves, as in chess; none when his moves are entered at the
    /// console (no sensed board at all).
    fn owner(&self, side: Side, blind: Side) -> Option<BoardRole> {
        let role = if side == blind || self.boards[BoardRole::Mirror].is_none() {
            BoardRole::Blind
        } else {
            BoardRole::Mirror
        };
        self.boards[role].as_ref().map(|_| role)
    }

    /// A board's scan (the board's own bits: square n = bit n−1).
    pub fn scan(&mut self, role: BoardRole, t: Millis, occ: u64, blind: Side, out: &mut Vec<Event>) {
        let Some(b) = self.boards[role].as_mut() else { return };
        let mut sensed = Vec::new();
        b.tracker.read(t, &occ, &mut sensed);
        self.sensed(role, sensed, blind, out);
    }

    /// Time passes up to `t` on every board.
    pub fn tick(&mut self, t: Millis, blind: Side, out: &mut Vec<Event>) {
        for role in BoardRole::ALL {
            let Some(b) = self.boards[role].as_mut() else { continue };
            let mut sensed = Vec::new();
            b.tracker.pass(t, &mut sensed);
            if !sensed.is_empty() {
                self.sensed(role, sensed, blind, out);
            }
        }
    }

    fn sensed(&mut self, role: BoardRole, sensed: Vec<Sensed>, blind: Side, out: &mut Vec<Event>) {
        let variant = self.variant;
        for obs in sensed {
            let b = self.boards[role].as_mut().expect("a sensed board");
            match obs {
                Sensed::Moved { ply, mv, irregularity, t } => {
                    let after = fen(b.tracker.position());
                    let path = DraughtsPath::of_move(&mv, variant);
                    let pdn = path.to_string();
                    b.record.push(mv);
                    out.push(Event::Move {
                        ply,
                        san: pdn.clone(),
                        uci: PlayedMove::Draughts(path.clone()),
                        board: role,
                        t_ms: t,
                        fen: after,
                        promotion_assumed: false,
                        pdn: Some(path.clone()),
                    });
                    if irregularity == Some(Irregularity::RemovalOrder) {
                        out.push(Event::Irregularity {
                            board: role,
                            article: "5.4.10".into(),
                            text: format!("{pdn}: the captured pieces were not removed in the order of capture nor its reverse (4.11)"),
                            steps: Vec::new(),
                            decision_wanted: false,
                            kind: "removal_order".into(),
                            moves: vec![path],
                            ply: Some(ply),
                            required: None,
                            taken: None,
                            squares: Vec::new(),
                            fixes: Vec::new(),
                            t_ms: t,
                        });
                    }
                }
                Sensed::Mismatch { sensed, candidates, irregular, t } => {
                    let pos = *b.tracker.position();
                    match irregular {
                        Some(irregular) if !b.diverged => {
                            let f = facts(&irregular, variant);
                            out.push(Event::Irregularity {
                                board: role,
                                article: irregular.article().into(),
                                text: irregular_text(&irregular, variant),
                                steps: steps(&pos, sensed),
                                decision_wanted: true,
                                kind: f.kind.into(),
                                moves: f.moves,
                                ply: Some(b.record.len() + 1),
                                required: f.required,
                                taken: f.taken,
                                squares: f.squares,
                                fixes: fixes(&pos, sensed),
                                t_ms: t,
                            });
                            self.pending = Some(Pending { board: role, irregular, sensed });
                        }
                        _ => out.push(Event::BoardMismatch {
                            board: role,
                            reason: if candidates.is_empty() {
                                MismatchReason::Unexplained
                            } else {
                                MismatchReason::Ambiguous
                            },
                            diff: diff(&pos, sensed),
                            candidates: candidates
                                .iter()
                                .map(|m| PlayedMove::Draughts(DraughtsPath::of_move(m, variant)))
                                .collect(),
                            takeback_to_ply: None,
                            t_ms: t,
                        }),
                    }
                }
                Sensed::Restored { t } => {
                    if self.pending.as_ref().is_some_and(|p| p.board == role) {
                        self.pending = None;
                    }
                    out.push(Event::BoardRestored { board: role, t_ms: t });
                }
            }
        }
        let t = out.last().map_or(0, Event::t_ms);
        self.reconcile(blind, t, out);
    }

    /// The agreed record follows the owners' boards; every board is checked
    /// against it (VIII.2.4) and one that shows something else is told what
    /// puts it right (VIII.3.1), once.
    fn reconcile(&mut self, blind: Side, t: Millis, out: &mut Vec<Event>) {
        loop {
            let n = self.ply();
            let Some(by) = self.owner(self.to_move(), blind) else { break };
            let b = self.boards[by].as_ref().expect("an owner board");
            if b.record.len() <= n || !self.agrees(&b.record[..n]) {
                break;
            }
            let mv = b.record[n].clone();
            let t = out.iter().rev().find_map(|e| match e {
                Event::Move { ply, t_ms, board, .. } if *ply == n + 1 && *board == by => Some(*t_ms),
                _ => None,
            });
            self.push_agreed(mv, by, t.unwrap_or(0), out);
        }
        for role in BoardRole::ALL {
            let n = self.ply();
            let Some(b) = self.boards[role].as_ref() else { continue };
            let common = b
                .record
                .iter()
                .zip(&self.played)
                .take_while(|(r, a)| a.as_ref().is_none_or(|a| a.same_effect(r)))
                .count();
            if common == b.record.len().min(n) {
                if b.diverged && b.record.len() == n && b.tracker.sensed() == self.position().occupied() {
                    self.boards[role].as_mut().expect("checked").diverged = false;
                    out.push(Event::BoardRestored { board: role, t_ms: t });
                }
                continue;
            }
            // The board executed something else: back to where it agrees, and told what the game is.
            let target = self.positions[common];
            let made = DraughtsPath::of_move(&b.record[common], self.variant);
            let agreed = self.moves[common].clone();
            let b = self.boards[role].as_mut().expect("checked");
            let sensed = b.tracker.sensed();
            b.tracker.resync(target, common, sensed, t);
            b.record.truncate(common);
            b.diverged = true;
            let now = self.positions[n];
            out.push(Event::Irregularity {
                board: role,
                article: "VIII.3.1".into(),
                text: format!("move {}: the board shows {made}, the game has {agreed}", common + 1),
                steps: steps(&now, sensed),
                decision_wanted: false,
                kind: "boards_differ".into(),
                moves: vec![made, agreed],
                ply: Some(common + 1),
                required: None,
                taken: None,
                squares: Vec::new(),
                fixes: fixes(&now, sensed),
                t_ms: t,
            });
        }
    }

    fn agrees(&self, record: &[Move]) -> bool {
        record.iter().zip(&self.played).all(|(r, a)| a.as_ref().is_none_or(|a| a.same_effect(r)))
            && record.len() <= self.played.len()
    }

    fn push_agreed(&mut self, mv: Move, by: BoardRole, t: Millis, out: &mut Vec<Event>) {
        let pos = *self.position();
        let (next, pdn) = (mv.apply(&pos), DraughtsPath::of_move(&mv, self.variant));
        self.draw = self.draws.played(&mv).or(self.draw);
        self.push_position(next, pdn, Some(mv), by, t, out);
    }

    fn push_position(
        &mut self,
        next: Position,
        pdn: DraughtsPath,
        mv: Option<Move>,
        by: BoardRole,
        t: Millis,
        out: &mut Vec<Event>,
    ) {
        self.positions.push(next);
        self.moves.push(pdn.clone());
        self.played.push(mv);
        out.push(Event::GameMove {
            ply: self.moves.len(),
            san: pdn.to_string(),
            uci: PlayedMove::Draughts(pdn.clone()),
            by,
            revised: false,
            t_ms: t,
            pdn: Some(pdn),
        });
    }

    /// VIII.3.1.2: a player's scoresheet (PDN moves from the start) compared
    /// with the game's record. Where they agree as far as both go, nothing
    /// changes (3.1.1: the positions are corrected from the records, as the
    /// boards are told already). Where they differ, the game goes back to the
    /// last position both records agree on: the later plies are taken back,
    /// every peg board is told what to put where, and the arbiter corrects the
    /// clocks. Returns the ply gone back to, if any.
    pub fn scoresheet(
        &mut self,
        texts: &[String],
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<Option<usize>, String> {
        let mut pos = self.positions[0];
        let mut sheet = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let mv = match find_move(&pos, text.trim()) {
                Ok(Some(mv)) => mv,
                Ok(None) => {
                    return Err(format!("move {}: `{text}` is not a legal draughts move there", i + 1));
                }
                Err(n) => {
                    return Err(format!(
                        "move {}: `{text}` fits {n} legal captures: give the full path",
                        i + 1
                    ));
                }
            };
            pos = mv.apply(&pos);
            sheet.push(mv);
        }
        let common = sheet
            .iter()
            .zip(&self.played)
            .take_while(|(m, a)| a.as_ref().is_none_or(|a| a.same_effect(m)))
            .count();
        let ply = self.ply();
        if common == sheet.len() || common == ply {
            return Ok(None);
        }
        for taken in (common + 1..=ply).rev() {
            out.push(Event::TakenBack { ply: taken, t_ms: t, clock_proposal: None });
        }
        self.positions.truncate(common + 1);
        self.moves.truncate(common);
        self.played.truncate(common);
        self.pending = None;
        self.draw = None;
        self.draws = DrawWatch::new(self.positions[0]);
        for mv in self.played.iter().flatten() {
            self.draw = self.draws.played(mv).or(self.draw);
        }
        let target = self.positions[common];
        for role in BoardRole::ALL {
            let Some(b) = self.boards[role].as_mut() else { continue };
            let sensed = b.tracker.sensed();
            b.tracker.resync(target, common, sensed, t);
            b.record.truncate(common);
            b.diverged = sensed != target.occupied();
            out.push(Event::Irregularity {
                board: role,
                article: "VIII.3.1.2".into(),
                text: format!(
                    "the records differ from move {}: back to the position after move {common}; the arbiter corrects the clocks",
                    common + 1
                ),
                steps: steps(&target, sensed),
                decision_wanted: false,
                kind: "records_differ".into(),
                moves: Vec::new(),
                ply: Some(common + 1),
                required: None,
                taken: None,
                squares: Vec::new(),
                fixes: fixes(&target, sensed),
                t_ms: t,
            });
        }
        Ok(Some(common))
    }

    /// The assistant enters a move (PDN, as typed) for the side to move: the boards execute it.
    pub fn enter(&mut self, text: &str, blind: Side, t: Millis, out: &mut Vec<Event>) -> Result<(), String> {
        let pos = *self.position();
        self.enter_found(find_move(&pos, text.trim()), text, blind, t, out)
    }

    /// A move the station itself names (a spoken announcement read once),
    /// entered for the side to move like [`Self::enter`].
    pub fn enter_path(
        &mut self,
        path: &DraughtsPath,
        blind: Side,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), String> {
        let pos = *self.position();
        self.enter_found(path.find_in(&pos), &path.to_string(), blind, t, out)
    }

    fn enter_found(
        &mut self,
        found: Result<Option<Move>, usize>,
        text: &str,
        blind: Side,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), String> {
        let mv = match found {
            Ok(Some(mv)) => mv,
            Ok(None) => return Err(format!("`{text}` is not a legal draughts move here")),
            Err(n) => return Err(format!("`{text}` fits {n} legal captures: give the full path")),
        };
        let by = if self.to_move() == blind { BoardRole::Blind } else { BoardRole::Mirror };
        self.push_agreed(mv, by, t, out);
        self.reconcile(blind, t, out);
        Ok(())
    }

    /// The opponent's decision on the pending irregularity (5.4, 5.9).
    pub fn decide(
        &mut self,
        accept: bool,
        blind: Side,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), String> {
        let p = self.pending.take().ok_or("no irregularity waits for a decision")?;
        let pos = *self.position();
        if !accept {
            out.push(Event::IrregularityDecided {
                decision: Decision::Correct,
                board: p.board,
                steps: steps(&pos, p.sensed),
                fixes: fixes(&pos, p.sensed),
                t_ms: t,
            });
            return Ok(());
        }
        // 5.7: the position on the board stands and play goes on from it.
        let Some((next, mv_text)) = accepted_position(&pos, &p.irregular, p.sensed) else {
            self.pending = Some(p);
            return Err("the board's position cannot be read as pieces: correct it".into());
        };
        out.push(Event::IrregularityDecided {
            decision: Decision::Accept,
            board: p.board,
            steps: Vec::new(),
            fixes: Vec::new(),
            t_ms: t,
        });
        let path = DraughtsPath::of_move(&mv_text, self.variant);
        let pdn = path.to_string();
        self.draws = DrawWatch::new(next);
        self.push_position(next, path.clone(), None, p.board, t, out);
        let ply = self.ply();
        for (role, b) in self.boards.iter_mut() {
            let Some(b) = b.as_mut() else { continue };
            let sensed = b.tracker.sensed();
            b.tracker.resync(next, ply, sensed, t);
            // Its record up to here is the agreed one: the accepted move is the game's.
            b.record = self.played.iter().map(|m| m.clone().unwrap_or_else(|| mv_text.clone())).collect();
            if sensed != next.occupied() {
                b.diverged = true;
                out.push(Event::Irregularity {
                    board: role,
                    article: "VIII.2.4".into(),
                    text: format!("move {ply}: the board does not show {pdn}"),
                    steps: steps(&next, sensed),
                    decision_wanted: false,
                    kind: "not_executed".into(),
                    moves: vec![path.clone()],
                    ply: Some(ply),
                    required: None,
                    taken: None,
                    squares: Vec::new(),
                    fixes: fixes(&next, sensed),
                    t_ms: t,
                });
            }
        }
        let _ = blind;
        Ok(())
    }

    /// The game's end: the side to move has lost (7.2.2–7.2.3, `2-0`/`0-2`),
    /// or the game reached a draw of article 6 ("the game is considered
    /// drawn", `1-1`). The table ends the live game there; `replay --pdn`
    /// replays a record past it (it plays the sensor, not the table).
    pub fn game_over(&self) -> Option<(&'static str, &'static str)> {
        let Some(end) = game_end(self.position()) else {
            // Article 6: "the game is considered drawn"; a win on the same
            // move (6.3's last move, 7.2.2–7.2.3) was checked first.
            let reason = match self.draw? {
                Draw::Repetition => "threefold_repetition",
                Draw::KingMoves => "king_moves",
                Draw::LongEnding => "long_ending",
                Draw::ShortEnding => "short_ending",
            };
            return Some(("1-1", reason));
        };
        let (winner, reason) = match end {
            GameEnd::NoPieces { winner } => (winner, "no_pieces"),
            GameEnd::Blocked { winner } => (winner, "no_move"),
        };
        Some((if winner == Color::White { "2-0" } else { "0-2" }, reason))
    }
}

/// A draughts colour as a clock side.
pub fn side(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// PDN FEN: `W:W31,32,K46:B1,2`.
pub fn fen(pos: &Position) -> String {
    let list = |bits: u64| {
        squares(bits)
            .map(|sq| {
                let k = if pos.kings & sq.bit() != 0 { "K" } else { "" };
                format!("{k}{}", pos.variant.name(sq))
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let turn = if pos.turn == Color::White { 'W' } else { 'B' };
    format!("{turn}:W{}:B{}", list(pos.white), list(pos.black))
}

/// Whether a FEN is a draughts one (PDN FEN), and of which board: a start
/// position with a square above 32 is international, otherwise 8×8.
pub fn fen_variant(fen: &str) -> Option<Variant> {
    let rest = fen.strip_prefix("W:").or_else(|| fen.strip_prefix("B:"))?;
    let beyond_32 = rest
        .split([':', ','])
        .filter_map(|p| p.trim_start_matches(['W', 'B', 'K']).parse::<u8>().ok())
        .any(|n| n > 32);
    let algebraic = rest
        .split([':', ','])
        .any(|p| p.trim_start_matches(['W', 'B', 'K']).starts_with(|c: char| c.is_ascii_lowercase()));
    Some(if beyond_32 || !algebraic { Variant::International } else { Variant::Draughts64 })
}

fn piece_name(pos: &Position, sq: Square) -> &'static str {
    match pos.piece_at(sq) {
        Some(p) if p.color == Color::White && p.king => "white king",
        Some(p) if p.color == Color::White => "white man",
        Some(p) if p.king => "black king",
        Some(_) => "black man",
        None => "piece",
    }
}

/// What puts a board showing `sensed` right for `pos`, square by square.
pub fn steps(pos: &Position, sensed: u64) -> Vec<String> {
    let v = pos.variant;
    let should = pos.occupied();
    let mut out: Vec<String> =
        squares(sensed & !should).map(|sq| format!("take the piece off {}", v.name(sq))).collect();
    out.extend(
        squares(should & !sensed).map(|sq| format!("put a {} on {}", piece_name(pos, sq), v.name(sq))),
    );
    out
}

/// [`steps`] as structured fixes, in the same order.
pub fn fixes(pos: &Position, sensed: u64) -> Vec<PieceFix> {
    let v = pos.variant;
    let should = pos.occupied();
    let mut out: Vec<PieceFix> = squares(sensed & !should)
        .map(|sq| PieceFix { action: "remove".into(), square: v.name(sq), color: None, piece: None })
        .collect();
    out.extend(squares(should & !sensed).map(|sq| {
        let p = pos.piece_at(sq);
        PieceFix {
            action: "put".into(),
            square: v.name(sq),
            color: p.map(|p| if p.color == Color::White { "white" } else { "black" }.into()),
            piece: p.map(|p| if p.king { "king" } else { "man" }.into()),
        }
    }));
    out
}

/// The structured facts of an irregularity of 5.4, for wording in any language.
struct Facts {
    kind: &'static str,
    moves: Vec<DraughtsPath>,
    required: Option<usize>,
    taken: Option<usize>,
    squares: Vec<String>,
}

fn facts(irr: &Irregular, v: Variant) -> Facts {
    let p = |m: &Move| DraughtsPath::of_move(m, v);
    let list = |bits: u64| squares(bits).map(|s| v.name(s)).collect::<Vec<_>>();
    let f = |kind, moves, required, taken, squares| Facts { kind, moves, required, taken, squares };
    match irr {
        Irregular::TwoMovesInARow { first, second } => {
            f("two_moves_in_a_row", vec![p(first), p(second)], None, None, Vec::new())
        }
        Irregular::WrongDirection { mv } => f("wrong_direction", vec![p(mv)], None, None, Vec::new()),
        Irregular::OpponentsPiece { mv } => f("opponents_piece", vec![p(mv)], None, None, Vec::new()),
        Irregular::CaptureOmitted { mv, required } => {
            f("capture_omitted", vec![p(mv)], Some(*required), Some(0), Vec::new())
        }
        Irregular::FewerThanMaximum { mv, required } => {
            f("fewer_than_maximum", vec![p(mv)], Some(*required), Some(mv.captured.len()), Vec::new())
        }
        Irregular::NotAllRemoved { mv, left } => f("not_all_removed", vec![p(mv)], None, None, list(*left)),
        Irregular::WrongPieceRemoved { mv, extra, .. } => {
            f("wrong_piece_removed", vec![p(mv)], None, None, list(*extra))
        }
    }
}

/// Square-level differences in the draughts board's own names.
fn diff(pos: &Position, sensed: u64) -> Vec<SquareDiff> {
    let v = pos.variant;
    squares(pos.occupied() ^ sensed)
        .map(|sq| {
            let piece = pos.piece_at(sq);
            let expected = piece.map(|p| match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            });
            let peg = sensed & sq.bit() != 0;
            let text = match piece {
                Some(_) => format!("{}: {} expected, empty", v.name(sq), piece_name(pos, sq)),
                None => format!("{}: empty expected, a piece there", v.name(sq)),
            };
            SquareDiff { square: v.name(sq), expected, peg, text }
        })
        .collect()
}

fn irregular_text(irr: &Irregular, v: Variant) -> String {
    let p = |m: &Move| m.pdn(v, true);
    let list = |bits: u64| squares(bits).map(|s| v.name(s)).collect::<Vec<_>>().join(", ");
    match irr {
        Irregular::TwoMovesInARow { first, second } => {
            format!("two moves in a row: {} and {}", p(first), p(second))
        }
        Irregular::WrongDirection { mv } => format!("a man moved backward: {}", p(mv)),
        Irregular::OpponentsPiece { mv } => format!("a move of the side not to move: {}", p(mv)),
        Irregular::CaptureOmitted { mv, required } => {
            format!("{} while a capture of {required} was compulsory", p(mv))
        }
        Irregular::FewerThanMaximum { mv, required } => {
            format!("{} takes {}, the maximum is {required}", p(mv), mv.captured.len())
        }
        Irregular::NotAllRemoved { mv, left } => {
            format!("{}: captured pieces not removed: {}", p(mv), list(*left))
        }
        Irregular::WrongPieceRemoved { mv, extra, .. } => {
            format!("{}: a piece removed that was not captured: {}", p(mv), list(*extra))
        }
    }
}

/// The position a board shows after an irregular move, when it can be read
/// as pieces (every filled hole's piece known): the move's result, adjusted to
/// the holes; the opponent is to move (5.7: play goes on from it).
fn accepted_position(pos: &Position, irr: &Irregular, sensed: u64) -> Option<(Position, Move)> {
    let (mut next, mv) = match irr {
        Irregular::TwoMovesInARow { first, second } => {
            let mut mid = first.apply(pos);
            mid.turn = pos.turn;
            (second.apply(&mid), first.clone())
        }
        Irregular::OpponentsPiece { mv } => {
            let mut other = *pos;
            other.turn = pos.turn.other();
            (mv.apply(&other), mv.clone())
        }
        Irregular::WrongDirection { mv }
        | Irregular::CaptureOmitted { mv, .. }
        | Irregular::FewerThanMaximum { mv, .. }
        | Irregular::NotAllRemoved { mv, .. }
        | Irregular::WrongPieceRemoved { mv, .. } => {
            let mut next = *pos;
            let piece = pos.piece_at(mv.from)?;
            next.remove(mv.from);
            for sq in squares(mv.captured_mask()) {
                next.remove(sq);
            }
            next.put(mv.to, piece);
            (next, mv.clone())
        }
    };
    for sq in squares(next.occupied() & !sensed) {
        next.remove(sq);
    }
    for sq in squares(sensed & !next.occupied()) {
        next.put(sq, pos.piece_at(sq)?);
    }
    next.turn = pos.turn.other();
    Some((next, mv))
}

/// What an announcement (issue 17 §5, VIII.2.3) is checked against: the
/// agreed record's positions and moves by ply.
impl DraughtsPlay {
    /// The agreed position after `ply` plies (0: the start).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// The agreed move of `ply` (1-based); none for an irregular move accepted (5.7).
    pub fn played_at(&self, ply: usize) -> Option<&Move> {
        self.played.get(ply.checked_sub(1)?).and_then(Option::as_ref)
    }
}
