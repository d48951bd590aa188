//! Tracking a board that senses pieces, not only pegs (DGT e-boards).
//!
//! The piece-sensing counterpart of [`crate::inference::BoardTracker`]: it
//! follows one sensed board against the game record executed on it, fed with
//! timestamped field updates and full boards. Such a board reports squares in
//! whatever order its scan meets them, and a sliding piece shows up on the
//! squares it passes; so nothing is decided from single updates. Once the
//! board has not changed for the settle time, the whole placement is judged:
//!
//! - exactly one legal move whose resulting board equals the placement (pieces,
//!   not just occupancy, so a promotion is seen exactly) → the move;
//! - a placement that another move from the previous position explains → the
//!   last move is revised (the hand went on before the opponent moved);
//! - the game position itself → nothing moved; pieces that were lifted and put
//!   back on their squares are reported as touch evidence (D.2.10.5);
//! - only pieces missing, nothing out of place → a move in progress, no report;
//! - an earlier position of this game → a take-back is reported;
//! - anything else → a mismatch with a square-by-square difference.
//!
//! Nothing is guessed. Time is an input; there is no I/O.

use crate::Millis;
use crate::diff::{PieceName, SquareDiff};
use crate::event::MismatchReason;
use crate::game::Game;
use crate::occupancy::occupancy_after;
use shakmaty::{Bitboard, Board, Chess, Color, Move, MoveList, Piece, Position, Role, Square};

/// Timing of the piece tracker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTrackerConfig {
    /// How long the board must stay unchanged before it is judged (default 300 ms).
    pub settle_ms: Millis,
}

impl Default for PieceTrackerConfig {
    fn default() -> Self {
        PieceTrackerConfig { settle_ms: 300 }
    }
}

/// One square where the sensed board and the game position disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDiff {
    /// The square.
    pub square: Square,
    /// The piece the game position has there.
    pub expected: Option<Piece>,
    /// The piece the board senses there.
    pub sensed: Option<Piece>,
}

impl PieceDiff {
    /// Human-readable form, e.g. `e4: white knight expected, black pawn found`.
    pub fn text(&self) -> String {
        let sq = self.square;
        match (self.expected, self.sensed) {
            (Some(e), Some(s)) => format!("{sq}: {} expected, {} found", PieceName(e), PieceName(s)),
            (Some(e), None) => format!("{sq}: {} expected, empty", PieceName(e)),
            (None, Some(s)) => format!("{sq}: unexpected {}", PieceName(s)),
            (None, None) => format!("{sq}: as expected"),
        }
    }

    /// The same difference in the event vocabulary shared with the peg board
    /// (`peg` = something stands on the square).
    pub fn to_square_diff(&self) -> SquareDiff {
        SquareDiff {
            square: self.square.to_string(),
            expected: self.expected.map(Piece::char),
            peg: self.sensed.is_some(),
            text: self.text(),
        }
    }
}

/// Lists, in square order a1..h8, every square where `sensed` differs from `expected`.
pub fn piece_diff(expected: &Board, sensed: &Board) -> Vec<PieceDiff> {
    Square::ALL
        .into_iter()
        .filter(|&sq| expected.piece_at(sq) != sensed.piece_at(sq))
        .map(|square| PieceDiff {
            square,
            expected: expected.piece_at(square),
            sensed: sensed.piece_at(square),
        })
        .collect()
}

/// What the tracker concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceObservation {
    /// A piece of the game position left its square (first time in this move sequence).
    Lifted {
        /// Its square.
        square: Square,
        /// The piece.
        piece: Piece,
        /// When the board reported it.
        t: Millis,
    },
    /// A lifted piece stands on its own square again and the settled board
    /// did not move it: it was touched (D.2.10.5).
    PutBack {
        /// Its square.
        square: Square,
        /// The piece.
        piece: Piece,
        /// When the board had settled.
        t: Millis,
    },
    /// A move is complete on the board.
    Moved {
        /// Half-move number (1 = first move).
        ply: usize,
        /// The move.
        mv: Move,
        /// When the board had settled.
        t: Millis,
    },
    /// The last move was replaced by another from the same position.
    Revised {
        /// Half-move number of the replaced move.
        ply: usize,
        /// The new move.
        mv: Move,
        /// The move it replaces.
        replaces: Move,
        /// When the hand went on from where it rested.
        t: Millis,
    },
    /// A settled board that is not explained.
    Mismatch {
        /// Why.
        reason: MismatchReason,
        /// Square by square, against the current game position.
        diff: Vec<PieceDiff>,
        /// For ambiguity: the moves that would explain it.
        candidates: Vec<Move>,
        /// For a take-back: the ply whose position the board shows.
        takeback_to_ply: Option<usize>,
        /// When the board had settled on what no move explains.
        t: Millis,
    },
    /// The board agrees with the game again after a reported mismatch.
    Restored {
        /// When the board agreed with the game again.
        t: Millis,
    },
}

