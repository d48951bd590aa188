//! Recording a pack word through a microphone, with ALSA's `file` plugin
//! feeding a spoken word (rendered by espeak-ng) as the capture input.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use station_audio::{Espeak, Recorder, Utterance, VoicePack};
use station_voices::Phrasebook;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const DIR_ENV: &str = "AUDIO_RECORD_DIR";

#[test]
fn a_recorded_word_is_trimmed_normalised_and_kept_in_the_pack() -> TestResult {
    if let Some(dir) = common::child_dir(DIR_ENV) {
        return record(&dir);
    }
    let dir = tempfile::tempdir()?;
    // The "microphone" says "Springer" after half a second of silence.
    let word = Espeak::default().render("de", "Springer")?;
    let mut raw: Vec<u8> = vec![0; 22_050];
    raw.extend(word.samples.iter().flat_map(|s| s.to_le_bytes()));
    std::fs::write(dir.path().join("in.raw"), raw)?;
    let config = dir.path().join("asound.conf");
    std::fs::write(
        &config,
        format!(
            "pcm.!default {{ type plug; slave {{ pcm \"mic\"; format S16_LE; rate {}; channels 1 }} }}\n\
             pcm.mic {{ type file; slave.pcm {{ type null }}; file \"/dev/null\"; infile \"{}\"; format \"raw\" }}\n",
            word.rate,
            dir.path().join("in.raw").display()
        ),
    )?;
    let (passed, text) = common::run_child(
        "a_recorded_word_is_trimmed_normalised_and_kept_in_the_pack",
        &config,
        (DIR_ENV, dir.path()),
    )?;
    assert!(passed, "{text}");
    let pack = VoicePack::load_language(dir.path(), "de")?;
    assert!(pack.covers(&Utterance::text("Springer")));
    Ok(())
}

/// The test's scenario in its child process: a word recorded from the "microphone" into `dir`.
fn record(dir: &std::path::Path) -> TestResult {
    let book = Phrasebook::builtin("de").ok_or("no German phrasebook")?;
    let mut recorder = Recorder::new("de", book, dir, "test")?;
    let word = recorder.words().iter().find(|w| w.key == "piece.knight").cloned().ok_or("no knight")?;
    let raw = recorder.capture(None, Duration::from_secs(2), &AtomicBool::new(false))?;
    eprintln!("captured {:?} at {} Hz, rms {:.3}", raw.duration(), raw.rate, raw.rms());
    let take = recorder.process(&raw).map_err(|p| p.to_string())?;
    eprintln!("take {:?}, rms {:.3}", take.duration(), take.rms());
    // ALSA's file plugin does not feed its input file faithfully through a
    // rate conversion (arecord shows the same), so only bounds are checked:
    // speech was heard, trimmed to a word's length and normalised.
    assert!(take.duration() >= station_audio::MIN_WORD && take.duration() < Duration::from_millis(1500));
    assert!((take.rms() - 0.1).abs() < 0.03);
    recorder.keep(&word, &take)?;
    assert!(recorder.missing().all(|w| w.key != "piece.knight"));
    Ok(())
}
