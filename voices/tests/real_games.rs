//! Every move of real games, worded in German, Polish and English.
//!
//! Two kinds of check: grammar invariants over many positions (the tokens,
//! read back as notation, must give the move's SAN, and each token must be
//! the phrasebook's word for what it stands for), and golden files that pin
//! the exact wording of the first 600 plies of `tests/data/games.pgn`.
//! Regenerate the golden files with `UPDATE_GOLDEN=1 cargo test`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position, Role};
use station_voices::{Announcement, MoveReading, Phrasebook, VoiceSettings, WordId, Wording};

const LANGUAGES: [&str; station_voices::BUILTIN_LANGUAGES.len()] = station_voices::BUILTIN_LANGUAGES;
const GOLDEN_PLIES: usize = 600;

fn vendored_games() -> Vec<common::Game> {
    common::read_games(include_str!("data/games.pgn"))
}

/// Plays a game, calling `visit` with the position before each move, the
/// move and the SAN as written in the PGN.
fn walk(game: &common::Game, mut visit: impl FnMut(&Chess, &Move, &str)) {
    let mut pos = Chess::default();
    for san in &game.sans {
        let parsed =
            SanPlus::from_ascii(san.as_bytes()).unwrap_or_else(|e| panic!("{}: {san}: {e}", game.name));
        let mv = parsed.san.to_move(&pos).unwrap_or_else(|e| panic!("{}: {san}: {e}", game.name));
        visit(&pos, &mv, san);
        pos.play_unchecked(mv);
    }
}

fn role_char(role: Role) -> char {
    role.upper_char()
}

/// Reads the tokens back as SAN, using only their ids.
fn as_san(said: &Announcement<'_>) -> String {
    let mut san = String::new();
    let mut seen_square = false;
    for token in said.tokens() {
        match token.id {
            WordId::Piece(role) if seen_square => {
                san.push('=');
                san.push(role_char(role));
            }
            WordId::Piece(Role::Pawn) => {}
            WordId::Piece(role) => san.push(role_char(role)),
            WordId::Letter(file) => san.push(file.char()),
            WordId::Rank(rank) => {
                san.push(rank.char());
                // A rank after a letter closes a square; the target is the last.
                seen_square = san.len() >= 2 && san.as_bytes()[san.len() - 2].is_ascii_lowercase();
            }
            WordId::Capture => san.push('x'),
            WordId::Check => san.push('+'),
            WordId::Mate => san.push('#'),
            WordId::ShortCastling => san.push_str("O-O"),
            WordId::LongCastling => san.push_str("O-O-O"),
            WordId::EnPassant | WordId::Stalemate => {}
            WordId::From | WordId::To | WordId::Back | WordId::Digit(_) => san.push('?'),
        }
    }
    san
}

/// The phrasebook entry a token must come from.
fn expected_text(book: &Phrasebook, id: WordId) -> &str {
    let words = book.words();
    match id {
        WordId::Letter(file) => book.letter(file).say(),
        WordId::Rank(rank) => book.rank(rank).say(),
        WordId::Piece(role) => book.piece(role).say(),
        WordId::Capture => words.capture.say(),
        WordId::Check => words.check.say(),
        WordId::Mate => words.mate.say(),
        WordId::Stalemate => words.stalemate.say(),
        WordId::EnPassant => words.en_passant.say(),
        WordId::ShortCastling => words.short_castling.say(),
        WordId::LongCastling => words.long_castling.say(),
        WordId::From => words.from.say(),
        WordId::To => words.to.say(),
        WordId::Back => words.back.say(),
        WordId::Digit(d) => &book.numbers().small[usize::from(d)],
    }
}