/// How far the settled board is from the game position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceAgreement {
    /// The board shows the game position.
    InStep,
    /// Pieces are off the board (in a hand), nothing is out of place.
    Pending,
    /// A mismatch was reported for the current placement.
    Reported,
}

/// Follows one piece-sensing board against the game executed on it.
#[derive(Clone, Debug)]
pub struct PieceTracker {
    cfg: PieceTrackerConfig,
    game: Game,
    sensed: Board,
    now: Millis,
    last_change: Millis,
    settled: bool,
    /// When the move decided last was made: its placement began to stand.
    made_at: Millis,
    /// Squares whose game piece left them during this move sequence.
    lifted: Bitboard,
    /// The squares of `lifted`, in the order their pieces left (catch-up reads the move order from it).
    lift_order: Vec<Square>,
    /// The last move was decided here and may still be revised.
    revisable: bool,
    agreement: PieceAgreement,
    reported: Option<Board>,
}

impl PieceTracker {
    /// A tracker for `game`, with the board sensed as `sensed` since `t`.
    pub fn new(cfg: PieceTrackerConfig, game: Game, sensed: Board, t: Millis) -> Self {
        let settled = &sensed == game.position().board();
        PieceTracker {
            cfg,
            game,
            sensed,
            now: t,
            last_change: t,
            settled,
            made_at: t,
            lifted: Bitboard::EMPTY,
            lift_order: Vec::new(),
            revisable: false,
            agreement: PieceAgreement::InStep,
            reported: None,
        }
    }

    /// The game as executed on this board.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The last sensed placement.
    pub fn sensed(&self) -> &Board {
        &self.sensed
    }

    /// Agreement of the last settled board with the game.
    pub fn agreement(&self) -> PieceAgreement {
        self.agreement
    }

    /// The configuration.
    pub fn config(&self) -> &PieceTrackerConfig {
        &self.cfg
    }

    /// When the move decided last was made on the board: the moment its
    /// placement began to stand. A move decided on the settle time was made
    /// before it was decided; the clock charges the player up to this moment.
    pub fn made_at(&self) -> Millis {
        self.made_at
    }

    /// Decides the move the board shows at `t`, before the settle time: his
    /// press is the player's word that his move is made (D.2.4). Only a
    /// placement that exactly one legal move gives is decided; anything else
    /// waits for the settle time as before (`false`).
    pub fn decide_now(&mut self, t: Millis, out: &mut Vec<PieceObservation>) -> bool {
        self.tick(t, out);
        let pos = self.game.position().clone();
        if self.settled || &self.sensed == pos.board() {
            return false;
        }
        let candidates = explaining_moves(&pos, &self.sensed);
        let [mv] = candidates.as_slice() else { return false };
        self.commit(&pos, *mv, self.now, out);
        self.settled = true;
        true
    }

    /// When the tracker next needs [`tick`](Self::tick) if no update arrives before.
    pub fn deadline(&self) -> Option<Millis> {
        (!self.settled).then(|| self.last_change.saturating_add(self.cfg.settle_ms))
    }

    /// Feeds one field update taken at `t`: `square` now holds `piece`.
    pub fn on_field_update(
        &mut self,
        t: Millis,
        square: Square,
        piece: Option<Piece>,
        out: &mut Vec<PieceObservation>,
    ) {
        self.tick(t, out);
        if self.sensed.piece_at(square) == piece {
            return; // nothing changed (a repeated report)
        }
        self.note_lift(square, piece, out);
        match piece {
            Some(p) => self.sensed.set_piece_at(square, p),
            None => self.sensed.discard_piece_at(square),
        }
        self.changed();
    }

