//! Variants, squares and positions (chapter I, 2.1–2.8).
//!
//! Squares are the dark squares, numbered from 1 at the top left seen from
//! White (FMJD numbering): row 0 is Black's back row, White's men start on the
//! highest numbers. Bit `n - 1` of a bitboard is square `n`.

use std::fmt;

/// Which draughts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// International draughts: 10×10, 20 men each, squares 1–50.
    International,
    /// The code's 64-square version: international rules on 8×8, 12 men each,
    /// squares a1–h8 (numbered 1–32 internally the same way as 1–50).
    Draughts64,
}

impl Variant {
    /// Squares along a side (10 or 8).
    pub const fn size(self) -> u8 {
        match self {
            Variant::International => 10,
            Variant::Draughts64 => 8,
        }
    }

    /// Number of dark squares (50 or 32).
    pub const fn squares(self) -> u8 {
        self.size() * self.size() / 2
    }

    /// Rows of men each side starts with (4 or 3).
    pub const fn rows_of_men(self) -> u8 {
        match self {
            Variant::International => 4,
            Variant::Draughts64 => 3,
        }
    }

    /// Every dark square as a bitboard.
    pub const fn all(self) -> u64 {
        (1u64 << self.squares()) - 1
    }

    /// The squares of one row (0 = top, Black's back row).
    pub fn row_mask(self, row: u8) -> u64 {
        let per = u64::from(self.size() / 2);
        ((1u64 << per) - 1) << (per * u64::from(row))
    }

    /// The neighbour of `sq` in direction `dir` ([`Dir`]).
    #[inline]
    pub fn neighbour(self, sq: Square, dir: Dir) -> Option<Square> {
        let n = match self {
            Variant::International => NEIGHBOURS_10[sq.0 as usize][dir as usize],
            Variant::Draughts64 => NEIGHBOURS_8[sq.0 as usize][dir as usize],
        };
        (n != NONE).then_some(Square(n))
    }

    /// The square at `row`, `col` (0-based from the top left), if dark and on the board.
    pub const fn at(self, row: i8, col: i8) -> Option<Square> {
        at(self.size(), row, col)
    }

    /// Moves of kings only each side may make before the game is drawn
    /// (6.2: 25 on the 10×10 board, 20 on 8×8).
    pub const fn king_moves_limit(self) -> u32 {
        match self {
            Variant::International => 25,
            Variant::Draughts64 => 20,
        }
    }

    /// The PDN `GameType` number (20 international, 26 for international rules on 8×8).
    pub const fn game_type(self) -> u8 {
        match self {
            Variant::International => 20,
            Variant::Draughts64 => 26,
        }
    }

    /// Square `n` (1-based), if it is on this board.
    pub fn square(self, n: u8) -> Option<Square> {
        (1..=self.squares()).contains(&n).then(|| Square(n - 1))
    }

    /// Square by name: a number (`32`) or, on 8×8, algebraic (`c3`).
    pub fn parse_square(self, s: &str) -> Option<Square> {
        WrittenSquare::read(&s.to_ascii_lowercase())?.square(self)
    }

    /// The square's name in this variant's notation: the number, or `c3` on 8×8.
    pub fn name(self, sq: Square) -> String {
        WrittenSquare::of(sq, self).to_string()
    }
}

/// A square as a move writes it: its FMJD number, or on the 64-square board
/// its file and rank (`c3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WrittenSquare {
    /// The square's number (1-based).
    Number(u8),
    /// File (`0` = `a`) and rank (1-based), as the 64-square board writes squares.
    Algebraic {
        /// The file from `a`, 0-based.
        file: u8,
        /// The rank, 1-based.
        rank: u8,
    },
}

