//! A tiny PGN reader for the tests: the game files hold plain movetext
//! (no comments or variations), so SAN tokens are read directly.

#![allow(dead_code)]

use std::path::PathBuf;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

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

/// The shared real games, beside the checkout.
pub fn shared_games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/pgn/games")
}

/// Positions of real games: the vendored games and every shared PGN file
/// (if readable), an even share of `max` from each; in each, every
/// `game_step`-th game's positions before the plies `ply % ply_step ==
/// ply_offset`, up to the first move that does not read.
pub fn real_positions(max: usize, game_step: usize, ply_step: usize, ply_offset: usize) -> Vec<Chess> {
    let mut texts = vec![include_str!("../data/games.pgn").to_owned()];
    let dir = shared_games_dir();
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect();
            paths.sort();
            for path in paths {
                texts.push(String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned());
            }
        }
        Err(e) => eprintln!("!!! {} not readable ({e}); using the vendored games only", dir.display()),
    }
    let mut out = Vec::new();
    let per_file = max / texts.len() + 1;
    for text in &texts {
        let mut taken = 0;
        for game in read_games(text).into_iter().step_by(game_step) {
            let mut pos = Chess::default();
            for (ply, san) in game.sans.iter().enumerate() {
                let Ok(parsed) = SanPlus::from_ascii(san.as_bytes()) else { break };
                let Ok(mv) = parsed.san.to_move(&pos) else { break };
                if ply % ply_step == ply_offset && taken < per_file {
                    out.push(pos.clone());
                    taken += 1;
                }
                pos.play_unchecked(mv);
            }
            if taken >= per_file {
                break;
            }
        }
    }
    out.truncate(max);
    out
}

/// espeak-ng's phonemes for words outside the phrasebooks (heard or typed
/// words a recogniser without the station's grammar writes), as the station
/// asks its drivers for them; kept once asked. espeak-ng is part of the
/// station's set-up: without it these tests fail, loudly.
#[derive(Debug, Default)]
pub struct EspeakWords {
    known: std::sync::Mutex<std::collections::HashMap<(String, String), Option<String>>>,
}

impl station_voices::understand::Pronouncer for EspeakWords {
    fn phonemes(&self, lang: &str, word: &str) -> Option<String> {
        let key = (lang.to_owned(), word.to_owned());
        if let Some(known) = self.known.lock().unwrap().get(&key) {
            return known.clone();
        }
        let voice = if lang == "en" { "en-gb" } else { lang };
        let out = std::process::Command::new("espeak-ng")
            .args(["-q", "-x", "--sep=_", "-v", voice, word])
            .output()
            .unwrap_or_else(|e| {
                panic!("espeak-ng is needed for the sounds of heard words ({e}): run scripts/setup")
            });
        let text = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
        let phonemes = (!text.is_empty()).then_some(text);
        self.known.lock().unwrap().insert(key, phonemes.clone());
        phonemes
    }
}

/// The understanding of a built-in language with espeak-ng for words outside it.
pub fn understanding(lang: &str) -> station_voices::understand::Understanding {
    station_voices::understand::Understanding::language(lang)
        .unwrap()
        .with_pronouncer(std::sync::Arc::new(EspeakWords::default()))
}

/// Whether `text`, with nothing unheard in it, names `mv` word for word, read
/// with the phrasebook alone (not with the understanding under test): the
/// last square said (a file word, then a rank word) is where `mv` goes, and a
/// piece word, if one is said, is `mv`'s piece. A castling names no square.
/// Extra words that narrow the move down ("Turm c d eins") do not make it
/// another move.
pub fn names_literally(book: &station_voices::Phrasebook, text: &str, mv: &shakmaty::Move) -> bool {
    use shakmaty::{File, Rank, Role, Square};
    let words: Vec<String> = text.to_lowercase().split_whitespace().map(str::to_owned).collect();
    if words.iter().any(|w| w == "[unk]") {
        return false;
    }
    let file_of = |w: &str| {
        File::ALL.into_iter().find(|f| {
            book.letter(*f).matches(w)
                || book.listening().letter_styles.iter().any(|s| s.letters[f.to_usize()].matches(w))
        })
    };
    let rank_of = |w: &str| Rank::ALL.into_iter().find(|r| book.rank(*r).matches(w));
    let (mut file, mut square, mut piece) = (None, None, None);
    for w in &words {
        if let Some(r) = rank_of(w).filter(|_| file.is_some()) {
            square = file.map(|f| Square::from_coords(f, r));
        }
        file = file_of(w);
        if piece.is_none() {
            piece = Role::ALL.into_iter().find(|r| book.piece(*r).matches(w));
        }
    }
    let piece_fits = piece.is_none_or(|p| p == mv.role());
    if mv.is_castle() {
        return square.is_none() && piece_fits;
    }
    piece_fits && square == Some(mv.to())
}