    /// Feeds a full board taken at `t` (a dump; an unchanged one is a heartbeat).
    pub fn on_board(&mut self, t: Millis, board: &Board, out: &mut Vec<PieceObservation>) {
        self.tick(t, out);
        if *board == self.sensed {
            return;
        }
        for square in Square::ALL {
            let piece = board.piece_at(square);
            if self.sensed.piece_at(square) != piece {
                self.note_lift(square, piece, out);
            }
        }
        self.sensed = board.clone();
        self.changed();
    }

    /// Lets time pass up to `t`: judges a board that has settled.
    pub fn tick(&mut self, t: Millis, out: &mut Vec<PieceObservation>) {
        self.now = self.now.max(t);
        let settle_at = self.last_change.saturating_add(self.cfg.settle_ms);
        if !self.settled && self.now >= settle_at {
            self.settled = true;
            self.judge(settle_at, out);
        }
    }

    /// Plays a move decided elsewhere (an announcement, the operator); the board must follow.
    /// A move that is not legal in the current position is refused (`false`).
    pub fn apply_move(&mut self, mv: Move, t: Millis, out: &mut Vec<PieceObservation>) -> bool {
        if !self.game.position().is_legal(mv) {
            return false;
        }
        let ply = self.game.ply() + 1;
        self.game.push(mv);
        self.revisable = false;
        self.lifted = Bitboard::EMPTY;
        self.lift_order.clear();
        out.push(PieceObservation::Moved { ply, mv, t });
        self.rejudge(t);
        true
    }

    /// Takes the game back to `ply` (e.g. after a reported take-back was
    /// accepted); `false` if `ply` is not an earlier ply of this game.
    pub fn take_back(&mut self, ply: usize, t: Millis) -> bool {
        if ply >= self.game.ply() {
            return false;
        }
        while self.game.ply() > ply {
            self.game.pop();
        }
        self.revisable = false;
        self.lifted = Bitboard::EMPTY;
        self.lift_order.clear();
        self.rejudge(t);
        true
    }

    /// The sensed board has not moved: judge it again against the new game position.
    fn rejudge(&mut self, t: Millis) {
        self.settled = false;
        self.last_change = self.last_change.min(t.saturating_sub(self.cfg.settle_ms));
    }

    fn changed(&mut self) {
        self.last_change = self.now;
        self.settled = false;
    }

    /// A game piece leaving its square (emptied or replaced) is touch evidence.
    fn note_lift(&mut self, square: Square, now_there: Option<Piece>, out: &mut Vec<PieceObservation>) {
        let Some(piece) = self.game.position().board().piece_at(square) else { return };
        if self.sensed.piece_at(square) == Some(piece)
            && now_there != Some(piece)
            && !self.lifted.contains(square)
        {
            self.lifted.add(square);
            self.lift_order.push(square);
            out.push(PieceObservation::Lifted { square, piece, t: self.now });
        }
    }

    fn judge(&mut self, t: Millis, out: &mut Vec<PieceObservation>) {
        let pos = self.game.position().clone();
        if &self.sensed == pos.board() {
            self.put_backs(pos.board(), pos.board(), t, out);
            if self.agreement == PieceAgreement::Reported {
                out.push(PieceObservation::Restored { t });
            }
            self.agreement = PieceAgreement::InStep;
            self.reported = None;
            return;
        }
        let candidates = explaining_moves(&pos, &self.sensed);
        match candidates.len() {
            1 => return self.commit(&pos, candidates[0], t, out),
            0 => {}
            _ => return self.report(MismatchReason::Ambiguous, candidates.to_vec(), None, t, out),
        }
        if self.revisable
            && let Some(previous) =
                self.game.ply().checked_sub(1).and_then(|p| self.game.position_at(p)).cloned()
        {
            let candidates = explaining_moves(&previous, &self.sensed);
            match candidates.len() {
                1 => return self.revise(&previous, candidates[0], t, out),
                0 => {}
                _ => return self.report(MismatchReason::Ambiguous, candidates.to_vec(), None, t, out),
            }
        }
        // Catch-up: the board ran several plies ahead; accepted when exactly one
        // sequence of legal moves gives this very placement (the pieces tell a lot).
        match sequences_to(&pos, &self.sensed, &self.lift_order) {
            Sequences::One(moves) => return self.commit_all(&pos, &moves, t, out),
            Sequences::Many(several) => {
                return self.report(MismatchReason::Ambiguous, several.firsts, None, t, out);
            }
            Sequences::None => {}
        }
        if is_sub_board(&self.sensed, pos.board()) {
            // Pieces in a hand, nothing out of place: a move in progress.
            if self.agreement == PieceAgreement::InStep {
                self.agreement = PieceAgreement::Pending;
            }
            return;
        }
        let earlier = (0..self.game.ply())
            .rev()
            .find(|&ply| self.game.position_at(ply).is_some_and(|p| *p.board() == self.sensed));
        match earlier {
            Some(ply) => self.report(MismatchReason::Takeback, Vec::new(), Some(ply), t, out),
            None => self.report(MismatchReason::Unexplained, Vec::new(), None, t, out),
        }
    }

