//! The record by ear (issue 18): the blind player hears his last moves with
//! their numbers, steps back and forward through the record like a tape, and
//! jumps to a move number — to check his own record before a D.2.9
//! comparison. Read from the moves the station agreed, and the marks of what
//! happened between them (draw offers, take-backs), each where it happened.
//!
//! The last five moves ([`LAST_MOVES`]), a cursor stepping back and forward by half-move, and a
//! jump to a move number.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use super::{SpokenCommand, Understanding};

/// Moves read by [`RecordStep::Last`] (the "last five moves").
pub const LAST_MOVES: usize = 5;

/// One step of the blind player through the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordStep {
    /// The last `LAST_MOVES` moves with their numbers (`read_record`).
    Last,
    /// The half-move before the ones read last (`record_back`).
    Back,
    /// The half-move after the ones read last (`record_forward`).
    Forward,
    /// Both half-moves of one move number ("Zug dreiundzwanzig").
    GoTo(u16),
}

impl RecordStep {
    /// The step a spoken command asks for, if it is one.
    pub fn of(command: &SpokenCommand) -> Option<RecordStep> {
        match *command {
            SpokenCommand::ReadRecord => Some(RecordStep::Last),
            SpokenCommand::RecordBack => Some(RecordStep::Back),
            SpokenCommand::RecordForward => Some(RecordStep::Forward),
            SpokenCommand::GoToMove(n) => Some(RecordStep::GoTo(n)),
            _ => None,
        }
    }
}

/// Something besides the moves that the record keeps, read back where it
/// happened: after the half-moves it follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordMark {
    /// A draw offer (Art. 9.1(b), "(=)") made after `after` half-moves.
    DrawOffer {
        /// Half-moves played when it was made (0: before the first move).
        after: usize,
        /// Who offered.
        by: Color,
    },
    /// Moves taken back to the position after `after` half-moves: by the
    /// arbiter (a D.2.9 correction) or because one was illegal (Art. 7.4).
    TakenBack {
        /// Half-moves the record went back to.
        after: usize,
        /// The moves taken back (UCI), in the order they had been played
        /// from that position.
        moves: Vec<String>,
        /// Art. 7.4: an illegal move found (otherwise the arbiter's take-back).
        illegal: bool,
    },
}

impl RecordMark {
    /// Half-moves played when it happened.
    pub fn plies_played(&self) -> usize {
        match self {
            RecordMark::DrawOffer { after, .. } | RecordMark::TakenBack { after, .. } => *after,
        }
    }
}

/// Where the blind player is in the record: the half-moves read last
/// (indices into the moves, first and last inclusive), like a tape head.
/// Nothing read yet: stepping back starts from the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecordCursor {
    read: Option<(usize, usize)>,
}

impl RecordCursor {
    /// A cursor that has read nothing yet.
    pub fn new() -> RecordCursor {
        RecordCursor::default()
    }

    /// The half-moves read last (first and last index), if any.
    pub fn read(&self) -> Option<(usize, usize)> {
        self.read
    }

    /// Takes one step through the record of `moves` played from `start` and
    /// returns what to say; `me` is the blind player's colour (his moves are
    /// "Sie", the others "Gegner"). A step past either end, or to a move
    /// number not played, says so and leaves the cursor where it was.
    pub fn step(
        &mut self,
        understanding: &Understanding,
        start: &Chess,
        moves: &[Move],
        me: Color,
        step: RecordStep,
    ) -> String {
        self.step_marked(understanding, start, moves, &[], me, step)
    }

    /// [`Self::step`] with the record's marks: each draw offer and take-back
    /// is read right after the half-move it follows, where it happened.
    pub fn step_marked(
        &mut self,
        understanding: &Understanding,
        start: &Chess,
        moves: &[Move],
        marks: &[RecordMark],
        me: Color,
        step: RecordStep,
    ) -> String {
        let record = Record { understanding, start, moves, marks, me };
        if moves.is_empty() {
            return record.count();
        }
        let last = moves.len() - 1;
        let range = match (step, self.read) {
            (RecordStep::Last, _) => {
                let first_number = record.number(last).saturating_sub(LAST_MOVES as u32 - 1);
                let first = (0..=last).find(|&i| record.number(i) >= first_number).unwrap_or(0);
                Some((first, last))
            }
            (RecordStep::Back, None) => Some((last, last)),
            (RecordStep::Back, Some((first, _))) => first.checked_sub(1).map(|i| (i, i)),
            (RecordStep::Forward, None) => None,
            (RecordStep::Forward, Some((_, end))) => (end < last).then_some((end + 1, end + 1)),
            (RecordStep::GoTo(n), _) => {
                let plies: Vec<usize> = (0..=last).filter(|&i| record.number(i) == u32::from(n)).collect();
                plies.first().zip(plies.last()).map(|(&a, &b)| (a, b))
            }
        };
        match range {
            Some((first, end)) => {
                self.read = Some((first, end));
                record.read(first, end)
            }
            None => {
                let asked = match (step, self.read) {
                    (RecordStep::GoTo(n), _) => u32::from(n),
                    (RecordStep::Back, _) => record.number(0),
                    (_, Some((_, end))) => record.number(end) + u32::from(record.color(end) == Color::Black),
                    (_, None) => record.number(last) + 1,
                };
                record.none(asked)
            }
        }
    }
}

