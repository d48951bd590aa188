//! Voice packs loaded and spoken: built with the real espeak-ng
//! (`station-voice-packs`, whose own tests check the building).

use std::path::Path;

use station_audio::{Clip, RenderVoice, Utterance, VoiceKind, VoicePack, pack_words, render_clip};
use station_voice_packs::{BuildOptions, BuildReport, build_pack};
use station_voices::Phrasebook;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn book(lang: &str) -> Result<&'static Phrasebook, String> {
    Phrasebook::builtin(lang).ok_or_else(|| format!("no phrasebook {lang}"))
}

fn espeak_present() -> bool {
    station_audio::Espeak::default().available()
}

/// A German pack of only `keys`, built with espeak-ng in a folder of its own.
fn german_pack(keys: &[&str]) -> Result<(tempfile::TempDir, BuildReport), Box<dyn std::error::Error>> {
    if !espeak_present() {
        return Err("espeak-ng missing".into());
    }
    let dir = tempfile::tempdir()?;
    let only = Some(keys.iter().map(|k| (*k).to_owned()).collect());
    let report =
        build_pack("de", book("de")?, dir.path(), &BuildOptions { only, ..BuildOptions::default() })?;
    Ok((dir, report))
}

/// Non-silent and between 0.15 s and 1.2 s per word.
fn assert_fits_words(clip: &Clip, words: usize) {
    assert!(clip.rms() > 0.03, "silent: rms {}", clip.rms());
    let secs = clip.duration().as_secs_f64();
    let per_word = secs / words as f64;
    assert!((0.15..=1.2).contains(&per_word), "{secs:.2} s for {words} words");
}

#[test]
fn render_falls_back_to_espeak_for_words_the_pack_lacks() -> TestResult {
    let (dir, _) = german_pack(&["letter.a"])?;
    let pack = VoicePack::load_language(dir.path(), "de")?;
    let utterance = Utterance::text("Sie: zweiundzwanzig Minuten.");
    assert!(!pack.covers(&utterance));
    let (clip, voice) = render_clip(&utterance, &RenderVoice::new(Some(&pack), "de"))?;
    assert_eq!(voice, VoiceKind::Espeak);
    assert_fits_words(&clip, 3);
    // Without a pack at all: espeak-ng directly.
    let (_, voice) = render_clip(&Utterance::text("Anna"), &RenderVoice::new(None, "de"))?;
    assert_eq!(voice, VoiceKind::Espeak);
    Ok(())
}

#[test]
fn free_text_is_found_word_by_word_and_by_phrase() -> TestResult {
    let (dir, _) = german_pack(&["clock.own", "number.22", "clock.minute.other", "message.station_ready"])?;
    let pack = VoicePack::load_language(dir.path(), "de")?;
    assert!(pack.covers(&Utterance::text("Sie: zweiundzwanzig Minuten.")));
    assert!(pack.covers(&Utterance::text("Station bereit")));
    assert!(!pack.covers(&Utterance::text("Station")));
    Ok(())
}

#[test]
fn broken_clip_is_reported_and_the_rest_still_speaks() -> TestResult {
    let (_dir, report) = german_pack(&["letter.a", "letter.b"])?;
    std::fs::write(report.dir.join("letter.b.wav"), b"not a wav")?;
    let pack = VoicePack::load(&report.dir)?;
    assert_eq!(pack.problems().len(), 1, "{:?}", pack.problems());
    assert!(pack.covers(&Utterance::text("Anna")));
    assert!(!pack.covers(&Utterance::text("Bella")));
    Ok(())
}

#[test]
fn missing_pack_is_a_clear_error() {
    let err =
        VoicePack::load(Path::new("/nonexistent/packs/de")).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("manifest"), "{err}");
}

#[test]
fn pack_word_lists_are_complete() -> TestResult {
    for lang in station_voices::BUILTIN_LANGUAGES {
        let words = pack_words(book(lang)?);
        // 8 letters, 8 ranks, 6 pieces, 14 words, 13 messages, clock words and numbers.
        assert!(words.len() > 150, "{lang}: {}", words.len());
    }
    Ok(())
}