impl WrittenSquare {
    /// Reads a square as written (a number, or a lower-case file and a
    /// rank), whatever the board: [`square`](Self::square) says whether it is on one.
    pub fn read(s: &str) -> Option<WrittenSquare> {
        // Leading zeros read here; `FromStr` refuses them by writing the path back.
        let number = |d: &str| {
            (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())).then(|| d.parse::<u8>().ok()).flatten()
        };
        if let Some(n) = number(s) {
            return Some(WrittenSquare::Number(n));
        }
        let (&first, rest) = s.as_bytes().split_first()?;
        let rank = number(std::str::from_utf8(rest).ok()?)?;
        first.is_ascii_lowercase().then(|| WrittenSquare::Algebraic { file: first - b'a', rank })
    }

    /// How `variant` writes `sq`.
    pub fn of(sq: Square, variant: Variant) -> WrittenSquare {
        match variant {
            Variant::International => WrittenSquare::Number(sq.number()),
            Variant::Draughts64 => {
                let (row, col) = sq.coords(variant);
                WrittenSquare::Algebraic { file: col, rank: variant.size() - row }
            }
        }
    }

    /// The board's square in `variant`: a number on either board, file and
    /// rank on the 64-square board only.
    pub fn square(self, variant: Variant) -> Option<Square> {
        match self {
            WrittenSquare::Number(n) => variant.square(n),
            WrittenSquare::Algebraic { file, rank } => {
                let size = variant.size();
                if variant != Variant::Draughts64 || file >= size || rank == 0 || rank > size {
                    return None;
                }
                variant.at((size - rank) as i8, file as i8)
            }
        }
    }
}

impl fmt::Display for WrittenSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WrittenSquare::Number(n) => write!(f, "{n}"),
            WrittenSquare::Algebraic { file, rank } => write!(f, "{}{rank}", (b'a' + file) as char),
        }
    }
}

/// A diagonal direction; "up" is toward square 1 (White's forward direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Up and left.
    UpLeft = 0,
    /// Up and right.
    UpRight = 1,
    /// Down and left.
    DownLeft = 2,
    /// Down and right.
    DownRight = 3,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];
    /// A side's forward directions (2.8: men move forward only).
    pub const fn forward(color: Color) -> [Dir; 2] {
        match color {
            Color::White => [Dir::UpLeft, Dir::UpRight],
            Color::Black => [Dir::DownLeft, Dir::DownRight],
        }
    }
}

const NONE: u8 = u8::MAX;

const fn at(size: u8, row: i8, col: i8) -> Option<Square> {
    let s = size as i8;
    if row < 0 || col < 0 || row >= s || col >= s || (row + col) % 2 == 0 {
        return None;
    }
    Some(Square((row as u8) * (size / 2) + (col as u8) / 2))
}

const fn coords(size: u8, idx: u8) -> (u8, u8) {
    let per = size / 2;
    let row = idx / per;
    let k = idx % per;
    let col = if row & 1 == 0 { 2 * k + 1 } else { 2 * k };
    (row, col)
}

const fn neighbours<const N: usize>(size: u8) -> [[u8; 4]; N] {
    let mut table = [[NONE; 4]; N];
    let steps: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
    let mut i = 0;
    while i < N {
        let (row, col) = coords(size, i as u8);
        let mut d = 0;
        while d < 4 {
            if let Some(sq) = at(size, row as i8 + steps[d].0, col as i8 + steps[d].1) {
                table[i][d] = sq.0;
            }
            d += 1;
        }
        i += 1;
    }
    table
}

static NEIGHBOURS_10: [[u8; 4]; 50] = neighbours::<50>(10);
static NEIGHBOURS_8: [[u8; 4]; 32] = neighbours::<32>(8);

/// A dark square, as a 0-based index (square number − 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The FMJD number (1-based).
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
    /// The square's bit.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
    /// Row and column from the top left (seen from White).
    pub const fn coords(self, variant: Variant) -> (u8, u8) {
        coords(variant.size(), self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// The squares of a bitboard, lowest first.
pub fn squares(mut bb: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let sq = Square(bb.trailing_zeros() as u8);
            bb &= bb - 1;
            sq
        })
    })
}

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White (light), moves first, men on the high numbers.
    White,
    /// Black (dark).
    Black,
}