    /// Lifted pieces standing on their own squares both before and after: touched, not moved.
    fn put_backs(&mut self, before: &Board, after: &Board, t: Millis, out: &mut Vec<PieceObservation>) {
        for square in self.lifted {
            if let Some(piece) = before.piece_at(square)
                && after.piece_at(square) == Some(piece)
            {
                out.push(PieceObservation::PutBack { square, piece, t });
            }
        }
        self.lifted = Bitboard::EMPTY;
        self.lift_order.clear();
    }

    fn commit(&mut self, pos: &Chess, mv: Move, t: Millis, out: &mut Vec<PieceObservation>) {
        self.made_at = self.last_change.min(t);
        let ply = self.game.ply() + 1;
        self.game.push(mv);
        let after = self.game.position().board().clone();
        self.put_backs(pos.board(), &after, t, out);
        self.revisable = true;
        self.agreement = PieceAgreement::InStep;
        self.reported = None;
        out.push(PieceObservation::Moved { ply, mv, t });
    }

    /// Several plies at once (catch-up), each its own observation, in order.
    fn commit_all(&mut self, pos: &Chess, moves: &[Move], t: Millis, out: &mut Vec<PieceObservation>) {
        self.made_at = self.last_change.min(t);
        for &mv in moves {
            let ply = self.game.ply() + 1;
            self.game.push(mv);
            out.push(PieceObservation::Moved { ply, mv, t });
        }
        let after = self.game.position().board().clone();
        self.put_backs(pos.board(), &after, t, out);
        self.revisable = false;
        self.agreement = PieceAgreement::InStep;
        self.reported = None;
    }

    fn revise(&mut self, previous: &Chess, mv: Move, t: Millis, out: &mut Vec<PieceObservation>) {
        let ply = self.game.ply();
        let Some(replaces) = self.game.pop() else { return };
        self.game.push(mv);
        let after = self.game.position().board().clone();
        self.put_backs(previous.board(), &after, t, out);
        self.agreement = PieceAgreement::InStep;
        self.reported = None;
        out.push(PieceObservation::Revised { ply, mv, replaces, t });
    }

    fn report(
        &mut self,
        reason: MismatchReason,
        candidates: Vec<Move>,
        takeback_to_ply: Option<usize>,
        t: Millis,
        out: &mut Vec<PieceObservation>,
    ) {
        if self.reported.as_ref() == Some(&self.sensed) {
            return; // said once for this placement
        }
        self.agreement = PieceAgreement::Reported;
        self.reported = Some(self.sensed.clone());
        let diff = piece_diff(self.game.position().board(), &self.sensed);
        out.push(PieceObservation::Mismatch { reason, diff, candidates, takeback_to_ply, t });
    }
}

/// The most plies one catch-up accepts at once.
const MAX_CATCH_UP: usize = 3;

/// What several plies at once would explain.
use crate::inference::sequence::Sequences;

