//! The notations of the ICCF Laws, Appendix A (and FIDE Appendix E), written
//! and read in one place: English SAN, Polish SAN (K H W G S; a capture
//! written "x", ":" or not at all), ICCF numeric (e2-e4 = 5254, a fifth digit
//! for the promotion piece, castling as the king's move), long algebraic
//! (Ng1-f3) and figurine (♘f3). UCI is read as well (the console and the
//! journal speak it).
//!
//! Reading never guesses: a text names a move only when exactly one legal
//! move fits it.

use crate::game::Game;
use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square, san::SanPlus};
use std::fmt::Write as _;

/// A notation a scoresheet can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// English SAN (Nf3, O-O).
    San,
    /// Polish SAN (Sf3, 0-0, d8H).
    Pl,
    /// ICCF numeric (7163, 5171, 67682).
    Iccf,
    /// Long algebraic (Ng1-f3, e4xd5).
    Lan,
    /// Figurine algebraic (♘f3).
    Fan,
}

impl std::str::FromStr for Notation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "san" => Notation::San,
            "pl" => Notation::Pl,
            "iccf" => Notation::Iccf,
            "lan" => Notation::Lan,
            "fan" => Notation::Fan,
            other => return Err(format!("`{other}` is not a notation (san, pl, iccf, lan, fan)")),
        })
    }
}

/// The square where the king lands when castling (c or g file).
fn king_target(mv: &Move) -> Square {
    match *mv {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            Square::from_coords(side.king_to_file(), king.rank())
        }
        _ => mv.to(),
    }
}

fn english_letter(role: Role) -> char {
    role.upper_char()
}

fn polish_letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Queen => 'H',
        Role::Rook => 'W',
        Role::Bishop => 'G',
        Role::Knight => 'S',
        Role::Pawn => 'P',
    }
}

fn figurine(role: Role, color: Color) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let i = match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    if color == Color::White { white[i] } else { black[i] }
}

/// The piece a letter or figurine names, in English, Polish or figurine notation.
fn role_of_symbol(c: char) -> Option<Role> {
    Some(match c {
        'K' | '♔' | '♚' => Role::King,
        'Q' | 'H' | '♕' | '♛' => Role::Queen,
        'R' | 'W' | '♖' | '♜' => Role::Rook,
        'B' | 'G' | '♗' | '♝' => Role::Bishop,
        'N' | 'S' | '♘' | '♞' => Role::Knight,
        'P' | '♙' | '♟' => Role::Pawn,
        _ => return None,
    })
}

/// The ICCF digit of a promotion piece (A.19).
fn iccf_promotion(role: Role) -> char {
    match role {
        Role::Queen => '1',
        Role::Rook => '2',
        Role::Bishop => '3',
        _ => '4',
    }
}

/// Writes `mv`, legal in `pos`, in `notation` (with check and mate marks, except ICCF).
pub fn write(pos: &Chess, mv: Move, notation: Notation) -> String {
    let san = SanPlus::from_move(pos.clone(), mv);
    let suffix = san.suffix.map(|s| s.to_string()).unwrap_or_default();
    let castle = match mv {
        Move::Castle { king, rook } => Some(if rook < king { "0-0-0" } else { "0-0" }),
        _ => None,
    };
    match notation {
        Notation::San => san.to_string(),
        Notation::Iccf => {
            let (from, to) = (mv.from().unwrap_or(mv.to()), king_target(&mv));
            let mut s = String::with_capacity(5);
            for sq in [from, to] {
                let _ = write!(s, "{}{}", u32::from(sq.file()) + 1, u32::from(sq.rank()) + 1);
            }
            if let Some(role) = mv.promotion() {
                s.push(iccf_promotion(role));
            }
            s
        }
        _ if castle.is_some() => format!("{}{suffix}", castle.unwrap_or_default()),
        Notation::Pl | Notation::Fan => {
            let text = san.san.to_string();
            let color = pos.turn();
            let symbol = |role: Role| match notation {
                Notation::Pl => polish_letter(role),
                _ => figurine(role, color),
            };
            let mut out = String::with_capacity(text.len() + 2);
            if mv.role() != Role::Pawn {
                out.push(symbol(mv.role()));
            }
            let body = if mv.role() == Role::Pawn { &text[..] } else { &text[1..] };
            // The promotion piece follows the square without "=" (A.11: d8H).
            match (mv.promotion(), body.split_once('=')) {
                (Some(role), Some((square, _))) => {
                    out.push_str(square);
                    out.push(symbol(role));
                }
                _ => out.push_str(body),
            }
            out.push_str(&suffix);
            out
        }
        Notation::Lan => {
            let from = mv.from().unwrap_or(mv.to());
            let mut out = String::with_capacity(8);
            if mv.role() != Role::Pawn {
                out.push(english_letter(mv.role()));
            }
            let _ = write!(out, "{from}{}{}", if mv.is_capture() { 'x' } else { '-' }, mv.to());
            if let Some(role) = mv.promotion() {
                out.push(english_letter(role));
            }
            out.push_str(&suffix);
            out
        }
    }
}

/// What a text says about a move.
#[derive(Debug, Default)]
struct Pattern {
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    promotion: Option<Role>,
    castle: Option<CastlingSide>,
}

