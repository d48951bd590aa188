//! Repair of misheard phrases (issue 14).
//!
//! Small recognisers mishear in known ways; each phrasebook lists them with
//! a cost (`[[repair]]`, see [`crate::Substitution`]). A phrase that names no
//! legal move is tried again with up to two substitutions; the legal moves
//! reached at the lowest total cost are *asked back*, never made (the
//! caller turns them into [`super::Understood::Ask`]). The same table tells
//! when a confidently named move has a near twin: one substitution away
//! from another legal move.

use std::collections::HashMap;

use shakmaty::{Chess, Move, Position};

use super::lexicon::{Lexicon, normalise};
use super::matching::exact_fits;
use super::spoken::{self, Spoken};
use crate::phrasebook::Phrasebook;

/// At most this many words of a phrase are substituted.
const MAX_SUBSTITUTIONS: usize = 2;
/// Repairs dearer than this are not tried.
const MAX_COST: u8 = 3;
/// A tie of more moves than this is no useful question.
pub(crate) const MAX_CHOICES: usize = 3;

/// The substitution table of one listening configuration, by heard word.
#[derive(Debug, Clone, Default)]
pub(crate) struct Repairs {
    by_heard: HashMap<String, Vec<(String, u8)>>,
}

/// The outcome of a repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repaired {
    /// The cheapest legal moves, in move-generation order.
    pub moves: Vec<Move>,
    /// Their total cost.
    pub cost: u8,
    /// The repaired words of the first of them.
    pub text: String,
}

impl Repairs {
    /// The tables of `books` (sentence, letters and ranks phrasebooks),
    /// keeping substitutions whose meant word the lexicon knows.
    pub(crate) fn new(books: &[&Phrasebook], lexicon: &Lexicon) -> Repairs {
        let mut by_heard: HashMap<String, Vec<(String, u8)>> = HashMap::new();
        for book in books {
            for sub in book.repairs() {
                let (heard, meant) = (normalise(&sub.heard), normalise(&sub.meant));
                if heard == meant || !lexicon.knows(&meant) {
                    continue;
                }
                let options = by_heard.entry(heard).or_default();
                match options.iter_mut().find(|(m, _)| *m == meant) {
                    Some(known) => known.1 = known.1.min(sub.cost),
                    None => options.push((meant, sub.cost)),
                }
            }
        }
        Repairs { by_heard }
    }

    /// The substitutions for each word of `words`, with their position.
    fn options<'a>(&'a self, words: &[&str]) -> Vec<(usize, &'a str, u8)> {
        let mut out = Vec::new();
        for (i, word) in words.iter().enumerate() {
            if let Some(options) = self.by_heard.get(*word) {
                out.extend(options.iter().map(|(meant, cost)| (i, meant.as_str(), *cost)));
            }
        }
        out
    }

    /// The cheapest legal moves `normalised` names after substitutions, if
    /// any (never more than [`MAX_CHOICES`]).
    pub(crate) fn repair(&self, lexicon: &Lexicon, pos: &Chess, normalised: &str) -> Option<Repaired> {
        let words: Vec<&str> = normalised.split(' ').filter(|w| !w.is_empty()).collect();
        let options = self.options(&words);
        let mut best: Option<Repaired> = None;
        let mut consider = |changes: &[(usize, &str, u8)]| {
            let cost: u8 = changes.iter().map(|c| c.2).sum();
            if cost > MAX_COST || best.as_ref().is_some_and(|b| b.cost < cost) {
                return;
            }
            let mut said: Vec<&str> = words.clone();
            for (i, meant, _) in changes {
                said[*i] = meant;
            }
            let text = said.join(" ");
            let moves = moves_named(lexicon, pos, &text);
            if moves.is_empty() {
                return;
            }
            match &mut best {
                Some(b) if b.cost == cost => {
                    for mv in moves {
                        if !b.moves.contains(&mv) {
                            b.moves.push(mv);
                        }
                    }
                }
                _ => best = Some(Repaired { moves, cost, text }),
            }
        };
        for (k, first) in options.iter().enumerate() {
            consider(&[*first]);
            if MAX_SUBSTITUTIONS < 2 {
                continue;
            }
            for second in &options[k + 1..] {
                if second.0 != first.0 {
                    consider(&[*first, *second]);
                }
            }
        }
        let mut best = best?;
        let legal = pos.legal_moves();
        best.moves.sort_by_key(|mv| legal.iter().position(|m| m == mv));
        (best.moves.len() <= MAX_CHOICES).then_some(best)
    }

    /// The other legal moves one substitution turns `normalised` (which
    /// names `mv`) into: the recogniser may have written this move for one
    /// of them. In move-generation order.
    pub(crate) fn twins(&self, lexicon: &Lexicon, pos: &Chess, normalised: &str, mv: Move) -> Vec<Move> {
        let words: Vec<&str> = normalised.split(' ').filter(|w| !w.is_empty()).collect();
        let mut twins = Vec::new();
        for (i, meant, _) in self.options(&words) {
            let mut said = words.clone();
            said[i] = meant;
            for m in moves_named(lexicon, pos, &said.join(" ")) {
                if m != mv && !twins.contains(&m) {
                    twins.push(m);
                }
            }
        }
        let legal = pos.legal_moves();
        twins.sort_by_key(|m| legal.iter().position(|l| l == m));
        twins
    }
}

/// The legal moves a phrase names exactly (none for a command or nonsense).
fn moves_named(lexicon: &Lexicon, pos: &Chess, text: &str) -> Vec<Move> {
    let Ok(meanings) = lexicon.read(text) else { return Vec::new() };
    match spoken::read(&meanings) {
        Ok(Spoken::Move(spoken)) => exact_fits(pos, &spoken),
        _ => Vec::new(),
    }
}
