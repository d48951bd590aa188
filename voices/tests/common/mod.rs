//! A tiny PGN reader for the tests: the game files hold plain movetext
//! (no comments or variations), so SAN tokens are read directly.

#![allow(dead_code)]

/// One game: its tag line for messages and its SAN moves.
pub struct Game {
    pub name: String,
    pub sans: Vec<String>,
}

/// Splits PGN text into games.
pub fn read_games(pgn: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut name = String::new();
    let mut sans = Vec::new();
    let mut in_movetext = false;
    for line in pgn.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            if in_movetext {
                games.push(Game { name: std::mem::take(&mut name), sans: std::mem::take(&mut sans) });
                in_movetext = false;
            }
            if let Some(value) = tag(line, "White") {
                name = format!("{value} -");
            } else if let Some(value) = tag(line, "Black") {
                name = format!("{name} {value}");
            } else if let Some(value) = tag(line, "Date") {
                name = format!("{name} {value}");
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        in_movetext = true;
        for token in line.split_whitespace() {
            // "12.Nf3" and "12...Nf3" carry the move after the dots.
            let token = token.rsplit('.').next().unwrap_or(token);
            if token.is_empty() || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") || token.starts_with('$')
            {
                continue;
            }
            sans.push(token.to_owned());
        }
    }
    if in_movetext {
        games.push(Game { name, sans });
    }
    games
}

fn tag<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix('[')?.strip_prefix(key)?.strip_prefix(' ')?;
    rest.trim_end_matches(']').trim().strip_prefix('"')?.strip_suffix('"')
}
