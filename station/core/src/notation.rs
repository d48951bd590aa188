//! The notations of the ICCF Laws, Appendix A (and FIDE Appendix E), written
//! and read in one place: English SAN, Polish SAN (K H W G S; a capture
//! written "x", ":" or not at all), ICCF numeric (e2-e4 = 5254, a fifth digit
//! for the promotion piece, castling as the king's move), long algebraic
//! (Ng1-f3) and figurine (♘f3). UCI is read as well (the console and the
//! journal speak it).
//!
//! Reading never guesses: a text names a move only when exactly one legal
//! move fits it.
//!
//! A bare square ("d5") names only a pawn's move to it that captures nothing. [`read_strictly`]
//! says what a reading needed beyond the exact notation ([`Liberty`]: a lower-case letter, a
//! missing or wrong capture, check or mate sign), [`refusal`] why a text names no move, in the
//! arbiter's words; [`scoresheet`] writes a record in any of the notations. This is the one move
//! reader: the table reads every entered, sealed, claimed or scoresheet move with it, and the
//! voices crate reads none.

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
#[derive(Clone, Debug, Default)]
struct Pattern {
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    promotion: Option<Role>,
    castle: Option<CastlingSide>,
}

/// The marks a text carries beside the move itself: what the strict reading
/// compares with the move it names.
#[derive(Clone, Copy, Debug, Default)]
struct Marks {
    /// Numeric (ICCF) or UCI: no capture or check signs belong to them.
    bare: bool,
    /// Castling (O-O, 0-0).
    castle: bool,
    /// A capture sign (x or :).
    capture: bool,
    /// The from-square and the to-square joined by "-" (long algebraic).
    dash: bool,
    /// A piece letter only English SAN or figurines use (Q R B N, ♘…): there a
    /// capture is always written.
    english_letter: bool,
    /// "+" (check) or "#"/"++" (mate) after the move.
    check: Option<Check>,
    /// A piece (or promotion) letter written in lower case ("nf3", "e8q").
    lower_case: bool,
    /// A pawn named by a letter ("Pe4").
    pawn_letter: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Check,
    Mate,
}

/// A text read: the patterns it may mean (its letters as written, and a
/// lower-case first letter taken as a piece), with their marks.
struct Parsed {
    readings: Vec<(Pattern, Marks)>,
}

fn parse(text: &str) -> Option<Parsed> {
    let mut t: String = text.trim().chars().filter(|c| !matches!(c, ' ')).collect();
    for mark in ["(=)", "e.p.", "ep"] {
        if let Some(stripped) = t.strip_suffix(mark) {
            t = stripped.to_owned();
        }
    }
    let t = t.trim_end_matches(['!', '?']);
    let body = t.trim_end_matches(['+', '#', '!', '?']);
    let signs = &t[body.len()..];
    let check = if signs.contains('#') || signs.contains("++") {
        Some(Check::Mate)
    } else if signs.contains('+') {
        Some(Check::Check)
    } else {
        None
    };
    let mut readings = Vec::with_capacity(2);
    if let Some((pattern, mut marks)) = parse_body(body) {
        marks.check = check;
        readings.push((pattern, marks));
    }
    // A piece letter typed in lower case ("nf3", "bc4"): read as the piece too,
    // never without saying so.
    let mut chars = body.chars();
    if let Some(first) = chars.next()
        && first.is_ascii_lowercase()
        && role_of_symbol(first.to_ascii_uppercase()).is_some_and(|r| r != Role::Pawn)
    {
        let upper: String = std::iter::once(first.to_ascii_uppercase()).chain(chars).collect();
        if let Some((pattern, mut marks)) = parse_body(&upper) {
            marks.check = check;
            marks.lower_case = true;
            readings.push((pattern, marks));
        }
    }
    (!readings.is_empty()).then_some(Parsed { readings })
}

