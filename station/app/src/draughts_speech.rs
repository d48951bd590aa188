//! Draughts irregularities and decisions in the listener's language (issue 17,
//! 5.4, 5.7, VIII.2.4, VIII.3.1): the events' structured fields (`kind`,
//! `moves`, counts, `squares`, `fixes`) turned into voices' draughts wording.
//! The events' English `text` / `steps` stay the console's; an event without
//! a `kind` (an older journal) is said in them.

use station_core::PieceFix;
use station_core::draughts::{DraughtsPath, Variant};
use station_voices::Phrasebook;
use station_voices::draughts::{
    DraughtsFix, DraughtsIrregularityText, DraughtsPiece, word_draughts_decision, word_draughts_irregularity,
};

use crate::announce_draughts::{move_words, square_words};

/// The facts of an `irregularity` event, borrowed from it.
pub struct IrregularityFacts<'a> {
    /// The case (`capture_omitted`, `boards_differ`, …).
    pub kind: &'a str,
    /// The moves as PDN writes them.
    pub moves: &'a [DraughtsPath],
    /// The move number concerned.
    pub ply: Option<usize>,
    /// Pieces to be taken.
    pub required: Option<usize>,
    /// Pieces taken.
    pub taken: Option<usize>,
    /// Squares concerned.
    pub squares: &'a [String],
    /// What puts the board right.
    pub fixes: &'a [PieceFix],
}

/// The irregularity said in `book`'s language; `None` when the facts cannot
/// be worded (no kind, a square not of this board, a phrasebook without the words).
pub fn irregularity_words(book: &Phrasebook, variant: Variant, facts: &IrregularityFacts) -> Option<String> {
    if facts.kind.is_empty() {
        return None;
    }
    let text = DraughtsIrregularityText {
        kind: facts.kind.to_owned(),
        moves: facts.moves.iter().map(|m| move_words(variant, m, false).ok()).collect::<Option<_>>()?,
        ply: facts.ply,
        required: facts.required,
        taken: facts.taken,
        squares: facts.squares.iter().map(|s| square_words(variant, s)).collect::<Option<_>>()?,
        fixes: fixes(variant, facts.fixes)?,
    };
    word_draughts_irregularity(book, &text).ok()
}

/// The opponent's decision said in `book`'s language: accepted (5.7), or the
/// correction with its fixes.
pub fn decision_words(book: &Phrasebook, variant: Variant, accept: bool, fix: &[PieceFix]) -> Option<String> {
    word_draughts_decision(book, accept, &fixes(variant, fix)?).ok()
}

fn fixes(variant: Variant, fixes: &[PieceFix]) -> Option<Vec<DraughtsFix>> {
    fixes
        .iter()
        .map(|f| {
            let square = square_words(variant, &f.square)?;
            match f.action.as_str() {
                "remove" => Some(DraughtsFix::Remove(square)),
                "put" => Some(DraughtsFix::Put(
                    square,
                    DraughtsPiece {
                        white: f.color.as_deref() == Some("white"),
                        king: f.piece.as_deref() == Some("king"),
                    },
                )),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(action: &str, square: &str, color: Option<&str>, piece: Option<&str>) -> PieceFix {
        PieceFix {
            action: action.into(),
            square: square.into(),
            color: color.map(Into::into),
            piece: piece.map(Into::into),
        }
    }

    /// The facts a 5.4.6 event carries, said to a Polish and a German player.
    #[test]
    fn a_5_4_6_event_is_said_in_each_players_language() {
        let moves = [DraughtsPath::from("31-27")];
        let fixes = [fix("remove", "27", None, None), fix("put", "31", Some("white"), Some("man"))];
        let facts = IrregularityFacts {
            kind: "capture_omitted",
            moves: &moves,
            ply: Some(3),
            required: Some(1),
            taken: Some(0),
            squares: &[],
            fixes: &fixes,
        };
        let pl =
            irregularity_words(Phrasebook::builtin("pl").unwrap(), Variant::International, &facts).unwrap();
        assert_eq!(
            pl,
            "trzydzieści jeden — dwadzieścia siedem mimo obowiązku bicia liczba bierek do zbicia jeden. \
             zdejmij bierkę z pola dwadzieścia siedem. postaw białego pionka na polu trzydzieści jeden"
        );
        let de =
            irregularity_words(Phrasebook::builtin("de").unwrap(), Variant::International, &facts).unwrap();
        assert!(de.starts_with("einunddreißig — siebenundzwanzig obwohl Schlagpflicht"), "{de}");
        // On the 64-square board the squares are said by letter and rank.
        let moves64 = [DraughtsPath::from("c3-d4")];
        let fixes64 = [fix("put", "c3", Some("black"), Some("king"))];
        let facts64 = IrregularityFacts { moves: &moves64, fixes: &fixes64, ..facts };
        let en =
            irregularity_words(Phrasebook::builtin("en").unwrap(), Variant::Draughts64, &facts64).unwrap();
        let c3 =
            station_voices::draughts::DraughtsSquare::Coordinates(shakmaty::File::C, shakmaty::Rank::Third);
        let said = station_voices::draughts::word_draughts_fixes(
            Phrasebook::builtin("en").unwrap(),
            &[DraughtsFix::Put(c3, DraughtsPiece { white: false, king: true })],
        )
        .unwrap();
        assert!(en.ends_with(&said) && said.starts_with("put a black king on"), "{en}");
        // A square not of this board, or no kind: not worded (the English text is said).
        let bad = ["51".to_string()];
        let none = IrregularityFacts { squares: &bad, ..facts };
        assert!(
            irregularity_words(Phrasebook::builtin("en").unwrap(), Variant::International, &none).is_none()
        );
        let old = IrregularityFacts { kind: "", ..facts };
        assert!(
            irregularity_words(Phrasebook::builtin("en").unwrap(), Variant::International, &old).is_none()
        );
    }

    #[test]
    fn decisions_are_said_with_the_fixes() {
        let fixes = [fix("put", "23", Some("black"), Some("man"))];
        let en = decision_words(Phrasebook::builtin("en").unwrap(), Variant::International, false, &fixes)
            .unwrap();
        assert_eq!(en, "the opponent asks for a correction. put a black man on twenty-three");
        let pl =
            decision_words(Phrasebook::builtin("pl").unwrap(), Variant::International, true, &[]).unwrap();
        assert_eq!(pl, "przeciwnik przyjmuje pozycję gra toczy się dalej");
    }
}
