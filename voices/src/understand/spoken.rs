//! What was said, structurally: a move pattern or a command, before any
//! position is looked at.
//!
//! A spoken move follows the announcement grammar of Annex D.2.1 (see
//! `wording.rs`), read leniently where players differ:
//! `[piece] [from-word] [file] [rank] [capture] [to-word] file rank
//! [promotion piece] [en passant] [check | mate] [stalemate]`, or a castling
//! phrase with an optional check or mate word.

use shakmaty::{CastlingSide, File, Rank, Role, Square};

use super::lexicon::Meaning;
use super::{Side, SpokenCommand};
use crate::announcement::WordId;
use crate::command_words::CommandWord;

/// A move as said: everything the speaker specified, nothing more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SpokenMove {
    /// Castling said in words.
    pub castle: Option<CastlingSide>,
    /// The piece named before the squares (`None`: a pawn by Annex D
    /// convention, or a piece name lost).
    pub role: Option<Role>,
    /// File of the from-square, if said.
    pub from_file: Option<File>,
    /// Rank of the from-square, if said.
    pub from_rank: Option<Rank>,
    /// The capture word was said.
    pub capture: bool,
    /// The target square.
    pub to: Option<Square>,
    /// The piece named after the target (promotion).
    pub promotion: Option<Role>,
    /// "en passant" was said.
    pub en_passant: bool,
    /// "check" was said.
    pub check: bool,
    /// "mate" was said.
    pub mate: bool,
    /// "stalemate" was said.
    pub stalemate: bool,
}

/// A structural reading of the heard words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spoken {
    /// A move pattern to match against the legal moves.
    Move(SpokenMove),
    /// A command, complete with its arguments.
    Command(SpokenCommand),
}

/// Reads meanings as a move or a command; `Err` says, in words, what does
/// not fit the grammar.
pub(crate) fn read(meanings: &[Meaning]) -> Result<Spoken, String> {
    match meanings.first() {
        Some(Meaning::Command(_)) => read_command(meanings).map(Spoken::Command),
        Some(Meaning::Move(_)) => {
            let mut words = Vec::with_capacity(meanings.len());
            for meaning in meanings {
                match meaning {
                    Meaning::Move(id) => words.push(*id),
                    Meaning::Command(_) => {
                        return Err("a move and a command in one breath".to_owned());
                    }
                    Meaning::Number(_) => return Err("a number that is no rank in a move".to_owned()),
                    Meaning::Filler => {}
                }
            }
            read_move(&words).map(Spoken::Move)
        }
        Some(Meaning::Number(_)) => Err("a number without a command".to_owned()),
        Some(Meaning::Filler) | None => Err("nothing said".to_owned()),
    }
}

