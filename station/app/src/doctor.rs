//! `station doctor`: the pre-round check (issue 24). One line per item —
//! `ok`, `warn` or `fail`, the item, what was found and what to do — for the
//! config, every board, the DGT clock, the audio outputs and voice packs,
//! the speech models (word by word), buttons and gamepad, the Braille
//! display, the hall broker, the journal folder and the clock's time control
//! and lever. It never starts a game nor writes a journal; ports are opened
//! briefly, through the same drivers and exclusivity the station uses.
//!
//! The advice is in the arbiter's words: a missing file is missing, a missing port names the serial
//! ports there are ([`serial_ports`], which `station devices` prints too), a missing audio device
//! the outputs there are; the defaults of a board that is not sensed are not warned about. `boards`
//! probes each board through its own driver and the DGT clock, `devices` the rest; the journal
//! folder and the lever are checked here. The console's pre-round panel runs the same checks
//! through `GET /api/doctor`; what the running station holds itself (its ports, its `station.lock`,
//! its audio) is ok, "held by this station".

mod boards;
mod devices;

pub use boards::serial_ports;
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

/// Who runs the check: `station doctor` on its own, or a running station's
/// console. A running station has its own board ports, its journal folder's
/// lock and its audio outputs open: those are "held by this station" (ok),
/// never "in use" (fail), and are not opened a second time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checker {
    /// `station doctor`: nothing is held by the checking process.
    Alone,
    /// The running station whose process id is `pid` (its console's check).
    Station {
        /// The station's process id (the holder named in lock files and `/proc`).
        pid: u32,
    },
}

impl Checker {
    /// The running station this code runs in.
    pub fn this_station() -> Checker {
        Checker::Station { pid: std::process::id() }
    }

    /// Whether the process `pid` is the station running the check.
    fn is_station(self, pid: u32) -> bool {
        matches!(self, Checker::Station { pid: own } if own == pid)
    }

    /// Whether the checking station itself has the device `path` open (its
    /// board driver), found through `/proc/self/fd` as `port_holders` finds
    /// other processes (which leaves this one out).
    fn holds_device(self, path: &Path) -> bool {
        if self == Checker::Alone {
            return false;
        }
        use std::os::unix::fs::MetadataExt;
        let Ok(target) = std::fs::metadata(path) else { return false };
        let Ok(fds) = std::fs::read_dir("/proc/self/fd") else { return false };
        fds.flatten().filter_map(|fd| std::fs::metadata(fd.path()).ok()).any(|m| {
            if target.rdev() != 0 {
                m.rdev() == target.rdev()
            } else {
                m.dev() == target.dev() && m.ino() == target.ino()
            }
        })
    }
}

/// The summary line's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Items that are ready.
    pub ok: usize,
    /// Items with a warning.
    pub warn: usize,
    /// Items that failed.
    pub fail: usize,
}

