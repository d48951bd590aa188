//! Speakers on ALSA's `file` plugin: what the device was handed is captured
//! to a raw file (S16_LE, 22050 Hz, mono through a `plug`) and measured.
//!
//! ALSA reads its configuration once per process from `ALSA_CONFIG_PATH`, so
//! every scenario runs in a child process (this test binary re-run with the
//! test itself selected, which then plays the scenario) with its own
//! configuration and capture file.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use station_audio::{
    ListenerSettings, Priority, RenderVoice, Speaker, SpeakerEvent, Utterance, VoiceKind, VoicePack,
    list_output_devices, render_clip,
};
use station_voice_packs::{BuildOptions, build_pack};
use station_voices::{Message, Phrasebook, VoiceSettings, Wording, position_from_fen};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const RATE: f64 = 22_050.0;
const PACKS_ENV: &str = "AUDIO_TEST_PACKS";

// ---------------------------------------------------------------- parent side

/// A German pack with the words these tests say, built once per process.
fn packs() -> Result<PathBuf, String> {
    static PACKS: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PACKS
        .get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("audio-device-packs-{}", std::process::id()));
            let keys = [
                "letter.f",
                "letter.g",
                "rank.1",
                "rank.3",
                "piece.knight",
                "message.board_mismatch",
                "message.station_ready",
                "letter.e",
                "rank.2",
                "rank.4",
                "rank.5",
                "rank.7",
                "letter.d",
            ];
            let book = Phrasebook::builtin("de").ok_or("no German phrasebook")?;
            let options =
                BuildOptions { only: Some(keys.map(String::from).to_vec()), ..BuildOptions::default() };
            build_pack("de", book, &dir, &options).map_err(|e| e.to_string())?;
            Ok(dir)
        })
        .clone()
}

struct Capture {
    _dir: tempfile::TempDir,
    config: PathBuf,
    raw: PathBuf,
}

/// An ALSA configuration whose default device writes to a raw file.
fn file_device() -> Result<Capture, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let raw = dir.path().join("out.raw");
    let config = common::file_output_config(dir.path(), &raw)?;
    Ok(Capture { _dir: dir, config, raw })
}

/// An ALSA configuration whose default device does not exist.
fn no_device() -> Result<Capture, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let config = dir.path().join("asound.conf");
    std::fs::write(&config, "pcm.!default { type hw card 77 }\n")?;
    Ok(Capture { raw: dir.path().join("none.raw"), _dir: dir, config })
}

/// Runs the test `name` again in a child process with the ALSA configuration,
/// where it plays its scenario.
fn run_child(name: &str, capture: &Capture, packs: &Path) -> TestResult {
    let (passed, text) = common::run_child(name, &capture.config, (PACKS_ENV, packs))?;
    if !passed {
        return Err(format!("child {name} failed:\n{text}").into());
    }
    Ok(())
}

/// What the test `name`'s pack-speaking scenario handed the device, with the packs it spoke from.
fn heard_child(name: &str) -> Result<(PathBuf, Heard), Box<dyn std::error::Error>> {
    let packs = packs()?;
    let capture = file_device()?;
    run_child(name, &capture, &packs)?;
    Ok((packs, heard(&capture.raw)?))
}

/// The test `name`'s pack-speaking `scenario`: in the child that plays it,
/// played (`None`: the test is done); in the test itself, run in a child,
/// with the packs it spoke from and what the device heard.
fn heard_scenario(
    name: &str,
    scenario: fn(&Path) -> TestResult,
) -> Result<Option<(PathBuf, Heard)>, Box<dyn std::error::Error>> {
    if let Some(packs) = child_packs() {
        scenario(&packs)?;
        return Ok(None);
    }
    heard_child(name).map(Some)
}

/// Captured samples and the part between the first and last audible sample.
struct Heard {
    rms: f64,
    active: Duration,
}

