//! The decision pipeline as a newcomer meets it on a busy machine: another
//! process writes and fsyncs a file in a loop while the station plays, and
//! every move must come out once, in order, and nothing else.

use station_tests::{DiskHog, scratch, station_bin, workspace};
use std::path::Path;
use std::process::{Command, Stdio};

/// The demo's famous game, as SAN.
fn famous_sans() -> Vec<String> {
    let pgn = std::fs::read(workspace().join("station/daemon/assets/kasparov-topalov-1999.pgn"));
    let games = station_core::pgn::read_games(&pgn.expect("the demo's game"));
    let game = &games[0].game;
    game.sans().iter().map(ToString::to_string).collect()
}

/// The move lines the demo printed ("12. Nf3", "12... Nc6"), as SAN.
fn printed_moves(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| {
            let (number, san) = l.split_once(' ')?;
            let n = number.trim_end_matches('.');
            (number.ends_with('.') && n.parse::<u32>().is_ok() && !l.starts_with(' ')).then(|| san.to_owned())
        })
        .collect()
}

/// Runs `station demo ARGS --listen 127.0.0.1:0 --journal-dir DIR/journal`
/// without sound; its printed lines once it succeeded.
fn demo(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(station_bin())
        .arg("demo")
        .args(args)
        .args(["--listen", "127.0.0.1:0", "--journal-dir"])
        .arg(dir.join("journal"))
        .env("ALSA_CONFIG_PATH", workspace().join(".deps/alsa/null.conf"))
        .stdin(Stdio::null())
        .output()
        .expect("station demo");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "demo {args:?} failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn demo_under_load(mirror: &str) {
    // The busy disk is for this demo, not for the tests beside it.
    let _alone = station_tests::alone();
    let dir = scratch(&format!("pipeline-demo-{mirror}"));
    let _hog = DiskHog::start(&dir);
    let stdout = demo(&dir, &["--speed", "20", "--mirror", mirror]);
    let expected = famous_sans();
    let printed = printed_moves(&stdout);
    assert_eq!(printed, expected, "every move once, in order, nothing else");
    assert!(!stdout.contains("(revised)"), "{stdout}");
}

#[test]
fn the_demo_at_speed_20_on_a_busy_disk_plays_every_move_once_in_order() {
    demo_under_load("none");
}

#[test]
fn the_two_board_demo_at_speed_20_on_a_busy_disk_plays_every_move_once_in_order() {
    demo_under_load("dgt");
}

/// `station demo --practice` at its default speed, as a newcomer starts it:
/// quick hands (the next move begun about a quarter of a second after the
/// last placement) play a weak engine's moves against Stockfish and execute
/// every answer; each of its 40 plies (fewer after a mate) is decided once,
/// in order, and the board never parts from the game.
#[test]
fn the_practice_demo_at_its_default_speed_plays_its_forty_plies() {
    let _alone = station_tests::alone();
    let dir = scratch("pipeline-practice-demo");
    let stdout = demo(&dir, &["--practice"]);
    assert!(!stdout.contains("board mismatch"), "{stdout}");
    // Forty plies, or fewer when Stockfish mates the weak engine first.
    let played: usize = stdout
        .lines()
        .find_map(|l| l.strip_suffix(" plies played; every answer of the engine executed on the peg board"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no summary line: {stdout}"));
    assert!((10..=40).contains(&played), "{played} plies: {stdout}");
    let printed = printed_moves(&stdout);
    assert_eq!(printed.len(), played, "every ply printed once: {printed:?}");
}
