//! Audio outputs and voice packs, speech models word by word, buttons and
//! gamepad, the Braille display and the hall broker.

use super::{Checker, Finding, Level};
use crate::config::Config;
use crate::vocabulary::{Vocabulary, describe_missing, start_grammar};
use station_audio::{ListenerSettings, RenderVoice, Speaker, Utterance, VoiceKind, VoicePack, render_clip};
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
    let Some(opened) = &status.device else {
        let outputs = station_audio::list_output_devices()
            .map(|list| list.into_iter().map(|d| d.name).collect::<Vec<_>>())
            .unwrap_or_default();
        let (found, todo) = missing_output(name, device, &outputs, &status.warnings);
        // Without the device only speech-dispatcher (its own output) can speak.
        return match status.available.contains(&VoiceKind::Tts) {
            true => Finding::new(Level::Warn, item, found + "; only speech-dispatcher speaks", todo),
            false => Finding::new(Level::Fail, item, found, todo),
        };
    };
    Finding::ok(item, format!("output {opened} opens; voices {}", voices.join(", ")))
}

/// What is wrong with an output device that did not open, and what to do:
/// a name that is not among the `outputs` there are is said so, with those
/// outputs; otherwise why it did not open. Only the device's own problem is
/// told here (the voices' problems have the voice line).
fn missing_output(name: &str, device: &str, outputs: &[String], warnings: &[String]) -> (String, String) {
    let todo = match outputs {
        [] => "there is no audio output at all: check the sound card and its driver".to_owned(),
        list => format!("set [audio.{name}] device to one of the outputs there are: {}", list.join(", ")),
    };
    if !outputs.iter().any(|o| o == device) && device != "default" {
        return (format!("there is no audio output named \"{device}\""), todo);
    }
    let why: Vec<&str> =
        warnings.iter().map(String::as_str).filter(|w| w.contains(device) || w.contains("output")).collect();
    let why = match why.as_slice() {
        [] => "it does not open".to_owned(),
        some => some.join("; "),
    };
    (format!("output \"{device}\" does not open: {why}"), todo)
}

