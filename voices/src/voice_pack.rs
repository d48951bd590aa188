//! Which words a voice pack holds, from a phrasebook: their stable keys, and
//! how an utterance's text is cut into pack words. `station-voice-packs`
//! renders the clips (`station_voice_packs::build_pack`), the audio driver plays them.

use crate::{Gender, Message, Phrasebook, PluralForm, WordId};
use shakmaty::Role;

/// Numbers up to this get clips: enough for clock times (0–59), hours and
/// move counts of any normal game.
pub const PACK_NUMBERS_UP_TO: u64 = 199;

/// The pack key of a move word: also its clip's file stem.
pub fn word_key(id: WordId) -> &'static str {
    const LETTERS: [&str; 8] =
        ["letter.a", "letter.b", "letter.c", "letter.d", "letter.e", "letter.f", "letter.g", "letter.h"];
    const RANKS: [&str; 8] = ["rank.1", "rank.2", "rank.3", "rank.4", "rank.5", "rank.6", "rank.7", "rank.8"];
    match id {
        WordId::Letter(file) => LETTERS[file.to_usize()],
        WordId::Rank(rank) => RANKS[rank.to_usize()],
        WordId::Piece(role) => piece_key(role),
        WordId::Capture => "word.capture",
        WordId::Check => "word.check",
        WordId::Mate => "word.mate",
        WordId::Stalemate => "word.stalemate",
        WordId::EnPassant => "word.en_passant",
        WordId::ShortCastling => "word.short_castling",
        WordId::LongCastling => "word.long_castling",
        WordId::From => "word.from",
        WordId::To => "word.to",
        WordId::Back => "word.back",
        WordId::Digit(d) => DIGITS[usize::from(d).min(9)],
    }
}

/// The keys of the ICCF digits (`[voice] move_reading = "iccf"`), said with
/// the phrasebook's number words: a pack holds those as numbers (found by
/// their text), so no clip carries these keys.
const DIGITS: [&str; 10] = [
    "digit.0", "digit.1", "digit.2", "digit.3", "digit.4", "digit.5", "digit.6", "digit.7", "digit.8",
    "digit.9",
];

fn piece_key(role: Role) -> &'static str {
    match role {
        Role::King => "piece.king",
        Role::Queen => "piece.queen",
        Role::Rook => "piece.rook",
        Role::Bishop => "piece.bishop",
        Role::Knight => "piece.knight",
        Role::Pawn => "piece.pawn",
    }
}

