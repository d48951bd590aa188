//! The engine driver against the fake UCI engines of `tests/engines/` (a
//! crash, a hang, garbage, an illegal move) and, when installed, Stockfish;
//! against the simulated engine in `station-sim`.

use super::*;
use std::path::Path;
use std::time::Instant;

fn fake(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/engines").join(format!("{name}.sh"))
}

fn uci(path: PathBuf) -> EngineKind {
    EngineKind::Uci {
        path,
        timeouts: Timeouts { handshake: Duration::from_secs(5), after_stop: Duration::from_millis(500) },
    }
}

fn after_e4() -> SearchPosition {
    SearchPosition { fen: None, moves: vec!["e2e4".into()], chess960: false }
}

fn search(driver: &EngineDriver, id: u64, position: SearchPosition, ms: u64) {
    driver.send(EngineRequest::Search {
        id,
        position,
        limit: SearchLimit::MoveTime(ms),
        strength: Strength { elo: Some(1500) },
    });
}

/// Every event up to the answer to `id` (or 30 s).
fn until_answer(driver: &EngineDriver, id: u64) -> Vec<EngineEvent> {
    let end = Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    while let Ok(e) = driver.events().recv_deadline(end) {
        let done = matches!(&e.event, EngineEvent::BestMove { id: i, .. } | EngineEvent::NoMove { id: i } if *i == id);
        seen.push(e.event);
        if done {
            break;
        }
    }
    seen
}

fn faults(events: &[EngineEvent]) -> Vec<FaultKind> {
    events
        .iter()
        .filter_map(|e| match e {
            EngineEvent::Fault { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect()
}

fn state_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Runs a fake engine that fails once with `fault`; the game goes on.
fn fails_once_then_plays(fault: &str, kind: FaultKind) {
    let dir = state_dir();
    // Each test its own state folder, set by a wrapper (the environment is the process's).
    let script = dir.path().join(format!("{fault}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nFAKE_ENGINE_STATE={}\nFAKE_ENGINE_MOVES='e7e5 b8c6'\nFAULT={fault}\n. {}\n",
            dir.path().display(),
            fake("fake_uci").display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let driver = EngineDriver::spawn(uci(script));
    search(&driver, 7, after_e4(), 50);
    let events = until_answer(&driver, 7);
    assert_eq!(faults(&events), [kind], "{events:?}");
    let ready = events.iter().filter(|e| matches!(e, EngineEvent::Ready { .. })).count();
    assert_eq!(ready, 2, "started, then restarted once: {events:?}");
    assert_eq!(
        events.last(),
        Some(&EngineEvent::BestMove { id: 7, uci: "e7e5".into(), score: Some(super::Score::Cp(0)) })
    );
    // And the next question is answered at once.
    search(
        &driver,
        8,
        SearchPosition { moves: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()], ..after_e4() },
        50,
    );
    let events = until_answer(&driver, 8);
    assert_eq!(faults(&events), []);
    assert!(matches!(events.last(), Some(EngineEvent::BestMove { uci, .. }) if uci == "b8c6"));
}

/// A crashing engine is named, restarted and the game goes on; a hanging one
/// is stopped first; garbage is never a move and an illegal move never made.
#[test]
fn a_failing_engine_is_named_restarted_and_the_game_goes_on() {
    // Side by side, as separate tests would run: the hang takes its time-outs.
    std::thread::scope(|s| {
        for (fault, kind) in [
            ("crash", FaultKind::Crashed),
            ("hang", FaultKind::Hung),
            ("garbage", FaultKind::Garbage),
            ("illegal", FaultKind::Illegal),
        ] {
            // Named, so a failure says which engine failed the test.
            let named = std::thread::Builder::new().name(fault.into());
            named.spawn_scoped(s, move || fails_once_then_plays(fault, kind)).unwrap();
        }
    });
}

#[test]
fn a_missing_engine_is_named_and_looked_for_again() {
    let driver = EngineDriver::spawn(uci(PathBuf::from("/nonexistent/engine")));
    search(&driver, 1, after_e4(), 50);
    let end = Instant::now() + Duration::from_secs(3);
    let mut missing = 0;
    while let Ok(e) = driver.events().recv_deadline(end) {
        match e.event {
            EngineEvent::Fault { kind: FaultKind::Missing, .. } => missing += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    // At start, then at each try of the search (the pause grows after the second).
    assert!(missing >= 3, "{missing}");
}

#[test]
fn a_cancelled_search_is_not_answered() {
    let dir = state_dir();
    let script = dir.path().join("slow.sh");
    // Answers only on `stop`, like an engine told to think forever.
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; stop) echo 'bestmove e7e5';; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let driver = EngineDriver::spawn(uci(script));
    search(&driver, 1, after_e4(), 60_000);
    std::thread::sleep(Duration::from_millis(200));
    driver.send(EngineRequest::Cancel);
    search(&driver, 2, SearchPosition { moves: vec![], ..after_e4() }, 60_000);
    std::thread::sleep(Duration::from_millis(200));
    driver.send(EngineRequest::Cancel);
    let events: Vec<_> =
        driver.events().recv_timeout(Duration::from_secs(2)).into_iter().map(|e| e.event).collect();
    assert!(events.iter().all(|e| matches!(e, EngineEvent::Ready { .. })), "{events:?}");
}

#[test]
fn stockfish_answers_legal_moves_at_a_limited_strength() {
    let path = PathBuf::from("/usr/games/stockfish");
    assert!(path.is_file(), "scripts/setup installs Debian's stockfish");
    let driver = EngineDriver::spawn(uci(path));
    search(&driver, 1, after_e4(), 100);
    let events = until_answer(&driver, 1);
    assert!(matches!(&events[0], EngineEvent::Ready { name } if name.starts_with("Stockfish")), "{events:?}");
    let Some(EngineEvent::BestMove { uci, .. }) = events.last() else { panic!("{events:?}") };
    assert!(UciMove::from_ascii(uci.as_bytes()).unwrap().to_move(&after_e4().to_position().unwrap()).is_ok());
}
