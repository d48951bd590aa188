//! How near heard words come to each legal move (issue 33): the repair by
//! sound.
//!
//! Every legal move is a pattern of slots, the words its phrases are made
//! of (a piece, the from-square, the capture word, the target's letter and
//! rank, the promotion piece, check …), each either needed or optional. The
//! heard words are aligned with the pattern at the least cost: a heard span
//! of one to four words for a slot costs how far its sounds are from the
//! nearest form of the slot's word ([`super::sounds::distance`], every
//! accepted form, every letter style); a needed slot nobody said costs its
//! weight (a lost piece name less than a lost square); a heard word left over
//! costs as much as a wrong word; a filler nothing; `[unk]` stands for one to
//! three slots at a small price and contradicts none. A phrase that names
//! the move word for word costs 0.
//!
//! A move that at least half of the heard words (and at least one) do not sound like is out.

use std::collections::HashMap;

use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role};

use super::grammar::{forms_of, promoted_forms};
use super::lexicon::Lexicon;
use super::pronounce::Pronunciations;
use super::sounds::{self, Phone};
use crate::phrasebook::{Phrasebook, role_index};

/// A heard word left over, matching nothing.
const EXTRA_WORD: f32 = 0.6;
/// `[unk]` left over.
const UNK_EXTRA: f32 = 0.15;
/// Each needed word `[unk]` stands for.
const UNK_SLOT: f32 = 0.45;
/// A needed piece name not heard (the word small models lose first).
const PIECE_LOST: f32 = 0.5;
/// A needed letter, rank or castling word not heard.
const SQUARE_LOST: f32 = 1.0;
/// A promotion piece not heard.
const PROMOTION_LOST: f32 = 0.6;
/// The longest heard span one slot takes ("castles king side").
const MAX_SPAN: usize = 4;
/// A heard word this near a word of a move holds the phrase to that move.
const ANCHOR: f32 = 0.25;
/// Moves this much farther than the nearest are not worked out exactly.
pub(crate) const FAR: f32 = 2.0;
/// A heard word this near a letter or a rank may be the two run together.
const MERGE_NEAR: f32 = 0.35;
/// Each word more or fewer heard than the form has (a word split in two or
/// two run together): about what a word left over costs.
const WORD_SPLIT: f32 = 0.35;

/// The word a slot wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Want {
    Piece(Role),
    Promoted(Role),
    File(File),
    Rank(Rank),
    Capture,
    /// Check, mate or stalemate.
    Suffix,
    EnPassant,
    Castle(CastlingSide),
    From,
    To,
}

const WANTS: usize = 6 + 6 + 8 + 8 + 7;

impl Want {
    fn index(self) -> usize {
        match self {
            Want::Piece(r) => role_index(r),
            Want::Promoted(r) => 6 + role_index(r),
            Want::File(f) => 12 + f.to_usize(),
            Want::Rank(r) => 20 + r.to_usize(),
            Want::Capture => 28,
            Want::Suffix => 29,
            Want::EnPassant => 30,
            Want::Castle(CastlingSide::KingSide) => 31,
            Want::Castle(CastlingSide::QueenSide) => 32,
            Want::From => 33,
            Want::To => 34,
        }
    }
}

/// One slot of a move's pattern: the word, and what its absence costs (0:
/// optional).
#[derive(Debug, Clone, Copy)]
struct Slot {
    want: Want,
    lost: f32,
}

/// The sounds of every accepted form of every word a move is said with.
#[derive(Debug, Clone)]
pub(crate) struct SoundForms {
    /// By wanted word: each form's sounds and its number of words.
    forms: Vec<Vec<(Vec<Phone>, usize)>>,
    /// By wanted word: the longest heard span worth comparing with it (one
    /// word more than its longest form).
    spans: Vec<usize>,
    /// By wanted word: its forms of more than one word, word by word (for a
    /// span with a word unheard in it: "kurze [unk]").
    parts: Vec<Vec<Vec<Vec<Phone>>>>,
    /// The forms as written, by wanted word (for `[[repair]]` rows).
    texts: Vec<Vec<String>>,
}