/// The pack key of one of the station's messages.
pub fn message_key(message: Message) -> &'static str {
    match message {
        Message::StationReady => "message.station_ready",
        Message::BoardConnected => "message.board_connected",
        Message::BoardDisconnected => "message.board_disconnected",
        Message::BoardMismatch => "message.board_mismatch",
        Message::PieceLifted => "message.piece_lifted",
        Message::MoveAnnounced => "message.move_announced",
        Message::WaitingForMove => "message.waiting_for_move",
        Message::YourMove => "message.your_move",
        Message::IllegalMove => "message.illegal_move",
        Message::CorrectPosition => "message.correct_position",
        Message::RookFirst => "message.rook_first",
        Message::WhichMove => "message.which_move",
        Message::PositionRestored => "message.position_restored",
        Message::CallArbiter => "message.call_arbiter",
        Message::GameOver => "message.game_over",
        Message::ClockNotAnswering => "message.clock_not_answering",
        Message::ClockAnswering => "message.clock_answering",
        Message::GamepadDisconnected => "message.gamepad_disconnected",
        Message::GamepadConnected => "message.gamepad_connected",
        Message::SpeechUnavailable => "message.speech_unavailable",
        Message::SpeechAvailable => "message.speech_available",
        Message::BoardDiffers => "message.board_differs",
        Message::SquareMissing => "message.square_missing",
        Message::SquareExtra => "message.square_extra",
        Message::JournalDamaged => "message.journal_damaged",
        Message::ClockNotInMode23 => "message.clock_not_in_mode_23",
        Message::PositionFirstTime => "message.position_first_time",
        Message::PositionSecondTime => "message.position_second_time",
        Message::PositionThirdTime => "message.position_third_time",
        Message::PositionTimes => "message.position_times",
        Message::MovesWithoutPawnOrCapture => "message.moves_without_pawn_or_capture",
        Message::TakenBack => "message.taken_back",
        Message::IllegalTakenBack => "message.illegal_taken_back",
        Message::PieceBack => "message.piece_back",
        Message::PieceOff => "message.piece_off",
        Message::OpponentToMove => "message.opponent_to_move",
        Message::YouClaimDraw => "message.you_claim_draw",
        Message::OpponentClaimsDraw => "message.opponent_claims_draw",
        Message::ClaimWritten => "message.claim_written",
        Message::GroundThreefold => "message.ground_threefold",
        Message::GroundFiftyMoves => "message.ground_fifty_moves",
        Message::ClocksStopped => "message.clocks_stopped",
        Message::ClaimUpheld => "message.claim_upheld",
        Message::ClaimRejected => "message.claim_rejected",
        Message::TimeAdded => "message.time_added",
        Message::TimeSet => "message.time_set",
        Message::MovesSet => "message.moves_set",
        Message::MoveRevised => "message.move_revised",
        Message::BoardRightAgain => "message.board_right_again",
        Message::White => "message.white",
        Message::Black => "message.black",
        Message::Wins => "message.wins",
        Message::Drawn => "message.drawn",
        Message::NoResult => "message.no_result",
        Message::ResultCheckmate => "message.result_checkmate",
        Message::ResultResignation => "message.result_resignation",
        Message::ResultAgreement => "message.result_agreement",
        Message::ResultStalemate => "message.result_stalemate",
        Message::ResultThreefold => "message.result_threefold",
        Message::ResultFiftyMoves => "message.result_fifty_moves",
        Message::ResultInsufficientMaterial => "message.result_insufficient_material",
        Message::ResultIllegalMoves => "message.result_illegal_moves",
        Message::ResultNewGame => "message.result_new_game",
        Message::ResultTimeForfeit => "message.result_time_forfeit",
        Message::ResultAdjudication => "message.result_adjudication",
        Message::ResultInfraction => "message.result_infraction",
        Message::ResultAbandoned => "message.result_abandoned",
        Message::ResultNoPieces => "message.result_no_pieces",
        Message::ResultNoMove => "message.result_no_move",
        Message::ResultKingMoves => "message.result_king_moves",
        Message::ResultEnding => "message.result_ending",
    }
}

/// One word (or fixed phrase) a pack holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackWord {
    /// Stable, language-free key ("letter.a", "message.station_ready", "number.21").
    pub key: String,
    /// What is said.
    pub text: String,
}

