//! The phrase list handed to the recogniser: every way of saying every
//! legal move of a position, plus the commands.
//!
//! Vosk turns the list into a small language model (word pairs with
//! back-off), so the list decides which words and word pairs are likely;
//! it is not a hard constraint. Hence [`super::Understanding::understand`]
//! still checks every transcript against the position.

use shakmaty::san::San;
use shakmaty::{Chess, File, Move, Position, Rank, Role};

use super::lexicon::normalise;
use crate::command_words::{CommandWord, CommandWords};
use crate::entry::Entry;
use crate::phrasebook::{Phrasebook, role_index};

/// The recogniser's phrases for one position: lower-cased, deduplicated,
/// sorted, with Vosk's "\[unk\]" (anything else) last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grammar {
    phrases: Vec<String>,
}

impl Grammar {
    /// A grammar of these phrases (already normalised and ordered).
    pub(crate) fn from_phrases(phrases: Vec<String>) -> Grammar {
        Grammar { phrases }
    }

    /// The phrases, as `vosk::Recognizer::new_with_grammar` takes them.
    pub fn phrases(&self) -> &[String] {
        &self.phrases
    }

    /// The phrases, owned.
    pub fn into_phrases(self) -> Vec<String> {
        self.phrases
    }

    /// Number of phrases (including "\[unk\]").
    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    /// Whether there are no phrases (never: "\[unk\]" is always there).
    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// Whether `phrase` (normalised like heard text) is in the list.
    pub fn contains(&self, phrase: &str) -> bool {
        let phrase = normalise(phrase);
        self.phrases.contains(&phrase)
    }
}

impl AsRef<[String]> for Grammar {
    fn as_ref(&self) -> &[String] {
        &self.phrases
    }
}

/// Every accepted form of every listening word, normalised once.
#[derive(Debug, Clone)]
pub(crate) struct Forms {
    /// The files' words by style: the Annex D names first, then the
    /// phrasebook's `[listening.letters]` styles. A phrase keeps one style.
    letters: Vec<[Vec<String>; 8]>,
    ranks: [Vec<String>; 8],
    pieces: [Vec<String>; 6],
    /// A promoted piece as said after the target, by role index.
    promoted: [Vec<String>; 6],
    capture: Vec<String>,
    check: Vec<String>,
    mate: Vec<String>,
    stalemate: Vec<String>,
    en_passant: Vec<String>,
    short_castling: Vec<String>,
    long_castling: Vec<String>,
    /// Position-independent command phrases, built once.
    commands: Vec<String>,
    /// The command phrases a draughts game keeps (issue 17), built once.
    draughts_commands: Vec<String>,
    /// The forms of "move" before a move number ("Zug").
    go_to_move: Vec<String>,
    /// Move numbers in words, 1 to 999 (index 0 is 1).
    numbers: Vec<String>,
}

pub(crate) fn forms_of(entry: &Entry) -> Vec<String> {
    let mut out: Vec<String> = entry.accepted().map(normalise).filter(|f| !f.is_empty()).collect();
    out.dedup();
    out
}

/// One slot of a phrase: a choice of forms, possibly left out.
type Slot<'a> = (&'a [String], bool);