impl Counts {
    /// Counts the findings by level.
    pub fn of(findings: &[Finding]) -> Counts {
        let count = |level| findings.iter().filter(|f| f.level == level).count();
        Counts { ok: count(Level::Ok), warn: count(Level::Warn), fail: count(Level::Fail) }
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
    let Counts { ok, warn, fail } = Counts::of(&findings);
    println!("doctor: {ok} ok, {warn} warn, {fail} fail in {} ms", started.elapsed().as_millis());
    if fail > 0 {
        bail!("{fail} item{} failed: the game cannot run as configured", if fail == 1 { "" } else { "s" });
    }
    Ok(())
}

/// Every finding for the config at `path` (`station doctor`).
pub fn examine(path: &Path, journal_dir: Option<&Path>) -> Vec<Finding> {
    examine_as(Checker::Alone, path, journal_dir)
}

/// Every finding for the config at `path`, as `checker` sees it: the
/// console's check passes [`Checker::this_station`], so what the running
/// station holds itself is ok.
pub fn examine_as(checker: Checker, path: &Path, journal_dir: Option<&Path>) -> Vec<Finding> {
    let config = match Config::load(path) {
        Ok(c) => c,
        Err(e) => {
            // A file that is missing or unreadable has no key to fix.
            let todo = if e.is_unreadable() {
                "give the path of the station's config (--config FILE); config/station.toml describes every setting"
            } else {
                "fix that key and check again"
            };
            return vec![Finding::new(Level::Fail, "config", e.to_string(), todo)];
        }
    };
    let mut out = vec![Finding::ok("config", format!("{} read and checked", path.display()))];
    let journal = journal_dir
        .map(Path::to_owned)
        .or_else(|| config.journal.dir.clone())
        .unwrap_or_else(|| PathBuf::from(crate::config::DEFAULT_JOURNAL_DIR));
    out.extend(boards::check_boards(checker, &config));
    out.extend(boards::check_dgt_clock(checker, &config));
    out.extend(devices::check_audio(checker, &config));
    out.extend(devices::check_speech(&config));
    out.extend(devices::check_buttons(&config, written_buttons(path).as_ref()));
    out.extend(devices::check_braille(&config));
    out.extend(devices::check_hall(&config));
    out.push(check_journal(checker, &journal));
    out.push(check_clock(&config));
    out
}

/// The `[buttons]` keys the config file itself sets (the rest are defaults);
/// `None` when the file cannot be read as TOML again.
fn written_buttons(path: &Path) -> Option<std::collections::BTreeSet<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    Some(match table.get("buttons") {
        Some(toml::Value::Table(buttons)) => buttons.keys().cloned().collect(),
        _ => Default::default(),
    })
}

/// The journal folder: writable, free space, not held by another station
/// (held by the checking station itself is what it should be).
fn check_journal(checker: Checker, dir: &Path) -> Finding {
    let item = format!("journal {}", dir.display());
    let holder = crate::journal_lock::holder(dir);
    let ours = holder.and_then(|h| h.pid).is_some_and(|pid| checker.is_station(pid));
    if let Some(holder) = holder.filter(|_| !ours) {
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
    let state = match (ours, dir.is_dir()) {
        (true, _) => "held by this station (its station.lock), writable",
        (false, true) => "writable",
        (false, false) => "will be created, its parent is writable",
    };
    let not_locked = if ours { "" } else { ", not locked" };
    match free {
        Some(mib) if mib < 64 => Finding::new(
            Level::Warn,
            item,
            format!("{state}, only {mib} MiB free"),
            "free some space: a game's journal and kept audio need a few MiB",
        ),
        Some(mib) => Finding::ok(item, format!("{state}, {mib} MiB free{not_locked}")),
        None => Finding::ok(item, format!("{state}{not_locked} (free space unknown)")),
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
    // A time control that does not parse never gets here: the config is refused when read.
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
        assert_eq!(check_journal(Checker::Alone, &dir).level, Level::Ok);
        let _lock = crate::journal_lock::JournalLock::take(&dir).unwrap();
        let f = check_journal(Checker::Alone, &dir);
        assert_eq!(f.level, Level::Fail);
        assert!(f.found.contains(&format!("process {}", std::process::id())), "{f:?}");
        // Another station's check (another pid) sees it held by someone else too.
        let f = check_journal(Checker::Station { pid: std::process::id() + 1 }, &dir);
        assert_eq!(f.level, Level::Fail, "{f:?}");
        // The station holding it checks itself: its own lock is what it should be.
        let f = check_journal(Checker::this_station(), &dir);
        assert_eq!(f.level, Level::Ok, "{f:?}");
        assert!(f.found.contains("held by this station"), "{f:?}");
        drop(_lock);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Issue 34 §9: a missing file is said to be missing; no key is blamed.
    #[test]
    fn a_missing_config_file_is_said_to_be_missing() {
        let path = std::env::temp_dir().join(format!("station-doctor-missing-{}.toml", std::process::id()));
        let findings = examine(&path, None);
        assert_eq!(findings.len(), 1);
        let line = findings[0].line();
        assert!(line.starts_with("fail  config: "), "{line}");
        assert!(line.contains("the file is missing"), "{line}");
        assert!(!line.contains("key"), "no key to fix: {line}");
        assert!(line.contains("--config FILE"), "{line}");
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
