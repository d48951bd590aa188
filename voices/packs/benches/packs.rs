//! Building voice packs (`cargo bench -p station-voice-packs --bench packs`):
//! a whole pack per built-in language with espeak-ng, the time it took, and
//! that it covers a clock report. Each figure is a line
//! `figure<TAB>name<TAB>value<TAB>unit` on stdout (`scripts/bench` gathers
//! them); what they were measured on goes to stderr.

use std::time::Instant;

use station_audio::{Utterance, VoicePack};
use station_voice_packs::{BuildOptions, build_pack};
use station_voices::{Phrasebook, VoiceSettings, Wording};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

fn main() -> Result<()> {
    full_packs()
}

/// A whole pack per language with espeak-ng: its words and clips, the time it
/// took, and that it covers a clock report.
fn full_packs() -> Result<()> {
    let dir = tempfile::tempdir()?;
    for lang in station_voices::BUILTIN_LANGUAGES {
        let book = Phrasebook::builtin(lang).ok_or_else(|| format!("no phrasebook {lang}"))?;
        let started = Instant::now();
        let report = build_pack(lang, book, dir.path(), &BuildOptions::default())?;
        let took = started.elapsed();
        eprintln!(
            "{lang}: {} words, {} clips, {} failed in {took:?}",
            report.words,
            report.clips,
            report.failed.len()
        );
        if !report.failed.is_empty() {
            return Err(format!("{lang}: words espeak-ng could not say: {:?}", report.failed).into());
        }
        let pack = VoicePack::load(&report.dir)?;
        let wording = Wording::new(&VoiceSettings::language(lang))?;
        if !pack.covers(&Utterance::text(wording.clock_report(72 * 60_000, 58 * 60_000 + 7_000, 22))) {
            return Err(format!("{lang}: the pack does not cover a clock report").into());
        }
        figure(&format!("full voice pack build ({lang}, {} words)", report.words), took.as_secs_f64(), "s");
    }
    Ok(())
}
