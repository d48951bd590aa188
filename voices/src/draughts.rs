//! Draughts moves in words (issue 17, the code's VIII.2.3): start and end square
//! by number ("trzydzieści dwa — dwadzieścia osiem"), the capture word between
//! them for a capture, the intermediate squares of a multiple capture on request,
//! a new king named. On the 64-square board the squares are said a1–h8 with the
//! phrasebook's letter and rank words.
//!
//! Pure wording: which move was played, and whether it made a king, comes from
//! the rules core; here squares are numbers or coordinates.
//!
//! The listening side is here too: spoken draughts moves understood against the legal moves (every
//! split of the words tried, several fits asked back) and their grammar. The words come from the
//! phrasebook's optional `[draughts]` table.

use shakmaty::{File, Rank};

use crate::error::VoiceError;
use crate::phrasebook::Phrasebook;

pub use crate::phrasebook::DraughtsWords;

/// A draughts square as it is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraughtsSquare {
    /// International draughts: FMJD number 1–50.
    Number(u8),
    /// The 64-square version: a file and a rank (a1–h8).
    Coordinates(File, Rank),
}

/// A move to be said: its squares and what kind of move it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraughtsMoveText {
    /// The start square.
    pub from: DraughtsSquare,
    /// The end square.
    pub to: DraughtsSquare,
    /// The intermediate landing squares of a multiple capture (4.9), in order.
    pub via: Vec<DraughtsSquare>,
    /// A capture.
    pub capture: bool,
    /// The move made a king.
    pub king: bool,
}

/// Says `mv` in `book`'s language; with `with_path` the intermediate squares too.
/// Quiet moves: "32 — 28"; captures: "28 bije 6"; a new king: "… damka".
pub fn word_draughts_move(
    book: &Phrasebook,
    mv: &DraughtsMoveText,
    with_path: bool,
) -> Result<String, VoiceError> {
    let words = book.draughts().ok_or_else(|| VoiceError::PhrasebookInvalid {
        origin: book.code().to_owned(),
        problem: "no [draughts] table".to_owned(),
    })?;
    let mut out = say_square(book, mv.from)?;
    if mv.capture {
        out.push(' ');
        out.push_str(words.capture.say());
        out.push(' ');
    } else {
        // The dash is a pause between two numbers that would otherwise run together.
        out.push_str(" — ");
    }
    out.push_str(&say_square(book, mv.to)?);
    if with_path && !mv.via.is_empty() {
        out.push(' ');
        out.push_str(words.via.say());
        for sq in &mv.via {
            out.push(' ');
            out.push_str(&say_square(book, *sq)?);
        }
    }
    if mv.king {
        out.push(' ');
        out.push_str(words.king.say());
    }
    Ok(out)
}

fn say_square(book: &Phrasebook, sq: DraughtsSquare) -> Result<String, VoiceError> {
    match sq {
        DraughtsSquare::Number(n) if (1..=50).contains(&n) => Ok(book.numbers().spell(u64::from(n))),
        DraughtsSquare::Number(n) => Err(VoiceError::PhrasebookInvalid {
            origin: book.code().to_owned(),
            problem: format!("draughts square {n} is not on the board (1–50)"),
        }),
        DraughtsSquare::Coordinates(file, rank) => {
            Ok(format!("{} {}", book.letter(file).say(), book.rank(rank).say()))
        }
    }
}

/// A piece to put back, as it is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DraughtsPiece {
    /// White's piece.
    pub white: bool,
    /// A king (else a man).
    pub king: bool,
}

/// One step that puts a board right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraughtsFix {
    /// Take the piece off the square.
    Remove(DraughtsSquare),
    /// Put the piece on the square.
    Put(DraughtsSquare, DraughtsPiece),
}

