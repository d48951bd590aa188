//! The command line's contracts, on the real binary.

use std::process::Command;

fn station() -> Command {
    Command::new(env!("CARGO_BIN_EXE_station"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("station-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch folder `name` with the file `file` holding `contents`: the folder and the file.
fn scratch_file(
    name: &str,
    file: &str,
    contents: impl AsRef<[u8]>,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch(name);
    let path = dir.join(file);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

#[test]
fn a_bad_config_names_file_line_and_key_and_fails() {
    let text = "[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/null\"\n\n[game]\nsetle_ms = 300\n";
    let (_, cfg) = scratch_file("badcfg", "station.toml", text);
    let out = station().args(["run", "--config"]).arg(&cfg).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("station.toml"), "{err}");
    assert!(err.contains("line 6"), "{err}");
    assert!(err.contains("setle_ms"), "{err}");
}

#[test]
fn a_missing_config_file_is_a_clear_error() {
    let out = station().args(["run", "--config", "/nonexistent/station.toml"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/station.toml"));
}

#[test]
fn replay_prints_the_summary_line() {
    let pgn_text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 1-0\n";
    let (_, pgn) = scratch_file("replay", "g.pgn", pgn_text);
    let out = station().args(["replay", "--pgn"]).arg(&pgn).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = String::from_utf8(out.stdout).unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        fields[..10],
        ["games", "1", "plies", "12", "mismatches", "0", "silent_errors", "0", "plies_per_s", fields[9]]
    );
    assert!(fields[9].parse::<f64>().unwrap() > 0.0);
}

#[test]
fn export_without_journals_fails_clearly() {
    let dir = scratch("export");
    let out = station().args(["export", "--pgn", "--journal-dir"]).arg(&dir).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds no game journal"), "an empty folder: {err}");
    // Issue 22 §8: a missing folder is another message (and is not created);
    // `--notation` alone is a format; none at all names every one.
    let missing = dir.join("no-such-folder");
    for args in [&["--pgn"][..], &["--notation", "pl"], &["--braille"], &["--large-print"], &["--pdn"]] {
        let out = station().arg("export").args(args).arg("--journal-dir").arg(&missing).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no journal folder") && err.contains("does not exist"), "{args:?}: {err}");
        assert!(!missing.exists(), "{args:?} created the folder");
    }
    let out = station().args(["export", "--journal-dir"]).arg(&dir).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for flag in ["--pgn", "--pdn", "--notation", "--braille", "--large-print", "--audio"] {
        assert!(err.contains(flag), "{flag} named: {err}");
    }
}

#[test]
fn a_taken_console_port_does_not_stop_the_station() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let text = format!("[boards.blind]\ndriver = \"none\"\n\n[console]\nlisten = \"127.0.0.1:{port}\"\n");
    let (dir, cfg) = scratch_file("port", "station.toml", text);
    let mut child = station()
        .args(["run", "--config"])
        .arg(&cfg)
        .arg("--journal-dir")
        .arg(dir.join("journal"))
        .env("ALSA_CONFIG_PATH", "/dev/null")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "the station stopped");
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the game goes on"), "{err}");
}
