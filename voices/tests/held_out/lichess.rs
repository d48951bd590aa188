//! lichess's matching rule, re-implemented for the outside figure of issue 33
//! (lila `ui/voice`, read for its behaviour; none of its code is here).
//!
//! A phrase is written as tokens (one per word; a word lichess does not know is
//! dropped). Every legal move has the token strings lichess builds for it
//! (the UCI squares, piece and square, capture forms, pawn forms, promotion,
//! castling words) and every square, piece and captured piece a move of its
//! own. A heard token may be replaced by up to two tokens, or dropped, at the
//! cost the learned table gives (a drop costs 0.5, an ignored word 0); a move
//! matches below a total of 1. The matches are sorted by cost, the same move
//! (its squares) kept once, the first eight shown as arrows; the first is
//! *preferred* (said back with "confirm?" in blindfold mode) when it is cheaper
//! than the second, or alone.

use std::collections::HashMap;

use shakmaty::{Chess, Move, Position, Role, Square};

/// What lichess offers for a phrase: the moves shown, cheapest first, and
/// whether the first is preferred.
pub struct Offer {
    pub shown: Vec<String>,
    pub preferred: bool,
}

/// lichess's English lexicon: word → token, token → value, token → substitutions.
pub struct Lichess {
    tok_of_word: HashMap<&'static str, char>,
    val_of_tok: HashMap<char, &'static str>,
    toks_of_val: HashMap<&'static str, Vec<String>>,
    subs: HashMap<char, Vec<(String, f32)>>,
}

/// lichess's English words as (word, token, value): the move words first.
const WORDS: [(&str, char, &str); 52] = [
    ("a", 'a', "a"),
    ("b", 'b', "b"),
    ("c", 'c', "c"),
    ("d", 'd', "d"),
    ("e", 'e', "e"),
    ("f", 'f', "f"),
    ("g", 'g', "g"),
    ("h", 'h', "h"),
    ("one", '1', "1"),
    ("two", '2', "2"),
    ("three", '3', "3"),
    ("four", '4', "4"),
    ("five", '5', "5"),
    ("six", '6', "6"),
    ("seven", '7', "7"),
    ("eight", '8', "8"),
    ("pawn", 'P', "P"),
    ("knight", 'N', "N"),
    ("bishop", 'B', "B"),
    ("rook", 'R', "R"),
    ("queen", 'Q', "Q"),
    ("king", 'K', "K"),
    ("castle", '!', "castle"),
    ("take", '#', "x"),
    ("takes", '$', "x"),
    ("capture", '%', "x"),
    ("captures", '&', "x"),
    ("promote", '(', "="),
    ("promotes", ')', "="),
    ("promotion", '*', "="),
    ("short", 'w', "short"),
    ("side", 'x', "side"),
    ("long", 'y', "long"),
    ("yes", 'A', "yes"),
    ("no", 'D', "no"),
    ("alfa", 'W', "a"),
    // Colour words, the NATO letters and the words lichess ignores (cost 0 to drop).
    ("blue", 'I', "blue"),
    ("green", 'J', "green"),
    ("yellow", 'L', "yellow"),
    ("red", 'M', "red"),
    ("pink", 'O', "pink"),
    ("purple", 'S', "purple"),
    ("orange", 'T', "orange"),
    ("brown", 'U', "brown"),
    ("white", 'V', "white"),
    ("bravo", 'X', "b"),
    ("charlie", 'Y', "c"),
    ("delta", 'Z', "d"),
    ("echo", '[', "e"),
    ("foxtrot", '\\', "f"),
    ("golf", ']', "g"),
    ("hotel", '^', "h"),
];

const IGNORED: [(&str, char); 16] = [
    ("mate", '_'),
    ("check", '`'),
    ("puzzle", 'i'),
    ("lee", 'j'),
    ("chess", 'k'),
    ("and", 'l'),
    ("oh", 'm'),
    ("um", 'n'),
    ("uh", 'o'),
    ("hmm", 'p'),
    ("huh", 'q'),
    ("his", 'r'),
    ("her", 's'),
    ("the", 't'),
    ("their", 'u'),
    ("training", 'v'),
];