/// Every word a pack for `book` should hold: move words, results, messages,
/// clock words and the numbers the clock uses, each text once.
pub fn pack_words(book: &Phrasebook) -> Vec<PackWord> {
    use shakmaty::{File, Rank};
    let mut out: Vec<PackWord> = Vec::new();
    let mut add = |key: String, text: &str| {
        let text = text.trim();
        // Move words and messages keep their keys even when they share a
        // text (the renderer makes one clip for both); number and clock
        // forms are only there to be found by text, so one key per text.
        let by_text_only =
            key.starts_with("number.") || key.starts_with("clock.") || key.starts_with("text.");
        let taken = out
            .iter()
            .any(|w| w.key == key || (by_text_only && w.text.to_lowercase() == text.to_lowercase()));
        if !text.is_empty() && !taken {
            out.push(PackWord { key, text: text.to_owned() });
        }
    };
    for file in File::ALL {
        add(word_key(WordId::Letter(file)).to_owned(), book.letter(file).say());
    }
    for rank in Rank::ALL {
        add(word_key(WordId::Rank(rank)).to_owned(), book.rank(rank).say());
    }
    for role in Role::ALL {
        add(piece_key(role).to_owned(), book.piece(role).say());
    }
    let w = book.words();
    for (key, entry) in [
        ("word.capture", &w.capture),
        ("word.check", &w.check),
        ("word.mate", &w.mate),
        ("word.stalemate", &w.stalemate),
        ("word.en_passant", &w.en_passant),
        ("word.short_castling", &w.short_castling),
        ("word.long_castling", &w.long_castling),
        ("word.from", &w.from),
        ("word.to", &w.to),
        ("word.back", &w.back),
        ("word.draw_offer", &w.draw_offer),
        ("word.white_wins", &w.white_wins),
        ("word.black_wins", &w.black_wins),
        ("word.draw", &w.draw),
    ] {
        add(key.to_owned(), entry.say());
    }
    // Templates (`{square}: …`) are filled in at run time and spoken as text:
    // their own words get clips one by one (the filled-in parts are pack words).
    for message in Message::ALL {
        let say = book.message(message).say();
        if !say.contains('{') {
            add(message_key(message).to_owned(), say);
            continue;
        }
        for piece in split_text(&without_placeholders(say)) {
            if let TextPiece::Word(word) = piece {
                add(format!("text.{word}"), &word);
            }
        }
    }
    // Draughts moves (`[draughts]`): the capture word, the word before the
    // squares passed, a new king.
    if let Some(d) = book.draughts() {
        for (key, entry) in
            [("draughts.capture", &d.capture), ("draughts.via", &d.via), ("draughts.king", &d.king)]
        {
            add(key.to_owned(), entry.say());
        }
    }
    let clock = book.clock();
    add("clock.own".to_owned(), &clock.own);
    add("clock.opponent".to_owned(), &clock.opponent);
    for (name, noun) in
        [("hour", &clock.hour), ("minute", &clock.minute), ("second", &clock.second), ("moves", &clock.moves)]
    {
        for (form, label) in
            [(PluralForm::One, "one"), (PluralForm::Other, "other"), (PluralForm::Few, "few")]
        {
            add(format!("clock.{name}.{label}"), noun.form(form));
            // The clock capitalises the first word of a sentence ("Zweiundzwanzig Züge").
        }
    }
    let numbers = book.numbers();
    let mut text = String::new();
    // A number elided onto its noun is one word: Italian "un'ora".
    for noun in [&clock.hour, &clock.minute, &clock.second, &clock.moves] {
        for n in 0..=PACK_NUMBERS_UP_TO {
            text.clear();
            numbers.write(n, Some(noun.gender), &mut text);
            if text.ends_with(['\'', '’']) {
                let joined = format!("{text}{}", noun.form(numbers.plural.form(n)));
                add(format!("text.{}", joined.to_lowercase()), &joined);
            }
        }
    }
    for n in 0..=PACK_NUMBERS_UP_TO {
        for (gender, suffix) in [
            (None, ""),
            (Some(Gender::Masculine), ".masculine"),
            (Some(Gender::Feminine), ".feminine"),
            (Some(Gender::Neuter), ".neuter"),
        ] {
            text.clear();
            numbers.write(n, gender, &mut text);
            add(format!("number.{n}{suffix}"), &text);
            // Spoken text is looked up word by word: the words of a number
            // of several ("treinta y dos", "тридцать два") are clips too.
            if text.split_whitespace().nth(1).is_some() {
                for piece in split_text(&text) {
                    if let TextPiece::Word(word) = piece {
                        add(format!("text.{word}"), &word);
                    }
                }
            }
        }
    }
    out
}

/// A piece of free text: a word, or a pause at punctuation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextPiece {
    /// A word, lower-cased for lookup.
    Word(String),
    /// Sentence or clause punctuation: a longer gap.
    Pause,
}

/// Cuts text into lower-case words and pauses ("Sie: eine Stunde." →
/// sie, pause, eine, stunde, pause). Hyphens stay inside words ("one-zero").
pub fn split_text(text: &str) -> Vec<TextPiece> {
    let mut out = Vec::new();
    for raw in text.split_whitespace() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        let word = word.trim_matches('-');
        if !word.is_empty() {
            out.push(TextPiece::Word(word.to_lowercase()));
        }
        // A dash between words ("zweiunddreißig — achtundzwanzig") is a pause
        // too: speech has no punctuation to read out.
        if raw.ends_with(['.', ':', ',', ';', '!', '?', '—', '–'])
            || (word.is_empty() && raw.contains(['—', '–', '-']))
        {
            out.push(TextPiece::Pause);
        }
    }
    out
}