impl SoundForms {
    pub(crate) fn new(
        sentence: &Phrasebook,
        letters: &Phrasebook,
        ranks: &Phrasebook,
        sounds: &Pronunciations,
    ) -> SoundForms {
        let mut forms: Vec<Vec<String>> = vec![Vec::new(); WANTS];
        for role in Role::ALL {
            forms[Want::Piece(role).index()] = forms_of(sentence.piece(role));
            forms[Want::Promoted(role).index()] = promoted_forms(sentence, role);
        }
        for file in File::ALL {
            let mut f = forms_of(letters.letter(file));
            for style in &letters.listening().letter_styles {
                f.extend(forms_of(&style.letters[file.to_usize()]));
            }
            forms[Want::File(file).index()] = f;
        }
        for rank in Rank::ALL {
            forms[Want::Rank(rank).index()] = forms_of(ranks.rank(rank));
        }
        let words = sentence.words();
        forms[Want::Suffix.index()] =
            [&words.check, &words.mate, &words.stalemate].into_iter().flat_map(forms_of).collect();
        for (want, entry) in [
            (Want::Capture, &words.capture),
            (Want::EnPassant, &words.en_passant),
            (Want::Castle(CastlingSide::KingSide), &words.short_castling),
            (Want::Castle(CastlingSide::QueenSide), &words.long_castling),
            (Want::From, &words.from),
            (Want::To, &words.to),
        ] {
            forms[want.index()] = forms_of(entry);
        }
        let texts = forms.clone();
        let parts = forms
            .iter()
            .map(|list| {
                list.iter()
                    .filter(|form| form.contains(' '))
                    .map(|form| form.split(' ').map(|word| sounds.of(word)).collect())
                    .collect()
            })
            .collect();
        let forms: Vec<Vec<(Vec<Phone>, usize)>> = forms
            .into_iter()
            .map(|list| {
                let mut phones: Vec<(Vec<Phone>, usize)> = list
                    .iter()
                    .map(|form| (sounds.of_phrase(form), form.split(' ').count()))
                    .filter(|p| !p.0.is_empty())
                    .collect();
                phones.sort();
                phones.dedup();
                phones
            })
            .collect();
        let spans = forms
            .iter()
            .map(|list: &Vec<(Vec<Phone>, usize)>| {
                (list.iter().map(|(_, words)| *words).max().unwrap_or(1) + 1).min(MAX_SPAN)
            })
            .collect();
        SoundForms { forms, spans, parts, texts }
    }
}

/// One heard word, as the repair sees it.
#[derive(Debug, Clone)]
enum Heard {
    Word(String, Vec<Phone>),
    Filler,
    Unk,
}

/// Heard words and what their spans cost against each wanted word, worked
/// out once per utterance.
pub(crate) struct Hearing<'a> {
    words: Vec<Heard>,
    forms: &'a SoundForms,
    known: &'a HashMap<String, Vec<(String, u8)>>,
    spans: Vec<f32>,
    merged: HashMap<(usize, usize, usize), f32>,
}

