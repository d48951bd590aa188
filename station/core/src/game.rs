//! One game's record: the start position and every move executed since.
//!
//! It keeps the position after every ply, the moves and their SAN, so a take-back or a discrepancy
//! can go back to any ply.

use shakmaty::{
    Bitboard, CastlingMode, Chess, EnPassantMode, Move, Outcome, Position, fen::Fen, san::SanPlus,
    uci::UciMove,
};

/// Why a start position was refused.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The FEN text does not parse.
    #[error("bad FEN: {0}")]
    Fen(#[from] shakmaty::fen::ParseFenError),
    /// The FEN parses but is not a legal chess position.
    #[error("illegal start position: {0}")]
    Position(String),
}

/// A game record: positions after every ply, with the SAN of each move.
#[derive(Clone, Debug)]
pub struct Game {
    mode: CastlingMode,
    positions: Vec<Chess>,
    moves: Vec<Move>,
    sans: Vec<SanPlus>,
}

impl Default for Game {
    fn default() -> Self {
        Self::new(Chess::default(), CastlingMode::Standard)
    }
}

impl Game {
    /// A game from a start position.
    pub fn new(start: Chess, mode: CastlingMode) -> Self {
        Game { mode, positions: vec![start], moves: Vec::new(), sans: Vec::new() }
    }

    /// A game from a FEN (Chess960 castling rights are understood either way).
    pub fn from_fen(fen: &str) -> Result<Self, StartError> {
        let setup: Fen = fen.parse()?;
        let chess960 = Self::needs_chess960(&setup);
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let pos: Chess =
            setup.into_position(CastlingMode::Chess960).map_err(|e| StartError::Position(e.to_string()))?;
        Ok(Self::new(pos, mode))
    }

    /// The Chess960 start position with Scharnagl number `n` (0–959; 518 is the
    /// standard position).
    pub fn chess960(n: u16) -> Option<Self> {
        if n > 959 {
            return None;
        }
        let mut rank: [Option<char>; 8] = [None; 8];
        let mut n = usize::from(n);
        // Bishops on a light then a dark square, then the queen and the knights
        // on the free squares; rook, king, rook fill the rest in order.
        rank[(n % 4) * 2 + 1] = Some('b');
        n /= 4;
        rank[(n % 4) * 2] = Some('b');
        n /= 4;
        let place = |rank: &mut [Option<char>; 8], mut k: usize, piece: char| {
            for slot in rank.iter_mut() {
                if slot.is_none() {
                    if k == 0 {
                        *slot = Some(piece);
                        return;
                    }
                    k -= 1;
                }
            }
        };
        place(&mut rank, n % 6, 'q');
        n /= 6;
        const KNIGHTS: [(usize, usize); 10] =
            [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
        let (a, b) = KNIGHTS[n];
        place(&mut rank, b, 'n');
        place(&mut rank, a, 'n');
        for piece in ['r', 'k', 'r'] {
            place(&mut rank, 0, piece);
        }
        let black: String = rank.iter().map(|c| c.unwrap_or('r')).collect();
        let white = black.to_uppercase();
        let files: String = rank
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == Some('r'))
            .map(|(i, _)| (b'a' + i as u8) as char)
            .collect();
        let rights = format!("{}{}", files.to_uppercase(), files);
        Self::from_fen(&format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1")).ok()
    }

    /// Standard castling notation only fits rooks in the corners and kings on the e-file.
    fn needs_chess960(setup: &Fen) -> bool {
        let setup = setup.as_setup();
        setup.castling_rights.into_iter().any(|rook| {
            let king_home = shakmaty::Square::from_coords(shakmaty::File::E, rook.rank());
            let king_there =
                setup.board.king_of(shakmaty::Color::from_white(rook.rank() == shakmaty::Rank::First))
                    == Some(king_home);
            (rook.file() != shakmaty::File::A && rook.file() != shakmaty::File::H) || !king_there
        })
    }

    /// The castling mode used for UCI notation.
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.positions.last().expect("a game always has its start position")
    }

    /// The position after `ply` half-moves (0 = start), if reached.
    pub fn position_at(&self, ply: usize) -> Option<&Chess> {
        self.positions.get(ply)
    }

