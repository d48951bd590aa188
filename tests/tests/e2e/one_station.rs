//! Issue 22 §5: one station per journal folder and per serial port, with real
//! `station run` processes on a real pseudo-terminal.

use serialport::SerialPort;
use station_tests::{
    Kill, export_pgn, read_events, scratch, start_station, station_run, wait_for, write_config,
};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

fn config(dir: &Path, port: &str) -> std::path::PathBuf {
    write_config(
        dir,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{port}\"\nbaud = 115200\n\n[console]\nlisten = \"127.0.0.1:0\"\n"
        ),
    )
}

#[test]
fn a_second_station_on_the_same_folder_exits_naming_it_and_a_busy_port_names_its_holder() {
    let dir = scratch("one-station");
    let (_master, slave) = serialport::TTYPort::pair().unwrap();
    let port = slave.name().unwrap();
    // The test's own end stays open but unlocked, as a board's device node is.
    let config = config(&dir, &port);
    let journal = dir.join("journal");
    let first = start_station(&config, &journal, &dir.join("first.jsonl"));
    let pid = first.0.id();
    wait_for(Duration::from_secs(30), "the first station's lock", || {
        let text = std::fs::read_to_string(journal.join("station.lock")).ok()?;
        (text.trim() == pid.to_string()).then_some(())
    });
    // The first station holds the port once its board connects.
    wait_for(Duration::from_secs(30), "the first station connected to its board", || {
        let events = read_events(&dir.join("first.jsonl"));
        events.iter().any(|e| e["type"] == "board_status" && e["status"] == "connected").then_some(())
    });

    // A second station on the same folder: exit 1, naming the folder and the holder.
    let second = station_run(&config, &journal, None).stdout(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&journal.display().to_string()), "{stderr}");
    assert!(stderr.contains(&format!("process {pid}")), "{stderr}");

    // Another folder, the same port: it runs, and says who has the port.
    let events = dir.join("third.jsonl");
    let third = start_station(&config, &dir.join("journal-3"), &events);
    let detail = wait_for(Duration::from_secs(30), "the busy port reported", || {
        read_events(&events).into_iter().find_map(|e| {
            let d = e["detail"].as_str()?;
            d.contains("in use by").then(|| d.to_owned())
        })
    });
    assert!(detail.contains(&format!("process {pid}")) && detail.contains(&port), "{detail}");
    drop(third);

    // An export may read the folder, and says a station is running on it.
    let export = export_pgn(&journal);
    let stderr = String::from_utf8_lossy(&export.stderr);
    assert!(stderr.contains(&format!("a station (process {pid}) is running on")), "{stderr}");

    // Once the first station is gone, the folder is free again (its file stays: taken over).
    drop(first);
    let lock = journal.join("station.lock");
    assert!(lock.exists());
    let fourth = Kill(
        station_run(&config, &journal, None).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap(),
    );
    let fourth_pid = fourth.0.id();
    wait_for(Duration::from_secs(30), "the folder taken over", || {
        let text = std::fs::read_to_string(&lock).ok()?;
        (text.trim() == fourth_pid.to_string()).then_some(())
    });
}
