//! `station doctor`: the pre-round check (issue 24). One line per item —
//! `ok`, `warn` or `fail`, the item, what was found and what to do — for the
//! config, every board, the DGT clock, the audio outputs and voice packs,
//! the speech models (word by word), buttons and gamepad, the Braille
//! display, the hall broker, the journal folder and the clock's time control
//! and lever. It never starts a game nor writes a journal; ports are opened
//! briefly, through the same drivers and exclusivity the station uses.

mod boards;
mod devices;

pub use devices::check_model;

use crate::config::{Config, DriverKind};
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Ready.
    Ok,
    /// The game can run, but something is missing or odd.
    Warn,
    /// The game cannot run as configured.
    Fail,
}

impl Level {
    fn word(self) -> &'static str {
        match self {
            Level::Ok => "ok",
            Level::Warn => "warn",
            Level::Fail => "fail",
        }
    }
}

/// One checked item.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// `ok`, `warn` or `fail`.
    pub level: Level,
    /// What was checked ("config", "board blind", "speech model de" …).
    pub item: String,
    /// What was found.
    pub found: String,
    /// What to do (empty when nothing).
    pub todo: String,
}

impl Finding {
    /// A finding.
    pub fn new(
        level: Level,
        item: impl Into<String>,
        found: impl Into<String>,
        todo: impl Into<String>,
    ) -> Finding {
        Finding { level, item: item.into(), found: found.into(), todo: todo.into() }
    }

    /// An `ok` finding with nothing to do.
    pub fn ok(item: impl Into<String>, found: impl Into<String>) -> Finding {
        Finding::new(Level::Ok, item, found, "")
    }

    /// The line `station doctor` prints.
    pub fn line(&self) -> String {
        let mut line = format!("{:<4}  {}: {}", self.level.word(), self.item, self.found);
        if !self.todo.is_empty() {
            line.push_str(" — ");
            line.push_str(&self.todo);
        }
        line
    }
}

/// `station doctor` arguments.
pub struct DoctorOptions {
    /// The config file.
    pub config: PathBuf,
    /// `--journal-dir` (overrides `[journal] dir`, as for `run`).
    pub journal_dir: Option<PathBuf>,
}

/// Runs every check and prints one line each, then a summary line; fails
/// (exit 1) when any item failed.
pub fn doctor(opts: &DoctorOptions) -> Result<()> {
    let started = Instant::now();
    let findings = examine(&opts.config, opts.journal_dir.as_deref());
    for f in &findings {
        println!("{}", f.line());
    }
    let count = |level| findings.iter().filter(|f| f.level == level).count();
    let (warn, fail) = (count(Level::Warn), count(Level::Fail));
    println!(
        "doctor: {} ok, {warn} warn, {fail} fail in {} ms",
        count(Level::Ok),
        started.elapsed().as_millis()
    );
    if fail > 0 {
        bail!("{fail} item{} failed: the game cannot run as configured", if fail == 1 { "" } else { "s" });
    }
    Ok(())
}

/// Every finding for the config at `path`.
pub fn examine(path: &Path, journal_dir: Option<&Path>) -> Vec<Finding> {
    let config = match Config::load(path) {
        Ok(c) => c,
        Err(e) => {
            return vec![Finding::new(Level::Fail, "config", e.to_string(), "fix that key and check again")];
        }
    };
    let mut out = vec![Finding::ok("config", format!("{} read and checked", path.display()))];
    let journal = journal_dir
        .map(Path::to_owned)
        .or_else(|| config.journal.dir.clone())
        .unwrap_or_else(|| PathBuf::from("journal"));
    out.extend(boards::check_boards(&config));
    out.extend(boards::check_dgt_clock(&config));
    out.extend(devices::check_audio(&config));
    out.extend(devices::check_speech(&config));
    out.extend(devices::check_buttons(&config));
    out.extend(devices::check_braille(&config));
    out.extend(devices::check_hall(&config));
    out.push(check_journal(&journal));
    out.push(check_clock(&config));
    out
}

/// The journal folder: writable, free space, not held by another station.
fn check_journal(dir: &Path) -> Finding {
    let item = format!("journal {}", dir.display());
    if let Some(holder) = crate::journal_lock::holder(dir) {
        return Finding::new(
            Level::Fail,
            item,
            format!("locked by another station ({holder})"),
            "stop that station, or give this one another folder ([journal] dir or --journal-dir)",
        );
    }
    // Not created here (doctor writes no journal): the nearest existing folder is checked.
    let existing = dir.ancestors().find(|a| a.is_dir()).unwrap_or(Path::new("."));
    let probe = existing.join(format!(".annexd-doctor-{}", std::process::id()));
    if let Err(e) = std::fs::write(&probe, b"probe").and_then(|()| std::fs::remove_file(&probe)) {
        return Finding::new(
            Level::Fail,
            item,
            format!("{} is not writable: {e}", existing.display()),
            "give the station's user write access (the package's /var/lib/annexd/journal is)",
        );
    }
    let free = free_mib(existing);
    let state = if dir.is_dir() { "writable" } else { "will be created, its parent is writable" };
    match free {
        Some(mib) if mib < 64 => Finding::new(
            Level::Warn,
            item,
            format!("{state}, only {mib} MiB free"),
            "free some space: a game's journal and kept audio need a few MiB",
        ),
        Some(mib) => Finding::ok(item, format!("{state}, {mib} MiB free, not locked")),
        None => Finding::ok(item, format!("{state}, not locked (free space unknown)")),
    }
}