fn heard(raw: &Path) -> Result<Heard, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(raw)?;
    let samples: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    let loud = |s: &i16| s.unsigned_abs() > 300;
    let first = samples.iter().position(loud).unwrap_or(0);
    let last = samples.iter().rposition(loud).unwrap_or(0);
    let active = &samples[first..=last.max(first)];
    let rms = (active.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / active.len().max(1) as f64).sqrt()
        / 32768.0;
    Ok(Heard { rms, active: Duration::from_secs_f64(active.len() as f64 / RATE) })
}

fn full_length(packs: &Path, utterance: &Utterance) -> Result<Duration, Box<dyn std::error::Error>> {
    let pack = VoicePack::load_language(packs, "de")?;
    Ok(render_clip(utterance, &RenderVoice::new(Some(&pack), "de"))?.0.duration())
}

fn wording() -> Result<Wording, station_voices::VoiceError> {
    Wording::new(&VoiceSettings { long_form: true, ..VoiceSettings::language("de") })
}

/// "Springer Gustav eins Felix drei": five pack words.
fn knight_move() -> Result<Utterance, station_voices::VoiceError> {
    let w = wording()?;
    let pos = position_from_fen("startpos")?;
    let nf3 = shakmaty::Move::Normal {
        role: shakmaty::Role::Knight,
        from: shakmaty::Square::G1,
        capture: None,
        to: shakmaty::Square::F3,
        promotion: None,
    };
    Ok(Utterance::from_announcement(&w.word_move(&pos, &nf3)?))
}

#[test]
fn a_played_move_is_heard_and_lasts_as_long_as_its_words() -> TestResult {
    let Some((packs, h)) =
        heard_scenario("a_played_move_is_heard_and_lasts_as_long_as_its_words", speaks_a_move)?
    else {
        return Ok(());
    };
    let expected = full_length(&packs, &knight_move()?)?;
    eprintln!("heard {:?} at rms {:.3}, pack says {:?}", h.active, h.rms, expected);
    assert!(h.rms > 0.03, "silent: rms {}", h.rms);
    let per_word = h.active.as_secs_f64() / 5.0;
    assert!((0.15..=1.2).contains(&per_word), "{:?} for 5 words", h.active);
    // The device got the whole announcement, no more (allowing 50 ms of edges).
    assert!(
        h.active + Duration::from_millis(50) >= expected && h.active <= expected + Duration::from_millis(50)
    );
    Ok(())
}

#[test]
fn an_urgent_message_cuts_off_the_one_being_said() -> TestResult {
    let Some((packs, h)) = heard_scenario("an_urgent_message_cuts_off_the_one_being_said", urgent_preempts)?
    else {
        return Ok(());
    };
    let w = wording()?;
    let first = full_length(&packs, &Utterance::message(&w, Message::BoardMismatch))?;
    let second = full_length(&packs, &Utterance::message(&w, Message::StationReady))?;
    eprintln!("heard {:?}; whole messages {:?} + {:?}", h.active, first, second);
    assert!(h.rms > 0.03);
    assert!(h.active + Duration::from_millis(500) < first + second, "not cut: {:?}", h.active);
    assert!(h.active >= second, "urgent message not said in full: {:?}", h.active);
    Ok(())
}

#[test]
fn a_newer_move_replaces_stale_ones() -> TestResult {
    let Some((_, h)) = heard_scenario("a_newer_move_replaces_stale_ones", moves_coalesce)? else {
        return Ok(());
    };
    assert!(h.rms > 0.03);
    Ok(())
}

#[test]
fn without_a_device_speech_falls_back_to_text_at_once() -> TestResult {
    if let Some(packs) = child_packs() {
        return no_device_scenario(&packs);
    }
    let packs = packs()?;
    run_child("without_a_device_speech_falls_back_to_text_at_once", &no_device()?, &packs)
}

#[test]
fn a_missing_pack_falls_back_to_espeak_on_the_device() -> TestResult {
    if let Some(packs) = child_packs() {
        return missing_pack(&packs);
    }
    let capture = file_device()?;
    run_child(
        "a_missing_pack_falls_back_to_espeak_on_the_device",
        &capture,
        Path::new("/nonexistent/packs"),
    )?;
    let h = heard(&capture.raw)?;
    assert!(h.rms > 0.03, "silent: rms {}", h.rms);
    assert!(h.active > Duration::from_millis(500));
    Ok(())
}

