//! Latency figures for `station bench`: move event → first sample handed to
//! the device through a voice pack, and wording a move.

use std::path::Path;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};
use station_voices::{VoiceSettings, Wording};

use super::error::AudioError;
use super::settings::{ListenerSettings, VoiceKind};
use super::speaker::{Speaker, SpeakerEvent};
use super::utterance::{Priority, Utterance};

/// Percentiles of a latency sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LatencyReport {
    /// Measurements taken.
    pub samples: usize,
    /// Median.
    pub p50: Duration,
    /// 90th percentile.
    pub p90: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// Worst.
    pub max: Duration,
}

impl LatencyReport {
    /// Percentiles of `times` (sorted in place).
    pub fn from_times(times: &mut [Duration]) -> LatencyReport {
        times.sort_unstable();
        let at = |q: f64| {
            if times.is_empty() {
                Duration::ZERO
            } else {
                times[((times.len() - 1) as f64 * q).round() as usize]
            }
        };
        LatencyReport { samples: times.len(), p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1.0) }
    }
}

impl std::fmt::Display for LatencyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n={} p50={:?} p90={:?} p99={:?} max={:?}",
            self.samples, self.p50, self.p90, self.p99, self.max
        )
    }
}

/// Moves of a short game replayed by the benchmarks (captures, checks,
/// castling, promotion: every kind of wording).
const GAME: &[&str] = &[
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O",
    "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7", "Bg5", "b4", "Nb1", "h6", "Bh4",
    "c5", "dxe5", "Nxe4", "Bxe7", "Qxe7", "exd6", "Qf6", "Nbd2", "Nxd6", "Nc4", "Nxc4", "Bxc4", "Nb6", "Ne5",
    "Rae8", "Bxf7+", "Rxf7", "Nxf7", "Rxe1+", "Qxe1", "Kxf7", "Qe3", "Qg5", "Qxg5", "hxg5", "b3", "Ke6",
    "a3", "Kd6", "axb4", "cxb4", "Ra5", "Nd5", "f3", "Bc8", "Kf2", "Bf5", "Ra7", "g6", "Ra6+", "Kc5", "Ke1",
    "Nf4", "g3", "Nxh3", "Kd2", "Kb5", "Rd6", "Kc5", "Ra6", "Nf2", "g4", "Bd3", "Re6",
];

/// The game's positions and moves, replayed once.
fn game_moves() -> Vec<(Chess, Move)> {
    let mut pos = Chess::default();
    let mut out = Vec::with_capacity(GAME.len());
    for san in GAME {
        // A benchmark's fixed game, read with shakmaty's SAN (the drivers
        // never read moves written by people: the core does).
        let Some(mv) = san.parse::<shakmaty::san::San>().ok().and_then(|s| s.to_move(&pos).ok()) else {
            break;
        };
        out.push((pos.clone(), mv));
        pos.play_unchecked(mv);
    }
    out
}

/// Wording one move: `iterations` moves of a real game worded and timed one by one.
///
/// # Errors
/// [`AudioError::Voice`] for an unknown language.
pub fn bench_wording(language: &str, iterations: usize) -> Result<LatencyReport, AudioError> {
    let wording = Wording::new(&VoiceSettings::language(language))?;
    let moves = game_moves();
    let mut times = Vec::with_capacity(iterations);
    // Warm-up: first use parses the built-in phrasebooks.
    for (pos, mv) in moves.iter().take(10) {
        let _ = wording.word_move(pos, mv);
    }
    for (pos, mv) in moves.iter().cycle().take(iterations) {
        let t = Instant::now();
        let announcement = wording.word_move(pos, mv);
        times.push(t.elapsed());
        std::hint::black_box(&announcement);
    }
    Ok(LatencyReport::from_times(&mut times))
}

/// Move event → first sample handed to the device, through the voice pack
/// of `language` in `packs_dir` on `device` (default output if `None`).
/// Each move is worded, queued with [`Priority::Move`], and timed from
/// before the wording to the moment the device callback pulls its first
/// sample; then the speech is stopped and the next move waits for silence.
///
/// # Errors
/// [`AudioError::Pack`] if the pack voice is not available (no pack, no
/// device), [`AudioError::Device`] if a move never reaches the device.
pub fn bench_move_to_sound(
    packs_dir: &Path,
    language: &str,
    device: Option<&str>,
    iterations: usize,
) -> Result<LatencyReport, AudioError> {
    let wording = Wording::new(&VoiceSettings::language(language))?;
    let settings = ListenerSettings {
        device: device.map(str::to_owned),
        language: language.to_owned(),
        voices: vec![VoiceKind::Pack],
        ..ListenerSettings::default()
    };
    let speaker = Speaker::start("bench", &settings, Some(packs_dir));
    speaker.wait_ready(Duration::from_secs(5));
    if !speaker.status().available.contains(&VoiceKind::Pack) {
        return Err(AudioError::Pack {
            path: packs_dir.join(language),
            problem: format!("pack voice unavailable: {:?}", speaker.status().warnings),
        });
    }
    let moves = game_moves();
    let mut times = Vec::with_capacity(iterations);
    for (pos, mv) in moves.iter().cycle().take(iterations) {
        while speaker.events().try_recv().is_ok() {}
        let t0 = Instant::now();
        let announcement = wording.word_move(pos, mv)?;
        let id = speaker.say(Utterance::from_announcement(&announcement), Priority::Move);
        let deadline = t0 + Duration::from_secs(2);
        let mut first = None;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match speaker.events().recv_timeout(left) {
                Ok(SpeakerEvent::FirstSample { id: got, at, .. }) if got == id => {
                    first = Some(at);
                    break;
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let at = first.ok_or_else(|| AudioError::Device {
            device: device.unwrap_or("default").to_owned(),
            problem: "a move never reached the device".to_owned(),
        })?;
        times.push(at.saturating_duration_since(t0));
        speaker.stop_all();
        speaker.wait_idle(Duration::from_secs(1));
    }
    Ok(LatencyReport::from_times(&mut times))
}