fn read_command(meanings: &[Meaning]) -> Result<SpokenCommand, String> {
    let mut side = None;
    let mut role = None;
    let mut file = None;
    let mut rank = None;
    let mut number = None;
    let Some(Meaning::Command(head)) = meanings.first() else {
        return Err("not a command".to_owned());
    };
    for meaning in &meanings[1..] {
        match meaning {
            Meaning::Command(CommandWord::Mine) if side.is_none() => side = Some(Side::Mine),
            Meaning::Command(CommandWord::His) if side.is_none() => side = Some(Side::His),
            Meaning::Move(WordId::Piece(r)) if role.is_none() => role = Some(*r),
            Meaning::Move(WordId::Letter(f)) if file.is_none() && rank.is_none() => file = Some(*f),
            Meaning::Move(WordId::Rank(r)) if file.is_some() && rank.is_none() => rank = Some(*r),
            // A rank word alone after the command: a rank or a small number.
            Meaning::Move(WordId::Rank(r)) if file.is_none() && number.is_none() => {
                number = u16::try_from(r.to_u32() + 1).ok();
            }
            Meaning::Number(n) if file.is_none() && number.is_none() => number = Some(*n),
            _ => return Err("more words than the command takes".to_owned()),
        }
    }
    let bare = side.is_none() && role.is_none() && file.is_none() && number.is_none();
    let alone = side.is_none() && role.is_none();
    let command = match head {
        CommandWord::Time if bare => SpokenCommand::Time,
        CommandWord::Repeat if bare => SpokenCommand::Repeat,
        CommandWord::Correction if bare => SpokenCommand::Correction,
        CommandWord::Yes if bare => SpokenCommand::Yes,
        CommandWord::No if bare => SpokenCommand::No,
        CommandWord::DrawOffer if bare => SpokenCommand::DrawOffer,
        CommandWord::Resign if bare => SpokenCommand::Resign,
        CommandWord::ReadMyPieces if bare => SpokenCommand::ReadPieces(Side::Mine),
        CommandWord::ReadHisPieces if bare => SpokenCommand::ReadPieces(Side::His),
        CommandWord::ReadDifference if bare => SpokenCommand::ReadDifference,
        CommandWord::DrawStatus if bare => SpokenCommand::DrawStatus,
        CommandWord::ReadRecord if bare => SpokenCommand::ReadRecord,
        CommandWord::RecordBack if bare => SpokenCommand::RecordBack,
        CommandWord::RecordForward if bare => SpokenCommand::RecordForward,
        CommandWord::Material if bare => SpokenCommand::Material,
        CommandWord::Silence if bare => SpokenCommand::Silence,
        CommandWord::Faster if bare => SpokenCommand::Faster,
        CommandWord::Slower if bare => SpokenCommand::Slower,
        CommandWord::ClockUsed if bare => SpokenCommand::ClockUsed,
        CommandWord::ClockRemaining if bare => SpokenCommand::ClockRemaining,
        CommandWord::TakeBack if bare => SpokenCommand::TakeBack,
        CommandWord::Hint if bare => SpokenCommand::Hint,
        CommandWord::Stronger if bare => SpokenCommand::Stronger,
        CommandWord::Weaker if bare => SpokenCommand::Weaker,
        CommandWord::Review if bare => SpokenCommand::Review,
        CommandWord::NewGame => match (number, file, alone) {
            (None, None, true) => SpokenCommand::NewGame(None),
            (Some(n), None, true) => SpokenCommand::NewGame(Some(n)),
            _ => return Err("\"new game\" takes a number or nothing".to_owned()),
        },
        CommandWord::GoToMove => match (number, file, alone) {
            (Some(n), None, true) => SpokenCommand::GoToMove(n),
            _ => return Err("\"move\" takes a move number".to_owned()),
        },
        CommandWord::ReadRank => match (number, file, alone) {
            (Some(n @ 1..=8), None, true) => SpokenCommand::ReadRank(Rank::new(u32::from(n) - 1)),
            (Some(_), None, true) => return Err("a rank is a number from one to eight".to_owned()),
            _ => return Err("\"rank\" takes a number from one to eight".to_owned()),
        },
        CommandWord::ReadFile => match (file, rank, number, alone) {
            (Some(file), None, None, true) => SpokenCommand::ReadFile(file),
            _ => return Err("\"file\" takes one letter".to_owned()),
        },
        CommandWord::WhereIs => match (role, file) {
            (Some(role), None) => SpokenCommand::WhereIs { role, side },
            _ => return Err("\"where is\" takes a piece name".to_owned()),
        },
        CommandWord::WhatStandsOn => match (file, rank, role, side) {
            (Some(file), Some(rank), None, None) => {
                SpokenCommand::WhatStandsOn(Square::from_coords(file, rank))
            }
            _ => return Err("\"what stands on\" takes a square".to_owned()),
        },
        CommandWord::Mine | CommandWord::His => {
            return Err("\"my\" or \"his\" without a question".to_owned());
        }
        _ => return Err("more words than the command takes".to_owned()),
    };
    Ok(command)
}

/// A coordinate word of the squares part.
#[derive(Clone, Copy)]
enum Coord {
    File(File),
    Rank(Rank),
}

