//! Understanding on text, over every legal move of real positions.
//!
//! For at least 1,000 positions of real games and every legal move, the
//! phrasings are built here from the phrasebooks' public entries (not from
//! the grammar code under test) in German, Polish and English:
//!
//! * exact phrasings — the station's own announcement, the short form with
//!   and without the capture word, check words and pawn names, the long
//!   form with the full from-square (also with "from"/"to" words), castling
//!   words, every accepted alternative of every word — must give exactly
//!   that move;
//! * the elided pawn capture ("schlägt David fünf", no file letter) must give
//!   the move, or a question listing it among several moves that fit;
//! * near-misses — a capture or check word that is false, a target no piece
//!   of that kind reaches, a word from another language, a phrase cut short —
//!   must give a question or a rejection, never another move.

mod common;

use std::collections::HashSet;

use shakmaty::san::San;
use shakmaty::{Chess, File, Move, Position, Rank, Role, Square};
use station_voices::understand::{Understanding, Understood};
use station_voices::{Entry, Phrasebook, VoiceSettings, Wording};

const LANGUAGES: [&str; 3] = ["de", "pl", "en"];
const MIN_POSITIONS: usize = 1_000;
const MAX_POSITIONS: usize = 1_200;

/// Positions of real games: every other ply of a spread of games from every
/// shared file (and the vendored games), up to [`MAX_POSITIONS`].
fn positions() -> Vec<Chess> {
    common::real_positions(MAX_POSITIONS, 7, 2, 0)
}

/// The words of one language, through the public phrasebook API.
struct Words {
    book: &'static Phrasebook,
}

fn pick(entry: &Entry, k: usize) -> String {
    let forms: Vec<&str> = entry.accepted().collect();
    forms[k % forms.len()].to_owned()
}

fn alternatives(entry: &Entry) -> usize {
    entry.accepted().count()
}

impl Words {
    fn square(&self, square: Square, k: usize, letters: usize) -> [String; 2] {
        [self.letter(square.file(), k, letters), pick(self.book.rank(square.rank()), k)]
    }

    /// A file's word in a letter style: 0 the Annex D names, then the
    /// phrasebook's `[listening.letters]` styles.
    fn letter(&self, file: File, k: usize, letters: usize) -> String {
        match letters {
            0 => pick(self.book.letter(file), k),
            n => pick(&self.book.listening().letter_styles[n - 1].letters[file.to_usize()], k),
        }
    }

    /// The promoted piece as said: its name, or after a promotion word
    /// ("promote to queen", "na hetmana"), cycling with `k`.
    fn promoted(&self, role: Role, k: usize, promotion_word: bool) -> String {
        let listening = self.book.listening();
        let piece = listening
            .promotion_pieces
            .iter()
            .find(|(r, _)| *r == role && k % 2 == 1)
            .map_or_else(|| pick(self.book.piece(role), k), |(_, e)| pick(e, k));
        match (promotion_word, listening.promotion.len()) {
            (true, n) if n > 0 => format!("{} {piece}", listening.promotion[k % n]),
            _ => piece,
        }
    }
}

