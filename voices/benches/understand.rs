//! Grammar building and understanding over every position of the vendored
//! real games (`cargo bench -p station-voices --bench understand`); targets:
//! grammar build p99 under 5 ms, understanding p99 under 1 ms (part of end of
//! speech → move understood, p99 150 ms with the Korean model). Every legal
//! move is said in the station's words, and misheard (a rank word heard as
//! "[unk]", the piece word lost), understood with his board's move known
//! (issue 33) and without, in German, Polish and English. Each figure is a
//! line `figure<TAB>name<TAB>value<TAB>unit` on stdout.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};
use station_voices::understand::Understanding;
use station_voices::{VoiceSettings, Wording};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

fn positions() -> Vec<Chess> {
    let mut out = Vec::new();
    for game in common::read_games(include_str!("../tests/data/games.pgn")) {
        let mut pos = Chess::default();
        for san in &game.sans {
            let Ok(parsed) = SanPlus::from_ascii(san.as_bytes()) else { break };
            let Ok(mv) = parsed.san.to_move(&pos) else { break };
            out.push(pos.clone());
            pos.play_unchecked(mv);
        }
    }
    out
}

fn percentile(times: &mut [Duration], p: f64) -> Duration {
    times.sort_unstable();
    let at = ((times.len() as f64 - 1.0) * p).round() as usize;
    times.get(at).copied().unwrap_or_default()
}

fn report(what: &str, times: &mut [Duration]) {
    let p50 = percentile(times, 0.50);
    let p99 = percentile(times, 0.99);
    let max = percentile(times, 1.0);
    eprintln!("{what}: n={} p50={p50:?} p99={p99:?} max={max:?}", times.len());
    for (name, d) in [("p50", p50), ("p99", p99), ("max", max)] {
        figure(&format!("{what} {name}"), d.as_secs_f64() * 1e6, "µs");
    }
}

/// The station's words of a move, and the same misheard: the last word
/// unheard, the first (the piece word) lost.
fn misheard(words: &str) -> Vec<String> {
    let words: Vec<&str> = words.split_whitespace().collect();
    if words.len() < 2 {
        return Vec::new();
    }
    let mut unheard = words.clone();
    let last = unheard.len() - 1;
    unheard[last] = "[unk]";
    vec![unheard.join(" "), words[1..].join(" ")]
}

fn main() -> Result<()> {
    let positions = positions();
    for lang in ["de", "pl", "en"] {
        let u = Understanding::language(lang)?;
        let wording = Wording::new(&VoiceSettings::language(lang))?;
        let mut grammar = Vec::new();
        let mut phrases = 0;
        for pos in &positions {
            let start = Instant::now();
            let g = u.grammar(pos);
            grammar.push(start.elapsed());
            phrases = phrases.max(g.len());
        }
        let (mut understanding, mut with_board, mut without) = (Vec::new(), Vec::new(), Vec::new());
        for pos in &positions {
            for mv in pos.legal_moves() {
                let text = wording.word_move(pos, &mv)?.to_string();
                let start = Instant::now();
                let heard = u.understand(pos, &text, Some(0.9));
                understanding.push(start.elapsed());
                std::hint::black_box(heard);
                for text in misheard(&text) {
                    let start = Instant::now();
                    std::hint::black_box(u.understand_expecting(pos, &text, Some(0.82), Some(mv)));
                    with_board.push(start.elapsed());
                    let start = Instant::now();
                    std::hint::black_box(u.understand(pos, &text, Some(0.82)));
                    without.push(start.elapsed());
                }
            }
        }
        eprintln!("[{lang}] {} positions, largest grammar {phrases} phrases", positions.len());
        figure(
            &format!("[{lang}] largest grammar ({} positions)", positions.len()),
            phrases as f64,
            "phrases",
        );
        report(&format!("[{lang}] grammar build"), &mut grammar);
        report(&format!("[{lang}] understand"), &mut understanding);
        report(&format!("[{lang}] misheard, understood with his board's move"), &mut with_board);
        report(&format!("[{lang}] misheard, understood without a board"), &mut without);
    }
    Ok(())
}