fn parse_body(t: &str) -> Option<(Pattern, Marks)> {
    if t.is_empty() || t.chars().count() > 12 {
        return None;
    }
    let castle = match t {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if castle.is_some() {
        let marks = Marks { castle: true, ..Marks::default() };
        return Some((Pattern { castle, role: Some(Role::King), ..Pattern::default() }, marks));
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return parse_iccf(t).map(|p| (p, Marks { bare: true, ..Marks::default() }));
    }
    let mut marks =
        Marks { capture: t.contains(['x', ':']), dash: t.contains('-'), bare: is_uci(t), ..Marks::default() };
    let mut chars: Vec<char> = t.chars().filter(|c| !matches!(c, 'x' | ':' | '-' | '=')).collect();
    let mut p = Pattern::default();
    if let Some(&c) = chars.first()
        && !c.is_ascii_lowercase()
    {
        let role = role_of_symbol(c)?;
        marks.english_letter = matches!(c, 'Q' | 'R' | 'B' | 'N') || !c.is_ascii();
        marks.pawn_letter = role == Role::Pawn;
        p.role = Some(role);
        chars.remove(0);
    }
    // A trailing piece symbol (or UCI's lower-case letter) is the promotion piece.
    if let Some(&c) = chars.last()
        && !c.is_ascii_digit()
    {
        let role = role_of_symbol(c).or_else(|| Role::from_char(c).filter(|r| *r != Role::King))?;
        marks.lower_case |= c.is_ascii_lowercase() && !marks.bare;
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
    Some((p, marks))
}

/// UCI as the console and the journal write it: e2e4, e7e8q.
fn is_uci(t: &str) -> bool {
    let b = t.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4]))) && square(b[0], b[1]) && square(b[2], b[3])
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
        // A pawn's capture names the file it comes from in every notation: a
        // bare square ("d5") is a pawn's move to it, never a capture.
        let capture_ok = !(mv.role() == Role::Pawn && mv.is_capture() && self.from_file.is_none());
        to_ok
            && role_ok
            && capture_ok
            && self.from_file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
            && self.from_rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
            && self.promotion == mv.promotion()
    }
}

/// What a reading needed beyond the exact notation it is written in: the
/// console echoes such a move back, and it counts only once confirmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Liberty {
    /// A piece letter in lower case ("nf3" for Nf3).
    LowerCase,
    /// A capture written without its sign where the notation writes it
    /// (English SAN or figurines "Qd4" for Qxd4; long algebraic "Qd1-d4").
    CaptureUnmarked,
    /// A capture sign for a move that takes nothing ("Nxf3").
    CaptureMarked,
    /// A check without its sign ("Qe3" for Qe3+).
    CheckUnmarked,
    /// A check or mate sign for a move that gives no check (or no mate).
    CheckMarked,
    /// A mate without its sign ("Qh5+" for Qh5#).
    MateUnmarked,
    /// A pawn named by a letter ("Pe4").
    PawnLetter,
}

impl Liberty {
    /// The liberty in the arbiter's words.
    pub fn words(self) -> &'static str {
        match self {
            Liberty::LowerCase => "a piece letter in lower case",
            Liberty::CaptureUnmarked => "a capture written without x",
            Liberty::CaptureMarked => "an x for a move that captures nothing",
            Liberty::CheckUnmarked => "a check written without +",
            Liberty::CheckMarked => "a check sign for a move that gives none",
            Liberty::MateUnmarked => "a mate written without #",
            Liberty::PawnLetter => "a letter for a pawn",
        }
    }
}

/// A move read from a text, with what the reading needed beyond the exact
/// notation (empty when the text is the move as its notation writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The one legal move the text names.
    pub mv: Move,
    /// What the reading needed.
    pub needed: Vec<Liberty>,
}