/// An irregularity to be said (5.4, 5.4.10, VIII.2.4, VIII.3.1): its case
/// (the event's `kind`) and the facts the sentence names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraughtsIrregularityText {
    /// `two_moves_in_a_row`, `wrong_direction`, `opponents_piece`,
    /// `capture_omitted`, `fewer_than_maximum`, `not_all_removed`,
    /// `wrong_piece_removed`, `removal_order`, `boards_differ`, `not_executed`,
    /// `records_differ`.
    pub kind: String,
    /// The moves involved (`{move}`, `{second}`).
    pub moves: Vec<DraughtsMoveText>,
    /// The move number concerned (`{ply}`).
    pub ply: Option<usize>,
    /// Pieces to be taken (`{required}`).
    pub required: Option<usize>,
    /// Pieces taken (`{taken}`).
    pub taken: Option<usize>,
    /// Squares concerned (`{squares}`).
    pub squares: Vec<DraughtsSquare>,
    /// What puts the board right.
    pub fixes: Vec<DraughtsFix>,
}

fn draughts_words(book: &Phrasebook) -> Result<&DraughtsWords, VoiceError> {
    book.draughts().ok_or_else(|| invalid(book, "no [draughts] table".to_owned()))
}

fn invalid(book: &Phrasebook, problem: String) -> VoiceError {
    VoiceError::PhrasebookInvalid { origin: book.code().to_owned(), problem }
}

/// Says an irregularity in `book`'s language: the case's sentence, then the
/// fixes square by square ("… take the piece off twenty-seven. put a white man
/// on thirty-one").
pub fn word_draughts_irregularity(
    book: &Phrasebook,
    irr: &DraughtsIrregularityText,
) -> Result<String, VoiceError> {
    let w = draughts_words(book)?;
    let template = match irr.kind.as_str() {
        "two_moves_in_a_row" => &w.two_moves_in_a_row,
        "wrong_direction" => &w.wrong_direction,
        "opponents_piece" => &w.opponents_piece,
        "capture_omitted" => &w.capture_omitted,
        "fewer_than_maximum" => &w.fewer_than_maximum,
        "not_all_removed" => &w.not_all_removed,
        "wrong_piece_removed" => &w.wrong_piece_removed,
        "removal_order" => &w.removal_order,
        "boards_differ" => &w.boards_differ,
        "not_executed" => &w.not_executed,
        "records_differ" => &w.records_differ,
        other => return Err(invalid(book, format!("no draughts words for the irregularity {other:?}"))),
    };
    let number = |n: Option<usize>| n.map(|n| book.numbers().spell(n as u64)).unwrap_or_default();
    let mv = |i: usize| irr.moves.get(i).map(|m| word_draughts_move(book, m, false)).transpose();
    let squares = irr.squares.iter().map(|&sq| say_square(book, sq)).collect::<Result<Vec<_>, _>>()?;
    let mut text = template
        .say()
        .replace("{move}", &mv(0)?.unwrap_or_default())
        .replace("{second}", &mv(1)?.unwrap_or_default())
        .replace("{ply}", &number(irr.ply))
        .replace("{required}", &number(irr.required))
        .replace("{taken}", &number(irr.taken))
        .replace("{squares}", &squares.join(" "));
    let fixes = word_draughts_fixes(book, &irr.fixes)?;
    if !fixes.is_empty() {
        text.push_str(". ");
        text.push_str(&fixes);
    }
    Ok(text)
}

/// Says the fixes that put a board right, one sentence a square.
pub fn word_draughts_fixes(book: &Phrasebook, fixes: &[DraughtsFix]) -> Result<String, VoiceError> {
    let w = draughts_words(book)?;
    let mut out = Vec::with_capacity(fixes.len());
    for fix in fixes {
        out.push(match *fix {
            DraughtsFix::Remove(sq) => w.remove.say().replace("{square}", &say_square(book, sq)?),
            DraughtsFix::Put(sq, p) => {
                let piece = match (p.white, p.king) {
                    (true, false) => &w.white_man,
                    (true, true) => &w.white_king,
                    (false, false) => &w.black_man,
                    (false, true) => &w.black_king,
                };
                w.put.say().replace("{piece}", piece.say()).replace("{square}", &say_square(book, sq)?)
            }
        });
    }
    Ok(out.join(". "))
}

