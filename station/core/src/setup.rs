//! The start position as the blind player sets it up (ICCF Appendix B,
//! Chess960 on the peg board): White's first rank piece by piece, the start's
//! Scharnagl number, and his board checked square by square against it.
//!
//! Pure: the wording is the voices' (`Wording::word_setup`), the scan comes
//! from the table ([`crate::Table::sensed`]).

use crate::diff::{SquareDiff, square_diff};
use crate::game::Game;
use shakmaty::{Bitboard, Board, Color, File, Position, Rank, Role, Square};

/// The pieces of White's first rank, files a to h (Black's mirror them);
/// `None` where a square is empty (a start from a FEN may have gaps).
pub fn first_rank(board: &Board) -> [Option<Role>; 8] {
    let mut out = [None; 8];
    for (slot, file) in out.iter_mut().zip(File::ALL) {
        *slot = board
            .piece_at(Square::from_coords(file, Rank::First))
            .filter(|p| p.color == Color::White)
            .map(|p| p.role);
    }
    out
}

/// The Scharnagl number (0–959) of a Chess960 start position, `None` when the
/// board is not one (518 is the standard position).
pub fn chess960_number(board: &Board) -> Option<u16> {
    let rank = first_rank(board);
    let files = |role: Role| -> Vec<usize> { (0..8).filter(|&i| rank[i] == Some(role)).collect() };
    let (bishops, queens, knights) = (files(Role::Bishop), files(Role::Queen), files(Role::Knight));
    let ([b1, b2], [q], [n1, n2]) = (bishops.as_slice(), queens.as_slice(), knights.as_slice()) else {
        return None;
    };
    let (light, dark) = if b1 % 2 == 1 { (*b1, *b2) } else { (*b2, *b1) };
    if light % 2 != 1 || dark % 2 != 0 {
        return None;
    }
    // The queen's and the knights' places counted among the squares still free,
    // the order `Game::chess960` fills them in.
    let free_before = |i: usize, taken: &[usize]| (0..i).filter(|j| !taken.contains(j)).count();
    let queen = free_before(*q, &[light, dark]);
    let (a, b) = (free_before(*n1, &[light, dark, *q]), free_before(*n2, &[light, dark, *q]));
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let knights = KNIGHTS.iter().position(|&k| k == (a, b))?;
    let n = ((knights * 6 + queen) * 4 + dark / 2) * 4 + (light - 1) / 2;
    let n = u16::try_from(n).ok()?;
    // Rooks and king in their order, the pawns and Black's pieces: the whole board must be it.
    let game = Game::chess960(n)?;
    (game.start().board() == board).then_some(n)
}

/// Where the blind player's board (`sensed`, the holes with a peg) differs
/// from the start position `start`, square by square (a1..h8). A peg board
/// senses holes, not pieces: which piece stands in a hole is his to check
/// against the first rank read to him.
pub fn check(start: &Board, sensed: Bitboard) -> Vec<SquareDiff> {
    square_diff(start, sensed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank_letters(board: &Board) -> String {
        first_rank(board).iter().map(|r| r.map_or('.', |r| r.upper_char())).collect()
    }

    #[test]
    fn iccf_appendix_b_every_start_is_named_by_its_number() {
        for n in 0..960 {
            let g = Game::chess960(n).unwrap();
            assert_eq!(chess960_number(g.start().board()), Some(n), "{}", g.start_fen());
        }
        assert_eq!(chess960_number(Game::default().start().board()), Some(518));
        assert_eq!(rank_letters(Game::chess960(0).unwrap().start().board()), "BBQNNRKR");
        assert_eq!(rank_letters(Game::chess960(959).unwrap().start().board()), "RKRNNQBB");
        // Not a Chess960 start: the king outside his rooks, a game under way.
        let outside = Game::from_fen("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/KRRNNQBB w - - 0 1").unwrap();
        assert_eq!(chess960_number(outside.start().board()), None);
        let mut played = Game::default();
        played.push_uci("e2e4").unwrap();
        assert_eq!(chess960_number(played.position().board()), None);
    }

    #[test]
    fn iccf_appendix_b_a_set_up_board_is_checked_square_by_square() {
        let start = Game::chess960(0).unwrap();
        let board = start.start().board();
        let full = board.occupied();
        assert!(check(board, full).is_empty(), "a board set up right differs nowhere");
        // He forgot the bishop on b1 and put a peg on e4 instead.
        let sensed = (full ^ Bitboard::from(Square::B1)) | Bitboard::from(Square::E4);
        let diff = check(board, sensed);
        let said: Vec<(&str, Option<char>, bool)> =
            diff.iter().map(|d| (d.square.as_str(), d.expected, d.peg)).collect();
        assert_eq!(said, [("b1", Some('B'), false), ("e4", None, true)]);
        // The standard start and this one fill the same holes: a peg board
        // cannot tell them apart, so the first rank is read to him.
        assert!(check(Game::default().start().board(), full).is_empty());
    }

    /// The table waits for a Chess960 start: his board, still, is checked
    /// square by square and what differs is an event; set up right, the game starts.
    #[test]
    fn iccf_appendix_b_the_table_checks_his_chess960_set_up_while_it_waits() {
        use crate::table::{Table, TableConfig};
        use crate::{BoardRole, Event, TrackerConfig};
        let tracker = TrackerConfig::default();
        let settle = tracker.settle_ms;
        let start = Game::chess960(0).unwrap();
        let full = start.start().board().occupied();
        let mut table =
            Table::new(TableConfig { start: start.clone().into(), ..TableConfig::single(tracker) });
        let mut out = Vec::new();
        let forgot_b1 = full ^ Bitboard::from(Square::B1);
        table.on_scan(BoardRole::Blind, 1_000, forgot_b1, &mut out);
        table.tick(1_000 + settle, &mut out);
        let said: Vec<&Event> = out.iter().filter(|e| matches!(e, Event::SetupDiffers { .. })).collect();
        assert_eq!(said.len(), 1, "{out:?}");
        let Event::SetupDiffers { board, diff, t_ms } = said[0] else { unreachable!() };
        assert_eq!((*board, *t_ms), (BoardRole::Blind, 1_000 + settle));
        assert_eq!(
            diff.iter().map(|d| (d.square.as_str(), d.expected)).collect::<Vec<_>>(),
            [("b1", Some('B'))]
        );
        assert!(!out.iter().any(|e| matches!(e, Event::GameStarted { .. })), "no game on a wrong set-up");
        // Said once: time passing changes nothing.
        out.clear();
        table.tick(10_000, &mut out);
        assert!(out.is_empty(), "{out:?}");
        // The peg put in: the game starts at once (the first move may follow at once).
        table.on_scan(BoardRole::Blind, 11_000, full, &mut out);
        assert!(out.iter().any(|e| matches!(e, Event::GameStarted { t_ms: 11_000, .. })), "{out:?}");
        table.tick(11_000 + settle, &mut out);
        assert!(!out.iter().any(|e| matches!(e, Event::SetupDiffers { .. })), "{out:?}");
        // A standard start is not read out square by square at every pause
        // while he sets it up; still for longer, what differs is said.
        let mut table = Table::new(TableConfig::single(TrackerConfig::default()));
        let mut out = Vec::new();
        table.on_scan(BoardRole::Blind, 1_000, forgot_b1, &mut out);
        table.tick(1_000 + settle, &mut out);
        assert!(out.is_empty(), "{out:?}");
        table.tick(1_000 + crate::table::SETUP_QUIET_MS, &mut out);
        assert!(matches!(&out[..], [Event::SetupDiffers { .. }]), "{out:?}");
    }
}
