//! `station replay` counts the plies after which a draw could be claimed
//! (Art. 9.2 `repetitions`, Art. 9.3 `fifty_move`) as python-chess counts them
//! on the same games: its figures are recorded in `tests/data/draw_counts.txt`
//! (by `scripts/draw_counts.py`), and when python-chess is installed
//! (`.deps/python`, by `scripts/setup`) the script runs again here.

use station_tests::{shared_pgn, station_bin, workspace};
use std::collections::BTreeMap;
use std::process::Command;

/// The value after `key` in a summary line.
fn value(line: &str, key: &str) -> usize {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == key {
            return words.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{key} in {line}"));
        }
    }
    panic!("no `{key}` in `{line}`")
}

fn recorded() -> BTreeMap<String, (usize, usize)> {
    let text = std::fs::read_to_string(workspace().join("tests/data/draw_counts.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_owned(), (f[1].parse().unwrap(), f[2].parse().unwrap()))
        })
        .collect()
}

/// python-chess's counts for `file`, when python-chess can be imported.
fn python_chess(file: &std::path::Path) -> Option<(usize, usize)> {
    let mut path = workspace().join(".deps/python").display().to_string();
    if let Ok(more) = std::env::var("PYTHONPATH") {
        path = format!("{path}:{more}");
    }
    let out = Command::new("python3")
        .arg(workspace().join("scripts/draw_counts.py"))
        .arg(file)
        .env("PYTHONPATH", path)
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!("python-chess not available: {}", String::from_utf8_lossy(&out.stderr).trim());
        return None;
    }
    let line = String::from_utf8_lossy(&out.stdout).to_string();
    Some((value(&line, "repetitions"), value(&line, "fifty_move")))
}

#[test]
fn art_9_2_and_9_3_replay_counts_claimable_draws_as_python_chess_does() {
    let expected = recorded();
    assert_eq!(expected.len(), 4, "every game file of the data set");
    let mut total_fifty = 0;
    for (file, &(repetitions, fifty)) in &expected {
        let path = shared_pgn(&format!("games/{file}"));
        let out = Command::new(station_bin()).arg("replay").arg("--pgn").arg(&path).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().find(|l| l.starts_with("games ")).expect("a summary line");
        let got = (value(line, "repetitions"), value(line, "fifty_move"));
        assert_eq!(got, (repetitions, fifty), "{file}: {line}");
        if let Some(python) = python_chess(&path) {
            assert_eq!(got, python, "{file}: python-chess now");
        }
        total_fifty += fifty;
    }
    assert!(total_fifty > 0, "the data set holds fifty-move positions, so the count is exercised");
}