fn check_voice(name: &str, listener: &ListenerSettings, packs: Option<&std::path::Path>) -> Finding {
    let lang = &listener.language;
    let item = format!("voice {name} {lang}");
    let wording = match station_voices::Wording::new(&station_voices::VoiceSettings::language(lang)) {
        Ok(w) => w,
        Err(e) => {
            let fix = format!("use one of {}", station_voices::BUILTIN_LANGUAGES.join(", "));
            return Finding::new(Level::Fail, item, e.to_string(), fix);
        }
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
    let mut model = match station_audio::speech::load_model(dir, lang) {
        Ok(m) => m,
        Err(e) => {
            let level = if only_input { Level::Fail } else { Level::Warn };
            let fix = match e {
                station_audio::speech::ModelError::NonePublished { .. } => {
                    "he can speak his moves in another language he knows that has a model ([speech] language), or move by keys or on the board".to_owned()
                }
                _ => format!("station models install --lang {lang} ARCHIVE.zip"),
            };
            return Finding::new(level, item, e.to_string(), fix);
        }
    };
    let grammar = match start_grammar(lang) {
        Ok(g) => g,
        Err(e) => {
            return Finding::new(
                Level::Fail,
                item,
                e.to_string(),
                "speech input speaks the built-in phrasebooks' languages",
            );
        }
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
    let expected = station_audio::speech::expected_model(lang).unwrap_or("the language's model");
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
/// `written`: the `[buttons]` keys the file itself sets (`None`: unknown,
/// every key counts as written). A default the user never wrote (the clock,
/// time and repeat on the blind board's buttons 0–2) that has no device is
/// idle, not a mistake: only what he wrote is warned about.
pub fn check_buttons(config: &Config, written: Option<&std::collections::BTreeSet<String>>) -> Vec<Finding> {
    let b = &config.buttons;
    let is_written = |key: &str| written.is_none_or(|w| w.contains(key));
    let mut idle_defaults = Vec::new();
    let mut all: Vec<&String> = Vec::new();
    for (key, _, sources) in b.mapped() {
        for source in sources {
            if is_written(key) || source_is_there(config, source) {
                all.push(source);
            } else {
                idle_defaults.push(format!("{key} {source}"));
            }
        }
    }
    let mut out = Vec::new();
    let unknown: Vec<&str> = all.iter().filter(|s| !source_is_there(config, s)).map(|s| s.as_str()).collect();
    // Only the blind board has default buttons.
    let idle = if idle_defaults.is_empty() {
        String::new()
    } else {
        format!(
            "; the default buttons {} stay unused (the blind player's board is not sensed)",
            idle_defaults.join(", ")
        )
    };
    if unknown.is_empty() {
        let mapped = match all.len() {
            0 => "none mapped".to_owned(),
            n => format!("{n} mapped, each on a device that is configured"),
        };
        out.push(Finding::ok("buttons", format!("{mapped}{idle}")));
    } else {
        out.push(Finding::new(
            Level::Warn,
            "buttons",
            format!("mapped to devices that are not configured: {}{idle}", unknown.join(", ")),
            "map them to a board, gamepad or Braille display that is there ([buttons])",
        ));
    }
    check_gamepads(&all, &mut out);
    out
}

/// Whether a button source's device is configured (a gamepad is looked for apart).
fn source_is_there(config: &Config, source: &str) -> bool {
    let board_is_there = |b: &Option<crate::config::BoardConfig>| {
        b.as_ref().is_some_and(|b| b.driver != crate::config::DriverKind::None)
    };
    match source.split_once(':').map(|(k, _)| k) {
        Some("blind") => board_is_there(&config.boards.blind),
        Some("mirror") => board_is_there(&config.boards.mirror),
        Some("braille") => config.braille.enabled,
        _ => true,
    }
}

/// The gamepads the buttons name: plugged in or not.
fn check_gamepads(all: &[&String], out: &mut Vec<Finding>) {
    let pads: Vec<&str> = all.iter().filter_map(|s| s.strip_prefix("gamepad:")).collect();
    if !pads.is_empty() {
        out.push(match station_gamepad::list_gamepads() {
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
        let dir = crate::station::test_support::korean_model();
        let f = check_model("speech model de", "de", &dir, false);
        assert_eq!(f.level, Level::Fail, "{f:?}");
        for word in ["hector", "springer", "unterschied"] {
            assert!(f.found.split([' ', ',']).any(|w| w == word), "{word} not listed: {}", f.found);
        }
        assert!(f.todo.contains("vosk-model-small-de-0.15"), "{f:?}");
    }

    /// Issue 34 §9: a wrong device is one clear finding naming the outputs
    /// there are, without the voices' own problems run on behind it.
    #[test]
    fn a_wrong_audio_device_names_the_outputs_there_are() {
        let warnings = [
            "no audio output device named \"USB Headset\" (`station devices` lists them); speaking without this device".to_owned(),
            "no voice packs folder configured; pack voice off".to_owned(),
            "speech-dispatcher: failed to initialize; speech-dispatcher voice off".to_owned(),
        ];
        let outputs = ["default".to_owned(), "hw:CARD=PCH,DEV=0".to_owned()];
        let (found, todo) = missing_output("private", "USB Headset", &outputs, &warnings);
        assert_eq!(found, "there is no audio output named \"USB Headset\"");
        assert_eq!(
            todo,
            "set [audio.private] device to one of the outputs there are: default, hw:CARD=PCH,DEV=0"
        );
        let (_, todo) = missing_output("public", "USB Headset", &[], &warnings);
        assert!(todo.contains("there is no audio output at all"), "{todo}");
        // A device that is there but does not open: only its own reason.
        let busy = ["cannot open output \"default\": device busy".to_owned(), warnings[1].clone()];
        let (found, _) = missing_output("private", "default", &outputs, &busy);
        assert_eq!(found, "output \"default\" does not open: cannot open output \"default\": device busy");
    }

    fn config(text: &str) -> Config {
        Config::parse(text, std::path::Path::new("test.toml")).unwrap()
    }

    /// Issue 34 §9: the defaults he never wrote are not his mistake; what he
    /// wrote for a board that is not there is.
    #[test]
    fn default_buttons_without_their_board_are_not_warned_about() {
        let none = "[boards.blind]\ndriver = \"none\"\n";
        let nothing_written = std::collections::BTreeSet::new();
        let f = &check_buttons(&config(none), Some(&nothing_written))[0];
        assert_eq!(f.level, Level::Ok, "{f:?}");
        assert!(!f.found.contains("not configured"), "{f:?}");
        assert!(f.found.contains("clock blind:0") && f.found.contains("unused"), "{f:?}");
        // He wrote `time` onto the board that is not there: that one is warned about.
        let text = format!("{none}[buttons]\ntime = [\"blind:5\"]\n");
        let written: std::collections::BTreeSet<String> = ["time".to_owned()].into();
        let f = &check_buttons(&config(&text), Some(&written))[0];
        assert_eq!(f.level, Level::Warn, "{f:?}");
        assert!(f.found.contains("not configured: blind:5; the default buttons clock blind:0"), "{f:?}");
        // With a sensed board every default is in use.
        let f = &check_buttons(&config("[boards.blind]\ndriver = \"sim\"\n"), Some(&nothing_written))[0];
        assert_eq!((f.level, f.found.as_str()), (Level::Ok, "3 mapped, each on a device that is configured"));
    }

    /// A missing model names the one to install; Hungarian has none
    /// published, so the doctor says so and what the player can do instead.
    #[test]
    fn a_missing_model_says_how_to_install_one() {
        for (lang, found, todo) in [
            ("pl", "vosk-model-small-pl-0.22", "station models install --lang pl"),
            ("es", "vosk-model-small-es-0.42", "station models install --lang es"),
            ("hu", "none is published for `hu`", "[speech] language"),
        ] {
            let dir = std::path::PathBuf::from(format!("/nonexistent/vosk-{lang}"));
            let f = check_model(&format!("speech model {lang}"), lang, &dir, true);
            assert_eq!(f.level, Level::Fail);
            assert!(f.found.contains(found) && f.todo.contains(todo), "{f:?}");
        }
    }
}