/// Checks one worded move; returns a description of what is wrong, if anything.
fn check_move(language: &str, wording: &Wording, pos: &Chess, mv: &Move, pgn_san: &str) -> Option<String> {
    let book = Phrasebook::builtin(language)?;
    let said = match wording.word_move(pos, mv) {
        Ok(said) => said,
        Err(e) => return Some(format!("{pgn_san}: {e}")),
    };
    let san = SanPlus::from_move(pos.clone(), *mv).to_string();
    // The PGN and shakmaty agree on the notation (guards the reader). Some
    // scoresheets write "+" for a mate; the wording follows the position.
    let bare = |s: &str| s.trim_end_matches(['!', '?', '+', '#']).to_owned();
    if bare(&san) != bare(pgn_san) {
        return Some(format!("PGN has {pgn_san}, shakmaty writes {san}"));
    }
    let read_back = as_san(&said);
    if read_back != san {
        return Some(format!("{san}: tokens read back as {read_back} ({said})"));
    }
    for token in said.tokens() {
        if token.text != expected_text(book, token.id) || token.text.is_empty() {
            return Some(format!("{san}: token {token:?} is not the {language} word"));
        }
    }
    let ep_words = said.tokens().iter().filter(|t| t.id == WordId::EnPassant).count();
    if ep_words != usize::from(mv.is_en_passant()) {
        return Some(format!("{san}: {ep_words} en passant words ({said})"));
    }
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    let stalemate_words = said.tokens().iter().filter(|t| t.id == WordId::Stalemate).count();
    if stalemate_words != usize::from(after.is_stalemate()) {
        return Some(format!("{san}: {stalemate_words} stalemate words ({said})"));
    }
    let joined: Vec<&str> = said.words().collect();
    if said.to_string() != joined.join(" ") {
        return Some(format!("{san}: Display differs from the words"));
    }
    None
}

/// Every tenth game of the repository's collection (`tests/data/pgn/games`).
fn shared_games() -> Vec<common::Game> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/pgn/games");
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the repository's games at {}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    paths.sort();
    let mut games = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap_or_default();
        // Some files carry Latin-1 names in their tags; movetext is ASCII.
        let text = String::from_utf8_lossy(&bytes);
        // Every tenth game keeps a debug-build test run short while still
        // covering every file.
        games.extend(common::read_games(&text).into_iter().step_by(10));
    }
    games
}