/// Says the opponent's decision (5.4, 5.7, 5.9): accepted, or the correction
/// with its fixes.
pub fn word_draughts_decision(
    book: &Phrasebook,
    accept: bool,
    fixes: &[DraughtsFix],
) -> Result<String, VoiceError> {
    let w = draughts_words(book)?;
    if accept {
        return Ok(w.accepted.say().to_owned());
    }
    let mut text = w.correct.say().to_owned();
    let fixes = word_draughts_fixes(book, fixes)?;
    if !fixes.is_empty() {
        text.push_str(". ");
        text.push_str(&fixes);
    }
    Ok(text)
}

/// Where a draughts game stands toward the draws of article 6, as facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DraughtsDrawFacts {
    /// How often the position has stood on the board (6.1).
    pub repetitions: u32,
    /// Moves each of kings only without a capture (6.2).
    pub king_moves: u32,
    /// Their limit: 25, 20 in the 64-square version.
    pub king_limit: u32,
    /// An ending of 6.3 (`true`, long) or 6.4 (short), with the moves each side has left.
    pub ending: Option<(bool, u32)>,
}

/// The draughts draw question answered with facts only ("this position stood
/// on the board two times. moves of kings only three of twenty-five").
pub fn word_draughts_draw_facts(book: &Phrasebook, facts: &DraughtsDrawFacts) -> Result<String, VoiceError> {
    let w = draughts_words(book)?;
    let n = |n: u32| book.numbers().spell(u64::from(n));
    let mut out = vec![
        w.draw_repetition.say().replace("{n}", &n(facts.repetitions.max(1))),
        w.draw_king_moves.say().replace("{n}", &n(facts.king_moves)).replace("{limit}", &n(facts.king_limit)),
    ];
    if let Some((long, left)) = facts.ending {
        let entry = if long { &w.draw_long_ending } else { &w.draw_short_ending };
        out.push(entry.say().replace("{n}", &n(left)));
    }
    Ok(out.join(". "))
}

/// What a spoken draughts move was understood as, against the legal moves given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraughtsHeard {
    /// Exactly one legal move fits: its index in the list.
    Move(usize),
    /// Several fit (two captures with the same start and end, or words that split
    /// into numbers more than one way): ask back with these choices.
    Ask(Vec<usize>),
    /// Nothing legal fits the words.
    Reject,
}

/// Understands `heard` ("trzydzieści dwa dwadzieścia osiem", "28 bije 6",
/// with or without the capture word, intermediate squares optional) against
/// the `legal` moves of the position. Never guesses: every way the words split
/// into squares is tried, and more than one fitting move is asked back.
pub fn understand_draughts(book: &Phrasebook, heard: &str, legal: &[DraughtsMoveText]) -> DraughtsHeard {
    let Some(words) = book.draughts() else { return DraughtsHeard::Reject };
    let tokens: Vec<String> =
        normalise(heard).split(' ').filter(|t| !t.is_empty()).map(str::to_owned).collect();
    let captures: Vec<Vec<String>> = words.capture.accepted().map(split_words).collect();
    let mut squares: Vec<(Vec<String>, DraughtsSquare)> = Vec::new();
    for mv in legal {
        for sq in std::iter::once(mv.from).chain(std::iter::once(mv.to)).chain(mv.via.iter().copied()) {
            if squares.iter().all(|(_, s)| *s != sq)
                && let Ok(said) = say_square(book, sq)
            {
                squares.push((split_words(&said), sq));
            }
        }
    }
    let mut readings = Vec::new();
    let mut budget = SEGMENT_BUDGET;
    segment(&tokens, 0, &squares, &captures, &mut Vec::new(), false, &mut readings, &mut budget);
    let mut fits: Vec<usize> = Vec::new();
    for (said, capture_said) in readings {
        let Some((first, rest)) = said.split_first() else { continue };
        let Some((last, via)) = rest.split_last() else { continue };
        for (i, mv) in legal.iter().enumerate() {
            let via_fits = {
                let mut it = mv.via.iter();
                via.iter().all(|v| it.any(|m| m == v))
            };
            if mv.from == *first
                && mv.to == *last
                && via_fits
                && (mv.capture || !capture_said)
                && !fits.contains(&i)
            {
                fits.push(i);
            }
        }
    }
    match fits.as_slice() {
        [] => DraughtsHeard::Reject,
        [one] => DraughtsHeard::Move(*one),
        _ => DraughtsHeard::Ask(fits),
    }
}