impl Color {
    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece: a man or a king of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose.
    pub color: Color,
    /// A king (3.6–3.7) rather than a man.
    pub king: bool,
}

/// A position: the pieces and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The board.
    pub variant: Variant,
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// The kings of both sides.
    pub kings: u64,
    /// Whose move it is.
    pub turn: Color,
}

impl Position {
    /// The initial position (2.7–2.8): Black's men on the first rows, White's on the last, White to move.
    pub fn initial(variant: Variant) -> Position {
        let men = u32::from(variant.rows_of_men()) * u32::from(variant.size() / 2);
        let black = (1u64 << men) - 1;
        let white = black << (u32::from(variant.squares()) - men);
        Position { variant, white, black, kings: 0, turn: Color::White }
    }

    /// An empty board with `turn` to move.
    pub fn empty(variant: Variant, turn: Color) -> Position {
        Position { variant, white: 0, black: 0, kings: 0, turn }
    }

    /// Puts `piece` on `sq` (replacing what stood there).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        match piece.color {
            Color::White => self.white |= sq.bit(),
            Color::Black => self.black |= sq.bit(),
        }
        if piece.king {
            self.kings |= sq.bit();
        }
    }

    /// Empties `sq`.
    pub fn remove(&mut self, sq: Square) {
        let keep = !sq.bit();
        self.white &= keep;
        self.black &= keep;
        self.kings &= keep;
    }

    /// Every occupied square: the holes with a peg in them.
    pub const fn occupied(&self) -> u64 {
        self.white | self.black
    }

    /// A side's pieces.
    pub const fn pieces(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let king = self.kings & sq.bit() != 0;
        if self.white & sq.bit() != 0 {
            Some(Piece { color: Color::White, king })
        } else if self.black & sq.bit() != 0 {
            Some(Piece { color: Color::Black, king })
        } else {
            None
        }
    }

    /// The row where `color`'s men become kings (3.7).
    pub fn promotion_row(&self, color: Color) -> u64 {
        match color {
            Color::White => self.variant.row_mask(0),
            Color::Black => self.variant.row_mask(self.variant.size() - 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmjd_numbering_geometry() {
        let v = Variant::International;
        // Square 1 is b10-like (row 0, col 1), 6 is a9-like (row 1, col 0), 50 at the bottom right.
        assert_eq!(Square(0).coords(v), (0, 1));
        assert_eq!(Square(5).coords(v), (1, 0));
        assert_eq!(Square(49).coords(v), (9, 8));
        // 32-28 and 32-27 are White's two forward steps from 32.
        let s32 = v.square(32).unwrap();
        assert_eq!(v.neighbour(s32, Dir::UpLeft).map(Square::number), Some(27));
        assert_eq!(v.neighbour(s32, Dir::UpRight).map(Square::number), Some(28));
        assert_eq!(v.neighbour(v.square(6).unwrap(), Dir::UpLeft), None);
    }

    #[test]
    fn draughts64_names_and_initial_position() {
        let v = Variant::Draughts64;
        let p = Position::initial(v);
        let names: Vec<String> = squares(p.white).map(|s| v.name(s)).collect();
        for expected in ["a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"] {
            assert!(names.iter().any(|n| n == expected), "{expected} in {names:?}");
        }
        let black: Vec<String> = squares(p.black).map(|s| v.name(s)).collect();
        assert!(black.iter().any(|n| n == "b8") && black.iter().any(|n| n == "h6"));
        assert_eq!(v.parse_square("c3").map(|s| v.name(s)), Some("c3".into()));
        assert_eq!(v.parse_square("a2"), None, "a light square");
        assert_eq!(p.white.count_ones() + p.black.count_ones(), 24);
    }
}