impl<'a> Hearing<'a> {
    /// The heard words of normalised text.
    pub(crate) fn new(
        normalised: &str,
        lexicon: &Lexicon,
        sounds: &Pronunciations,
        forms: &'a SoundForms,
        known: &'a HashMap<String, Vec<(String, u8)>>,
    ) -> Hearing<'a> {
        let words: Vec<Heard> = normalised
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| match w {
                "[unk]" => Heard::Unk,
                w if lexicon.is_filler(w) => Heard::Filler,
                w => Heard::Word(w.to_owned(), sounds.of(w)),
            })
            .collect();
        let spans = vec![f32::NAN; words.len() * MAX_SPAN * WANTS];
        Hearing { words, forms, known, spans, merged: HashMap::new() }
    }

    /// Whether anything but fillers and `[unk]` was heard.
    pub(crate) fn has_words(&self) -> bool {
        self.words.iter().any(|w| matches!(w, Heard::Word(..)))
    }

    /// The sounds of heard words `at..at + len`, if all are words.
    fn span(&self, at: usize, len: usize) -> Option<Vec<Phone>> {
        let mut out = Vec::new();
        for word in self.words.get(at..at + len)? {
            let Heard::Word(_, phones) = word else { return None };
            out.extend_from_slice(phones);
        }
        Some(out)
    }

    fn span_cost(&mut self, at: usize, len: usize, want: Want) -> f32 {
        let key = ((at * MAX_SPAN) + len - 1) * WANTS + want.index();
        let known = self.spans[key];
        if !known.is_nan() {
            return known;
        }
        let mut cost = match self.span(at, len) {
            Some(heard) => self.forms.forms[want.index()]
                .iter()
                .map(|(form, words)| {
                    sounds::distance(&heard, form) + WORD_SPLIT * len.abs_diff(*words) as f32
                })
                .fold(f32::INFINITY, f32::min),
            None => self.gapped_cost(at, len, want),
        };
        // A known mishearing (`[[repair]]`): as near as its cost says.
        if let (1, Some(Heard::Word(text, _))) = (len, self.words.get(at))
            && let Some(rows) = self.known.get(text)
        {
            for (meant, weight) in rows {
                if self.forms.texts[want.index()].contains(meant) {
                    cost = cost.min(0.2 * f32::from(*weight));
                }
            }
        }
        self.spans[key] = cost;
        cost
    }

    /// A span of words and `[unk]` (at least one word) against the forms of
    /// as many words, word by word: an unheard word costs what `[unk]` for a
    /// needed word costs.
    fn gapped_cost(&self, at: usize, len: usize, want: Want) -> f32 {
        let Some(span) = self.words.get(at..at + len) else { return f32::INFINITY };
        if len < 2
            || span.iter().any(|w| matches!(w, Heard::Filler))
            || !span.iter().any(|w| matches!(w, Heard::Word(..)))
        {
            return f32::INFINITY;
        }
        self.forms.parts[want.index()]
            .iter()
            .filter(|words| words.len() == len)
            .map(|words| {
                let total: f32 = span
                    .iter()
                    .zip(words)
                    .map(|(heard, said)| match heard {
                        Heard::Word(_, phones) => sounds::distance(phones, said),
                        _ => UNK_SLOT,
                    })
                    .sum();
                total / len as f32
            })
            .fold(f32::INFINITY, f32::min)
    }

    /// One heard word for a letter and a rank said as one ("a8" heard "a").
    fn merged_cost(&mut self, at: usize, first: Want, second: Want) -> f32 {
        let key = (at, first.index(), second.index());
        if let Some(known) = self.merged.get(&key) {
            return *known;
        }
        let cost = match self.span(at, 1) {
            Some(heard) => {
                let mut best = f32::INFINITY;
                let mut both: Vec<Phone> = Vec::with_capacity(32);
                for (a, _) in &self.forms.forms[first.index()] {
                    for (b, _) in &self.forms.forms[second.index()] {
                        both.clear();
                        both.extend_from_slice(a);
                        both.extend_from_slice(b);
                        best = best.min(sounds::distance(&heard, &both) + WORD_SPLIT);
                    }
                }
                best
            }
            None => f32::INFINITY,
        };
        self.merged.insert(key, cost);
        cost
    }

    /// The least cost of the heard words as this pattern, or infinity once
    /// it cannot come under `bound`.
    fn pattern_cost(&mut self, pattern: &[Slot], bound: f32) -> f32 {
        let (n, m) = (self.words.len(), pattern.len());
        let width = m + 1;
        let mut best = vec![f32::INFINITY; (n + 1) * width];
        best[0] = 0.0;
        let relax = |best: &mut Vec<f32>, i: usize, j: usize, cost: f32| {
            let cell = &mut best[i * width + j];
            if cost < *cell {
                *cell = cost;
            }
        };
        for i in 0..=n {
            // Costs only grow: a row all above the bound ends the pattern.
            if i > 0 && best[i * width..(i + 1) * width].iter().all(|c| *c >= bound) {
                return f32::INFINITY;
            }
            for j in 0..=m {
                let here = best[i * width + j];
                if !here.is_finite() {
                    continue;
                }
                if j < m {
                    relax(&mut best, i, j + 1, here + pattern[j].lost);
                }
                if i == n {
                    continue;
                }
                let kind = match self.words[i] {
                    Heard::Filler => 0,
                    Heard::Unk => 1,
                    Heard::Word(..) => 2,
                };
                match kind {
                    0 => relax(&mut best, i + 1, j, here),
                    1 => {
                        relax(&mut best, i + 1, j, here + UNK_EXTRA);
                        let mut cost = here;
                        for slot in pattern.iter().skip(j).take(3).enumerate() {
                            cost += if slot.1.lost > 0.0 { UNK_SLOT } else { 0.0 };
                            relax(&mut best, i + 1, j + slot.0 + 1, cost);
                        }
                        // "[unk] Rochade": the unheard first word of a form.
                        if j < m {
                            for len in 2..=self.forms.spans[pattern[j].want.index()].min(n - i) {
                                let cost = self.span_cost(i, len, pattern[j].want);
                                if cost.is_finite() {
                                    relax(&mut best, i + len, j + 1, here + cost);
                                }
                            }
                        }
                    }
                    _ => {
                        relax(&mut best, i + 1, j, here + EXTRA_WORD);
                        if j < m {
                            for len in 1..=self.forms.spans[pattern[j].want.index()].min(n - i) {
                                let cost = self.span_cost(i, len, pattern[j].want);
                                if cost.is_finite() {
                                    relax(&mut best, i + len, j + 1, here + cost);
                                }
                            }
                        }
                        // Only a word that sounds like the letter or the rank
                        // may be both run together.
                        if j + 1 < m
                            && let (Want::File(_), Want::Rank(_)) = (pattern[j].want, pattern[j + 1].want)
                            && self.span_cost(i, 1, pattern[j].want).min(self.span_cost(
                                i,
                                1,
                                pattern[j + 1].want,
                            )) < MERGE_NEAR
                        {
                            let cost = self.merged_cost(i, pattern[j].want, pattern[j + 1].want);
                            relax(&mut best, i + 1, j + 2, here + cost);
                        }
                    }
                }
            }
        }
        best[n * width + m]
    }

    /// How near the heard words come to `mv` in `pos` (0: word for word),
    /// or infinity when not under `bound`.
    fn move_cost(&mut self, pos: &Chess, mv: Move, bound: f32) -> f32 {
        let mut best = bound;
        for pattern in patterns(pos, mv) {
            best = best.min(self.pattern_cost(&pattern, best));
        }
        if best < bound { best } else { f32::INFINITY }
    }

    /// Whether at least half the heard words (and at least one) sound like
    /// words of `mv`: the phrase is held to the move, not only near it by
    /// words that could be anything ("takes takes").
    pub(crate) fn anchored(&mut self, pos: &Chess, mv: Move) -> bool {
        let wants: Vec<Want> = patterns(pos, mv).into_iter().flatten().map(|slot| slot.want).collect();
        let n = self.words.len();
        let mut held = vec![false; n];
        for i in 0..n {
            for want in &wants {
                for len in 1..=self.forms.spans[want.index()].min(n - i) {
                    if self.span_cost(i, len, *want) <= ANCHOR {
                        held[i..i + len].iter_mut().for_each(|h| *h = true);
                    }
                }
            }
        }
        let words = self.words.iter().filter(|w| matches!(w, Heard::Word(..))).count();
        let held = (0..n).filter(|i| held[*i] && matches!(self.words[*i], Heard::Word(..))).count();
        held >= 1 && 2 * held >= words
    }

    /// As [`Hearing::rank`], a move the words are not held to
    /// ([`Hearing::anchored`]) infinitely far.
    pub(crate) fn rank_held(&mut self, pos: &Chess) -> Vec<(Move, f32)> {
        let mut ranked = self.rank(pos);
        for entry in &mut ranked {
            if entry.1.is_finite() && !self.anchored(pos, entry.0) {
                entry.1 = f32::INFINITY;
            }
        }
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        ranked
    }

    /// Every legal move with its cost, nearest first (ties in
    /// move-generation order); a move more than [`FAR`] farther than the
    /// nearest is infinitely far (no decision looks that far).
    pub(crate) fn rank(&mut self, pos: &Chess) -> Vec<(Move, f32)> {
        let mut nearest = f32::INFINITY;
        let mut out: Vec<(Move, f32)> = Vec::with_capacity(64);
        for mv in pos.legal_moves() {
            let cost = self.move_cost(pos, mv, nearest + FAR);
            nearest = nearest.min(cost);
            out.push((mv, cost));
        }
        for entry in &mut out {
            if entry.1 > nearest + FAR {
                entry.1 = f32::INFINITY;
            }
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }
}