/// A message template without its `{…}` placeholders.
fn without_placeholders(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut depth = 0usize;
    for c in template.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_words_cover_move_words_and_numbers() {
        let Some(de) = Phrasebook::builtin("de") else {
            return;
        };
        let words = pack_words(de);
        let has = |text: &str| words.iter().any(|w| w.text == text);
        for text in
            ["Anna", "Hector", "Springer", "Kurze Rochade", "Station bereit", "achtundfünfzig", "Züge"]
        {
            assert!(has(text), "{text}");
        }
        // "eins" is both a rank and a number: the number is found by text.
        assert_eq!(words.iter().filter(|w| w.text == "eins").count(), 1);
        let keys: std::collections::HashSet<_> = words.iter().map(|w| &w.key).collect();
        assert_eq!(keys.len(), words.len());
    }

    /// `move_reading = "iccf"`: the digits' number words are in every pack
    /// (found by their text), so an ICCF reading is said from clips too.
    #[test]
    fn pack_words_hold_the_iccf_digits() {
        for lang in crate::BUILTIN_LANGUAGES {
            let Some(book) = Phrasebook::builtin(lang) else { continue };
            let words = pack_words(book);
            for d in 1..=8 {
                let text = &book.numbers().small[d];
                assert!(words.iter().any(|w| w.text.eq_ignore_ascii_case(text)), "{lang} {d} {text}");
            }
        }
    }

    #[test]
    fn split_text_marks_pauses() {
        use TextPiece::*;
        assert_eq!(
            split_text("Sie: eine Stunde. one-zero"),
            vec![
                Word("sie".into()),
                Pause,
                Word("eine".into()),
                Word("stunde".into()),
                Pause,
                Word("one-zero".into())
            ]
        );
    }

    /// What a draughts game and a differing board make the station say is
    /// all in the pack: the draughts words, every square number, the words
    /// of the templated messages; a dash between squares is a pause.
    #[test]
    fn draughts_moves_and_templated_messages_are_said_from_pack_words() {
        use crate::draughts::{DraughtsMoveText, DraughtsSquare, word_draughts_move};
        for lang in crate::BUILTIN_LANGUAGES {
            let Some(book) = Phrasebook::builtin(lang) else { continue };
            let words = pack_words(book);
            let has = |w: &str| words.iter().any(|p| p.text.to_lowercase() == w);
            let n = DraughtsSquare::Number;
            let moves = [
                DraughtsMoveText { from: n(32), to: n(28), via: vec![], capture: false, king: false },
                DraughtsMoveText { from: n(28), to: n(6), via: vec![n(17)], capture: true, king: false },
                DraughtsMoveText { from: n(50), to: n(1), via: vec![], capture: false, king: true },
            ];
            for mv in &moves {
                let said = word_draughts_move(book, mv, true).unwrap();
                for piece in split_text(&said) {
                    if let TextPiece::Word(w) = piece {
                        assert!(has(&w), "{lang}: {w:?} of {said:?} has no clip");
                    }
                }
            }
            // A message without placeholders is one clip of its own.
            for message in Message::ALL.into_iter().filter(|m| book.message(*m).say().contains('{')) {
                for piece in split_text(&without_placeholders(book.message(message).say())) {
                    if let TextPiece::Word(w) = piece {
                        assert!(has(&w), "{lang}: {w:?} of {message:?} has no clip");
                    }
                }
            }
        }
        assert_eq!(
            split_text("zweiunddreißig — achtundzwanzig"),
            vec![
                TextPiece::Word("zweiunddreißig".into()),
                TextPiece::Pause,
                TextPiece::Word("achtundzwanzig".into())
            ]
        );
    }
}
