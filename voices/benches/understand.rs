//! How long understanding takes (issue 33: part of end of speech → move
//! understood, p99 150 ms with the Korean model): every legal move of the
//! positions of real games, said in the station's words and misheard (a rank
//! word heard as "[unk]", the piece word lost), understood with his board's
//! move known and without, in German, Polish and English.
//!
//! `cargo bench -p station-voices --bench understand` (release; on a quiet
//! machine).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};
use station_voices::understand::Understanding;
use station_voices::{VoiceSettings, Wording};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted.get(((sorted.len().max(1) - 1) as f64 * p).round() as usize).copied().unwrap_or_default()
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort_unstable();
    eprintln!(
        "{what}: n={} p50 {:?} p99 {:?} max {:?}",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or_default()
    );
}

/// The station's words of every legal move, and the same misheard.
fn phrases(wording: &Wording, pos: &Chess) -> Vec<(shakmaty::Move, String)> {
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        let words: Vec<String> =
            wording.word_move(pos, &mv).unwrap().to_string().split_whitespace().map(str::to_owned).collect();
        out.push((mv, words.join(" ")));
        if words.len() > 1 {
            let mut unheard = words.clone();
            let last = unheard.len() - 1;
            unheard[last] = "[unk]".to_owned();
            out.push((mv, unheard.join(" ")));
            out.push((mv, words[1..].join(" ")));
        }
    }
    out
}

fn main() {
    let positions = common::real_positions(150, 3, 4, 1);
    for lang in ["de", "pl", "en"] {
        let u = Understanding::language(lang).unwrap();
        let wording = Wording::new(&VoiceSettings::language(lang)).unwrap();
        let (mut with_board, mut without) = (Vec::new(), Vec::new());
        for pos in &positions {
            for (mv, text) in phrases(&wording, pos) {
                let started = Instant::now();
                std::hint::black_box(u.understand_expecting(pos, &text, Some(0.82), Some(mv)));
                with_board.push(started.elapsed());
                let started = Instant::now();
                std::hint::black_box(u.understand(pos, &text, Some(0.82)));
                without.push(started.elapsed());
            }
        }
        report(&format!("[{lang}] understood with his board's move"), with_board);
        report(&format!("[{lang}] understood without a board"), without);
    }
}