/// Text as Vosk writes it (what the grammar holds).
fn vosk_form(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || c == '\'' {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim_end().to_owned()
}

/// How a normal move is phrased.
#[derive(Clone, Copy)]
struct Style {
    /// Say the whole from-square instead of the notation's disambiguation.
    long: bool,
    /// Leave out the disambiguation entirely (elided pawn capture).
    no_from: bool,
    /// Say "from" and "to" around the squares.
    from_to: bool,
    name_pawn: bool,
    capture_word: bool,
    suffix_word: bool,
    en_passant_word: bool,
    /// Which alternative of every word (modulo its count).
    k: usize,
    /// Which letter style (0: Annex D names).
    letters: usize,
    /// A from-to without the piece ("g one f three").
    unnamed: bool,
    /// The promotion piece after a promotion word ("promote to queen").
    promotion_word: bool,
    /// A filler word first and after the piece ("äh").
    fillers: bool,
}

const SHORT: Style = Style {
    long: false,
    no_from: false,
    from_to: false,
    name_pawn: false,
    capture_word: true,
    suffix_word: true,
    en_passant_word: true,
    k: 0,
    letters: 0,
    unnamed: false,
    promotion_word: false,
    fillers: false,
};

struct After {
    check: bool,
    mate: bool,
}

fn after(pos: &Chess, mv: Move) -> After {
    let mut next = pos.clone();
    next.play_unchecked(mv);
    let check = next.is_check();
    After { check, mate: check && next.legal_moves().is_empty() }
}

fn phrase(w: &Words, pos: &Chess, mv: Move, style: Style) -> Vec<String> {
    let words = w.book.words();
    let k = style.k;
    let state = after(pos, mv);
    let mut out = Vec::new();
    let filler = w.book.listening().fillers.get(k % w.book.listening().fillers.len().max(1)).cloned();
    if style.fillers
        && let Some(f) = &filler
    {
        out.push(f.clone());
    }
    if let Some(side) = mv.castling_side() {
        out.push(pick(if side.is_king_side() { &words.short_castling } else { &words.long_castling }, k));
    } else {
        let role = mv.role();
        if (role != Role::Pawn || style.name_pawn) && !style.unnamed {
            out.push(pick(w.book.piece(role), k));
            if style.fillers
                && let Some(f) = &filler
            {
                out.push(f.clone());
            }
        }
        let from = mv.from().expect("standard chess moves have a from-square");
        let (file, rank) = match San::from_move(pos, mv) {
            _ if style.no_from => (None, None),
            _ if style.long || style.unnamed => (Some(from.file()), Some(from.rank())),
            San::Normal { file, rank, .. } => (file, rank),
            _ => (None, None),
        };
        if style.from_to && file.is_some() {
            out.push(pick(&words.from, k));
        }
        if let Some(file) = file {
            out.push(w.letter(file, k, style.letters));
        }
        if let Some(rank) = rank {
            out.push(pick(w.book.rank(rank), k));
        }
        if style.capture_word && mv.is_capture() {
            out.push(pick(&words.capture, k));
        }
        if style.from_to {
            out.push(pick(&words.to, k));
        }
        out.extend(w.square(mv.to(), k, style.letters));
        if let Some(promoted) = mv.promotion() {
            out.push(w.promoted(promoted, k, style.promotion_word));
        }
        if style.en_passant_word && mv.is_en_passant() {
            out.push(pick(&words.en_passant, k));
        }
    }
    if style.suffix_word {
        if state.mate {
            out.push(pick(&words.mate, k));
        } else if state.check {
            out.push(pick(&words.check, k));
        }
    }
    out
}

/// Most alternatives any word of this move has.
fn max_alternatives(w: &Words, mv: Move) -> usize {
    let words = w.book.words();
    let mut n = [&words.capture, &words.check, &words.mate, &words.short_castling, &words.long_castling]
        .iter()
        .map(|e| alternatives(e))
        .max()
        .unwrap_or(1);
    n = n.max(alternatives(w.book.piece(mv.role())));
    for square in [mv.from(), Some(mv.to())].into_iter().flatten() {
        n = n.max(alternatives(w.book.letter(square.file()))).max(alternatives(w.book.rank(square.rank())));
    }
    if let Some(promoted) = mv.promotion() {
        n = n.max(alternatives(w.book.piece(promoted)));
    }
    n
}

#[derive(Default)]
struct Tally {
    positions: usize,
    moves: usize,
    exact: usize,
    elided_move: usize,
    elided_ask: usize,
    near_misses: usize,
    near_ask: usize,
    near_reject: usize,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, lang: &str, pos: &Chess, text: &str, what: String) {
        if self.failures.len() < 40 {
            let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
            self.failures.push(format!("[{lang}] {fen} {text:?}: {what}"));
        }
    }

    fn near(&mut self, heard: &Understood) {
        self.near_misses += 1;
        match heard {
            Understood::Ask { .. } => self.near_ask += 1,
            Understood::Reject(_) => self.near_reject += 1,
            _ => {}
        }
    }
}

fn check_exact(u: &Understanding, pos: &Chess, mv: Move, text: &str, lang: &str, tally: &mut Tally) {
    tally.exact += 1;
    match u.understand(pos, text, None) {
        Understood::Move { mv: heard, .. } if heard == mv => {}
        other => tally.fail(lang, pos, text, format!("expected {mv}, got {}", other.line())),
    }
}

/// A target square the named piece cannot reach (and that holds none of the
/// mover's pieces), if any.
fn unreachable_target(pos: &Chess, role: Role) -> Option<Square> {
    // A castling king reaches its castling square too ("König Gustav eins"
    // is asked back as castling).
    let reachable: HashSet<Square> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.role() == role)
        .map(|m| m.castling_side().map_or(m.to(), |side| side.king_to(pos.turn())))
        .collect();
    Square::ALL.into_iter().find(|s| !reachable.contains(s) && pos.board().color_at(*s) != Some(pos.turn()))
}

