//! TLS to the hall's broker with the wrong CA: a station whose `ca_file` is
//! not the CA that signed the broker's certificate says so clearly, naming
//! the file, once, and plays its whole game all the same; a station with the
//! hall's CA beside it reaches the hall view over TLS with every move.

use super::support::{api, free_port, hall_view, make_broker_cert, make_ca, mosquitto, read_log, real_games};
use station_tests::{Kill, export_pgn, scratch, station_run, wait_for};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

fn station(
    dir: &Path,
    board: usize,
    port: u16,
    ca: &Path,
    game: &(std::path::PathBuf, usize, Vec<String>),
) -> Kill {
    let config = dir.join(format!("station-{board}.toml"));
    std::fs::write(
        &config,
        format!(
            "[boards.blind]\ndriver = \"sim\"\npgn = \"{}\"\ngame = {}\nspeed = 10.0\n\n[game]\nsettle_ms = 300\n\n[console]\nlisten = \"127.0.0.1:0\"\n\n[speech]\nenabled = false\n\n[hall]\nbroker = \"mqtts://127.0.0.1:{port}\"\nhall = \"tls\"\nboard = \"{board}\"\nca_file = \"{}\"\n",
            game.0.display(),
            game.1,
            ca.display()
        ),
    )
    .unwrap();
    let log = std::fs::File::create(dir.join(format!("station-{board}.log"))).unwrap();
    Kill(
        station_run(&config, &dir.join(format!("journal-{board}")), None)
            .env("STATION_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    )
}

/// The SANs of the last game in a journal directory.
fn exported(journal: &Path) -> Vec<String> {
    let out = export_pgn(journal);
    let games = station_core::pgn::read_games(&out.stdout);
    games.last().map(|g| g.game.sans().iter().map(ToString::to_string).collect()).unwrap_or_default()
}

#[test]
fn a_station_with_the_wrong_ca_names_it_and_plays_on_while_the_right_ca_reaches_the_hall() {
    let dir = scratch("hall-tls-wrong-ca");
    make_ca(&dir, "hall-ca");
    make_ca(&dir, "other-ca");
    make_broker_cert(&dir, "hall-ca");
    let port = free_port();
    let d = dir.display();
    let _broker = mosquitto(
        &dir,
        port,
        &format!("cafile {d}/hall-ca.pem\ncertfile {d}/broker.pem\nkeyfile {d}/broker.key\n"),
    );
    let hall_ca = dir.join("hall-ca.pem");
    let wrong_ca = dir.join("other-ca.pem");
    let (_view, base) = hall_view(
        &format!("mqtts://127.0.0.1:{port}"),
        "tls",
        &["--token", "arbiter", "--ca-file", hall_ca.to_str().unwrap()],
        Some(&dir.join("hall.log")),
    );
    let games = real_games(2, 20..=30);
    let _wrong = station(&dir, 1, port, &wrong_ca, &games[0]);
    let _right = station(&dir, 2, port, &hall_ca, &games[1]);

    // Upper bounds for a loaded machine, not expectations of speed.
    let log1 = dir.join("station-1.log");
    let needle = format!("does not verify against the CA file {}", wrong_ca.display());
    wait_for(Duration::from_secs(60), "the wrong CA named in the station's log", || {
        read_log(&log1).contains(&needle).then_some(())
    });
    wait_for(Duration::from_secs(240), "board 2's whole game in the hall over TLS", || {
        let h = api(&base);
        let b2 = h["boards"].as_array()?.iter().find(|b| b["board"] == "2")?.clone();
        (b2["moves"].as_array()?.len() >= games[1].2.len()).then_some(())
    });
    wait_for(Duration::from_secs(240), "board 1's whole game in its own journal", || {
        (exported(&dir.join("journal-1")) == games[0].2).then_some(())
    });
    let h = api(&base);
    let b2 = h["boards"].as_array().unwrap().iter().find(|b| b["board"] == "2").unwrap();
    assert_eq!(b2["moves"], serde_json::json!(games[1].2), "board 2's moves over TLS, each once");
    assert_eq!(b2["event_moves"], games[1].2.len(), "as events, not only the retained state");
    assert!(
        h["boards"].as_array().unwrap().iter().all(|b| b["board"] != "1"),
        "nothing of board 1 got past the broker's certificate check: {h}"
    );
    // Said once, not at every retry; the station went on all the same.
    let log = read_log(&log1);
    assert_eq!(log.matches("hall: the broker is away").count(), 1, "{log}");
    assert!(!log.contains("panicked"), "{log}");
}