/// The lexicon's multi-word castling phrases (short castle; king side castle;
/// castle king side; long castle; castle queen side; queen side castle) as
/// their words' tokens → value.
const CASTLING: [(&str, &str); 6] =
    [("w!", "O-O"), ("Kx!", "O-O"), ("!Kx", "O-O"), ("y!", "O-O-O"), ("!Qx", "O-O-O"), ("Qx!", "O-O-O")];

impl Lichess {
    /// The lexicon with the learned substitutions of `table` (heard word,
    /// meant tokens, cost per line, as `learned-subs-en.tsv`).
    pub fn new(table: &str) -> Lichess {
        let mut l = Lichess {
            tok_of_word: HashMap::new(),
            val_of_tok: HashMap::new(),
            toks_of_val: HashMap::new(),
            subs: HashMap::new(),
        };
        for (word, tok, val) in WORDS.iter() {
            l.tok_of_word.insert(word, *tok);
            l.val_of_tok.insert(*tok, val);
            l.toks_of_val.entry(val).or_default().push(tok.to_string());
            let drop = if *word == "yes" { 0.430_172_4 } else { 0.5 };
            l.subs.entry(*tok).or_default().push((String::new(), drop));
        }
        for (toks, val) in CASTLING {
            l.toks_of_val.entry(val).or_default().push(toks.to_owned());
        }
        for (word, tok) in IGNORED {
            l.tok_of_word.insert(word, tok);
            l.val_of_tok.insert(tok, "");
            l.subs.entry(tok).or_default().push((String::new(), 0.0));
        }
        // lila's own patch for "the" (its ignore word heard for letters).
        for (to, cost) in [("d", 0.3), ("b", 0.6), ("e", 0.6)] {
            l.subs.entry('t').or_default().push((to.to_owned(), cost));
        }
        for line in table.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let mut cols = line.split('\t');
            let (Some(heard), Some(meant), Some(cost)) = (cols.next(), cols.next(), cols.next()) else {
                panic!("bad line {line:?}");
            };
            let tok = l.tok_of_word[heard];
            let cost: f32 = cost.parse().unwrap();
            let subs = l.subs.entry(tok).or_default();
            match subs.iter_mut().find(|(to, _)| to == meant) {
                Some(known) => known.1 = known.1.min(cost),
                None => subs.push((meant.to_owned(), cost)),
            }
        }
        l
    }

    fn tokens(&self, phrase: &str) -> Vec<char> {
        phrase.split(' ').filter_map(|w| self.tok_of_word.get(w).copied()).collect()
    }

    /// Every token string of a comma-joined value list.
    fn toks_of_vals(&self, vals: &[&str]) -> Vec<Vec<char>> {
        let mut out = vec![Vec::new()];
        for val in vals {
            let Some(toks) = self.toks_of_val.get(val) else { return Vec::new() };
            out = out
                .iter()
                .flat_map(|prefix| {
                    toks.iter().map(move |t| {
                        let mut next = prefix.clone();
                        next.extend(t.chars());
                        next
                    })
                })
                .collect();
        }
        out
    }

    fn sub_cost(&self, from: char, to: &[char]) -> f32 {
        let to: String = to.iter().collect();
        self.subs
            .get(&from)
            .and_then(|subs| subs.iter().find(|(t, _)| *t == to))
            .map_or(f32::INFINITY, |s| s.1)
    }

    /// The cheapest way to turn heard tokens into exact ones: each heard
    /// token kept where it equals the exact one, or replaced by up to two
    /// exact tokens (or none) at its substitution cost.
    fn cost(&self, h: &[char], x: &[char]) -> f32 {
        if h == x {
            return 0.0;
        }
        let (n, m) = (h.len(), x.len());
        let mut best = vec![f32::INFINITY; (n + 1) * (m + 1)];
        let at = |i: usize, j: usize| i * (m + 1) + j;
        best[at(n, m)] = 0.0;
        for i in (0..n).rev() {
            for j in 0..=m {
                let mut b = f32::INFINITY;
                let same = j < m && h[i] == x[j];
                if same {
                    b = b.min(best[at(i + 1, j + 1)]);
                }
                let min_len = usize::from(same);
                for len in (min_len..=2.min(m - j)).rev() {
                    let slice = &x[j..j + len];
                    if len > 0 && h.len() >= i + len && h[i..i + len] == *slice {
                        continue;
                    }
                    let c = self.sub_cost(h[i], slice);
                    if c.is_finite() {
                        b = b.min(c + best[at(i + 1, j + len)]);
                    }
                }
                best[at(i, j)] = b;
            }
        }
        best[at(0, 0)]
    }

    /// What lichess offers for `heard` in `pos` (moves in lichess's UCI: a
    /// castling king goes to his rook's square).
    pub fn offer(&self, pos: &Chess, heard: &str) -> Offer {
        let h = self.tokens(heard);
        // (values, outputs, is SAN) in lichess's insertion order.
        let mut forms: Vec<(Vec<String>, Vec<String>, bool)> = Vec::new();
        let mut add =
            |vals: Vec<String>, out: String, san: bool| match forms.iter_mut().find(|(v, _, _)| *v == vals) {
                Some((_, outs, s)) => {
                    if !outs.contains(&out) {
                        outs.push(out);
                    }
                    *s |= san;
                }
                None => forms.push((vals, vec![out], san)),
            };
        let board = pos.board();
        let mut squares: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        let mut add_square =
            |vals: Vec<String>, out: String| match squares.iter_mut().find(|(v, _)| *v == vals) {
                Some((_, outs)) => {
                    if !outs.contains(&out) {
                        outs.push(out);
                    }
                }
                None => squares.push((vals, vec![out])),
            };
        let chars = |s: &str| s.chars().map(|c| c.to_string()).collect::<Vec<_>>();
        for mv in pos.legal_moves() {
            let uci = lichess_uci(&mv);
            let (from, to) = (mv.from().unwrap(), lichess_to(&mv));
            let src = from.to_string();
            let dest = to.to_string();
            let role = letter(mv.role());
            let mut set: Vec<(Vec<String>, bool)> = Vec::new();
            if mv.is_castle() {
                let side = if mv.castling_side().is_some_and(|s| s.is_king_side()) { "O-O" } else { "O-O-O" };
                add(vec!["castle".into()], uci.clone(), false);
                add(vec![side.into()], uci.clone(), false);
            }
            set.push((chars(&uci[..4]), true));
            let captured = if mv.is_en_passant() { None } else { mv.capture() };
            if let Some(c) = captured {
                let d = letter(c);
                set.push((vec![role.into(), d.into()], false));
                set.push((vec![role.into(), "x".into(), d.into()], false));
                add(vec![role.into(), "x".into()], uci.clone(), false);
                set.push((vec!["x".into(), d.into()], false));
                set.push((vec![src[..1].into(), "x".into()], false));
                set.push((vec![src[..1].into(), "x".into(), d.into()], false));
                set.push((vec!["x".into()], false));
            }
            if mv.role() == Role::Pawn {
                set.push((chars(&dest), true));
                if from.file() == to.file() {
                    set.push((["P"].iter().map(|s| (*s).into()).chain(chars(&dest)).collect(), false));
                } else if captured.is_some() {
                    set.push((
                        chars(&src).into_iter().chain(["x".into()]).chain(chars(&dest)).collect(),
                        false,
                    ));
                    set.push((["P", "x"].iter().map(|s| (*s).into()).chain(chars(&dest)).collect(), false));
                    set.push((
                        [src[..1].to_owned(), "x".into()].into_iter().chain(chars(&dest)).collect(),
                        true,
                    ));
                }
                if let Some(promo) = mv.promotion() {
                    let p = letter(promo).to_owned();
                    for (vals, _) in &set {
                        add(
                            vals.iter().cloned().chain(["=".into(), p.clone()]).collect(),
                            uci.clone(),
                            false,
                        );
                        add(vals.iter().cloned().chain([p.clone()]).collect(), uci.clone(), false);
                    }
                }
            } else if !mv.is_castle() {
                let (file, rank) = disambiguation(pos, &mv);
                for piece in [format!("{role}{file}{rank}"), role.to_owned()] {
                    if captured.is_some() {
                        set.push((
                            chars(&piece).into_iter().chain(["x".into()]).chain(chars(&dest)).collect(),
                            true,
                        ));
                    }
                    set.push((chars(&piece).into_iter().chain(chars(&dest)).collect(), true));
                }
            }
            let bare = if mv.promotion().is_some() { uci[..4].to_owned() } else { uci.clone() };
            for (vals, san) in set {
                add(vals, bare.clone(), san);
            }
            add_square(chars(&src), src.clone());
            add_square(chars(&dest), uci.clone());
            add_square(vec![role.into()], uci.clone());
            add_square(vec![role.into()], src.clone());
            if let Some(c) = captured {
                add_square(vec![letter(c).into()], uci.clone());
            }
        }
        // A piece word alone: its moves when few, else its squares.
        for (vals, outs) in &mut squares {
            if vals.len() != 1 || !"PNBRQK".contains(vals[0].as_str()) {
                continue;
            }
            let moves = outs.iter().filter(|o| o.len() > 2).count();
            if moves > 8 {
                outs.retain(|o| o.len() <= 2);
            } else if moves > 0 {
                outs.retain(|o| o.len() > 2);
            }
        }
        let _ = board;
        let mut matches: Vec<(String, f32, bool)> = Vec::new();
        let all = forms.iter().map(|(v, o, s)| (v, o, *s)).chain(squares.iter().map(|(v, o)| (v, o, false)));
        for (vals, outs, san) in all {
            let vals: Vec<&str> = vals.iter().map(String::as_str).collect();
            for x in self.toks_of_vals(&vals) {
                let cost = self.cost(&h, &x);
                if cost > 0.99 {
                    continue;
                }
                for out in outs {
                    match matches.iter_mut().find(|(o, _, _)| o == out) {
                        Some(m) if m.1 > cost => {
                            m.1 = cost;
                            m.2 = san;
                        }
                        Some(_) => {}
                        None => matches.push((out.clone(), cost, san)),
                    }
                }
            }
        }
        matches.sort_by(|a, b| a.1.total_cmp(&b.1));
        let mut options: Vec<(String, f32, bool)> = Vec::new();
        for m in matches {
            if !options.iter().any(|o| o.0.get(..4) == m.0.get(..4) && o.0.len() > 2 && m.0.len() > 2) {
                options.push(m);
            }
        }
        options.truncate(8);
        if let Some(low) = options.first().map(|o| o.1) {
            let same: Vec<usize> = (0..options.len()).filter(|i| options[*i].1 == low).collect();
            let sans: Vec<usize> = same.iter().copied().filter(|i| options[*i].2).collect();
            if sans.len() == 1 && same.len() > 1 {
                options.swap(0, sans[0]);
                options[0].1 -= 0.01;
            }
            options.retain(|o| o.1 - low <= 1.0);
        }
        let preferred = options.len() == 1 || (options.len() > 1 && options[0].1 < options[1].1);
        Offer { shown: options.into_iter().map(|o| o.0).collect(), preferred }
    }
}

