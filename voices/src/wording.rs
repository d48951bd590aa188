//! Turning a move into the words of Annex D.2.1.
//!
//! Short form (default), following the algebraic notation of Appendix E:
//! `[piece] [disambiguation] [capture] target-square [promotion] [en passant]
//! [check | mate] [stalemate]`. The pawn is not named unless
//! [`VoiceSettings::name_pawns`] is set; a pawn capture names the pawn's file
//! as the notation does ("Eva schlägt David fünf" for exd5).
//!
//! Long form ([`VoiceSettings::long_form`]): the from-square always replaces
//! the disambiguation and the capture word stays between the squares, so it
//! reads like long algebraic notation Ng1xf3: "Springer Gustav eins schlägt
//! Felix drei". Castling is always said in words, as D.2.1 requires.
//!
//! With `[voice] move_reading = "iccf"` a move is said as its ICCF numbers instead, digit by digit
//! in the language's number words. The words come out as an `Announcement` of tokens, one clip of a
//! voice pack per token.

use std::sync::Arc;

use shakmaty::san::San;
use shakmaty::{Chess, Color, KnownOutcome, Move, Position, Role, Square};

use crate::announcement::{Announcement, Token, WordId};
use crate::clock;
use crate::error::VoiceError;
use crate::message::Message;
use crate::phrasebook::{Phrasebook, Phrasebooks};
use crate::settings::{MoveReading, VoiceSettings};

/// The chosen voices: sentence words, letter names and rank words, possibly
/// from different phrasebooks, plus the wording options.
#[derive(Debug, Clone)]
pub struct Wording {
    sentence: Arc<Phrasebook>,
    letters: Arc<Phrasebook>,
    ranks: Arc<Phrasebook>,
    name_pawns: bool,
    long_form: bool,
    move_reading: MoveReading,
}

