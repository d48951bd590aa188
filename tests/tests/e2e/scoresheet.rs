//! Issue 18 through the real `station run`: the recording device (D.2.7,
//! `[speech] keep_audio`) with the microphone path — Korean espeak-ng speech
//! into the real libvosk, as in `speech_run` — keeps nothing that is not an
//! accepted spoken move, lists what it keeps in `/api/state`, and `station
//! export --audio` says clearly when there is nothing; the Braille record of
//! a real opening played at the station comes back move for move from
//! liblouis's back-translation, and an unreadable table is a clear error.

use serde_json::Value;
use shakmaty::Position;
use station_tests::{
    RunningStation, export_error, exported, korean_model, korean_wav_config, of_type, read_events,
    real_opening, scratch, speak_korean, station_bin, station_run, wait_for,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const TOKEN: &str = "scoresheet-test-token-5d1e";

fn start_station(config: &Path, events: &Path, journal: &Path) -> RunningStation {
    RunningStation::start(station_run(config, journal, Some(events)), TOKEN)
}

/// Korean phrases from espeak-ng, one after another with silence between, as one WAV.
fn korean_speech(dir: &Path, phrases: &[&str]) -> PathBuf {
    let mut header = Vec::new();
    let mut samples: Vec<u8> = Vec::new();
    for (i, phrase) in phrases.iter().enumerate() {
        let part = dir.join(format!("phrase-{i}.wav"));
        speak_korean(phrase, &part);
        let bytes = std::fs::read(&part).unwrap();
        header = bytes[..44].to_vec();
        samples.extend(std::iter::repeat_n(0u8, 22_050 * 2));
        samples.extend_from_slice(&bytes[44..]);
    }
    samples.extend(std::iter::repeat_n(0u8, 22_050 * 4));
    // The RIFF and data sizes of the whole.
    header[4..8].copy_from_slice(&(36 + samples.len() as u32).to_le_bytes());
    header[40..44].copy_from_slice(&(samples.len() as u32).to_le_bytes());
    let wav = dir.join("speech.wav");
    std::fs::write(&wav, [header, samples].concat()).unwrap();
    wav
}

fn words(lang: &str, moves: &[String]) -> Vec<String> {
    let out = Command::new(station_bin()).args(["announce", "--lang", lang]).args(moves).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn the_recording_device_keeps_only_accepted_moves_and_the_braille_record_reads_back() {
    let model = korean_model();
    let dir = scratch("scoresheet-run");
    let wav = korean_speech(&dir, &["서울", "김치"]);
    let events = dir.join("events.jsonl");
    let journal = dir.join("journal");
    let (board, keep) = ("[boards.blind]\ndriver = \"none\"\n", "keep_audio = true\nkeep_audio_max_mb = 8\n");
    let config = korean_wav_config(&dir, board, &model, &wav, &["서울", "김치"], keep);
    let station = start_station(&config, &events, &journal);
    let heard = wait_for(Duration::from_secs(60), "both phrases heard", || {
        let ev = read_events(&events);
        let heard: Vec<Value> = of_type(&ev, "heard").into_iter().cloned().collect();
        (heard.len() >= 2).then_some(heard)
    });
    assert!(heard.iter().all(|h| h["understood"].as_str().unwrap().starts_with("reject")), "{heard:?}");
    // A real opening: his moves spoken (through the console: text, no sound),
    // the opponent's entered.
    let moves = real_opening("games/Fischer.pgn", 12);
    let said = words("de", &moves);
    for (ply, mv) in moves.iter().enumerate() {
        let (status, answer) = if ply % 2 == 0 {
            station.command(&serde_json::json!({"cmd": "spoken", "text": said[ply]}))
        } else {
            station.command(&serde_json::json!({"cmd": "enter_move", "move": mv}))
        };
        assert_eq!(status, 200, "ply {}: {answer}", ply + 1);
    }
    let state = wait_for(Duration::from_secs(10), "the state after the opening", || {
        let (_, body) = station.get("/api/state");
        let state: Value = serde_json::from_slice(&body).ok()?;
        (state["moves"].as_array()?.len() == moves.len()).then_some(state)
    });
    // Nothing heard was a move and the console's text has no sound: nothing kept, nothing listed.
    assert_eq!(state["audio"], serde_json::json!([]), "{}", state["audio"]);
    let (status, body) = station.get("/audio/ply-001.wav");
    assert_eq!(status, 404, "{}", String::from_utf8_lossy(&body));
    let game_id = state["game_id"].as_str().unwrap().to_owned();
    assert!(!journal.join(format!("{game_id}.audio")).exists());
    drop(station);

    let err = export_error(&journal, &["--audio", dir.join("audio-out").to_str().unwrap()]);
    assert!(err.contains(&game_id) && err.contains("no kept audio"), "{err}");

    // The record in Braille (Polish), back-translated by liblouis itself.
    let brf = dir.join("game.brf");
    exported(&journal, &["--braille", "--lang", "pl", "--output", brf.to_str().unwrap()]);
    let text = std::fs::read_to_string(&brf).unwrap();
    assert!(text.lines().all(|l| l.trim_start_matches('\x0c').chars().count() <= 40));
    let back = Command::new("lou_translate")
        .args(["--backward", "en-us-brf.dis,Pl-Pl-g1.utb"])
        .stdin(std::fs::File::open(&brf).unwrap())
        .output()
        .expect("liblouis-bin (scripts/setup)");
    let print = String::from_utf8(back.stdout).unwrap();
    let mut pos = shakmaty::Chess::default();
    let mut read = Vec::new();
    let polish = |c: char| match c {
        'H' => 'Q',
        'W' => 'R',
        'G' => 'B',
        'S' => 'N',
        c => c,
    };
    for token in print.split_whitespace() {
        let san: String = token.replace(['+', '#', '!'], "").chars().map(polish).collect();
        if let Ok(mv) = san.parse::<shakmaty::san::San>().map(|s| s.to_move(&pos)) {
            let Ok(mv) = mv else { continue };
            read.push(mv.to_uci(shakmaty::CastlingMode::Standard).to_string());
            pos.play_unchecked(mv);
        }
    }
    assert_eq!(read, moves, "back-translated:\n{print}");

    let bad = dir.join("bad.utb");
    std::fs::write(&bad, "no table at all\n").unwrap();
    let err = export_error(&journal, &["--braille", "--braille-table", bad.to_str().unwrap()]);
    assert!(err.contains("cannot be used by liblouis") && err.contains("bad.utb"), "{err}");
}