impl Marks {
    /// What reading `mv` (legal in `pos`) from a text with these marks needed.
    fn needed(&self, pos: &Chess, mv: &Move) -> Vec<Liberty> {
        let mut needed = Vec::new();
        if self.lower_case {
            needed.push(Liberty::LowerCase);
        }
        if self.pawn_letter {
            needed.push(Liberty::PawnLetter);
        }
        if self.bare {
            return needed;
        }
        if !self.castle {
            if self.capture && !mv.is_capture() {
                needed.push(Liberty::CaptureMarked);
            }
            if !self.capture && mv.is_capture() && (self.dash || self.english_letter) {
                needed.push(Liberty::CaptureUnmarked);
            }
        }
        let mut after = pos.clone();
        after.play_unchecked(*mv);
        let gives = if after.is_checkmate() {
            Some(Check::Mate)
        } else if after.is_check() {
            Some(Check::Check)
        } else {
            None
        };
        match (gives, self.check) {
            (Some(Check::Mate), Some(Check::Mate))
            | (Some(Check::Check), Some(Check::Check))
            | (None, None) => {}
            (Some(Check::Mate), _) => needed.push(Liberty::MateUnmarked),
            (Some(Check::Check), None) => needed.push(Liberty::CheckUnmarked),
            (_, Some(_)) => needed.push(Liberty::CheckMarked),
        }
        needed
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
    read_strictly(pos, text).map(|r| r.mv)
}

/// [`read`], saying also what the reading needed beyond the exact notation
/// (a lower-case piece letter, a missing capture or check sign, …): the one
/// reader, strict about what it took.
pub fn read_strictly(pos: &Chess, text: &str) -> Result<Reading, ReadError> {
    let parsed = parse(text).ok_or(ReadError::Unreadable)?;
    let legal = pos.legal_moves();
    // The text as written first ("bc3" is the b-pawn's capture); a lower-case
    // letter taken as a piece only when that names nothing.
    for (pattern, marks) in &parsed.readings {
        let mut found: Option<Reading> = None;
        for mv in legal.iter().filter(|mv| pattern.fits(mv)) {
            if found.is_some() {
                return Err(ReadError::Ambiguous);
            }
            found = Some(Reading { mv: *mv, needed: marks.needed(pos, mv) });
        }
        if let Some(reading) = found {
            return Ok(reading);
        }
    }
    Err(ReadError::Illegal)
}

/// The move number of the side to move in `pos` as a scoresheet writes it:
/// "21." for White, "21..." for Black.
pub fn move_number(pos: &Chess) -> String {
    let n = pos.fullmoves().get();
    if pos.turn() == Color::White { format!("{n}.") } else { format!("{n}...") }
}

/// The move number of `ply` (1-based) in a game that began with White's
/// first move: "1." for ply 1, "1..." for ply 2.
pub fn ply_number(ply: usize) -> String {
    let n = ply.div_ceil(2).max(1);
    if ply.is_multiple_of(2) && ply > 0 { format!("{n}...") } else { format!("{n}.") }
}

fn piece_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// Why `text` names no move in `pos`, in the arbiter's words: "not a move",
/// "no pawn can go to d5", "the king cannot go there", "Nbd2 and Nfd2 both
/// fit: write which". Empty when the text does name one move.
pub fn refusal(pos: &Chess, text: &str) -> String {
    let Some(parsed) = parse(text) else {
        // A piece named, then no square it could go to ("Ke9").
        let first = text.trim().chars().next().filter(|c| !c.is_ascii_lowercase());
        return match first.and_then(role_of_symbol).filter(|r| *r != Role::Pawn) {
            Some(role) => one_or_many(pos, role, "there"),
            None => "not a move".to_owned(),
        };
    };
    let legal = pos.legal_moves();
    let fitting: Vec<Move> = parsed
        .readings
        .iter()
        .map(|(p, _)| legal.iter().filter(|mv| p.fits(mv)).copied().collect::<Vec<Move>>())
        .find(|moves| !moves.is_empty())
        .unwrap_or_default();
    match fitting.len() {
        1 => return String::new(),
        n if n > 1 => {
            let sans: Vec<String> =
                fitting.iter().map(|mv| SanPlus::from_move(pos.clone(), *mv).to_string()).collect();
            return format!("{} fit: write which", join_or(&sans, "and"));
        }
        _ => {}
    }
    let (pattern, _) = &parsed.readings[0];
    if let Some(side) = pattern.castle {
        let which = if side == CastlingSide::KingSide { "short" } else { "long" };
        return format!("castling {which} is not possible now");
    }
    let Some(to) = pattern.to else { return "not a move".to_owned() };
    let role = pattern.role.unwrap_or(Role::Pawn);
    if let (Some(f), Some(r)) = (pattern.from_file, pattern.from_rank) {
        let from = Square::from_coords(f, r);
        let own = pos.board().color_at(from) == Some(pos.turn());
        let named = pattern.role.is_none_or(|role| pos.board().role_at(from) == Some(role));
        if !own || !named {
            let piece =
                pattern.role.map_or("piece of the side to move".to_owned(), |r| piece_name(r).to_owned());
            return format!("there is no {piece} on {from}");
        }
    }
    let pawn_moves = |m: &&Move| m.role() == Role::Pawn && m.to() == to;
    if role == Role::Pawn {
        if pattern.promotion.is_none() && legal.iter().filter(pawn_moves).any(|m| m.promotion().is_some()) {
            return format!("a pawn reaching {to} is promoted: name the piece ({to}Q, {to}N, …)");
        }
        if pattern.from_file.is_none()
            && let Some(capture) = legal.iter().filter(pawn_moves).find(|m| m.is_capture())
        {
            let san = SanPlus::from_move(pos.clone(), *capture);
            return format!(
                "no pawn can go to {to} ({san} is a capture: it is written with the pawn's file)"
            );
        }
    }
    if let Some(promotion) = pattern.promotion
        && !legal.iter().any(|m| m.role() == role && m.to() == to && m.promotion() == Some(promotion))
        && role == Role::Pawn
    {
        return format!("no pawn can go to {to} and be promoted");
    }
    one_or_many(pos, role, &format!("to {to}"))
}

/// "the king cannot go to e3", "the queen cannot go to d5" (one of them),
/// "no knight can go to d5" (several), "White has no queen" (none).
fn one_or_many(pos: &Chess, role: Role, where_: &str) -> String {
    let name = piece_name(role);
    let count = (pos.board().by_role(role) & pos.board().by_color(pos.turn())).count();
    match count {
        0 => format!("{} has no {name}", if pos.turn() == Color::White { "White" } else { "Black" }),
        1 => format!("the {name} cannot go {where_}"),
        _ => format!("no {name} can go {where_}"),
    }
}

fn join_or(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
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
