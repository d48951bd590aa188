//! The clock's move counter in a two-board game (the blind player's peg board
//! and the sighted player's DGT board), the station pressing for both players
//! (`clock_auto_press`, as `station demo --mirror dgt` runs): it must count every
//! move of both sides, as it does with one board (D.2.6.1: the talking clock
//! tells the blind player the number of moves).

use shakmaty::{Bitboard, Piece, Square};
use station_core::clock::Side;
use station_core::inference::TrackerConfig;
use station_core::table::{Table, TableConfig};
use station_core::{BoardRole, Game, Millis};

struct Hands {
    table: Table,
    t: Millis,
}

impl Hands {
    fn rest(&mut self) {
        self.t += 1000;
        self.table.tick(self.t, &mut Vec::new());
    }

    /// The blind player moves a peg on his board.
    fn pegs(&mut self, from: Square, to: Square) {
        let mut occ: Bitboard = self.table.sensed(BoardRole::Blind);
        for sq in [Some(to).filter(|s| occ.contains(*s)), Some(from)].into_iter().flatten() {
            occ.discard(sq);
            self.t += 100;
            self.table.on_scan(BoardRole::Blind, self.t, occ, &mut Vec::new());
        }
        occ.add(to);
        self.t += 100;
        self.table.on_scan(BoardRole::Blind, self.t, occ, &mut Vec::new());
        self.rest();
    }

    /// The sighted player moves a piece on his DGT board.
    fn dgt(&mut self, from: Square, to: Square, piece: Piece) {
        self.t += 100;
        self.table.on_field(self.t, from, None, &mut Vec::new());
        self.t += 100;
        self.table.on_field(self.t, to, Some(piece), &mut Vec::new());
        self.rest();
    }

    fn moves(&self) -> [u32; 2] {
        let clock = self.table.clock().expect("a timed game");
        [clock.moves_made(Side::White), clock.moves_made(Side::Black)]
    }
}

#[test]
fn both_sides_moves_are_counted_with_a_dgt_mirror_board() {
    let cfg = TableConfig {
        mirror_sensed: true,
        mirror_pieces: true,
        time_control: Some("300+2".parse().unwrap()),
        clock_auto_press: true,
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut h = Hands { table: Table::new(cfg), t: 0 };
    h.t += 100;
    h.table.on_pieces(h.t, &shakmaty::Board::default(), &mut Vec::new());
    let start = Game::default().occupancy();
    h.table.on_scan(BoardRole::Mirror, h.t, start, &mut Vec::new());
    h.table.on_scan(BoardRole::Blind, h.t, start, &mut Vec::new());
    h.rest();
    let (wp, bn, wn) =
        (Piece::from_char('P').unwrap(), Piece::from_char('n').unwrap(), Piece::from_char('N').unwrap());
    // 1. e4 (blind, then executed on the DGT board) Nf6 (sighted, then on the pegs) 2. Nc3
    h.pegs(Square::E2, Square::E4);
    h.dgt(Square::E2, Square::E4, wp);
    assert_eq!(h.moves(), [1, 0]);
    h.dgt(Square::G8, Square::F6, bn);
    h.pegs(Square::G8, Square::F6);
    assert_eq!(h.moves(), [1, 1], "Black's move on the DGT board is counted");
    h.pegs(Square::B1, Square::C3);
    h.dgt(Square::B1, Square::C3, wn);
    assert_eq!(h.moves(), [2, 1]);
}