fn check_language(lang: &str, foreign: &[&'static Phrasebook], positions: &[Chess], tally: &mut Tally) {
    let u = Understanding::language(lang).unwrap();
    let wording = Wording::new(&VoiceSettings::language(lang)).unwrap();
    let w = Words { book: Phrasebook::builtin(lang).unwrap() };
    // Foreign piece names this language does not know (for near-misses).
    let own: HashSet<String> = Role::ALL
        .iter()
        .flat_map(|r| w.book.piece(*r).accepted().map(str::to_lowercase).collect::<Vec<_>>())
        .collect();
    for pos in positions {
        let grammar: HashSet<String> = u.grammar(pos).into_phrases().into_iter().collect();
        for (i, mv) in pos.legal_moves().into_iter().enumerate() {
            tally.moves += 1;
            // The station's own words come back as the move.
            let said = wording.word_move(pos, &mv).unwrap().to_string();
            check_exact(&u, pos, mv, &said, lang, tally);
            if !grammar.contains(&said.to_lowercase()) {
                tally.fail(lang, pos, &said, "announcement missing from the grammar".to_owned());
            }
            let mut styles = Vec::new();
            styles.push(Style { long: true, name_pawn: true, suffix_word: false, ..SHORT });
            for k in 0..max_alternatives(&w, mv) {
                styles.push(Style { k, long: k % 2 == 1, name_pawn: k % 2 == 1, ..SHORT });
            }
            styles.push(Style { capture_word: false, en_passant_word: false, ..SHORT });
            styles.push(Style { name_pawn: true, suffix_word: false, ..SHORT });
            styles.push(Style { long: true, from_to: true, ..SHORT });
            // Issue 14: plain letters, NATO and spelling alphabets, from-to
            // without a piece, promotion words, fillers.
            for letters in 0..=w.book.listening().letter_styles.len() {
                styles.push(Style { letters, ..SHORT });
                styles.push(Style { letters, unnamed: true, capture_word: false, ..SHORT });
                styles.push(Style { letters, long: true, k: letters, promotion_word: true, ..SHORT });
            }
            styles.push(Style { fillers: true, k: i, ..SHORT });
            if mv.is_promotion() {
                // Every promotion word, with the piece's name and its other forms.
                for k in 0..2 * w.book.listening().promotion.len() {
                    styles.push(Style { k, promotion_word: true, ..SHORT });
                }
            }
            for style in styles {
                let text = phrase(&w, pos, mv, style).join(" ");
                check_exact(&u, pos, mv, &text, lang, tally);
                // The grammar holds every form with the Annex D names, and the
                // first form of each other word with the other letter styles.
                let in_grammar = !style.from_to && !style.fillers && (style.letters == 0 || style.k == 0);
                if in_grammar && !grammar.contains(&vosk_form(&text)) {
                    tally.fail(lang, pos, &text, "phrasing missing from the grammar".to_owned());
                }
            }
            if mv.role() == Role::Pawn && mv.is_capture() {
                let text = phrase(&w, pos, mv, Style { no_from: true, ..SHORT }).join(" ");
                match u.understand(pos, &text, None) {
                    Understood::Move { mv: heard, .. } if heard == mv => tally.elided_move += 1,
                    Understood::Ask { candidates, .. }
                        if candidates.len() > 1 && candidates.contains(&mv) =>
                    {
                        tally.elided_ask += 1;
                    }
                    other => tally.fail(lang, pos, &text, format!("elided {mv}: got {}", other.line())),
                }
            }
            // Near-misses for a third of the moves keep a debug run short.
            if i % 3 == 0 {
                near_misses(&u, &w, pos, mv, foreign, &own, lang, tally);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn near_misses(
    u: &Understanding,
    w: &Words,
    pos: &Chess,
    mv: Move,
    foreign: &[&'static Phrasebook],
    own: &HashSet<String>,
    lang: &str,
    tally: &mut Tally,
) {
    let words = w.book.words();
    let base = phrase(w, pos, mv, Style { suffix_word: false, ..SHORT });
    let state = after(pos, mv);
    // A false capture word or a false check word: ask, listing the move.
    let mut claims = Vec::new();
    if !mv.is_capture() && !mv.is_castle() {
        let mut text = phrase(w, pos, mv, Style { suffix_word: false, ..SHORT });
        let at = text.len() - 2 - usize::from(mv.is_promotion());
        text.insert(at, pick(&words.capture, 0));
        claims.push(text);
    }
    if !state.check {
        let mut text = base.clone();
        text.push(pick(&words.check, 0));
        claims.push(text);
    }
    for text in claims {
        let text = text.join(" ");
        let heard = u.understand(pos, &text, None);
        match &heard {
            Understood::Ask { candidates, .. } if candidates.contains(&mv) => {}
            other => tally.fail(lang, pos, &text, format!("false claim about {mv}: got {}", other.line())),
        }
        tally.near(&heard);
    }
    // The named piece to a square it cannot reach: reject.
    if !mv.is_castle()
        && let Some(target) = unreachable_target(pos, mv.role())
    {
        let mut text = vec![pick(w.book.piece(mv.role()), 0)];
        text.extend(w.square(target, 0, 0));
        let text = text.join(" ");
        let heard = u.understand(pos, &text, None);
        // Rejected, or asked back after a repair of known mishearings: never made.
        if matches!(heard, Understood::Move { .. } | Understood::Command(_)) {
            tally.fail(lang, pos, &text, format!("unreachable target: got {}", heard.line()));
        }
        tally.near(&heard);
    }
    // A piece name from another language: never made (compared by sound,
    // it may be asked back as the nearest moves).
    if !mv.is_castle() && mv.role() != Role::Pawn {
        for book in foreign {
            let name = book.piece(mv.role()).say().to_owned();
            if own.contains(&name.to_lowercase()) {
                continue;
            }
            let mut text = base.clone();
            text[0] = name;
            let text = text.join(" ");
            let heard = u.understand(pos, &text, None);
            if !matches!(heard, Understood::Reject(_) | Understood::Ask { .. }) {
                tally.fail(lang, pos, &text, format!("foreign word: got {}", heard.line()));
            }
            tally.near(&heard);
        }
    }
    // Cut short: never another move.
    if base.len() > 1 {
        let text = base[..base.len() - 1].join(" ");
        let heard = u.understand(pos, &text, None);
        if let Understood::Move { mv: other, .. } = heard
            && other != mv
        {
            tally.fail(lang, pos, &text, format!("cut short: {mv} became {other}"));
        }
        tally.near(&heard);
    }
}

#[test]
fn every_phrasing_of_every_legal_move_of_real_positions_comes_back() {
    let positions = positions();
    assert!(
        positions.len() >= MIN_POSITIONS,
        "only {} positions: is {} there?",
        positions.len(),
        common::shared_games_dir().display()
    );
    let mut tally = Tally { positions: positions.len(), ..Tally::default() };
    for lang in LANGUAGES {
        let foreign: Vec<&'static Phrasebook> =
            LANGUAGES.iter().filter(|c| **c != lang).map(|c| Phrasebook::builtin(c).unwrap()).collect();
        check_language(lang, &foreign, &positions, &mut tally);
    }
    eprintln!(
        "understand: {} positions, {} legal moves in 3 languages, {} exact phrasings, elided pawn captures {} move / {} ask, near-misses {} ({} ask, {} reject), {} failures",
        tally.positions,
        tally.moves,
        tally.exact,
        tally.elided_move,
        tally.elided_ask,
        tally.near_misses,
        tally.near_ask,
        tally.near_reject,
        tally.failures.len()
    );
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}

#[test]
fn garbage_is_rejected_and_other_languages_never_made() {
    let pos = Chess::default();
    for (lang, text) in [
        ("de", "skoczek Feliks trzy"),
        ("en", "Springer Felix drei"),
        ("pl", "Knight Felix three"),
        ("en", "takes takes"),
        ("de", "eins zwei drei vier fünf"),
        ("pl", "hetman hetman"),
        ("en", "banana"),
    ] {
        let u = Understanding::language(lang).unwrap();
        let heard = u.understand(&pos, text, None);
        assert!(matches!(heard, Understood::Reject(_)), "[{lang}] {text:?}: {}", heard.line());
    }
    // Words that sound like a move in part: asked back, never made.
    for (lang, text) in [("de", "Knight Felix drei"), ("en", "Felix Felix Felix")] {
        let u = Understanding::language(lang).unwrap();
        let heard = u.understand(&pos, text, None);
        assert!(matches!(heard, Understood::Ask { .. }), "[{lang}] {text:?}: {}", heard.line());
    }
    let _ = (File::A, Rank::First);
}