#[test]
fn grammar_holds_for_every_move_of_real_games() {
    let mut games = vendored_games();
    games.extend(shared_games());
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for language in LANGUAGES {
        for settings in [
            VoiceSettings::language(language),
            VoiceSettings { long_form: false, name_pawns: true, ..VoiceSettings::language(language) },
        ] {
            let wording = Wording::new(&settings).expect("built-in language");
            for game in &games {
                walk(game, |pos, mv, san| {
                    checked += 1;
                    if let Some(problem) = check_move(language, &wording, pos, mv, san)
                        && failures.len() < 20
                    {
                        failures.push(format!("{language} {}: {problem}", game.name));
                    }
                });
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert!(checked >= 3 * 2 * 500, "only {checked} moves checked");
    eprintln!("checked {checked} worded moves");
}

#[test]
fn long_form_names_both_squares_in_real_games() {
    let games = vendored_games();
    for language in LANGUAGES {
        let settings = VoiceSettings { long_form: true, ..VoiceSettings::language(language) };
        let wording = Wording::new(&settings).expect("built-in language");
        for game in &games {
            walk(game, |pos, mv, san| {
                let said = wording.word_move(pos, mv).expect("legal");
                if mv.is_castle() {
                    return;
                }
                let squares: Vec<(WordId, WordId)> = said
                    .tokens()
                    .windows(2)
                    .map(|w| (w[0].id, w[1].id))
                    .filter(|(a, b)| matches!((a, b), (WordId::Letter(_), WordId::Rank(_))))
                    .collect();
                let (Some(from), to) = (mv.from(), mv.to()) else {
                    panic!("{san}: no from-square");
                };
                assert_eq!(
                    squares,
                    [
                        (WordId::Letter(from.file()), WordId::Rank(from.rank())),
                        (WordId::Letter(to.file()), WordId::Rank(to.rank())),
                    ],
                    "{language} {san}: {said}"
                );
            });
        }
    }
}

fn golden_text(language: &str, move_reading: MoveReading) -> String {
    let settings = VoiceSettings { move_reading, ..VoiceSettings::language(language) };
    let wording = Wording::new(&settings).expect("built-in language");
    let mut out = String::new();
    let mut plies = 0;
    for game in vendored_games() {
        walk(&game, |pos, mv, san| {
            if plies < GOLDEN_PLIES {
                let said = wording.word_move(pos, mv).expect("legal");
                let _ = writeln!(out, "{san}\t{said}");
                plies += 1;
            }
        });
    }
    assert_eq!(plies, GOLDEN_PLIES, "the test games are too short");
    out
}

#[test]
fn golden_wordings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let readings = LANGUAGES
        .into_iter()
        .map(|l| (l, MoveReading::Letters, format!("moves-{l}.txt")))
        .chain(LANGUAGES.into_iter().map(|l| (l, MoveReading::Iccf, format!("moves-iccf-{l}.txt"))));
    for (language, reading, file) in readings {
        let path = dir.join(file);
        let actual = golden_text(language, reading);
        if update {
            std::fs::write(&path, &actual).expect("write golden file");
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1)", path.display()));
        if let Some((line, (want, got))) =
            expected.lines().zip(actual.lines()).enumerate().find(|(_, (want, got))| want != got)
        {
            panic!("{} line {}: expected {want:?}, got {got:?}", path.display(), line + 1);
        }
        assert_eq!(expected.lines().count(), actual.lines().count(), "{}", path.display());
    }
}

/// `[voice] move_reading = "iccf"`: every move of real games is read as its
/// ICCF numbers (Appendix A), each digit the language's number word: the
/// digits give back the from- and to-square (the king's when castling) and
/// the promotion piece, and check or mate follow.
#[test]
fn iccf_reading_gives_back_the_squares_in_real_games() {
    let mut games = vendored_games();
    games.extend(shared_games().into_iter().step_by(5));
    let mut checked = 0usize;
    for language in LANGUAGES {
        let book = Phrasebook::builtin(language).expect("built-in");
        let settings = VoiceSettings { move_reading: MoveReading::Iccf, ..VoiceSettings::language(language) };
        let wording = Wording::new(&settings).expect("built-in language");
        for game in &games {
            walk(game, |pos, mv, san| {
                let said = wording.word_move(pos, mv).expect("legal");
                let digits: Vec<u8> = said
                    .tokens()
                    .iter()
                    .filter_map(|t| match t.id {
                        WordId::Digit(d) => Some(d),
                        _ => None,
                    })
                    .collect();
                let square = |f: u8, r: u8| {
                    shakmaty::Square::from_coords(
                        shakmaty::File::new(u32::from(f) - 1),
                        shakmaty::Rank::new(u32::from(r) - 1),
                    )
                };
                assert!(digits.len() == 4 || digits.len() == 5, "{language} {san}: {said}");
                assert!(digits.iter().all(|d| (1..=8).contains(d)), "{language} {san}: {said}");
                let (from, to) = (square(digits[0], digits[1]), square(digits[2], digits[3]));
                assert_eq!(Some(from), mv.from(), "{language} {san}: {said}");
                match *mv {
                    Move::Castle { king, rook } => {
                        let file = if rook < king { shakmaty::File::C } else { shakmaty::File::G };
                        assert_eq!(to, shakmaty::Square::from_coords(file, king.rank()), "{san}");
                    }
                    _ => assert_eq!(to, mv.to(), "{language} {san}: {said}"),
                }
                let promotion = digits
                    .get(4)
                    .map(|d| [Role::Queen, Role::Rook, Role::Bishop, Role::Knight][usize::from(*d) - 1]);
                assert_eq!(promotion, mv.promotion(), "{language} {san}: {said}");
                for token in said.tokens() {
                    assert_eq!(token.text, expected_text(book, token.id), "{language} {san}");
                }
                let mut after = pos.clone();
                after.play_unchecked(*mv);
                let marks =
                    said.tokens().iter().filter(|t| matches!(t.id, WordId::Check | WordId::Mate)).count();
                assert_eq!(marks, usize::from(after.is_check()), "{language} {san}: {said}");
                checked += 1;
            });
        }
    }
    assert!(checked >= 3 * 500, "only {checked} moves checked");
}