fn letter(role: Role) -> &'static str {
    match role {
        Role::Pawn => "P",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

/// A castling king goes to his rook's square in lichess's moves.
fn lichess_to(mv: &Move) -> Square {
    match mv {
        Move::Castle { rook, .. } => *rook,
        _ => mv.to(),
    }
}

/// A move as lichess writes it (castling: king to rook; promotion with an
/// upper-case piece letter).
pub fn lichess_uci(mv: &Move) -> String {
    let mut out = format!("{}{}", mv.from().unwrap(), lichess_to(mv));
    if let Some(p) = mv.promotion() {
        out.push_str(letter(p));
    }
    out
}

/// lichess's disambiguation: the from-file when another piece of the kind
/// reaches the target (a slider up to the first piece in the way, pins
/// ignored), the from-rank when that piece stands on the same file.
fn disambiguation(pos: &Chess, mv: &Move) -> (String, String) {
    let (Some(from), to) = (mv.from(), mv.to()) else { return (String::new(), String::new()) };
    let board = pos.board();
    let Some(piece) = board.piece_at(from) else { return (String::new(), String::new()) };
    let reach = shakmaty::attacks::attacks(to, piece, board.occupied());
    let others = board.by_piece(piece) & reach;
    let (mut file, mut rank) = (String::new(), String::new());
    for other in others {
        if other == from {
            continue;
        }
        if other.rank() == from.rank() {
            file = from.file().char().to_string();
        }
        if other.file() == from.file() {
            rank = from.rank().char().to_string();
        } else {
            file = from.file().char().to_string();
        }
    }
    (file, rank)
}
