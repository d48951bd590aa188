//! PDN (Portable Draughts Notation): games read from and written to text.
//!
//! Tags as in PGN (`[GameType "20"]` international, `"26"` the 64-square
//! version), moves as `32-28`, `28x17` or with the full path `28x17x6`.
//! Every move is checked against the rules: an illegal or ambiguous move is an
//! error naming the game, the move number and the move; nothing half-read is kept.

use super::board::{Position, Variant};
use super::moves::Move;
use super::path::DraughtsPath;
use thiserror::Error;

/// A game read from PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The tags in file order.
    pub tags: Vec<(String, String)>,
    /// The variant (from `GameType`; international when absent).
    pub variant: Variant,
    /// The moves, each legal in the position before it.
    pub moves: Vec<Move>,
    /// The result token (`2-0`, `0-2`, `1-1`, `*`).
    pub result: String,
}

impl PdnGame {
    /// A tag's value.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The positions before each move, and the final one.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = Position::initial(self.variant);
        let mut out = vec![pos];
        for m in &self.moves {
            pos = m.apply(&pos);
            out.push(pos);
        }
        out
    }
}

/// What went wrong reading PDN.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PdnError {
    /// A move that is not legal in its position.
    #[error("game {game}: move {number} `{text}` is not legal here")]
    Illegal {
        /// 1-based game in the file.
        game: usize,
        /// Ply number (1 = White's first move).
        number: usize,
        /// The move as written.
        text: String,
    },
    /// A move written by start and end that fits more than one legal capture.
    #[error("game {game}: move {number} `{text}` fits {count} legal captures; write the full path")]
    Ambiguous {
        /// 1-based game in the file.
        game: usize,
        /// Ply number.
        number: usize,
        /// The move as written.
        text: String,
        /// How many fit.
        count: usize,
    },
    /// Text that is not PDN.
    #[error("game {game}: cannot read `{text}`")]
    Syntax {
        /// 1-based game in the file.
        game: usize,
        /// The offending text.
        text: String,
    },
    /// A GameType the station does not play.
    #[error("game {game}: GameType `{value}` is not international draughts (20) or 64-square (26)")]
    GameType {
        /// 1-based game in the file.
        game: usize,
        /// The tag's value.
        value: String,
    },
}

/// Finds the legal move that `text` (`32-28`, `28x17`, `28x17x6`) names in `pos`.
/// `Ok(None)` when none fits; an error count when several different moves fit.
/// Text a person wrote (a PDN file, the console) is read here, once.
pub fn find_move(pos: &Position, text: &str) -> Result<Option<Move>, usize> {
    match DraughtsPath::read_loosely(text) {
        Some(path) => path.find_in(pos),
        None => Ok(None),
    }
}

/// Reads every game of a PDN text.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut body = String::new();
    let mut in_body = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            if in_body {
                games.push(finish(games.len() + 1, std::mem::take(&mut tags), &std::mem::take(&mut body))?);
                in_body = false;
            }
            tags.push(parse_tag(games.len() + 1, line)?);
        } else if !line.is_empty() {
            in_body = true;
            body.push_str(line);
            body.push(' ');
        }
    }
    if in_body || !tags.is_empty() {
        games.push(finish(games.len() + 1, tags, &body)?);
    }
    Ok(games)
}

fn parse_tag(game: usize, line: &str) -> Result<(String, String), PdnError> {
    let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'));
    let parsed = inner.and_then(|i| {
        let (key, rest) = i.split_once(char::is_whitespace)?;
        let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
        Some((key.to_string(), value.to_string()))
    });
    parsed.ok_or_else(|| PdnError::Syntax { game, text: line.to_string() })
}

fn finish(game: usize, tags: Vec<(String, String)>, body: &str) -> Result<PdnGame, PdnError> {
    let variant = match tags.iter().find(|(k, _)| k == "GameType").map(|(_, v)| v.as_str()) {
        None => Variant::International,
        Some(v) => match v.split(',').next().map(str::trim) {
            Some("20") => Variant::International,
            Some("26") => Variant::Draughts64,
            _ => return Err(PdnError::GameType { game, value: v.to_string() }),
        },
    };
    let mut pos = Position::initial(variant);
    let mut moves = Vec::new();
    let mut result = String::from("*");
    let mut rest = body;
    while let Some(token) = next_token(&mut rest) {
        if matches!(token, "2-0" | "0-2" | "1-1" | "0-0" | "1-0" | "0-1" | "*") {
            result = token.to_string();
            continue;
        }
        // Move numbers: `12.` or `12...`, possibly glued to the move (`12.32-28`).
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit() && token.contains('.'));
        let token = token.trim_start_matches('.');
        if token.is_empty() {
            continue;
        }
        let clean = token.trim_end_matches(['!', '?', '*']);
        let number = moves.len() + 1;
        match find_move(&pos, clean) {
            Ok(Some(m)) => {
                pos = m.apply(&pos);
                moves.push(m);
            }
            Ok(None) => {
                if !clean.contains(['-', 'x', 'X']) {
                    return Err(PdnError::Syntax { game, text: token.to_string() });
                }
                return Err(PdnError::Illegal { game, number, text: clean.to_string() });
            }
            Err(count) => return Err(PdnError::Ambiguous { game, number, text: clean.to_string(), count }),
        }
    }
    Ok(PdnGame { tags, variant, moves, result })
}

/// The next whitespace-separated token, skipping `{comments}` and `(variations)`.
fn next_token<'a>(rest: &mut &'a str) -> Option<&'a str> {
    loop {
        let s = rest.trim_start();
        if s.is_empty() {
            *rest = s;
            return None;
        }
        let (open, close) = match s.as_bytes()[0] {
            b'{' => ('{', '}'),
            b'(' => ('(', ')'),
            _ => {
                let end = s.find(char::is_whitespace).unwrap_or(s.len());
                *rest = &s[end..];
                return Some(&s[..end]);
            }
        };
        let _ = open;
        *rest = s.find(close).map_or("", |i| &s[i + 1..]);
    }
}

/// Writes a game as PDN: its tags (GameType first when missing), numbered moves
/// with full capture paths, and the result.
pub fn write_game(game: &PdnGame) -> String {
    let mut out = String::new();
    if game.tag("GameType").is_none() {
        out.push_str(&format!("[GameType \"{}\"]\n", game.variant.game_type()));
    }
    for (k, v) in &game.tags {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    }
    out.push('\n');
    let words = game.moves.iter().enumerate().map(|(i, m)| {
        let pdn = m.pdn(game.variant, true);
        if i % 2 == 0 { format!("{}. {pdn}", i / 2 + 1) } else { pdn }
    });
    out.push_str(&movetext_with_result(words, &game.result));
    out.push('\n');
    out
}

/// The moves' words wrapped, the result after the last on its line.
pub fn movetext_with_result(words: impl IntoIterator<Item = String>, result: &str) -> String {
    let mut text = crate::pgn::wrap_movetext(words);
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(result);
    text
}