fn read_move(words: &[WordId]) -> Result<SpokenMove, String> {
    let mut spoken = SpokenMove::default();
    let mut at = 0;
    match words.first() {
        Some(WordId::ShortCastling) => {
            spoken.castle = Some(CastlingSide::KingSide);
            at = 1;
        }
        Some(WordId::LongCastling) => {
            spoken.castle = Some(CastlingSide::QueenSide);
            at = 1;
        }
        _ => {
            if let Some(WordId::Piece(role)) = words.first() {
                spoken.role = Some(*role);
                at = 1;
            }
            at = read_squares(words, at, &mut spoken)?;
        }
    }
    read_suffixes(&words[at..], &mut spoken)?;
    Ok(spoken)
}

/// Reads `[from] [file] [rank] [capture] [to] file rank` from `at`; returns
/// where the suffixes begin.
fn read_squares(words: &[WordId], mut at: usize, spoken: &mut SpokenMove) -> Result<usize, String> {
    // Up to four coordinates; the capture and to words are remembered by
    // the number of coordinates before them.
    let mut coords: [Option<Coord>; 4] = [None; 4];
    let mut count = 0;
    let mut capture_at = None;
    let mut to_at = None;
    let mut from_said = false;
    while let Some(word) = words.get(at) {
        let coord = match word {
            WordId::Letter(file) => Coord::File(*file),
            WordId::Rank(rank) => Coord::Rank(*rank),
            WordId::From if count == 0 && !from_said && capture_at.is_none() => {
                from_said = true;
                at += 1;
                continue;
            }
            WordId::Capture if capture_at.is_none() => {
                capture_at = Some(count);
                at += 1;
                continue;
            }
            WordId::To if to_at.is_none() => {
                to_at = Some(count);
                at += 1;
                continue;
            }
            _ => break,
        };
        let Some(slot) = coords.get_mut(count) else {
            return Err("too many letters and numbers for one move".to_owned());
        };
        *slot = Some(coord);
        count += 1;
        at += 1;
    }
    if count < 2 {
        return Err("no target square".to_owned());
    }
    let (Some(Coord::File(file)), Some(Coord::Rank(rank))) = (coords[count - 2], coords[count - 1]) else {
        return Err("the target square is not a letter followed by a number".to_owned());
    };
    spoken.to = Some(Square::from_coords(file, rank));
    let before = count - 2;
    match (before, coords[0], coords[1]) {
        (0, _, _) => {}
        (1, Some(Coord::File(f)), _) => spoken.from_file = Some(f),
        (1, Some(Coord::Rank(r)), _) => spoken.from_rank = Some(r),
        (2, Some(Coord::File(f)), Some(Coord::Rank(r))) => {
            spoken.from_file = Some(f);
            spoken.from_rank = Some(r);
        }
        _ => return Err("the from-square is not a letter followed by a number".to_owned()),
    }
    // The capture and to words belong between the from-part and the target.
    for (said, name) in [(capture_at, "capture"), (to_at, "\"to\"")] {
        if let Some(position) = said
            && position != before
        {
            return Err(format!("the {name} word is out of place"));
        }
    }
    if from_said && before == 0 {
        return Err("\"from\" without a from-square".to_owned());
    }
    spoken.capture = capture_at.is_some();
    Ok(at)
}

fn read_suffixes(words: &[WordId], spoken: &mut SpokenMove) -> Result<(), String> {
    for (i, word) in words.iter().enumerate() {
        match word {
            WordId::Piece(role) if i == 0 && spoken.castle.is_none() && spoken.promotion.is_none() => {
                spoken.promotion = Some(*role);
            }
            WordId::EnPassant if !spoken.en_passant && spoken.castle.is_none() => spoken.en_passant = true,
            WordId::Check if !spoken.check && !spoken.mate => spoken.check = true,
            // "Schach matt" said as two words is mate.
            WordId::Mate if !spoken.mate => spoken.mate = true,
            WordId::Stalemate if !spoken.stalemate => spoken.stalemate = true,
            _ => return Err("words after the move that do not belong to it".to_owned()),
        }
    }
    Ok(())
}
