//! The audio path's figures (`cargo bench -p station-audio --bench audio`):
//! move event → first sample handed to a device with a voice pack (target
//! p99 under 30 ms; issue 7), wording a move (target p99 under 20 µs), what
//! resampling costs per 100 ms of audio on the listening and the voice-pack
//! paths (issue 23). Building a whole voice pack per language is
//! `station-voice-packs`' bench.
//!
//! The device is ALSA's `file` plugin, as a sound card would be: ALSA reads
//! its configuration once per process, so that figure is taken in a child
//! process (this bench run again with `AUDIO_BENCH_PACKS` set). Each figure is
//! a line `figure<TAB>name<TAB>value<TAB>unit` on stdout (`scripts/bench`
//! gathers them); what they were measured on goes to stderr.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use station_audio::pcm::resample;
use station_audio::speech::{InputFormat, Resampler, Samples};
use station_audio::{LatencyReport, bench_move_to_sound, bench_wording};
use station_voice_packs::{BuildOptions, build_pack};
use station_voices::Phrasebook;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Set in the child process that times a move to the device: the packs folder.
const PACKS_ENV: &str = "AUDIO_BENCH_PACKS";
/// Moves timed to the device (`AUDIO_BENCH_MOVES` sets another count).
const MOVES: usize = 100;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

/// The percentiles of a report, in `unit` (`ms` or `µs`).
fn report_figures(name: &str, report: &LatencyReport, unit: &str) {
    let scale = if unit == "ms" { 1e3 } else { 1e6 };
    for (what, d) in [("p50", report.p50), ("p90", report.p90), ("p99", report.p99), ("max", report.max)] {
        figure(&format!("{name} {what}"), d.as_secs_f64() * scale, unit);
    }
}

fn main() -> Result<()> {
    if let Some(packs) = common::child_dir(PACKS_ENV) {
        return move_to_sound_here(&packs);
    }
    move_to_sound()?;
    wording()?;
    listening_resampler()?;
    pack_resampling();
    Ok(())
}

/// Move event → first sample: a German pack built, then the child process
/// plays `MOVES` moves on the file device.
fn move_to_sound() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let book = Phrasebook::builtin("de").ok_or("no German phrasebook")?;
    build_pack("de", book, dir.path(), &BuildOptions::default())?;
    let config = common::file_output_config(dir.path(), &dir.path().join("out.raw"))?;
    let out = std::process::Command::new(std::env::current_exe()?)
        .env("ALSA_CONFIG_PATH", &config)
        .env(PACKS_ENV, dir.path())
        .output()?;
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    print!("{}", String::from_utf8_lossy(&out.stdout));
    if !out.status.success() {
        return Err("the move → first sample child failed".into());
    }
    Ok(())
}

/// In the child: the moves played through the pack to the file device.
fn move_to_sound_here(packs: &std::path::Path) -> Result<()> {
    let moves = std::env::var("AUDIO_BENCH_MOVES").ok().and_then(|v| v.parse().ok()).unwrap_or(MOVES);
    let report = bench_move_to_sound(packs, "de", None, moves)?;
    eprintln!("move event -> first sample (pack de, ALSA file pcm): {report}");
    report_figures("move event -> first sample (pack de, ALSA file device)", &report, "ms");
    Ok(())
}

fn wording() -> Result<()> {
    let report = bench_wording("de", 20_000)?;
    eprintln!("wording a move (de): {report}");
    report_figures("wording a move (de)", &report, "µs");
    Ok(())
}

/// A speech-like test signal: three partials and a little noise, so the
/// resampler's filter works on more than one frequency.
fn speechlike(rate: u32, frames: usize, channels: u16) -> Vec<i16> {
    let mut noise = 0x2545_f491_u32;
    (0..frames)
        .flat_map(|i| {
            let t = i as f32 / rate as f32;
            noise = noise.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let v = 0.3 * (std::f32::consts::TAU * 220.0 * t).sin()
                + 0.2 * (std::f32::consts::TAU * 1_100.0 * t).sin()
                + 0.1 * (std::f32::consts::TAU * 3_300.0 * t).sin()
                + 0.02 * ((noise >> 16) as f32 / 32_768.0 - 1.0);
            std::iter::repeat_n((v * 32_767.0) as i16, usize::from(channels))
        })
        .collect()
}

/// The listening path: a microphone's 100 ms chunks to 16 kHz mono, state
/// kept between chunks (600 chunks a format).
fn listening_resampler() -> Result<()> {
    const CHUNKS: usize = 600;
    for (rate, channels) in [(48_000u32, 2u16), (44_100, 1), (22_050, 1)] {
        let chunk_frames = rate as usize / 10;
        let input = speechlike(rate, chunk_frames * CHUNKS, channels);
        let mut resampler = Resampler::new(InputFormat { rate, channels })?;
        let mut out = Vec::with_capacity(2_000);
        let mut times = Vec::with_capacity(CHUNKS);
        let mut produced = 0;
        for chunk in input.chunks(chunk_frames * usize::from(channels)) {
            out.clear();
            let started = Instant::now();
            resampler.process(Samples::I16(chunk), &mut out);
            times.push(started.elapsed());
            produced += out.len();
        }
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        let report = LatencyReport::from_times(&mut times);
        eprintln!(
            "listening resampler {rate} Hz x{channels} -> 16 kHz, per 100 ms chunk: mean {mean:?} {report} ({produced} samples out)"
        );
        let name = format!("listening resampler {rate} Hz x{channels} -> 16 kHz, per 100 ms chunk");
        figure(&format!("{name} mean"), mean.as_secs_f64() * 1e6, "µs");
        report_figures(&name, &report, "µs");
    }
    Ok(())
}

/// The voice-pack path: a whole 10 s clip to the pack's rate, best of 5.
fn pack_resampling() {
    for (from, to) in [(22_050u32, 48_000u32), (48_000, 22_050), (44_100, 22_050)] {
        let clip = speechlike(from, from as usize * 10, 1);
        let mut best = Duration::MAX;
        let mut len = 0;
        for _ in 0..5 {
            let started = Instant::now();
            let out = resample(&clip, from, to);
            best = best.min(started.elapsed());
            len = std::hint::black_box(out).len();
        }
        eprintln!(
            "pack resample {from} -> {to} Hz, 10 s clip: best of 5 {best:?} = {:?} per 100 ms ({len} samples out)",
            best / 100
        );
        figure(
            &format!("pack resample {from} -> {to} Hz, per 100 ms (10 s clip, best of 5)"),
            best.as_secs_f64() * 1e4,
            "µs",
        );
    }
}