/// The sequences of two to [`MAX_CATCH_UP`] legal moves from `pos` that end on
/// exactly `sensed`; the shortest length that explains it at all counts.
/// Each move starts from a square that changed (or that an earlier move of the
/// sequence reached), which keeps the search small.
/// The pieces of `pos` that moved must have left their squares in the order the
/// sequence moves them (`lift_order`: the first departure of each).
fn sequences_to(pos: &Chess, sensed: &Board, lift_order: &[Square]) -> Sequences {
    let changed: Bitboard =
        Square::ALL.into_iter().filter(|&sq| pos.board().piece_at(sq) != sensed.piece_at(sq)).collect();
    if changed.count() < 2 {
        return Sequences::None;
    }
    let mut found = Vec::new();
    for plies in 2..=MAX_CATCH_UP {
        search_sequences(pos, sensed, plies, changed, &mut Vec::new(), &mut found);
        found.retain(|seq| in_lift_order(seq, lift_order));
        if let Some(sequences) = Sequences::of(std::mem::take(&mut found)) {
            return sequences;
        }
    }
    Sequences::None
}

/// Whether the moves' from-squares that were seen lifted were lifted in the moves' order.
fn in_lift_order(seq: &[Move], lift_order: &[Square]) -> bool {
    let indices: Vec<usize> = seq
        .iter()
        .filter_map(|m| m.from().and_then(|from| lift_order.iter().position(|&sq| sq == from)))
        .collect();
    indices.windows(2).all(|w| w[0] < w[1])
}

fn search_sequences(
    pos: &Chess,
    sensed: &Board,
    plies: usize,
    reachable: Bitboard,
    stack: &mut Vec<Move>,
    found: &mut Vec<Vec<Move>>,
) {
    let occupied = sensed.occupied();
    for mv in pos.legal_moves() {
        if !mv.from().is_some_and(|from| reachable.contains(from)) {
            continue;
        }
        if plies == 1 {
            if occupancy_after(pos, &mv) == occupied && board_after(pos, &mv) == *sensed {
                let mut seq = stack.clone();
                seq.push(mv);
                found.push(seq);
            }
        } else {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            stack.push(mv);
            search_sequences(&next, sensed, plies - 1, reachable.with(mv.to()), stack, found);
            stack.pop();
        }
        if found.len() >= 8 {
            return;
        }
    }
}

/// The legal moves of `pos` whose resulting board is exactly `sensed`.
fn explaining_moves(pos: &Chess, sensed: &Board) -> MoveList {
    let mut moves = pos.legal_moves();
    // Occupancy first: cheap, and it rules out nearly every move.
    let occupied = sensed.occupied();
    moves.retain(|m| occupancy_after(pos, m) == occupied && board_after(pos, m) == *sensed);
    moves
}

fn board_after(pos: &Chess, mv: &Move) -> Board {
    let mut next = pos.clone();
    next.play_unchecked(*mv);
    next.board().clone()
}

