//! What the command line tells the people who run a station (issue 34 §8,
//! §10–§12), through the real `station` binary: every `--help` page in their
//! words; `run` and `demo` name the player's page beside the console and the
//! mirror; a token of spaces refused; a practice game with `--config` naming
//! Stockfish, its take-back said once, its journal where the help says and
//! found by `export`; an export from a folder a running station holds says so
//! once in a plain sentence, and its large print says the result with its
//! reason and the time control in words; every systemd unit limits its files.

use serde_json::{Value, json};
use station_tests::{
    Kill, RunningStation, of_type, read_events, scratch, station_bin, station_run, wait_for, workspace,
    write_config,
};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const STOCKFISH: &str = "/usr/games/stockfish";
const TOKEN: &str = "day-token";

/// Words of the code a user should never read in `--help`.
const CODE_WORDS: [&str; 7] = ["issue", "module", "inference", "ply", "plies", "daemon", "stdout"];

fn station(args: &[&str]) -> Output {
    Command::new(station_bin()).args(args).output().unwrap()
}

/// The command names `station --help` lists.
fn commands() -> Vec<String> {
    let out = station(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn every_help_page_is_written_for_users() {
    let commands = commands();
    assert!(commands.len() >= 14 && commands.iter().any(|c| c == "practice"), "{commands:?}");
    let mut pages = vec![(String::from("station"), station(&["--help"]))];
    for c in &commands {
        pages.push((format!("station {c}"), station(&[c, "--help"])));
        if matches!(c.as_str(), "voices" | "models" | "hall") {
            let out = String::from_utf8_lossy(&station(&[c, "--help"]).stdout).into_owned();
            for sub in out.lines().skip_while(|l| !l.starts_with("Commands:")).skip(1) {
                let Some(sub) = sub.split_whitespace().next().filter(|s| *s != "help") else { break };
                pages.push((format!("station {c} {sub}"), station(&[c, sub, "--help"])));
            }
        }
    }
    let mut wrong = Vec::new();
    for (name, out) in &pages {
        assert!(out.status.success(), "{name} --help");
        let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
        for line in text.lines() {
            for word in CODE_WORDS {
                if line.split(|c: char| !c.is_alphanumeric()).any(|w| w == word) {
                    wrong.push(format!("{name}: `{word}` in {line:?}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(pages.len() >= 18, "{} pages read", pages.len());
}

/// The first lines a starting station prints, up to its `player:` line.
fn until_player_line(child: &mut Kill) -> Vec<String> {
    let stdout = child.0.stdout.take().expect("stdout piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let done = line.starts_with("player:");
            if tx.send(line).is_err() || done {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) {
        let done = line.starts_with("player:");
        lines.push(line);
        if done {
            return lines;
        }
    }
    panic!("no player: line in {lines:#?}");
}

/// `GET path` from `base` (`127.0.0.1:PORT`): the status.
fn status_of(base: &str, path: &str) -> u16 {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(base).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {base}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[test]
fn run_and_demo_print_the_players_page_beside_the_console_and_the_mirror() {
    let dir = scratch("player-url");
    let config = write_config(&dir, "[boards.blind]\ndriver = \"none\"\n");
    let mut run = station_run(&config, &dir.join("journal"), None);
    run.args(["--listen", "127.0.0.1:0", "--token", TOKEN]).stdout(Stdio::piped()).stderr(Stdio::null());
    let mut demo = Command::new(station_bin());
    demo.args(["demo", "--speed", "20", "--listen", "127.0.0.1:0", "--token", TOKEN])
        .arg("--journal-dir")
        .arg(dir.join("demo-journal"))
        .env("ALSA_CONFIG_PATH", workspace().join(".deps/alsa/null.conf"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (what, cmd) in [("run", &mut run), ("demo", &mut demo)] {
        let mut child = Kill::spawn(cmd);
        let lines = until_player_line(&mut child);
        let url = |page: &str| {
            let prefix = format!("{page}:");
            let line =
                lines.iter().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("{what}: {lines:#?}"));
            line[prefix.len()..].split_whitespace().next().unwrap().to_owned()
        };
        let console = url("console");
        let base = console.trim_start_matches("http://").trim_end_matches("/console").to_owned();
        assert_eq!(url("mirror"), format!("http://{base}/mirror"), "{what}");
        assert_eq!(url("player"), format!("http://{base}/player"), "{what}");
        assert_eq!(status_of(&base, "/player"), 200, "{what}: the player's page is there");
    }
}

#[test]
fn a_token_of_spaces_is_refused_in_words() {
    let dir = scratch("blank-token");
    let config = write_config(&dir, "[boards.blind]\ndriver = \"none\"\n[console]\ntoken = \"   \"\n");
    let out = station_run(&config, &dir.join("journal"), None).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("line 4, key `console.token`") && err.contains("only spaces"), "{err}");
    let config = write_config(&dir, "[boards.blind]\ndriver = \"none\"\n");
    let out = station_run(&config, &dir.join("journal"), None).args(["--token", "  "]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("--token") && err.contains("only spaces"), "{err}");
}

/// `station practice --config` in `dir` (the folder it runs in), against Stockfish at Elo 1500.
fn practice(dir: &Path, config: &Path, events: &Path) -> RunningStation {
    let mut cmd = Command::new(station_bin());
    cmd.current_dir(dir)
        .args(["practice", "--engine", STOCKFISH, "--elo", "1500", "--config"])
        .arg(config)
        .arg("--events")
        .arg(events)
        .stdin(Stdio::null());
    RunningStation::start(cmd, TOKEN)
}

/// Waits for the agreed move of `ply`; returns it.
fn game_move(events: &Path, ply: u64) -> Value {
    wait_for(Duration::from_secs(60), &format!("move {ply}"), || {
        read_events(events).into_iter().find(|e| e["type"] == "game_move" && e["ply"] == ply)
    })
}

#[test]
fn a_practice_game_with_a_config_names_the_engine_says_a_take_back_once_and_export_finds_it() {
    assert!(Path::new(STOCKFISH).is_file(), "{STOCKFISH} is missing: scripts/setup installs it");
    let dir = scratch("practice-day");
    // No sensed board: the game starts at once, before anything else happens.
    let config = write_config(&dir, "[boards.blind]\ndriver = \"none\"\n[voice]\nlanguage = \"en\"\n");
    let events = dir.join("events.jsonl");
    let station = practice(&dir, &config, &events);
    // The page learns it is a practice game and who plays (once the station has started).
    let practice_state = wait_for(Duration::from_secs(30), "the practice state", || {
        let state: Value = serde_json::from_slice(&station.get("/api/state").1).ok()?;
        state["practice"]["engine"].is_string().then(|| state["practice"].clone())
    });
    assert!(practice_state["engine"].as_str().unwrap().starts_with("Stockfish"), "{practice_state}");
    assert_eq!(
        (&practice_state["engine_color"], &practice_state["player_color"]),
        (&json!("black"), &json!("white"))
    );
    for (ply, san) in [(1, "e4"), (3, "Nf3")] {
        let (status, answer) = station.command(&json!({"cmd": "enter_move", "move": san}));
        assert_eq!(status, 200, "{answer}");
        game_move(&events, ply);
        game_move(&events, ply + 1);
    }
    let (status, answer) = station.command(&json!({"cmd": "practice", "action": "take_back"}));
    assert_eq!((status, &answer["result"]["taken_back"]), (200, &json!(2)), "{answer}");
    let said = wait_for(Duration::from_secs(20), "the take-back said", || {
        let ev = read_events(&events);
        let said: Vec<String> = of_type(&ev, "announcement")
            .into_iter()
            .filter(|e| e["listener"] == "private")
            .skip_while(|e| e["about"] != "take_back" && e["text"] != "Taken back")
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .collect();
        (!said.is_empty()).then_some(said)
    });
    // A moment for a second announcement, were there one.
    std::thread::sleep(Duration::from_millis(500));
    let ev = read_events(&events);
    let about_it: Vec<&Value> = of_type(&ev, "announcement")
        .into_iter()
        .filter(|e| e["listener"] == "private" && (e["about"] == "take_back" || e["text"] == "Taken back"))
        .collect();
    assert_eq!(about_it.len(), 1, "said once: {about_it:#?}");
    assert!(said[0].starts_with("taken back: Knight Felix three"), "{said:?}");
    drop(station);

    // Kept where the help says, and `station export` finds it there by itself.
    assert!(dir.join("journal-practice").is_dir() && !dir.join("journal").exists());
    let out = Command::new(station_bin()).current_dir(&dir).args(["export", "--pgn"]).output().unwrap();
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(pgn.contains("[Black \"Stockfish") && pgn.contains(", Elo 1500\"]"), "{pgn}");
    assert!(pgn.contains("\n1. e4 "), "{pgn}");
}

/// What a user reads on stderr: no log line (time stamp, level, colours).
fn plain(stderr: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(stderr).into_owned();
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for l in &lines {
        assert!(!l.contains('\u{1b}') && !l.contains(" WARN ") && !l.contains("Z "), "a log line: {l:?}");
    }
    lines
}

#[test]
fn an_export_from_a_held_folder_says_so_once_and_the_large_print_speaks_a_players_words() {
    let dir = scratch("held-export");
    let config = write_config(
        &dir,
        "[boards.blind]\ndriver = \"none\"\n[clock]\ntime_control = \"5400+30\"\nauto_press = true\n",
    );
    let journal = dir.join("journal");
    let station = RunningStation::start(station_run(&config, &journal, None), TOKEN);
    for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
        let (status, answer) = station.command(&json!({"cmd": "enter_move", "move": san}));
        assert_eq!(status, 200, "{san}: {answer}");
    }
    wait_for(Duration::from_secs(20), "the game over", || {
        let state: Value = serde_json::from_slice(&station.get("/api/state").1).ok()?;
        (state["phase"] == "finished").then_some(())
    });
    // The station still runs on the folder: each export says so once, plainly.
    let pdf = dir.join("sheet.pdf");
    for args in [vec!["--pgn"], vec!["--large-print", "--output", pdf.to_str().unwrap()]] {
        let out = Command::new(station_bin())
            .arg("export")
            .args(&args)
            .arg("--journal-dir")
            .arg(&journal)
            .env("STATION_LOG", "info")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let said = plain(&out.stderr);
        assert_eq!(said.len(), 1, "{args:?}: {said:#?}");
        assert!(said[0].contains("is running on") && said[0].contains("may still grow"), "{}", said[0]);
        if args[0] == "--large-print" {
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(stdout.trim(), format!("large print: {} (1 page)", pdf.display()));
        }
    }
    drop(station);
    let text = Command::new("pdftotext").args(["-layout", "-enc", "UTF-8"]).arg(&pdf).arg("-").output();
    let text = String::from_utf8(text.expect("pdftotext (poppler-utils, scripts/setup)").stdout).unwrap();
    assert!(text.contains("Result: 1-0 (White mates)"), "{text}");
    assert!(text.contains("time control: 90 min + 30 s per move"), "{text}");
    assert!(!text.contains("5400"), "{text}");
}

#[test]
fn every_systemd_unit_sets_its_open_files_limit() {
    let mut units = Vec::new();
    for folder in ["config", "packaging/deb"] {
        for entry in std::fs::read_dir(workspace().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "service") {
                units.push(path);
            }
        }
    }
    assert!(units.len() >= 4, "{units:?}");
    for unit in units {
        let text = std::fs::read_to_string(&unit).unwrap();
        let limit = text.lines().find_map(|l| l.strip_prefix("LimitNOFILE="));
        let limit: u32 =
            limit.and_then(|v| v.trim().parse().ok()).unwrap_or_else(|| panic!("{}", unit.display()));
        assert!(limit >= 4096, "{}: {limit}", unit.display());
    }
}
