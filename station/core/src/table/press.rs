//! The player's own evidence for his move (issue 25, D.2.3–D.2.4): a clock
//! press, or an announcement naming the move, decides the move his board
//! shows at once when exactly one legal move explains the board and the
//! lifts, instead of waiting for the board to rest for the settle time.
//!
//! The press may come from the lever, a button, the console's `clock_press` or the DGT clock's
//! switch. The station's own press (`[clock] auto_press`) switches the clock at the moment the move
//! was made (`clock_pressed` `made_ms`).

use super::Table;
use crate::Millis;
use crate::clock::Side;
use crate::event::{BoardRole, Event};
use shakmaty::{Color, Move, Position};

/// What a press found on the presser's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Evidence {
    /// Nothing was decided by it (decided already, or nothing explains the board).
    Nothing,
    /// The press decided his move; it is still to be judged by the gate.
    Decided,
    /// The press decided his move and the station pressed for him at once.
    PressedAlready,
}

impl Table {
    /// The board a side's moves are read from: the blind player's peg board
    /// for him, the sighted player's peg board for his opponent.
    fn own_board(&self, side: Side) -> BoardRole {
        if side == Side::from(self.cfg.blind_color) { BoardRole::Blind } else { BoardRole::Mirror }
    }

    /// A press by `side` at `t` decides the move in progress on his own board
    /// (a peg board, or the piece-sensing mirror board).
    pub(super) fn press_evidence(&mut self, side: Side, t: Millis, out: &mut Vec<Event>) -> Evidence {
        let before = self.clocking.pressed_ply;
        if !self.decide_on_own_board(side, None, t, out) {
            return Evidence::Nothing;
        }
        if self.clocking.pressed_ply > before { Evidence::PressedAlready } else { Evidence::Decided }
    }

    /// The blind player's announcement of `said` at `t` decides the move his
    /// board shows when it is that move (D.2.3.3: the announcement is his).
    pub(super) fn announcement_evidence(&mut self, said: Move, t: Millis, out: &mut Vec<Event>) {
        let blind = Side::from(self.cfg.blind_color);
        self.decide_on_own_board(blind, Some(said), t, out);
    }

    fn decide_on_own_board(
        &mut self,
        side: Side,
        said: Option<Move>,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> bool {
        let role = self.own_board(side);
        if role == BoardRole::Mirror && said.is_none() && self.piece_tracker().is_some() {
            return self.decide_on_piece_board(side, t, out);
        }
        let Some(c) = self.seat.chess_mut() else { return false };
        let Some(tracker) = c.trackers[role].as_mut() else { return false };
        let to_move: Color = tracker.game().position().turn();
        if Side::from(to_move) != side || !tracker.decide_now(said, t, &mut c.scratch) {
            // Touches seen on the way are still the board's news.
            self.settle_observations(role, t, out);
            return false;
        }
        self.settle_observations(role, t, out);
        true
    }

    /// The sighted player's press decides the move his piece-sensing board
    /// shows when exactly one legal move gives that placement.
    fn decide_on_piece_board(&mut self, side: Side, t: Millis, out: &mut Vec<Event>) -> bool {
        let Some(c) = self.seat.chess_mut() else { return false };
        let Some(tracker) = c.pieces.as_mut() else { return false };
        let to_move = Side::from(tracker.game().position().turn());
        let decided = to_move == side && tracker.decide_now(t, &mut c.piece_scratch);
        self.after_pieces(t, out);
        decided
    }
}

#[cfg(test)]
mod tests {
    use crate::clock::Side;
    use crate::event::{BoardRole, Event};
    use crate::inference::TrackerConfig;
    use crate::table::{Table, TableConfig};
    use shakmaty::{Bitboard, Chess, Position, Square};

    /// A peg board and a 300+2 clock, the game started (and its clock) at 500 ms,
    /// the scan that showed the start position.
    fn table(auto_press: bool, announcement_required: bool) -> (Table, Bitboard) {
        let cfg = TableConfig {
            time_control: Some("300+2".parse().unwrap()),
            clock_auto_press: auto_press,
            announcement_required,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut table = Table::new(cfg);
        let start = Chess::default().board().occupied();
        let mut out = Vec::new();
        table.on_scan(BoardRole::Blind, 500, start, &mut out);
        table.tick(1000, &mut out);
        assert!(out.iter().any(|e| matches!(e, Event::GameStarted { .. })));
        (table, start)
    }

    /// White's pawn lifted from e2 at 2000 ms and put on e3 at 2200 ms: a
    /// pawn that may still go on to e4, so the board alone would wait. The
    /// board as it then shows.
    fn e2_to_e3(table: &mut Table, start: Bitboard, out: &mut Vec<Event>) -> Bitboard {
        let e3 = start.without(Square::E2).with(Square::E3);
        table.on_scan(BoardRole::Blind, 2000, start.without(Square::E2), out);
        table.on_scan(BoardRole::Blind, 2200, e3, out);
        e3
    }

    fn moved(out: &[Event]) -> Vec<String> {
        out.iter()
            .filter_map(|e| match e {
                Event::GameMove { uci, .. } => Some(uci.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn d2_4_his_press_decides_the_move_his_board_shows_and_counts() {
        let (mut table, start) = table(false, false);
        let mut out = Vec::new();
        let e3 = e2_to_e3(&mut table, start, &mut out);
        table.clock_press(Side::White, 2250, &mut out).unwrap();
        assert_eq!(moved(&out), ["e2e3"]);
        assert!(
            out.iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, made_ms: None, .. }))
        );
        assert!(!out.iter().any(|e| matches!(e, Event::ClockPremature { .. })), "{out:?}");
        // A press with the piece still in the hand is premature, as before.
        let mut out = Vec::new();
        table.on_scan(BoardRole::Blind, 3000, e3.without(Square::G8), &mut out);
        table.clock_press(Side::Black, 3100, &mut out).unwrap();
        assert!(moved(&out).is_empty());
        assert!(out.iter().any(|e| matches!(e, Event::ClockPremature { side: Side::Black, .. })));
    }

    #[test]
    fn the_station_presses_for_him_at_the_moment_the_move_was_made() {
        let (mut table, start) = table(true, false);
        let mut out = Vec::new();
        e2_to_e3(&mut table, start, &mut out);
        table.tick(2500, &mut out);
        assert_eq!(moved(&out), ["e2e3"]);
        assert!(
            out.iter()
                .any(|e| matches!(e, Event::ClockPressed { side: Side::White, made_ms: Some(2200), .. })),
            "{out:?}"
        );
        let clock = table.clock().unwrap();
        // White's clock ran from the start (500: the board showed the start
        // position) to 2200 (+2 s bonus); Black's has run since 2200, not since
        // the decision at 2500.
        assert_eq!(clock.remaining(Side::White, 2500), 300_000 - 1700 + 2000);
        assert_eq!(clock.remaining(Side::Black, 2500), 300_000 - 300);
    }

    #[test]
    fn d2_3_3_his_announcement_decides_the_move_it_names() {
        let (mut table, start) = table(true, true);
        let mut out = Vec::new();
        e2_to_e3(&mut table, start, &mut out);
        // A slip of the tongue decides nothing before the settle time.
        table.announce_uci("d2d3", 2250, &mut out).unwrap();
        assert!(moved(&out).is_empty());
        table.announce_uci("e2e3", 2260, &mut out).unwrap();
        assert_eq!(moved(&out), ["e2e3"]);
        assert!(out.iter().any(|e| matches!(e, Event::AnnouncementChecked { matches: true, .. })));
        assert!(out.iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, .. })));
    }
}