impl Forms {
    pub(crate) fn new(
        sentence: &Phrasebook,
        letters: &Phrasebook,
        ranks: &Phrasebook,
        commands: &CommandWords,
    ) -> Forms {
        let words = sentence.words();
        let mut forms = Forms {
            letters: std::iter::once(File::ALL.map(|f| forms_of(letters.letter(f))))
                .chain(
                    letters
                        .listening()
                        .letter_styles
                        .iter()
                        .map(|style| File::ALL.map(|f| forms_of(&style.letters[f.to_usize()]))),
                )
                .collect(),
            ranks: Rank::ALL.map(|r| forms_of(ranks.rank(r))),
            pieces: [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
                .map(|r| forms_of(sentence.piece(r))),
            promoted: [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
                .map(|r| promoted_forms(sentence, r)),
            capture: forms_of(&words.capture),
            check: forms_of(&words.check),
            mate: forms_of(&words.mate),
            stalemate: forms_of(&words.stalemate),
            en_passant: forms_of(&words.en_passant),
            short_castling: forms_of(&words.short_castling),
            long_castling: forms_of(&words.long_castling),
            commands: Vec::new(),
            draughts_commands: Vec::new(),
            go_to_move: commands.entry(CommandWord::GoToMove).map(forms_of).unwrap_or_default(),
            numbers: (1..=u64::from(super::lexicon::MAX_NUMBER))
                .map(|n| normalise(&sentence.numbers().spell(n)))
                .collect(),
        };
        forms.commands = forms.command_phrases(&forms_of(&words.draw_offer), commands);
        forms.draughts_commands = draughts_command_phrases(&forms_of(&words.draw_offer), commands);
        forms
    }

    /// The command phrases of a draughts game.
    pub(crate) fn draughts_commands(&self) -> &[String] {
        &self.draughts_commands
    }

    /// Forms of the words that never change which move a phrase names.
    pub(crate) fn neutral_endings(&self) -> Vec<String> {
        let mut out: Vec<String> = [&self.check, &self.mate, &self.stalemate, &self.en_passant]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn piece(&self, role: Role) -> &[String] {
        &self.pieces[role_index(role)]
    }

    fn command_phrases(&self, draw_offer: &[String], commands: &CommandWords) -> Vec<String> {
        let mut out = draw_offer.to_vec();
        let mut say = |slots: &[Slot<'_>]| emit(slots, &mut String::new(), &mut out);
        let of = |word| commands.entry(word).map(forms_of).unwrap_or_default();
        let (mine, his) = (of(CommandWord::Mine), of(CommandWord::His));
        for (word, entry) in commands.words() {
            let forms = forms_of(entry);
            match word {
                CommandWord::Mine | CommandWord::His => {}
                CommandWord::WhereIs => {
                    for side in [&mine, &his] {
                        for role in Role::ALL {
                            let piece = self.piece(role);
                            say(&[(&forms, false), (side, true), (piece, false)]);
                            say(&[(&forms, false), (piece, false), (side, false)]);
                        }
                    }
                }
                CommandWord::WhatStandsOn => {
                    for letter in self.letters.iter().flatten() {
                        for rank in &self.ranks {
                            say(&[(&forms, false), (letter, false), (rank, false)]);
                        }
                    }
                }
                CommandWord::ReadRank => {
                    for number in &self.ranks {
                        say(&[(&forms, false), (number, false)]);
                    }
                }
                CommandWord::ReadFile => {
                    for letter in self.letters.iter().flatten() {
                        say(&[(&forms, false), (letter, false)]);
                    }
                }
                // Position-dependent: the move numbers played so far (see `grammar`).
                CommandWord::GoToMove => {}
                _ => say(&[(&forms, false)]),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The phrases of every legal move of `pos` and of the commands.
    pub(crate) fn grammar(&self, pos: &Chess) -> Grammar {
        let mut out = Vec::with_capacity(2048);
        let mut buf = String::with_capacity(96);
        for mv in pos.legal_moves() {
            self.move_phrases(pos, mv, &mut buf, &mut out);
        }
        out.sort_unstable();
        out.dedup();
        out.extend(self.commands.iter().cloned());
        // "Zug dreiundzwanzig": the move numbers reached so far.
        let reached = usize::try_from(pos.fullmoves().get()).unwrap_or(usize::MAX);
        for number in self.numbers.iter().take(reached) {
            for word in &self.go_to_move {
                out.push(format!("{word} {number}"));
            }
        }
        // A command phrase can equal a move phrase only through a conflict
        // in the books; the sort above keeps moves deduplicated among
        // themselves, and a repeat across the two halves is harmless.
        out.push("[unk]".to_owned());
        Grammar { phrases: out }
    }

    fn move_phrases(&self, pos: &Chess, mv: Move, buf: &mut String, out: &mut Vec<String>) {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let check = after.is_check();
        let stuck = after.legal_moves().is_empty();
        let none: &[String] = &[];
        let suffix: Slot<'_> = match (check, stuck) {
            (true, true) => (&self.mate, true),
            (true, false) => (&self.check, true),
            (false, true) => (&self.stalemate, true),
            (false, false) => (none, true),
        };
        let Some(from) = mv.from() else { return };
        if let Some(side) = mv.castling_side() {
            let castle = if side.is_king_side() { &self.short_castling } else { &self.long_castling };
            emit(&[(castle, false), suffix], buf, out);
            // The king's own from-to: "Eva eins Gustav eins".
            let to = side.king_to(pos.turn());
            for letters in &self.letters {
                emit(
                    &[
                        (self.piece(Role::King), true),
                        (&letters[from.file().to_usize()], false),
                        (&self.ranks[from.rank().to_usize()], false),
                        (&letters[to.file().to_usize()], false),
                        (&self.ranks[to.rank().to_usize()], false),
                        suffix,
                    ],
                    buf,
                    out,
                );
            }
            return;
        }
        let to = mv.to();
        let role = mv.role();
        let piece: Slot<'_> = (self.piece(role), role == Role::Pawn);
        let capture: Slot<'_> = (if mv.is_capture() { &self.capture } else { none }, true);
        let promotion: Slot<'_> =
            (mv.promotion().map_or(none, |r| &self.promoted[role_index(r)]), mv.promotion().is_none());
        let en_passant: Slot<'_> = (if mv.is_en_passant() { &self.en_passant } else { none }, true);
        let to_rank = &self.ranks[to.rank().to_usize()];
        // Disambiguations: as the notation writes it, the whole from-square
        // (long form), and for pawn captures none at all ("schlägt David fünf").
        let mut variants: [Option<(Option<File>, Option<Rank>)>; 3] = [None; 3];
        if let San::Normal { file, rank, .. } = San::from_move(pos, mv) {
            variants[0] = Some((file, rank));
        }
        variants[1] = Some((Some(from.file()), Some(from.rank())));
        if role == Role::Pawn && mv.is_capture() {
            variants[2] = Some((None, None));
        }
        for (i, variant) in variants.iter().enumerate() {
            let Some((file, rank)) = *variant else { continue };
            if variants[..i].contains(variant) {
                continue;
            }
            // With the whole from-square the piece may go unnamed ("Gustav eins Felix drei").
            let piece = if file.is_some() && rank.is_some() { (piece.0, true) } else { piece };
            for (style, letters) in self.letters.iter().enumerate() {
                let to_file = &letters[to.file().to_usize()];
                let file_slot: Slot<'_> = (file.map_or(none, |f| &letters[f.to_usize()]), file.is_none());
                let rank_slot: Slot<'_> = (rank.map_or(none, |r| &self.ranks[r.to_usize()]), rank.is_none());
                // The other letter styles with each word's first form only:
                // the grammar stays small enough to rebuild after every move
                // (the understanding still takes every form).
                let full = style == 0;
                emit(
                    &[
                        lean(piece, full),
                        file_slot,
                        rank_slot,
                        lean(capture, full),
                        (to_file, false),
                        (to_rank, false),
                        lean(promotion, full),
                        en_passant,
                        suffix,
                    ],
                    buf,
                    out,
                );
            }
        }
    }
}

/// A promoted piece as said after the target: its names, the Polish
/// accusatives ("hetmana"), and both after each promotion word ("promote
/// to queen", "na hetmana").
pub(crate) fn promoted_forms(sentence: &Phrasebook, role: Role) -> Vec<String> {
    let listening = sentence.listening();
    let mut pieces = forms_of(sentence.piece(role));
    for (r, entry) in &listening.promotion_pieces {
        if *r == role {
            pieces.extend(forms_of(entry));
        }
    }
    let mut out = pieces.clone();
    for intro in &listening.promotion {
        for piece in &pieces {
            out.push(normalise(&format!("{intro} {piece}")));
        }
    }
    out.dedup();
    out
}

/// The slot itself, or (not `full`) with its first form only.
fn lean(slot: Slot<'_>, full: bool) -> Slot<'_> {
    if full { slot } else { (&slot.0[..slot.0.len().min(1)], slot.1) }
}

/// Every combination of the slots' forms (an optional slot may be left
/// out), space-joined, appended to `out`.
fn emit(slots: &[Slot<'_>], buf: &mut String, out: &mut Vec<String>) {
    let Some(((forms, optional), rest)) = slots.split_first() else {
        out.push(buf.clone());
        return;
    };
    if *optional {
        emit(rest, buf, out);
    }
    for form in forms.iter() {
        let len = buf.len();
        if len > 0 {
            buf.push(' ');
        }
        buf.push_str(form);
        emit(rest, buf, out);
        buf.truncate(len);
    }
}

/// The phrases of the commands a draughts game keeps: the clock, the last
/// move again, yes and no, draw offer and draw facts, resigning, speech controls.
fn draughts_command_phrases(draw_offer: &[String], commands: &CommandWords) -> Vec<String> {
    let mut out = draw_offer.to_vec();
    for (word, entry) in commands.words() {
        if matches!(
            word,
            CommandWord::Time
                | CommandWord::Repeat
                | CommandWord::Correction
                | CommandWord::Yes
                | CommandWord::No
                | CommandWord::Resign
                | CommandWord::DrawStatus
                | CommandWord::Silence
                | CommandWord::Faster
                | CommandWord::Slower
                | CommandWord::ClockUsed
                | CommandWord::ClockRemaining
        ) {
            out.extend(forms_of(entry));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