/// The moves of a game as the station words them.
struct Record<'a> {
    understanding: &'a Understanding,
    start: &'a Chess,
    moves: &'a [Move],
    marks: &'a [RecordMark],
    me: Color,
}

impl Record<'_> {
    /// The move number of half-move `ply` (0-based), counted from the start
    /// position's move number.
    fn number(&self, ply: usize) -> u32 {
        let black_first = usize::from(self.start.turn() == Color::Black);
        let offset = u32::try_from((ply + black_first) / 2).unwrap_or(u32::MAX);
        self.start.fullmoves().get().saturating_add(offset)
    }

    fn color(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) == (self.start.turn() == Color::White) { Color::White } else { Color::Black }
    }

    fn move_word(&self) -> &str {
        &self.understanding.wording.phrasebook().clock().moves.one
    }

    fn spell(&self, n: u32) -> String {
        self.understanding.wording.phrasebook().numbers().spell(u64::from(n))
    }

    /// "Zug zwanzig Sie Springer Felix drei, Gegner Läufer Cesar vier. Zug …".
    fn read(&self, first: usize, end: usize) -> String {
        let clock = self.understanding.wording.phrasebook().clock();
        let mut pos = self.start.clone();
        let mut out = String::new();
        if first == 0 {
            // What happened before the first move (a draw offered at once).
            self.read_marks(0, &pos, &mut out);
        }
        for (ply, mv) in self.moves.iter().enumerate().take(end + 1) {
            if ply >= first {
                let number = self.number(ply);
                if ply == first || self.color(ply) == Color::White {
                    if !out.is_empty() {
                        out.push_str(". ");
                    }
                    out.push_str(&format!("{} {} ", self.move_word(), self.spell(number)));
                } else {
                    out.push_str(", ");
                }
                out.push_str(if self.color(ply) == self.me { &clock.own } else { &clock.opponent });
                out.push(' ');
                match self.understanding.record_wording.word_move(&pos, mv) {
                    Ok(said) => said.write_to(&mut out),
                    // A record the station agreed is legal; were it not, say
                    // the move as written rather than nothing.
                    Err(_) => out.push_str(&mv.to_uci(shakmaty::CastlingMode::Standard).to_string()),
                }
            }
            match pos.clone().play(*mv) {
                Ok(next) => pos = next,
                Err(_) => break,
            }
            if ply >= first {
                self.read_marks(ply + 1, &pos, &mut out);
            }
        }
        out
    }

    /// The marks made after `after` half-moves, in `pos` (the position then):
    /// ", Sie Remisangebot", ", Korrektur Gegner Felix fünf zurückgenommen",
    /// ", Unzulässiger Zug Sie Turm Anna eins zurückgenommen".
    fn read_marks(&self, after: usize, pos: &Chess, out: &mut String) {
        let u = self.understanding;
        let clock = u.wording.phrasebook().clock();
        let who = |color: Color| if color == self.me { &clock.own } else { &clock.opponent };
        for mark in self.marks.iter().filter(|m| m.plies_played() == after) {
            if !out.is_empty() {
                out.push_str(", ");
            }
            match mark {
                RecordMark::DrawOffer { by, .. } => {
                    out.push_str(&format!("{} {}", who(*by), u.wording.word_draw_offer()));
                }
                RecordMark::TakenBack { moves, illegal, .. } => {
                    let head = if *illegal {
                        u.wording.message(crate::Message::IllegalMove)
                    } else {
                        u.correction.as_str()
                    };
                    out.push_str(head);
                    let mut at = pos.clone();
                    for (i, uci) in moves.iter().enumerate() {
                        out.push_str(if i == 0 { " " } else { ", " });
                        out.push_str(who(at.turn()));
                        out.push(' ');
                        let mv = uci.parse::<UciMove>().ok().and_then(|m| m.to_move(&at).ok());
                        match mv
                            .and_then(|mv| u.record_wording.word_move(&at, &mv).ok().map(|said| (mv, said)))
                        {
                            Some((mv, said)) => {
                                said.write_to(out);
                                at.play_unchecked(mv);
                            }
                            // Not a move of that position (a damaged mark):
                            // said as written, and the rest as written too.
                            None => out.push_str(uci),
                        }
                    }
                    out.push(' ');
                    out.push_str(&u.taken_back);
                }
            }
        }
    }

    /// "Zug neunhundert keine, vierunddreißig Züge".
    fn none(&self, number: u32) -> String {
        format!("{} {} {}, {}", self.move_word(), self.spell(number), self.understanding.none, self.count())
    }

    /// "vierunddreißig Züge": the move numbers begun.
    fn count(&self) -> String {
        let moves = match self.moves.len() {
            0 => 0,
            n => self.number(n - 1) - self.start.fullmoves().get() + 1,
        };
        let book = self.understanding.wording.phrasebook();
        let mut out = String::new();
        book.numbers().write_count(u64::from(moves), &book.clock().moves, &mut out);
        out
    }
}