fn parse_pattern(text: &str) -> Option<Pattern> {
    let mut t: String = text.trim().chars().filter(|c| !matches!(c, ' ')).collect();
    for mark in ["(=)", "e.p.", "ep"] {
        if let Some(stripped) = t.strip_suffix(mark) {
            t = stripped.to_owned();
        }
    }
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    if t.is_empty() || t.chars().count() > 12 {
        return None;
    }
    let castle = match t {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if castle.is_some() {
        return Some(Pattern { castle, role: Some(Role::King), ..Pattern::default() });
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return parse_iccf(t);
    }
    let mut chars: Vec<char> = t.chars().filter(|c| !matches!(c, 'x' | ':' | '-' | '=')).collect();
    let mut p = Pattern::default();
    if let Some(&c) = chars.first()
        && !c.is_ascii_lowercase()
    {
        p.role = Some(role_of_symbol(c)?);
        chars.remove(0);
    }
    // A trailing piece symbol (or UCI's lower-case letter) is the promotion piece.
    if let Some(&c) = chars.last()
        && !c.is_ascii_digit()
    {
        let role = role_of_symbol(c).or_else(|| Role::from_char(c).filter(|r| *r != Role::King))?;
        p.promotion = Some(role);
        chars.pop();
    }
    let n = chars.len();
    if n < 2 {
        return None;
    }
    p.to = Some(Square::from_coords(file_of(chars[n - 2])?, rank_of(chars[n - 1])?));
    match &chars[..n - 2] {
        [] => {}
        [c] if c.is_ascii_digit() => p.from_rank = Some(rank_of(*c)?),
        [c] => p.from_file = Some(file_of(*c)?),
        [f, r] => {
            p.from_file = Some(file_of(*f)?);
            p.from_rank = Some(rank_of(*r)?);
        }
        _ => return None,
    }
    Some(p)
}

fn parse_iccf(t: &str) -> Option<Pattern> {
    let d: Vec<u32> = t.chars().filter_map(|c| c.to_digit(10)).collect();
    if !(d.len() == 4 || d.len() == 5) || d[..4].iter().any(|&x| !(1..=8).contains(&x)) {
        return None;
    }
    let sq = |f: u32, r: u32| Square::from_coords(File::new(f - 1), Rank::new(r - 1));
    let promotion = match d.get(4) {
        None => None,
        Some(1) => Some(Role::Queen),
        Some(2) => Some(Role::Rook),
        Some(3) => Some(Role::Bishop),
        Some(4) => Some(Role::Knight),
        Some(_) => return None,
    };
    Some(Pattern {
        from_file: Some(File::new(d[0] - 1)),
        from_rank: Some(Rank::new(d[1] - 1)),
        to: Some(sq(d[2], d[3])),
        promotion,
        ..Pattern::default()
    })
}

fn file_of(c: char) -> Option<File> {
    File::from_char(c)
}

fn rank_of(c: char) -> Option<Rank> {
    Rank::from_char(c)
}

impl Pattern {
    fn fits(&self, mv: &Move) -> bool {
        if let Some(side) = self.castle {
            return matches!(*mv, Move::Castle { king, rook } if CastlingSide::from_queen_side(rook < king) == side);
        }
        let from = mv.from();
        let to_ok = self.to.is_some_and(|to| {
            to == king_target(mv)
                // UCI in Chess960: the king "takes" his own rook.
                || matches!(*mv, Move::Castle { rook, .. } if rook == to && self.role.is_none())
        });
        // A pawn is named by no letter (or P); a piece by its letter, or by its
        // square alone in long and numeric notation.
        let role_ok = match self.role {
            Some(role) => role == mv.role(),
            None => mv.role() == Role::Pawn || (self.from_file.is_some() && self.from_rank.is_some()),
        };
        to_ok
            && role_ok
            && self.from_file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
            && self.from_rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
            && self.promotion == mv.promotion()
    }
}

/// Why a text names no move (Guidelines I.8 tells these apart for a sealed move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Not a move in any notation (I.8.2: it cannot be read).
    #[error("not a move in any notation (SAN, Polish, ICCF, long, figurine, UCI)")]
    Unreadable,
    /// No legal move fits (I.8.3: illegal).
    #[error("no legal move fits")]
    Illegal,
    /// Several legal moves fit (I.8.1: ambiguous).
    #[error("several legal moves fit")]
    Ambiguous,
}

/// Reads a move in any of the notations (and UCI): the one legal move in
/// `pos` the text names, or `None` when none or several fit.
pub fn read(pos: &Chess, text: &str) -> Option<Move> {
    read_exactly(pos, text).ok()
}

/// [`read`], saying why a text names no move.
pub fn read_exactly(pos: &Chess, text: &str) -> Result<Move, ReadError> {
    let pattern = parse_pattern(text).ok_or(ReadError::Unreadable)?;
    let mut found = None;
    for mv in pos.legal_moves() {
        if pattern.fits(&mv) {
            if found.is_some() {
                return Err(ReadError::Ambiguous);
            }
            found = Some(mv);
        }
    }
    found.ok_or(ReadError::Illegal)
}

/// A scoresheet in `notation`: numbered moves, the "(=)" mark after each ply
/// in `draw_offers` (0: before the first move), the result last.
pub fn scoresheet(game: &Game, notation: Notation, draw_offers: &[usize], result: &str) -> String {
    let mut out = String::new();
    let start = game.start();
    let mut number = start.fullmoves().get();
    let mut line = String::new();
    if draw_offers.contains(&0) {
        line.push_str("(=) ");
    }
    for (i, mv) in game.moves().iter().enumerate() {
        let Some(pos) = game.position_at(i) else { break };
        if pos.turn() == Color::White {
            let _ = write!(line, "{number}. ");
        } else if i == 0 {
            let _ = write!(line, "{number}. ... ");
        }
        line.push_str(&write(pos, *mv, notation));
        if draw_offers.contains(&(i + 1)) {
            line.push_str(" (=)");
        }
        if pos.turn() == Color::Black {
            number += 1;
            let _ = writeln!(out, "{}", line.trim_end());
            line.clear();
        } else {
            line.push(' ');
        }
    }
    if !line.trim().is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "{result}");
    out
}

#[cfg(test)]
mod tests;
