//! PGN export (Seven Tag Roster, then SetUp/FEN for games not from the standard start).

use crate::game::Game;
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Color, Position};
use std::fmt::Write;

/// The Seven Tag Roster. Unknown values are `?` as the PGN standard asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SevenTags {
    /// Event name.
    pub event: String,
    /// Site.
    pub site: String,
    /// Date `YYYY.MM.DD`.
    pub date: String,
    /// Round.
    pub round: String,
    /// White player.
    pub white: String,
    /// Black player.
    pub black: String,
}

impl Default for SevenTags {
    fn default() -> Self {
        SevenTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
        }
    }
}

/// Writes `game` as PGN with the given tags and result (`1-0`, `0-1`, `1/2-1/2`, `*`).
pub fn write_pgn(game: &Game, tags: &SevenTags, result: &str) -> String {
    let mut out = String::new();
    for (name, value) in [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
        ("White", &tags.white),
        ("Black", &tags.black),
        ("Result", &result.to_string()),
    ] {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    let standard = *game.start() == shakmaty::Chess::default();
    if !standard {
        if game.castling_mode() == CastlingMode::Chess960 {
            let _ = writeln!(out, "[Variant \"Chess960\"]");
        }
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", game.start_fen());
    }
    out.push('\n');
    let mut line = String::new();
    let start = game.start();
    let mut number = start.fullmoves().get();
    let mut turn = start.turn();
    let mut tokens: Vec<String> = Vec::with_capacity(game.ply() * 2 + 1);
    for (i, san) in game.sans().iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.to_string());
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    tokens.push(result.to_string());
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_seven_tag_roster_and_numbered_moves() {
        let mut g = Game::default();
        for m in ["e2e4", "e7e5", "g1f3"] {
            g.push_uci(m).unwrap();
        }
        let tags = SevenTags { white: "Anna \"A\"".into(), ..SevenTags::default() };
        let pgn = write_pgn(&g, &tags, "*");
        assert!(pgn.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"));
        assert!(
            pgn.contains("[White \"Anna \\\"A\\\"\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n")
        );
        assert!(!pgn.contains("FEN"));
    }

    #[test]
    fn a_game_from_a_position_starts_with_black_numbering_and_fen() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        g.push_uci("e8d8").unwrap();
        g.push_uci("e2e4").unwrap();
        let pgn = write_pgn(&g, &SevenTags::default(), "1/2-1/2");
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]"));
        assert!(pgn.contains("\n30... Kd8 31. e4 1/2-1/2\n"), "{pgn}");
    }

    #[test]
    fn long_games_wrap_below_80_columns() {
        let mut g = Game::default();
        for _ in 0..10 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                g.push_uci(m).unwrap();
            }
        }
        let pgn = write_pgn(&g, &SevenTags::default(), "*");
        assert!(pgn.lines().all(|l| l.len() < 80));
    }
}