/// The phrases a recogniser should listen for in a position: each legal move's
/// start and end, with and without the capture word.
pub fn draughts_grammar(book: &Phrasebook, legal: &[DraughtsMoveText]) -> Vec<String> {
    let mut out = Vec::new();
    let Some(words) = book.draughts() else { return out };
    for mv in legal {
        let (Ok(from), Ok(to)) = (say_square(book, mv.from), say_square(book, mv.to)) else { continue };
        let mut phrases = vec![normalise(&format!("{from} {to}"))];
        if mv.capture {
            phrases.extend(words.capture.accepted().map(|c| normalise(&format!("{from} {c} {to}"))));
        }
        for p in phrases {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// How many steps the splitting of heard words into squares may take: hostile
/// text that splits in exponentially many ways is cut off (and then fits nothing).
const SEGMENT_BUDGET: usize = 20_000;

/// Every way `tokens[at..]` reads as squares with capture words between them.
#[allow(clippy::too_many_arguments)]
fn segment(
    tokens: &[String],
    at: usize,
    squares: &[(Vec<String>, DraughtsSquare)],
    captures: &[Vec<String>],
    said: &mut Vec<DraughtsSquare>,
    capture_said: bool,
    out: &mut Vec<(Vec<DraughtsSquare>, bool)>,
    budget: &mut usize,
) {
    if out.len() > 64 || *budget == 0 {
        return; // hostile input: enough readings to know it is not one move
    }
    *budget -= 1;
    if at == tokens.len() {
        if said.len() >= 2 {
            out.push((said.clone(), capture_said));
        }
        return;
    }
    let rest = &tokens[at..];
    if !said.is_empty() {
        for c in captures {
            if rest.starts_with(c) && !c.is_empty() {
                segment(tokens, at + c.len(), squares, captures, said, true, out, budget);
            }
        }
    }
    for (words, sq) in squares {
        if !words.is_empty() && rest.starts_with(words) {
            said.push(*sq);
            segment(tokens, at + words.len(), squares, captures, said, capture_said, out, budget);
            said.pop();
        }
    }
}

fn split_words(text: &str) -> Vec<String> {
    normalise(text).split(' ').filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

/// Lower case, words of letters, digits and apostrophes: the way Vosk writes
/// what it heard (the chess lexicon's rule, without its "[unk]").
fn normalise(text: &str) -> String {
    crate::heard_text::normalise_keeping(text, |_| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8, via: &[u8], capture: bool, king: bool) -> DraughtsMoveText {
        DraughtsMoveText {
            from: DraughtsSquare::Number(from),
            to: DraughtsSquare::Number(to),
            via: via.iter().map(|&n| DraughtsSquare::Number(n)).collect(),
            capture,
            king,
        }
    }

    fn say(lang: &str, m: &DraughtsMoveText, with_path: bool) -> String {
        word_draughts_move(Phrasebook::builtin(lang).unwrap(), m, with_path).unwrap()
    }

    #[test]
    fn golden_quiet_moves_and_captures_by_number() {
        let quiet = mv(32, 28, &[], false, false);
        assert_eq!(say("pl", &quiet, false), "trzydzieści dwa — dwadzieścia osiem");
        assert_eq!(say("de", &quiet, false), "zweiunddreißig — achtundzwanzig");
        assert_eq!(say("en", &quiet, false), "thirty-two — twenty-eight");
        let capture = mv(28, 17, &[], true, false);
        assert_eq!(say("pl", &capture, false), "dwadzieścia osiem bije siedemnaście");
        assert_eq!(say("de", &capture, false), "achtundzwanzig schlägt siebzehn");
        assert_eq!(say("en", &capture, false), "twenty-eight takes seventeen");
    }

    fn irregularity(kind: &str, moves: Vec<DraughtsMoveText>) -> DraughtsIrregularityText {
        DraughtsIrregularityText {
            kind: kind.into(),
            moves,
            ply: None,
            required: None,
            taken: None,
            squares: Vec::new(),
            fixes: Vec::new(),
        }
    }

    fn word_irr(lang: &str, irr: &DraughtsIrregularityText) -> String {
        word_draughts_irregularity(Phrasebook::builtin(lang).unwrap(), irr).unwrap()
    }

    /// 5.4.6 in the player's language, with the fixes square by square.
    #[test]
    fn golden_5_4_6_capture_omitted_with_its_fixes_in_de_pl_en() {
        let mut irr = irregularity("capture_omitted", vec![mv(31, 27, &[], false, false)]);
        irr.required = Some(1);
        irr.fixes = vec![
            DraughtsFix::Remove(DraughtsSquare::Number(27)),
            DraughtsFix::Put(DraughtsSquare::Number(31), DraughtsPiece { white: true, king: false }),
        ];
        assert_eq!(
            word_irr("en", &irr),
            "thirty-one — twenty-seven although capturing was compulsory pieces to take one. \
             take the piece off twenty-seven. put a white man on thirty-one"
        );
        assert_eq!(
            word_irr("de", &irr),
            "einunddreißig — siebenundzwanzig obwohl Schlagpflicht bestand zu schlagende Steine eins. \
             Stein von siebenundzwanzig nehmen. weißen Stein auf einunddreißig stellen"
        );
        assert_eq!(
            word_irr("pl", &irr),
            "trzydzieści jeden — dwadzieścia siedem mimo obowiązku bicia liczba bierek do zbicia jeden. \
             zdejmij bierkę z pola dwadzieścia siedem. postaw białego pionka na polu trzydzieści jeden"
        );
    }

    /// Every case has its sentence in every built-in language, each naming its
    /// facts (the move, the counts, the squares) and leaving no placeholder.
    #[test]
    fn every_irregularity_kind_is_worded_in_de_pl_en() {
        let kinds = [
            "two_moves_in_a_row",
            "wrong_direction",
            "opponents_piece",
            "capture_omitted",
            "fewer_than_maximum",
            "not_all_removed",
            "wrong_piece_removed",
            "removal_order",
            "boards_differ",
            "not_executed",
            "records_differ",
        ];
        for lang in crate::BUILTIN_LANGUAGES {
            let book = Phrasebook::builtin(lang).unwrap();
            let mut said = Vec::new();
            for kind in kinds {
                let mut irr =
                    irregularity(kind, vec![mv(28, 17, &[22], true, false), mv(19, 23, &[], false, false)]);
                irr.ply = Some(7);
                irr.required = Some(3);
                irr.taken = Some(2);
                irr.squares = vec![DraughtsSquare::Number(33)];
                irr.fixes = vec![DraughtsFix::Put(
                    DraughtsSquare::Number(46),
                    DraughtsPiece { white: false, king: true },
                )];
                let text = word_irr(lang, &irr);
                assert!(!text.contains(['{', '}']), "{lang} {kind}: {text}");
                let first = word_draughts_move(book, &irr.moves[0], false).unwrap();
                // Differing records name the move number, not a move (the sheets name theirs).
                if kind != "records_differ" {
                    assert!(text.contains(&first), "{lang} {kind} names the move: {text}");
                }
                let n = |n| book.numbers().spell(n);
                let fix = book.draughts().unwrap().black_king.say();
                assert!(
                    text.rsplit(". ").next().is_some_and(|last| last.contains(fix) && last.contains(&n(46))),
                    "{lang} {kind} says the fix: {text}"
                );
                match kind {
                    "two_moves_in_a_row" | "boards_differ" => {
                        let second = word_draughts_move(book, &irr.moves[1], false).unwrap();
                        assert!(text.contains(&second), "{lang} {kind}: {text}");
                    }
                    "fewer_than_maximum" => {
                        assert!(text.contains(&n(2)) && text.contains(&n(3)), "{lang} {kind}: {text}")
                    }
                    "capture_omitted" => assert!(text.contains(&n(3)), "{lang} {kind}: {text}"),
                    "not_all_removed" | "wrong_piece_removed" => {
                        assert!(text.contains(&n(33)), "{lang} {kind}: {text}")
                    }
                    _ => {}
                }
                if matches!(kind, "boards_differ" | "not_executed" | "records_differ") {
                    assert!(text.contains(&n(7)), "{lang} {kind} names the move number: {text}");
                }
                said.push(text);
            }
            let mut distinct = said.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), kinds.len(), "{lang}: each case has its own words");
        }
        let unknown = irregularity("moon_landing", Vec::new());
        assert!(word_draughts_irregularity(Phrasebook::builtin("en").unwrap(), &unknown).is_err());
    }

    /// 5.7 / the correction, and the draws of article 6 on request.
    #[test]
    fn golden_decisions_and_6_1_to_6_4_draw_facts_in_de_pl_en() {
        let book = |l| Phrasebook::builtin(l).unwrap();
        let fix = [DraughtsFix::Remove(DraughtsSquare::Number(27))];
        assert_eq!(
            word_draughts_decision(book("en"), true, &fix).unwrap(),
            "the opponent accepts the position play goes on"
        );
        assert_eq!(
            word_draughts_decision(book("pl"), false, &fix).unwrap(),
            "przeciwnik żąda poprawienia. zdejmij bierkę z pola dwadzieścia siedem"
        );
        assert_eq!(
            word_draughts_decision(book("de"), false, &fix).unwrap(),
            "der Gegner verlangt die Berichtigung. Stein von siebenundzwanzig nehmen"
        );
        let facts = DraughtsDrawFacts { repetitions: 2, king_moves: 3, king_limit: 25, ending: None };
        assert_eq!(
            word_draughts_draw_facts(book("en"), &facts).unwrap(),
            "this position stood on the board two times. moves of kings only three of twenty-five"
        );
        let ending =
            DraughtsDrawFacts { repetitions: 1, king_moves: 0, king_limit: 20, ending: Some((false, 4)) };
        assert_eq!(
            word_draughts_draw_facts(book("pl"), &ending).unwrap(),
            "ta pozycja wystąpiła na planszy razy jeden. posunięcia tylko damkami zero z dwadzieścia. \
             dwie bierki przeciw samotnej damce pozostało posunięć cztery"
        );
        let long = DraughtsDrawFacts { ending: Some((true, 16)), ..facts };
        assert_eq!(
            word_draughts_draw_facts(book("de"), &long).unwrap(),
            "diese Stellung stand zwei mal auf dem Brett. Züge nur mit Damen drei von fünfundzwanzig. \
             drei Steine gegen eine einzelne Dame verbleibende Züge sechzehn"
        );
    }

    #[test]
    fn golden_multiple_capture_path_on_request_and_a_new_king() {
        let multi = mv(28, 6, &[17], true, false);
        assert_eq!(say("pl", &multi, false), "dwadzieścia osiem bije sześć");
        assert_eq!(say("pl", &multi, true), "dwadzieścia osiem bije sześć przez siedemnaście");
        assert_eq!(say("de", &multi, true), "achtundzwanzig schlägt sechs über siebzehn");
        let crowned = mv(7, 1, &[], false, true);
        assert_eq!(say("pl", &crowned, false), "siedem — jeden damka");
        assert_eq!(say("de", &crowned, false), "sieben — eins Dame");
        assert_eq!(say("en", &crowned, false), "seven — one king");
    }

    #[test]
    fn the_64_square_version_says_letters_and_ranks_and_bad_squares_are_errors() {
        let m = DraughtsMoveText {
            from: DraughtsSquare::Coordinates(File::C, Rank::Third),
            to: DraughtsSquare::Coordinates(File::D, Rank::Fourth),
            via: Vec::new(),
            capture: false,
            king: false,
        };
        let book = Phrasebook::builtin("de").unwrap();
        let expected = format!(
            "{} {} — {} {}",
            book.letter(File::C).say(),
            book.rank(Rank::Third).say(),
            book.letter(File::D).say(),
            book.rank(Rank::Fourth).say()
        );
        assert_eq!(say("de", &m, false), expected);
        assert!(word_draughts_move(book, &mv(51, 1, &[], false, false), false).is_err());
    }

    #[test]
    fn spoken_moves_with_or_without_the_capture_word_and_a_pair_asked_back() {
        let pl = Phrasebook::builtin("pl").unwrap();
        let legal =
            [mv(32, 28, &[], false, false), mv(32, 27, &[], false, false), mv(33, 28, &[], false, false)];
        assert_eq!(
            understand_draughts(pl, "trzydzieści dwa dwadzieścia osiem", &legal),
            DraughtsHeard::Move(0)
        );
        assert_eq!(
            understand_draughts(pl, "Trzydzieści trzy — dwadzieścia osiem", &legal),
            DraughtsHeard::Move(2)
        );
        assert_eq!(
            understand_draughts(pl, "trzydzieści dwa bije dwadzieścia osiem", &legal),
            DraughtsHeard::Reject
        );
        assert_eq!(understand_draughts(pl, "dwadzieścia osiem", &legal), DraughtsHeard::Reject);
        // Two captures from 28 to 19 over different men: named by start and end, asked back;
        // with the intermediate square said, one move.
        let pair = [mv(28, 19, &[11, 2], true, false), mv(28, 19, &[17, 8], true, false)];
        let en = Phrasebook::builtin("en").unwrap();
        assert_eq!(
            understand_draughts(en, "twenty-eight takes nineteen", &pair),
            DraughtsHeard::Ask(vec![0, 1])
        );
        assert_eq!(understand_draughts(en, "twenty eight nineteen", &pair), DraughtsHeard::Ask(vec![0, 1]));
        assert_eq!(
            understand_draughts(en, "twenty eight takes seventeen takes nineteen", &pair),
            DraughtsHeard::Move(1)
        );
        let de = Phrasebook::builtin("de").unwrap();
        assert_eq!(
            understand_draughts(de, "achtundzwanzig schlägt elf zwei neunzehn", &pair),
            DraughtsHeard::Move(0)
        );
    }

    #[test]
    fn words_that_split_more_than_one_way_are_asked_back() {
        // "jeden dwadzieścia osiem" is 1-28, or 1 via 20 to 8: both moves exist here.
        let pl = Phrasebook::builtin("pl").unwrap();
        let legal = [mv(1, 28, &[], false, false), mv(1, 8, &[20], true, false)];
        assert_eq!(
            understand_draughts(pl, "jeden dwadzieścia osiem", &legal),
            DraughtsHeard::Ask(vec![0, 1])
        );
        // With the capture word the reading is one: 1 takes 8 via 20 is not said that way,
        // "jeden bije osiem" is.
        assert_eq!(understand_draughts(pl, "jeden bije osiem", &legal), DraughtsHeard::Move(1));
        // Hostile text: nothing fits, nothing panics.
        let long = "dwadzieścia ".repeat(200);
        assert_eq!(understand_draughts(pl, &long, &legal), DraughtsHeard::Reject);
        let explosive = format!("{} nic", "dwadzieścia osiem ".repeat(60));
        assert_eq!(understand_draughts(pl, &explosive, &legal), DraughtsHeard::Reject);
    }

    #[test]
    fn the_grammar_holds_every_legal_move_with_and_without_the_capture_word() {
        let de = Phrasebook::builtin("de").unwrap();
        let legal = [mv(32, 28, &[], false, false), mv(28, 17, &[], true, false)];
        let g = draughts_grammar(de, &legal);
        assert_eq!(
            g,
            ["zweiunddreißig achtundzwanzig", "achtundzwanzig siebzehn", "achtundzwanzig schlägt siebzehn"]
        );
    }
}