/// The patterns a move is said by: with its piece named (the from-square
/// optional), and, for a piece, by its whole from-square without the name;
/// castling in words or as the king's own squares.
fn patterns(pos: &Chess, mv: Move) -> Vec<Vec<Slot>> {
    let need = |want: Want, lost: f32| Slot { want, lost };
    let optional = |want: Want| Slot { want, lost: 0.0 };
    // Check, mate, stalemate: never what tells one move from another by
    // sound (the exact reading holds them against the move); heard, they
    // cost nothing, and no move is played to know which applies.
    let suffix = [optional(Want::Suffix)];
    let Some(from) = mv.from() else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(side) = mv.castling_side() {
        let mut words = vec![need(Want::Castle(side), SQUARE_LOST)];
        words.extend(suffix);
        out.push(words);
        let to = side.king_to(pos.turn());
        let mut king = vec![
            optional(Want::Piece(Role::King)),
            need(Want::File(from.file()), SQUARE_LOST),
            need(Want::Rank(from.rank()), SQUARE_LOST),
            need(Want::File(to.file()), SQUARE_LOST),
            need(Want::Rank(to.rank()), SQUARE_LOST),
        ];
        king.extend(suffix);
        out.push(king);
        return out;
    }
    let to = mv.to();
    let tail = |out: &mut Vec<Slot>| {
        if mv.is_capture() {
            out.push(optional(Want::Capture));
        }
        out.push(optional(Want::To));
        out.push(need(Want::File(to.file()), SQUARE_LOST));
        out.push(need(Want::Rank(to.rank()), SQUARE_LOST));
        if let Some(role) = mv.promotion() {
            out.push(need(Want::Promoted(role), PROMOTION_LOST));
        }
        if mv.is_en_passant() {
            out.push(optional(Want::EnPassant));
        }
        out.extend(suffix);
    };
    let role = mv.role();
    let piece_lost = if role == Role::Pawn { 0.0 } else { PIECE_LOST };
    let mut named = vec![
        need(Want::Piece(role), piece_lost),
        optional(Want::From),
        optional(Want::File(from.file())),
        optional(Want::Rank(from.rank())),
    ];
    tail(&mut named);
    out.push(named);
    if role != Role::Pawn {
        let mut squares = vec![
            optional(Want::From),
            need(Want::File(from.file()), SQUARE_LOST),
            need(Want::Rank(from.rank()), SQUARE_LOST),
        ];
        tail(&mut squares);
        out.push(squares);
    }
    out
}