impl Wording {
    /// Wording with the built-in phrasebooks.
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`] if a code in `settings` is not built in.
    pub fn new(settings: &VoiceSettings) -> Result<Wording, VoiceError> {
        Wording::with_phrasebooks(settings, &Phrasebooks::builtin())
    }

    /// Wording choosing from `books` (built-in plus loaded ones).
    ///
    /// # Errors
    /// [`VoiceError::UnknownLanguage`] if a code in `settings` is not in `books`.
    pub fn with_phrasebooks(settings: &VoiceSettings, books: &Phrasebooks) -> Result<Wording, VoiceError> {
        Ok(Wording {
            sentence: books.get(&settings.language)?,
            letters: books.get(settings.letters_language())?,
            ranks: books.get(settings.ranks_language())?,
            name_pawns: settings.name_pawns,
            long_form: settings.long_form,
            move_reading: settings.move_reading,
        })
    }

    /// The phrasebook of the sentence language (messages, clock, results).
    pub fn phrasebook(&self) -> &Phrasebook {
        &self.sentence
    }

    /// Words a legal `mv` played in `pos`.
    ///
    /// Does not allocate: the announcement borrows its words from `self`.
    ///
    /// # Errors
    /// [`VoiceError::BadMove`] if `mv` is not legal in `pos`.
    pub fn word_move(&self, pos: &Chess, mv: &Move) -> Result<Announcement<'_>, VoiceError> {
        let mv = *mv;
        if !pos.is_legal(mv) {
            return Err(VoiceError::BadMove {
                text: mv.to_string(),
                problem: "not legal in this position".to_owned(),
            });
        }
        let mut out = Announcement::new();
        let words = &self.sentence.words;
        if self.move_reading == MoveReading::Iccf {
            self.push_iccf(&mut out, mv);
        } else {
            self.push_letters(&mut out, pos, mv);
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let cannot_move = after.legal_moves().is_empty();
        match (after.is_check(), cannot_move) {
            (true, true) => out.push(WordId::Mate, words.mate.say()),
            (true, false) => out.push(WordId::Check, words.check.say()),
            (false, true) => out.push(WordId::Stalemate, words.stalemate.say()),
            (false, false) => {}
        }
        Ok(out)
    }

    /// The two words of a square: letter name and rank word ("Eva", "vier").
    pub fn word_square(&self, square: Square) -> [Token<'_>; 2] {
        let (file, rank) = (square.file(), square.rank());
        [
            Token { id: WordId::Letter(file), text: self.letters.letter(file).say() },
            Token { id: WordId::Rank(rank), text: self.ranks.rank(rank).say() },
        ]
    }

    /// The name of a piece kind in the sentence language.
    pub fn word_piece(&self, role: Role) -> Token<'_> {
        Token { id: WordId::Piece(role), text: self.sentence.piece(role).say() }
    }

    /// An instruction to put a piece back (Annex D.2.8–D.2.9):
    /// "Springer von Eva fünf zurück nach Felix drei".
    pub fn word_correction(&self, role: Role, from: Square, to: Square) -> Announcement<'_> {
        let words = &self.sentence.words;
        let mut out = Announcement::new();
        self.push_piece(&mut out, role);
        out.push(WordId::From, words.from.say());
        self.push_square(&mut out, from);
        out.push(WordId::Back, words.back.say());
        out.push(WordId::To, words.to.say());
        self.push_square(&mut out, to);
        out
    }

    /// Times and move count of the talking clock (Annex D.2.6.1), e.g.
    /// "Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."
    pub fn clock_report(&self, own_ms: u64, opponent_ms: u64, moves: u32) -> String {
        clock::clock_report(&self.sentence, own_ms, opponent_ms, moves)
    }

    /// The time each side used and the moves made, headed as such (D.2.10.4).
    pub fn clock_report_used(&self, own_ms: u64, opponent_ms: u64, moves: u32) -> String {
        clock::clock_report_used(&self.sentence, own_ms, opponent_ms, moves)
    }

    /// A game result in words ("eins zu null", "remis").
    pub fn word_result(&self, outcome: KnownOutcome) -> &str {
        let words = &self.sentence.words;
        match outcome {
            KnownOutcome::Decisive { winner: Color::White } => words.white_wins.say(),
            KnownOutcome::Decisive { winner: Color::Black } => words.black_wins.say(),
            KnownOutcome::Draw => words.draw.say(),
        }
    }

    /// The words of a draw offer (Appendix E.12 writes it "(=)").
    pub fn word_draw_offer(&self) -> &str {
        self.sentence.words.draw_offer.say()
    }

    /// One of the station's messages in the sentence language.
    pub fn message(&self, message: Message) -> &str {
        self.sentence.message(message).say()
    }

    /// Piece, letters and ranks of Annex D.2.1 (short or long form).
    fn push_letters<'a>(&'a self, out: &mut Announcement<'a>, pos: &Chess, mv: Move) {
        let words = &self.sentence.words;
        match San::from_move(pos, mv) {
            San::Castle(side) => {
                let (id, entry) = if side.is_king_side() {
                    (WordId::ShortCastling, &words.short_castling)
                } else {
                    (WordId::LongCastling, &words.long_castling)
                };
                out.push(id, entry.say());
            }
            San::Normal { role, file, rank, capture, to, promotion } => {
                if role != Role::Pawn || self.name_pawns {
                    self.push_piece(out, role);
                }
                match mv.from() {
                    Some(from) if self.long_form => self.push_square(out, from),
                    _ => {
                        if let Some(file) = file {
                            out.push(WordId::Letter(file), self.letters.letter(file).say());
                        }
                        if let Some(rank) = rank {
                            out.push(WordId::Rank(rank), self.ranks.rank(rank).say());
                        }
                    }
                }
                if capture {
                    out.push(WordId::Capture, words.capture.say());
                }
                self.push_square(out, to);
                if let Some(promoted) = promotion {
                    self.push_piece(out, promoted);
                }
                if mv.is_en_passant() {
                    out.push(WordId::EnPassant, words.en_passant.say());
                }
            }
            // Drops and null moves do not exist in standard chess, and a
            // legal move is never one of them.
            San::Put { .. } | San::Null => {}
        }
    }

    /// ICCF numeric notation digit by digit (Appendix A): the from-square's
    /// file and rank numbers, the to-square's (the king's square when
    /// castling), the promotion digit; each digit the language's number word.
    fn push_iccf<'a>(&'a self, out: &mut Announcement<'a>, mv: Move) {
        let to = match mv {
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_queen_side(rook < king);
                Square::from_coords(side.king_to_file(), king.rank())
            }
            _ => mv.to(),
        };
        let from = mv.from().unwrap_or(to);
        let mut digits = [0u8; 5];
        let mut n = 0;
        for sq in [from, to] {
            for d in [sq.file().to_usize(), sq.rank().to_usize()] {
                digits[n] = d as u8 + 1;
                n += 1;
            }
        }
        if let Some(role) = mv.promotion() {
            digits[n] = match role {
                Role::Queen => 1,
                Role::Rook => 2,
                Role::Bishop => 3,
                _ => 4,
            };
            n += 1;
        }
        let small = &self.sentence.numbers.small;
        for &d in &digits[..n] {
            out.push(WordId::Digit(d), &small[usize::from(d)]);
        }
    }

    fn push_piece<'a>(&'a self, out: &mut Announcement<'a>, role: Role) {
        out.push(WordId::Piece(role), self.sentence.piece(role).say());
    }

    fn push_square<'a>(&'a self, out: &mut Announcement<'a>, square: Square) {
        for token in self.word_square(square) {
            out.push(token.id, token.text);
        }
    }
}