#[test]
fn output_devices_are_listed() -> TestResult {
    if child_packs().is_some() {
        return lists_devices();
    }
    let capture = file_device()?;
    run_child("output_devices_are_listed", &capture, Path::new("/nonexistent"))
}

#[test]
fn speech_dispatcher_never_blocks_the_speaker() -> TestResult {
    let started = Instant::now();
    let settings = ListenerSettings { tts_connect_timeout_ms: 1_500, ..settings(vec![VoiceKind::Tts]) };
    let speaker = Speaker::start("private", &settings, None);
    assert!(speaker.wait_ready(Duration::from_secs(3)), "set-up blocked");
    let status = speaker.status();
    eprintln!("speech-dispatcher: available {:?}, warnings {:?}", status.available, status.warnings);
    let id = speaker.say(Utterance::text("Anna"), Priority::Normal);
    let events = events_until(&speaker, |e| *e == SpeakerEvent::Finished { id });
    assert_eq!(events.last(), Some(&SpeakerEvent::Finished { id }), "{events:?}");
    assert!(started.elapsed() < Duration::from_secs(6));
    Ok(())
}

// ----------------------------------------------------------------- child side

/// The packs folder in the child process that plays a test's scenario; none
/// in the test itself.
fn child_packs() -> Option<PathBuf> {
    common::child_dir(PACKS_ENV)
}

fn settings(voices: Vec<VoiceKind>) -> ListenerSettings {
    ListenerSettings { language: "de".to_owned(), voices, ..ListenerSettings::default() }
}