    /// The start position.
    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// Half-moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// SAN (with check/mate suffix) of the moves played.
    pub fn sans(&self) -> &[SanPlus] {
        &self.sans
    }

    /// Occupancy of the current position.
    pub fn occupancy(&self) -> Bitboard {
        self.position().board().occupied()
    }

    /// Occupancy of the position after `ply` half-moves.
    pub fn occupancy_at(&self, ply: usize) -> Option<Bitboard> {
        self.positions.get(ply).map(|p| p.board().occupied())
    }

    /// Plays a move that must be legal in the current position; returns its SAN.
    pub fn push(&mut self, mv: Move) -> SanPlus {
        let mut next = self.position().clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut next, mv);
        self.positions.push(next);
        self.moves.push(mv);
        self.sans.push(san);
        san
    }

    /// Takes the last move back.
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.sans.pop();
        Some(mv)
    }

    /// Plays a move given in UCI; refuses illegal moves.
    pub fn push_uci(&mut self, uci: &str) -> Option<SanPlus> {
        let mv = UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(self.position()).ok()?;
        Some(self.push(mv))
    }

    /// UCI text of a move in this game's castling mode.
    pub fn uci(&self, mv: Move) -> String {
        mv.to_uci(self.mode).to_string()
    }

    /// A move of this game as events carry it (UCI in this game's castling
    /// mode; `.into()` makes it an event's move).
    pub fn played(&self, mv: Move) -> shakmaty::uci::UciMove {
        mv.to_uci(self.mode)
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }

    /// FEN of the start position.
    pub fn start_fen(&self) -> String {
        Fen::from_position(self.start(), EnPassantMode::Legal).to_string()
    }

    /// The result if the position ends the game by itself (mate, stalemate, dead position).
    pub fn outcome(&self) -> Outcome {
        self.position().outcome()
    }

    /// The earliest ply before the current one whose occupancy equals `occ`, searching backwards
    /// (a take-back shows the board of an earlier position).
    pub fn last_ply_with_occupancy(&self, occ: Bitboard) -> Option<usize> {
        (0..self.ply()).rev().find(|&ply| self.positions[ply].board().occupied() == occ)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_and_pop_keep_positions_moves_and_sans_in_step() {
        let mut g = Game::default();
        assert_eq!(g.push_uci("e2e4").unwrap().to_string(), "e4");
        assert_eq!(g.push_uci("e7e5").unwrap().to_string(), "e5");
        assert!(g.push_uci("e4e5").is_none());
        assert_eq!(g.ply(), 2);
        g.pop();
        assert_eq!(g.ply(), 1);
        assert_eq!(g.sans().len(), 1);
        assert_eq!(g.last_ply_with_occupancy(Chess::default().board().occupied()), Some(0));
    }

    #[test]
    fn chess960_positions_by_number() {
        assert_eq!(Game::chess960(518).unwrap().start_fen(), Game::default().start_fen());
        assert!(
            Game::chess960(0).unwrap().start_fen().starts_with("bbqnnrkr/"),
            "{}",
            Game::chess960(0).unwrap().start_fen()
        );
        assert!(
            Game::chess960(959).unwrap().start_fen().starts_with("rkrnnqbb/"),
            "{}",
            Game::chess960(959).unwrap().start_fen()
        );
        assert!(Game::chess960(960).is_none());
        let all: std::collections::BTreeSet<String> =
            (0..960).map(|n| Game::chess960(n).unwrap().start_fen()).collect();
        assert_eq!(all.len(), 960, "every number a different position");
    }

    #[test]
    fn chess960_fen_is_detected() {
        let g = Game::from_fen("bqnb1rkr/pppp1ppp/6n1/4p3/4P3/1N4N1/PPPP1PPP/BQ1B1RKR w HFhf - 2 3").unwrap();
        assert_eq!(g.castling_mode(), CastlingMode::Chess960);
        assert_eq!(Game::default().castling_mode(), CastlingMode::Standard);
        assert!(Game::from_fen("not a fen").is_err());
    }
}