/// Every piece of `part` stands on the same square in `whole`.
fn is_sub_board(part: &Board, whole: &Board) -> bool {
    Color::ALL.into_iter().all(|color| {
        Role::ALL.into_iter().all(|role| {
            let piece = Piece { color, role };
            part.by_piece(piece).is_subset(whole.by_piece(piece))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    struct Hand {
        tracker: PieceTracker,
        t: Millis,
        out: Vec<PieceObservation>,
    }

    impl Hand {
        fn at(fen: &str) -> Hand {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
            let board = pos.board().clone();
            let game = Game::new(pos, CastlingMode::Standard);
            Hand {
                tracker: PieceTracker::new(PieceTrackerConfig::default(), game, board, 0),
                t: 0,
                out: Vec::new(),
            }
        }

        fn start() -> Hand {
            Hand::at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        }

        /// After `dt` ms, `sq` holds `piece` (FEN letter, or `.` for empty).
        fn set(&mut self, dt: Millis, sq: &str, piece: char) -> &mut Self {
            self.t += dt;
            let sq: Square = sq.parse().unwrap();
            self.tracker.on_field_update(self.t, sq, Piece::from_char(piece), &mut self.out);
            self
        }

        fn wait(&mut self, dt: Millis) -> &mut Self {
            self.t += dt;
            self.tracker.tick(self.t, &mut self.out);
            self
        }

        fn moves(&self) -> Vec<String> {
            self.tracker.game().moves().iter().map(|m| self.tracker.game().uci(*m)).collect()
        }

        fn take(&mut self) -> Vec<PieceObservation> {
            std::mem::take(&mut self.out)
        }
    }

    #[test]
    fn d2_3_catch_up_of_two_and_three_plies_on_the_piece_board() {
        let mut h = Hand::start();
        // e4, e5 and Nf3 executed before the board ever rested for the settle time.
        h.set(0, "e2", '.').set(100, "e4", 'P').set(100, "e7", '.').set(100, "e5", 'p');
        h.set(100, "g1", '.').set(100, "f3", 'N').wait(300);
        assert_eq!(h.moves(), ["e2e4", "e7e5", "g1f3"], "{:?}", h.out);
        let plies: Vec<usize> = h
            .take()
            .iter()
            .filter_map(|o| match o {
                PieceObservation::Moved { ply, .. } => Some(*ply),
                _ => None,
            })
            .collect();
        assert_eq!(plies, [1, 2, 3]);
        h.set(0, "b8", '.').set(100, "c6", 'n').set(100, "f1", '.').set(100, "c4", 'B').wait(300);
        assert_eq!(h.moves(), ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]);
    }

    #[test]
    fn a_move_is_decided_once_the_board_has_settled() {
        let mut h = Hand::start();
        h.set(0, "e2", '.').set(100, "e3", 'P').set(40, "e3", '.').set(60, "e4", 'P').wait(299);
        assert!(h.moves().is_empty());
        assert_eq!(h.tracker.deadline(), Some(500));
        assert!(matches!(h.take()[..], [PieceObservation::Lifted { square: Square::E2, t: 0, .. }]));
        h.wait(1);
        assert_eq!(h.moves(), ["e2e4"]);
        assert!(matches!(h.take()[..], [PieceObservation::Moved { ply: 1, t: 500, .. }]));
        assert_eq!(h.tracker.deadline(), None);
    }

    #[test]
    fn arrival_before_departure_and_captures_without_an_empty_square() {
        let mut h = Hand::at("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        // The capturing pawn reported on d5 first (replacing the black pawn), e4 cleared later.
        h.set(0, "d5", 'P').set(30, "e4", '.').wait(300);
        assert_eq!(h.moves(), ["e4d5"]);
        let obs = h.take();
        assert!(obs.iter().any(|o| matches!(o, PieceObservation::Lifted { square: Square::D5, .. })));
        assert!(!obs.iter().any(|o| matches!(o, PieceObservation::Mismatch { .. })));
    }

    #[test]
    fn promotions_are_seen_exactly_including_under_promotion() {
        for (piece, uci) in [('N', "b7b8n"), ('Q', "b7b8q"), ('R', "b7b8r")] {
            let mut h = Hand::at("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
            h.set(0, "b7", '.').set(100, "b8", 'P').set(100, "b8", piece).wait(300);
            assert_eq!(h.moves(), [uci]);
        }
    }

    #[test]
    fn a_piece_lifted_and_put_back_is_touch_evidence() {
        let mut h = Hand::start();
        h.set(0, "g1", '.').set(150, "g1", 'N').wait(300);
        assert!(h.moves().is_empty());
        let obs = h.take();
        assert!(matches!(
            obs[..],
            [
                PieceObservation::Lifted { square: Square::G1, .. },
                PieceObservation::PutBack { square: Square::G1, t: 450, .. }
            ]
        ));
        // Touched the knight, put it back, then moved the e-pawn: the touch is still reported.
        h.set(500, "g1", '.').set(100, "g1", 'N').set(100, "e2", '.').set(100, "e4", 'P').wait(300);
        assert_eq!(h.moves(), ["e2e4"]);
        let obs = h.take();
        assert!(obs.iter().any(|o| matches!(o, PieceObservation::PutBack { square: Square::G1, .. })));
        assert!(!obs.iter().any(|o| matches!(o, PieceObservation::PutBack { square: Square::E2, .. })));
    }

    #[test]
    fn pieces_in_a_hand_are_pending_and_a_misplaced_piece_is_a_mismatch() {
        let mut h = Hand::start();
        h.set(0, "g1", '.').wait(1000);
        assert_eq!(h.tracker.agreement(), PieceAgreement::Pending);
        h.set(0, "g3", 'N').wait(300);
        let obs = h.take();
        let Some(PieceObservation::Mismatch { reason, diff, .. }) = obs.last() else { panic!("{obs:?}") };
        assert_eq!(*reason, MismatchReason::Unexplained);
        let texts: Vec<String> = diff.iter().map(PieceDiff::text).collect();
        assert_eq!(texts, ["g1: white knight expected, empty", "g3: unexpected white knight"]);
        assert_eq!(diff[0].to_square_diff().expected, Some('N'));
        // Said once; back in place restores.
        h.wait(5000);
        assert!(h.take().is_empty());
        h.set(0, "g3", '.').set(100, "g1", 'N').wait(300);
        assert!(matches!(h.take().last(), Some(PieceObservation::Restored { .. })));
        // A wrong piece on an occupied square is a mismatch too (occupancy alone would miss it).
        h.set(0, "d1", 'K').wait(300);
        let obs = h.take();
        assert!(matches!(
            obs.last(),
            Some(PieceObservation::Mismatch { reason: MismatchReason::Unexplained, .. })
        ));
    }

    #[test]
    fn take_backs_are_reported_and_can_be_applied() {
        let mut h = Hand::start();
        h.set(0, "e2", '.').set(100, "e4", 'P').wait(300);
        h.set(0, "e7", '.').set(100, "e5", 'p').wait(300);
        assert_eq!(h.moves(), ["e2e4", "e7e5"]);
        h.take();
        h.set(0, "e5", '.').set(100, "e7", 'p').set(100, "e4", '.').set(100, "e2", 'P').wait(300);
        let obs = h.take();
        assert!(
            matches!(
                obs.last(),
                Some(PieceObservation::Mismatch {
                    reason: MismatchReason::Takeback,
                    takeback_to_ply: Some(0),
                    ..
                })
            ),
            "{obs:?}"
        );
        assert!(h.tracker.take_back(0, h.t));
        h.wait(1);
        assert!(h.moves().is_empty());
        assert_eq!(h.tracker.agreement(), PieceAgreement::InStep);
        assert!(!h.tracker.take_back(0, h.t));
    }

    #[test]
    fn a_slow_rook_first_castle_is_revised() {
        let mut h = Hand::at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        h.set(0, "h1", '.').set(100, "f1", 'R').wait(400);
        assert_eq!(h.moves(), ["h1f1"]);
        h.set(0, "e1", '.').set(100, "g1", 'K').wait(300);
        assert_eq!(h.moves(), ["e1g1"]);
        assert!(matches!(h.take().last(), Some(PieceObservation::Revised { ply: 1, .. })));
    }

    #[test]
    fn chess960_castles_onto_each_others_squares_are_seen() {
        // King and rook swap squares: the pieces tell castling apart.
        let mut h = Hand::at("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
        h.set(0, "f1", '.').set(50, "g1", '.').set(100, "g1", 'K').set(100, "f1", 'R').wait(300);
        assert!(h.tracker.game().moves()[0].is_castle());
        // Unlike holes, pieces always show a castle: king and rook never both
        // start on their castled squares (the rook starts beyond the king).
        assert!(h.take().iter().all(|o| !matches!(o, PieceObservation::Mismatch { .. })));
    }

    #[test]
    fn full_boards_are_heartbeats_or_changes() {
        let mut h = Hand::start();
        let start = Board::new();
        h.tracker.on_board(10, &start, &mut h.out);
        let mut after = start.clone();
        after.discard_piece_at(Square::D2);
        after.set_piece_at(Square::D4, Piece::from_char('P').unwrap());
        h.tracker.on_board(20, &after, &mut h.out);
        h.wait(320);
        assert_eq!(h.moves(), ["d2d4"]);
        let mut out = Vec::new();
        assert!(h.tracker.apply_move(
            UciMove::from_ascii(b"d7d5").unwrap().to_move(h.tracker.game().position()).unwrap(),
            400,
            &mut out
        ));
        assert!(!h.tracker.apply_move(
            UciMove::from_ascii(b"d2d4").unwrap().to_move(&Chess::default()).unwrap(),
            400,
            &mut out
        ));
    }
}