/// Events until `done` returns true or 10 s pass.
fn events_until(speaker: &Speaker, mut done: impl FnMut(&SpeakerEvent) -> bool) -> Vec<SpeakerEvent> {
    let until = Instant::now() + Duration::from_secs(10);
    let mut out = Vec::new();
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match speaker.events().recv_timeout(left) {
            Ok(event) => {
                let stop = done(&event);
                out.push(event);
                if stop {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    out
}

fn ready(speaker: &Speaker, voice: VoiceKind) -> TestResult {
    assert!(speaker.wait_ready(Duration::from_secs(5)));
    let status = speaker.status();
    if !status.available.contains(&voice) {
        return Err(format!("{voice:?} unavailable: {:?}", status.warnings).into());
    }
    Ok(())
}

/// A private speaker with the pack voice only, ready.
fn pack_speaker(packs: &Path) -> Result<Speaker, Box<dyn std::error::Error>> {
    let speaker = Speaker::start("private", &settings(vec![VoiceKind::Pack]), Some(packs));
    ready(&speaker, VoiceKind::Pack)?;
    Ok(speaker)
}

/// The scenario of the test of that name, in its child process.
fn speaks_a_move(packs: &Path) -> TestResult {
    let speaker = pack_speaker(packs)?;
    // The microphone's mute flag is held while the move is being said, and only then.
    let mute = station_audio::speech::MuteFlag::new();
    speaker.mute_while_speaking(mute.clone());
    let id = speaker.say(knight_move()?, Priority::Move);
    let mut muted_while_speaking = None;
    let events = events_until(&speaker, |e| {
        if matches!(e, SpeakerEvent::FirstSample { .. }) {
            muted_while_speaking = Some(mute.is_set());
        }
        matches!(e, SpeakerEvent::Finished { .. } | SpeakerEvent::Cut { .. })
    });
    eprintln!("{events:?}");
    assert_eq!(muted_while_speaking, Some(true), "the microphone must not hear the station");
    assert!(speaker.wait_idle(Duration::from_secs(2)));
    assert!(!mute.is_set(), "listening again once the station is silent");
    assert!(events.contains(&SpeakerEvent::Started {
        id,
        voice: VoiceKind::Pack,
        text: "Springer Gustav eins Felix drei".into()
    }));
    let latency = events.iter().find_map(|e| match e {
        SpeakerEvent::FirstSample { latency, .. } => Some(*latency),
        _ => None,
    });
    assert!(latency.is_some_and(|l| l < Duration::from_millis(100)), "{latency:?}");
    assert_eq!(events.last(), Some(&SpeakerEvent::Finished { id }));
    Ok(())
}

/// The scenario of the test of that name, in its child process.
fn urgent_preempts(packs: &Path) -> TestResult {
    let speaker = pack_speaker(packs)?;
    let w = wording()?;
    let long = speaker.say(Utterance::message(&w, Message::BoardMismatch), Priority::Normal);
    std::thread::sleep(Duration::from_millis(400));
    let urgent = speaker.say(Utterance::message(&w, Message::StationReady), Priority::Urgent);
    let events = events_until(&speaker, |e| *e == SpeakerEvent::Finished { id: urgent });
    eprintln!("{events:?}");
    assert!(events.contains(&SpeakerEvent::Cut { id: long }));
    assert!(events.contains(&SpeakerEvent::Finished { id: urgent }));
    Ok(())
}

/// The scenario of the test of that name, in its child process.
fn moves_coalesce(packs: &Path) -> TestResult {
    let speaker = pack_speaker(packs)?;
    let w = wording()?;
    let mut pos = position_from_fen("startpos")?;
    let mut ids = Vec::new();
    for san in ["e4", "e5", "Nf3"] {
        let mv = san.parse::<shakmaty::san::San>()?.to_move(&pos)?;
        ids.push(speaker.say(Utterance::from_announcement(&w.word_move(&pos, &mv)?), Priority::Move));
        shakmaty::Position::play_unchecked(&mut pos, mv);
    }
    let last = ids[2];
    let events = events_until(&speaker, |e| *e == SpeakerEvent::Finished { id: last });
    eprintln!("{events:?}");
    let finished: Vec<u64> = events
        .iter()
        .filter_map(|e| if let SpeakerEvent::Finished { id } = e { Some(*id) } else { None })
        .collect();
    assert_eq!(finished, vec![last], "only the newest move is said in full");
    assert!(speaker.wait_idle(Duration::from_secs(1)));
    Ok(())
}

/// The scenario of the test of that name, in its child process.
fn no_device_scenario(packs: &Path) -> TestResult {
    let started = Instant::now();
    let speaker = Speaker::start("private", &settings(vec![VoiceKind::Pack, VoiceKind::Espeak]), Some(packs));
    let id = speaker.say(knight_move()?, Priority::Move);
    let events = events_until(&speaker, |e| *e == SpeakerEvent::Finished { id });
    eprintln!("{events:?} in {:?}", started.elapsed());
    assert!(
        events.iter().any(|e| matches!(e, SpeakerEvent::Warning { message } if message.contains("device")))
    );
    assert!(events.contains(&SpeakerEvent::Started {
        id,
        voice: VoiceKind::Text,
        text: "Springer Gustav eins Felix drei".into()
    }));
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(speaker.status().available, vec![VoiceKind::Text]);
    Ok(())
}

/// The scenario of the test of that name, in its child process.
fn missing_pack(packs: &Path) -> TestResult {
    let speaker = Speaker::start("private", &settings(vec![VoiceKind::Pack, VoiceKind::Espeak]), Some(packs));
    ready(&speaker, VoiceKind::Espeak)?;
    let status = speaker.status();
    assert!(status.warnings.iter().any(|w| w.contains("voices build")), "{:?}", status.warnings);
    let id = speaker.say(knight_move()?, Priority::Move);
    let events = events_until(&speaker, |e| *e == SpeakerEvent::Finished { id });
    eprintln!("{events:?}");
    assert!(events.iter().any(|e| matches!(e, SpeakerEvent::Started { voice: VoiceKind::Espeak, .. })));
    Ok(())
}

/// The scenario of `output_devices_are_listed`, in its child process.
fn lists_devices() -> TestResult {
    let devices = list_output_devices()?;
    eprintln!("{devices:?}");
    assert!(devices.iter().any(|d| d.is_default), "{devices:?}");
    Ok(())
}
