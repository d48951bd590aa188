//! Repair of misheard phrases by sound (issues 14 and 33).
//!
//! A phrase that names no legal move is compared with every legal move by
//! how its words sound ([`super::nearness`]); the nearest moves are *asked
//! back*, never made (the caller turns them into [`super::Understood::Ask`]),
//! nearest first. The same comparison tells when a move named word for word
//! has a near twin: another legal move a small mishearing away, asked with it
//! unless the recogniser is sure. A phrasebook's `[[repair]]` rows (known
//! mishearings the sound does not explain) count as that near.

use std::collections::HashMap;
use std::sync::Arc;

use shakmaty::{Chess, Move};

use super::lexicon::{Lexicon, normalise};
use super::nearness::{Hearing, SoundForms};
use super::pronounce::{Pronouncer, Pronunciations};
use crate::phrasebook::Phrasebook;

/// A tie of more moves than this is no useful question.
pub(crate) const MAX_CHOICES: usize = 3;
/// Moves this much farther than the nearest are no longer its equals.
pub(crate) const TIE: f32 = 0.1;
/// Farther than this from every legal move, a phrase names none.
const MAX_REPAIR: f32 = 1.2;
/// A legal move this near a move named word for word may be what was said.
const TWIN: f32 = 0.3;

/// The repair of one listening configuration: the sounds of its words.
#[derive(Debug, Clone)]
pub(crate) struct Repairs {
    books: [Arc<Phrasebook>; 3],
    sounds: Pronunciations,
    forms: SoundForms,
    /// `[[repair]]` rows: heard word → (meant form, cost 1–9).
    known: HashMap<String, Vec<(String, u8)>>,
}

/// The outcome of a repair.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Repaired {
    /// The nearest legal moves, nearest first.
    pub moves: Vec<Move>,
    /// How near the nearest is (0: word for word).
    pub cost: f32,
}

impl Repairs {
    /// The repair of `books` (sentence, letters and ranks phrasebooks).
    pub(crate) fn new(books: [Arc<Phrasebook>; 3], lexicon: &Lexicon) -> Repairs {
        let sounds = Pronunciations::new(&[&books[0], &books[1], &books[2]], None);
        let forms = SoundForms::new(&books[0], &books[1], &books[2], &sounds);
        let mut known: HashMap<String, Vec<(String, u8)>> = HashMap::new();
        for book in &books {
            for sub in book.repairs() {
                let (heard, meant) = (normalise(&sub.heard), normalise(&sub.meant));
                if heard != meant && lexicon.knows(&meant) {
                    known.entry(heard).or_default().push((meant, sub.cost));
                }
            }
        }
        Repairs { books, sounds, forms, known }
    }

    /// Asks `pronouncer` how words outside the phrasebooks sound.
    pub(crate) fn set_pronouncer(&mut self, pronouncer: Arc<dyn Pronouncer>) {
        self.sounds.set_pronouncer(Some(pronouncer));
        let [sentence, letters, ranks] = &self.books;
        self.forms = SoundForms::new(sentence, letters, ranks, &self.sounds);
    }

    /// Listening words no phrasebook says the sound of (read by spelling).
    pub(crate) fn unpronounced(&self) -> &[String] {
        self.sounds.unpronounced()
    }

    /// The heard words, ready to be compared with moves.
    pub(crate) fn hearing<'a>(&'a self, lexicon: &Lexicon, normalised: &str) -> Hearing<'a> {
        Hearing::new(normalised, lexicon, &self.sounds, &self.forms, &self.known)
    }

    /// The nearest legal moves `normalised` may have meant, if any is near
    /// enough and no more than [`MAX_CHOICES`] are equally near.
    pub(crate) fn repair(&self, lexicon: &Lexicon, pos: &Chess, normalised: &str) -> Option<Repaired> {
        let mut hearing = self.hearing(lexicon, normalised);
        if !hearing.has_words() {
            return None;
        }
        let ranked = hearing.rank_held(pos);
        let cost = ranked.first()?.1;
        if cost > MAX_REPAIR {
            return None;
        }
        let moves: Vec<Move> = ranked.iter().take_while(|(_, c)| *c <= cost + TIE).map(|(m, _)| *m).collect();
        (moves.len() <= MAX_CHOICES).then_some(Repaired { moves, cost })
    }

    /// The other legal moves a small mishearing away from `mv`, which
    /// `normalised` names word for word: nearest first.
    pub(crate) fn twins(&self, lexicon: &Lexicon, pos: &Chess, normalised: &str, mv: Move) -> Vec<Move> {
        let mut hearing = self.hearing(lexicon, normalised);
        hearing.rank(pos).into_iter().filter(|(m, c)| *m != mv && *c <= TWIN).map(|(m, _)| m).collect()
    }
}