/// Free space under `dir` in MiB, from `df` (no unsafe statvfs here).
fn free_mib(dir: &Path) -> Option<u64> {
    let out = std::process::Command::new("df").arg("-Pk").arg(dir).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let kib: u64 = text.lines().nth(1)?.split_whitespace().nth(3)?.parse().ok()?;
    Some(kib / 1024)
}

/// The time control, and a way to press the clock when there is one.
fn check_clock(config: &Config) -> Finding {
    use crate::config::ClockSource;
    let Some(tc) = &config.clock.time_control else {
        return Finding::new(
            Level::Warn,
            "clock",
            "no time control: the game is played without a clock and the console's clock buttons are refused",
            "set [clock] time_control (e.g. \"5400+30\") for a game with a clock",
        );
    };
    if config.time_control().is_none() {
        return Finding::new(
            Level::Fail,
            "clock",
            format!("time control `{tc}` is not valid"),
            "fix [clock] time_control",
        );
    }
    let presses = clock_presses(config);
    if presses.is_empty() {
        return Finding::new(
            Level::Warn,
            "clock",
            format!(
                "time control {tc}, but nothing can press the clock: it never switches and all the time is charged to one side"
            ),
            "map a lever in [buttons] clock (a board button or gamepad:NAME), set [clock] auto_press = true, or use a DGT clock ([clock] source = \"dgt\")",
        );
    }
    if config.clock.source == ClockSource::Dgt {
        return Finding::ok(
            "clock",
            format!("time control {tc}, kept by the DGT clock (its lever switches)"),
        );
    }
    Finding::ok("clock", format!("time control {tc}, pressed by {}", presses.join(", ")))
}

/// What can switch the station's clock.
fn clock_presses(config: &Config) -> Vec<String> {
    use crate::config::ClockSource;
    let mut ways = Vec::new();
    if config.clock.source == ClockSource::Dgt {
        ways.push("the DGT clock's lever".to_owned());
    }
    if config.clock.auto_press {
        ways.push("auto_press (after each move made and announced)".to_owned());
    }
    let board = |role: &str| match role {
        "blind" => config.boards.blind.as_ref(),
        "mirror" => config.boards.mirror.as_ref(),
        _ => None,
    };
    for source in &config.buttons.clock {
        let (kind, rest) = source.split_once(':').unwrap_or((source.as_str(), ""));
        match kind {
            "blind" | "mirror" => match board(kind) {
                // A peg board has its buttons; a simulated one presses only with `lever`.
                Some(b) if b.driver == DriverKind::Pegboard => {
                    ways.push(format!("button {rest} of the {kind} board"))
                }
                Some(b) if b.driver == DriverKind::Sim && b.lever => {
                    ways.push(format!("the simulated lever (button {rest} of the {kind} board)"))
                }
                _ => {}
            },
            "gamepad" => ways.push(format!("gamepad button {rest}")),
            "braille" if config.braille.enabled => ways.push(format!("Braille routing key {rest}")),
            _ => {}
        }
    }
    ways
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        Config::parse(text, Path::new("test.toml")).unwrap()
    }

    #[test]
    fn a_clock_without_a_lever_is_a_warning_that_says_what_to_do() {
        let c = config("[boards.blind]\ndriver = \"sim\"\n[clock]\ntime_control = \"5400+30\"\n");
        let f = check_clock(&c);
        assert_eq!(f.level, Level::Warn, "{f:?}");
        assert!(f.todo.contains("auto_press") && f.todo.contains("[buttons] clock"), "{f:?}");
        let c =
            config("[boards.blind]\ndriver = \"sim\"\nlever = true\n[clock]\ntime_control = \"5400+30\"\n");
        assert_eq!(check_clock(&c).level, Level::Ok);
        let c = config(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/x\"\n[clock]\ntime_control = \"5400+30\"\n",
        );
        assert_eq!(check_clock(&c).level, Level::Ok, "a peg board's button 0 is the default lever");
        let c = config(
            "[boards.blind]\ndriver = \"none\"\n[clock]\ntime_control = \"5400+30\"\nauto_press = true\n",
        );
        assert_eq!(check_clock(&c).level, Level::Ok);
    }

    #[test]
    fn the_shipped_sim_config_has_a_clock_and_its_lever() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/sim.toml");
        let c = Config::load(&path).unwrap();
        let f = check_clock(&c);
        assert_eq!(f.level, Level::Ok, "{f:?}");
        assert!(f.found.contains("simulated lever"), "{f:?}");
    }

    #[test]
    fn a_locked_journal_folder_fails_naming_the_holder() {
        let dir = std::env::temp_dir().join(format!("station-doctor-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(check_journal(&dir).level, Level::Ok);
        let _lock = crate::journal_lock::JournalLock::take(&dir).unwrap();
        let f = check_journal(&dir);
        assert_eq!(f.level, Level::Fail);
        assert!(f.found.contains(&format!("process {}", std::process::id())), "{f:?}");
        drop(_lock);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_bad_config_is_one_failing_line_naming_the_key() {
        let path = std::env::temp_dir().join(format!("station-doctor-bad-{}.toml", std::process::id()));
        std::fs::write(&path, "[clock]\ntime_contrl = \"5400\"\n").unwrap();
        let findings = examine(&path, None);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].level, Level::Fail);
        assert!(findings[0].found.contains("time_contrl"), "{:?}", findings[0]);
        let _ = std::fs::remove_file(path);
    }
}
