//! `station announce --rules draughts|draughts64`: draughts moves in words.
//!
//! The moves (`32-28`, `28x17`, `28x17x6`; on 8×8 `c3-d4`) are said by their
//! squares as written. They are also played from the initial position while
//! they are legal there, so a move that makes a king names it (3.7); once a
//! move is not legal in that game the rest are said from their notation alone.

use anyhow::{Context, Result, bail};
use shakmaty::{File, Rank};
use station_core::draughts::{DraughtsPath, Position, Square, Variant};
use station_voices::Phrasebook;
use station_voices::draughts::{DraughtsMoveText, DraughtsSquare, word_draughts_move};

/// One line of words per move: the moves as the user typed them, each read
/// once here (the command line is an edge).
pub fn announce_moves(lang: &str, variant: Variant, moves: &[String]) -> Result<Vec<String>> {
    let book = Phrasebook::builtin(lang).with_context(|| format!("no phrasebook for language {lang:?}"))?;
    if moves.is_empty() {
        bail!("nothing to announce: give draughts moves such as 32-28 or 28x17x6");
    }
    let mut game = Some(Position::initial(variant));
    let mut lines = Vec::new();
    for text in moves {
        let path = read_move(variant, text)?;
        let played =
            game.as_ref().and_then(|pos| path.find_in(pos).ok().flatten().map(|m| (m.apply(pos), m)));
        let king = played.as_ref().is_some_and(|(_, m)| m.promotes);
        game = played.map(|(next, _)| next);
        lines.push(word_draughts_move(book, &move_words(variant, &path, king)?, true)?);
    }
    Ok(lines)
}

/// A move's words (`32-28`, `28x17x6`) in `book`'s language, the path said
/// when there is one; `king` adds the new king (3.7). The station's speaking
/// path says agreed draughts moves with this.
pub fn say_move(book: &Phrasebook, variant: Variant, path: &DraughtsPath, king: bool) -> Result<String> {
    say_move_with_path(book, variant, path, king, true)
}

/// [`say_move`], the intermediate squares of a multiple capture said only with
/// `with_path` (VIII.2.3: start and end announced; the path on request).
pub fn say_move_with_path(
    book: &Phrasebook,
    variant: Variant,
    path: &DraughtsPath,
    king: bool,
    with_path: bool,
) -> Result<String> {
    Ok(word_draughts_move(book, &move_words(variant, path, king)?, with_path)?)
}

/// A move (`32-28`, `28x17x6`) as the squares voices says, its squares
/// those of `variant`'s board.
pub fn move_words(variant: Variant, path: &DraughtsPath, king: bool) -> Result<DraughtsMoveText> {
    let squares = path
        .board_squares(variant)
        .filter(|s| s.len() >= 2)
        .with_context(|| format!("`{path}` is not a move on this board ({})", squares_hint(variant)))?;
    let say = |sq: Square| say_square(variant, sq);
    Ok(DraughtsMoveText {
        from: say(squares[0]),
        to: say(squares[squares.len() - 1]),
        via: squares[1..squares.len() - 1].iter().map(|&s| say(s)).collect(),
        capture: path.is_capture(),
        king,
    })
}

/// A square in the board's own name (`28`, `c3`) as voices says it.
pub fn square_words(variant: Variant, name: &str) -> Option<DraughtsSquare> {
    variant.parse_square(name).map(|sq| say_square(variant, sq))
}

/// A move as the user typed it (`32-28`, `28X17`, `c3-d4`), read once; a
/// square not on `variant`'s board is named.
fn read_move(variant: Variant, text: &str) -> Result<DraughtsPath> {
    let capture = text.contains(['x', 'X']);
    let parts: Vec<&str> = text.split(['-', 'x', 'X']).collect();
    let not_a_move = || format!("`{text}` is not a draughts move (write 32-28, 28x17 or 28x17x6)");
    if parts.len() < 2 || (!capture && parts.len() != 2) || (capture && text.contains('-')) {
        bail!(not_a_move());
    }
    for p in &parts {
        variant.parse_square(p).with_context(|| {
            format!("`{text}`: `{p}` is not a square of this board ({})", squares_hint(variant))
        })?;
    }
    DraughtsPath::read_loosely(text).with_context(not_a_move)
}

fn squares_hint(variant: Variant) -> &'static str {
    match variant {
        Variant::International => "1–50",
        Variant::Draughts64 => "the dark squares a1–h8",
    }
}

/// A square as it is said: its number, or on 8×8 its letter and rank.
pub(crate) fn say_square(variant: Variant, sq: Square) -> DraughtsSquare {
    match variant {
        Variant::International => DraughtsSquare::Number(sq.number()),
        Variant::Draughts64 => {
            let (row, col) = sq.coords(variant);
            DraughtsSquare::Coordinates(File::new(u32::from(col)), Rank::new(u32::from(7 - row)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(lang: &str, variant: Variant, moves: &[&str]) -> Result<Vec<String>> {
        announce_moves(lang, variant, &moves.iter().map(|m| m.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn the_contract_examples_in_three_languages() {
        let moves = ["32-28", "28x17", "28x17x6"];
        assert_eq!(
            words("pl", Variant::International, &moves).unwrap(),
            [
                "trzydzieści dwa — dwadzieścia osiem",
                "dwadzieścia osiem bije siedemnaście",
                "dwadzieścia osiem bije sześć przez siedemnaście"
            ]
        );
        assert_eq!(
            words("de", Variant::International, &moves[..1]).unwrap(),
            ["zweiunddreißig — achtundzwanzig"]
        );
        assert_eq!(
            words("en", Variant::International, &moves[1..2]).unwrap(),
            ["twenty-eight takes seventeen"]
        );
    }

    #[test]
    fn a_game_played_from_the_start_names_its_new_king() {
        // The shared games' first game ends 50x11 after a king was made on 50... use a
        // short legal run instead: a man reaching the last row is named a king (3.7).
        let pdn = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/data/draughts/selfplay-international.pdn"),
        )
        .unwrap();
        let game = &station_core::draughts::pdn::read_games(&pdn).unwrap()[0];
        let texts: Vec<String> = game.moves.iter().map(|m| m.pdn(game.variant, true)).collect();
        let lines = announce_moves("en", Variant::International, &texts).unwrap();
        let kings = game.moves.iter().filter(|m| m.promotes).count();
        assert!(kings > 0);
        assert_eq!(lines.iter().filter(|l| l.ends_with(" king")).count(), kings);
    }

    #[test]
    fn bad_moves_are_named() {
        let err = words("pl", Variant::International, &["32-51"]).unwrap_err().to_string();
        assert!(err.contains("51"), "{err}");
        assert!(words("pl", Variant::International, &["32+28"]).is_err());
        let on64 = words("de", Variant::Draughts64, &["c3-d4"]).unwrap();
        assert_eq!(on64.len(), 1);
        assert!(words("de", Variant::Draughts64, &["c3-e5"]).is_ok(), "notation only, like any move text");
        assert!(words("de", Variant::Draughts64, &["a2-b3"]).is_err(), "a2 is a light square");
        assert!(words("de", Variant::Draughts64, &["c3-d5"]).is_err(), "d5 is a light square");
    }
}
