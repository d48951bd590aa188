//! Voice packs built with the real espeak-ng, in every built-in language:
//! their clips trimmed and normalised, the pack loaded and speaking a move.

use std::time::Instant;

use station_audio::{Clip, Manifest, RenderVoice, Utterance, VoiceKind, VoicePack, render_wav, wav};
use station_voice_packs::{BuildOptions, build_pack};
use station_voices::{Phrasebook, VoiceSettings, Wording, position_from_fen};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Keys enough to say the test moves and one message.
fn subset() -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for f in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        keys.push(format!("letter.{f}"));
    }
    for r in 1..=8 {
        keys.push(format!("rank.{r}"));
    }
    for p in ["king", "queen", "rook", "bishop", "knight", "pawn"] {
        keys.push(format!("piece.{p}"));
    }
    for w in ["capture", "check", "mate", "short_castling", "long_castling"] {
        keys.push(format!("word.{w}"));
    }
    keys.push("message.board_mismatch".to_owned());
    keys.push("message.station_ready".to_owned());
    keys
}

fn book(lang: &str) -> Result<&'static Phrasebook, String> {
    Phrasebook::builtin(lang).ok_or_else(|| format!("no phrasebook {lang}"))
}

fn espeak_present() -> bool {
    station_audio::Espeak::default().available()
}

#[test]
fn subset_pack_for_each_language_builds_loads_and_speaks() -> TestResult {
    if !espeak_present() {
        eprintln!("espeak-ng missing: scripts/setup installs it");
        return Err("espeak-ng missing".into());
    }
    let dir = tempfile::tempdir()?;
    for (lang, san, expect) in [
        ("de", "Nf3", "Springer Felix drei"),
        ("pl", "Nf3", "skoczek Feliks trzy"),
        ("en", "Nf3", "Knight Felix three"),
    ] {
        let started = Instant::now();
        let report = build_pack(
            lang,
            book(lang)?,
            dir.path(),
            &BuildOptions { only: Some(subset()), ..BuildOptions::default() },
        )?;
        eprintln!("{lang}: {} words, {} clips in {:?}", report.words, report.clips, started.elapsed());
        assert!(report.failed.is_empty(), "{:?}", report.failed);
        assert_eq!(report.words, subset().len());

        let pack = VoicePack::load_language(dir.path(), lang)?;
        assert_eq!(pack.len(), subset().len());
        assert!(pack.problems().is_empty());

        // Every clip: trimmed (no long silence), normalised (RMS near 0.1).
        let manifest = Manifest::load(&dir.path().join(lang))?;
        for (key, word) in &manifest.words {
            let clip = wav::read_wav(&dir.path().join(lang).join(&word.file))?;
            let ms = clip.duration().as_millis();
            assert!((80..=2500).contains(&ms), "{lang} {key}: {ms} ms");
            assert!((0.06..=0.14).contains(&clip.rms()), "{lang} {key}: rms {}", clip.rms());
            assert!(
                clip.samples.iter().take(20).all(|s| s.unsigned_abs() < 3000),
                "{lang} {key} starts loud"
            );
        }

        let wording = Wording::new(&VoiceSettings::language(lang))?;
        let pos = position_from_fen("startpos")?;
        let mv = san.parse::<shakmaty::san::San>()?.to_move(&pos)?;
        let announcement = wording.word_move(&pos, &mv)?;
        assert_eq!(announcement.to_string().to_lowercase(), expect.to_lowercase());
        let utterance = Utterance::from_announcement(&announcement);
        let out = dir.path().join(format!("{lang}.wav"));
        let voice = render_wav(&utterance, &RenderVoice::new(Some(&pack), lang), &out)?;
        assert_eq!(voice, VoiceKind::Pack);
        let clip = wav::read_wav(&out)?;
        assert_fits_words(&clip, announcement.len());
    }
    Ok(())
}

/// Non-silent and between 0.15 s and 1.2 s per word.
fn assert_fits_words(clip: &Clip, words: usize) {
    assert!(clip.rms() > 0.03, "silent: rms {}", clip.rms());
    let secs = clip.duration().as_secs_f64();
    let per_word = secs / words as f64;
    assert!((0.15..=1.2).contains(&per_word), "{secs:.2} s for {words} words");
}
