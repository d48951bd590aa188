//! The boards and the DGT clock, probed through the station's own drivers:
//! a port that is missing, busy (and by whom), silent or answering with its
//! identity and the position it shows.

use super::{Checker, Finding, Level};
use crate::config::{BoardConfig, ClockSource, Config, DriverKind};
use shakmaty::{Bitboard, Chess, Position};
use station_serial::dgt::{DgtDriver, DgtEvent, DgtMessage, DgtSettings};
use station_serial::pegboard::protocol::BoardMessage;
use station_serial::pegboard::{DriverEvent, PegBoardDriver, SerialSettings};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a board may take to say who it is and what it shows.
const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// Every configured board.
pub fn check_boards(checker: Checker, config: &Config) -> Vec<Finding> {
    let mut out = Vec::new();
    for (role, board) in [("blind", &config.boards.blind), ("mirror", &config.boards.mirror)] {
        let item = format!("board {role}");
        match board {
            None if role == "blind" && !config.speech.enabled => out.push(Finding::new(
                Level::Warn,
                item,
                "no board configured and no speech input",
                "configure [boards.blind] (the peg board) or [speech] for a game without a sensed board",
            )),
            None => {}
            Some(b) => out.push(check_board(checker, &item, b)),
        }
    }
    out
}

fn check_board(checker: Checker, item: &str, b: &BoardConfig) -> Finding {
    match b.driver {
        DriverKind::None => Finding::ok(item, "none (moves by speech or the console)"),
        DriverKind::Pegboard | DriverKind::Dgt => {
            let Some(port) = &b.port else {
                return Finding::new(
                    Level::Fail,
                    item,
                    "no port configured",
                    "set its `port` (e.g. /dev/annexd-pegboard)",
                );
            };
            if !port.exists() {
                return Finding::new(
                    Level::Fail,
                    item,
                    format!("port {} is not there", port.display()),
                    missing_port_advice(&serial_ports()),
                );
            }
            if checker.holds_device(port) {
                // Its own driver has it open (exclusively): opening it again would
                // only find it busy. The console's Boards section says what it reads.
                return Finding::ok(
                    item,
                    format!(
                        "port {} held by this station (its board driver has it open; not opened a second time)",
                        port.display()
                    ),
                );
            }
            let holders = station_serial::port_holder::port_holders(port);
            if !holders.is_empty() {
                let by: Vec<String> = holders.iter().map(ToString::to_string).collect();
                return Finding::new(
                    Level::Fail,
                    item,
                    format!("port {} is in use by {}", port.display(), by.join(", ")),
                    "stop that process (another station, a terminal program) and check again",
                );
            }
            if b.driver == DriverKind::Dgt {
                probe_dgt(item, port, b.baud)
            } else {
                probe_pegboard(item, port, b.baud, "")
            }
        }
        DriverKind::Sim => {
            // The simulated board on a pty of its own, answering as a real one would.
            let link = std::env::temp_dir()
                .join(format!("annexd-doctor-{}-{item}", std::process::id()).replace(' ', "-"));
            let sim = match SimPegBoard::start(SimOptions::new(&link)) {
                Ok(sim) => sim,
                Err(e) => {
                    return Finding::new(
                        Level::Fail,
                        item,
                        format!("the simulated board cannot start: {e}"),
                        "check that /dev/pts is usable",
                    );
                }
            };
            let finding = probe_pegboard(item, &link, b.baud, "simulated, ");
            drop(sim);
            finding
        }
    }
}

/// The serial ports plugged in now, as a board's `port` names them: the
/// udev rule's names (`/dev/annexd-*`), the stable `/dev/serial/by-id/*`
/// links, then the USB serial adapters (`/dev/ttyUSB*`, `/dev/ttyACM*`).
/// `station devices` prints the same list.
pub fn serial_ports() -> Vec<std::path::PathBuf> {
    serial_ports_under(Path::new("/dev"))
}

/// [`serial_ports`] in the device folder `dev`.
fn serial_ports_under(dev: &Path) -> Vec<std::path::PathBuf> {
    let names = |dir: &Path, keep: &dyn Fn(&str) -> bool| -> Vec<std::path::PathBuf> {
        let mut found: Vec<_> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_str().is_some_and(keep))
            .map(|e| e.path())
            .collect();
        found.sort();
        found
    };
    let mut ports = names(dev, &|n| n.starts_with("annexd-"));
    ports.extend(names(&dev.join("serial/by-id"), &|_| true));
    ports.extend(names(dev, &|n| n.starts_with("ttyUSB") || n.starts_with("ttyACM")));
    ports
}

/// What to do about a configured port that is not there, given the serial
/// ports that are.
fn missing_port_advice(present: &[std::path::PathBuf]) -> String {
    let rule = "check the board's cable and power, and the udev rule (config/99-annexd.rules) that names it";
    if present.is_empty() {
        format!("no serial port is plugged in at all: {rule}")
    } else {
        let list: Vec<String> = present.iter().map(|p| p.display().to_string()).collect();
        format!("{rule}; plugged in now: {} (set the board's `port` to one of them)", list.join(", "))
    }
}

/// Opens a peg board through its driver, waits for its identity and a scan.
fn probe_pegboard(item: &str, port: &Path, baud: u32, what: &str) -> Finding {
    let mut driver = PegBoardDriver::spawn(SerialSettings { path: port.to_owned(), baud });
    let events = driver.events();
    let until = Instant::now() + ANSWER_WITHIN;
    let (mut connected, mut identity, mut scan, mut lost) = (false, None, None, None);
    while Instant::now() < until && (identity.is_none() || scan.is_none()) {
        let Ok(event) = events.recv_deadline(until) else { break };
        match event.event {
            DriverEvent::Connected => connected = true,
            DriverEvent::Disconnected { reason } if !connected => {
                lost = Some(reason);
                break;
            }
            DriverEvent::Message(BoardMessage::Identity(text)) => identity = Some(text),
            DriverEvent::Message(BoardMessage::Scan(bits)) => scan = Some(bits),
            _ => {}
        }
    }
    driver.shutdown();
    if let Some(reason) = lost {
        return Finding::new(
            Level::Fail,
            item,
            reason,
            "check the port, its permissions (the dialout group) and who holds it",
        );
    }
    match (identity, scan) {
        (Some(identity), Some(bits)) => {
            let (level, shows, todo) = describe_position(bits);
            Finding::new(level, item, format!("{what}{}: \"{identity}\", {shows}", port.display()), todo)
        }
        (None, Some(bits)) => {
            let (_, shows, _) = describe_position(bits);
            Finding::new(
                Level::Warn,
                item,
                format!("{what}{} answers scans ({shows}) but not the identity request", port.display()),
                "update the board's firmware to protocol v1 (docs/pegboard-protocol.md)",
            )
        }
        _ if connected => Finding::new(
            Level::Fail,
            item,
            format!(
                "{what}{} opens but does not answer within {} s",
                port.display(),
                ANSWER_WITHIN.as_secs()
            ),
            "is it the peg board? check the baud rate (115200) and that the board is powered",
        ),
        _ => Finding::new(Level::Fail, item, format!("{} did not open", port.display()), "check the cable"),
    }
}

/// The pegs a scan shows, and whether that is the start position.
fn describe_position(bits: Bitboard) -> (Level, String, String) {
    let start = Chess::default().board().occupied();
    let pegs = bits.count();
    if bits == start {
        (Level::Ok, format!("shows the start position ({pegs} pegs)"), String::new())
    } else {
        let missing = (start & !bits).count();
        let extra = (bits & !start).count();
        (
            Level::Warn,
            format!("shows {pegs} pegs, not the start position ({missing} missing, {extra} extra)"),
            "set up the start position before the round".to_owned(),
        )
    }
}

/// Opens a DGT board through its driver: its version and the position.
fn probe_dgt(item: &str, port: &Path, baud: u32) -> Finding {
    let mut settings = DgtSettings::new(port);
    settings.baud = baud;
    let mut driver = DgtDriver::spawn(settings);
    let events = driver.events();
    let until = Instant::now() + ANSWER_WITHIN;
    let (mut connected, mut version, mut board, mut lost) = (false, None, None, None);
    while Instant::now() < until && (version.is_none() || board.is_none()) {
        let Ok(event) = events.recv_deadline(until) else { break };
        match event.event {
            DgtEvent::Connected => connected = true,
            DgtEvent::Disconnected { reason } if !connected => {
                lost = Some(reason);
                break;
            }
            DgtEvent::Message(DgtMessage::Version { major, minor }) => {
                version = Some(format!("{major}.{minor}"))
            }
            DgtEvent::Message(DgtMessage::BoardDump(b)) => board = Some(b),
            _ => {}
        }
    }
    driver.shutdown();
    if let Some(reason) = lost {
        return Finding::new(Level::Fail, item, reason, "check the port, its permissions and who holds it");
    }
    match board {
        Some(b) => {
            let (level, shows, todo) = if b == shakmaty::Board::default() {
                (Level::Ok, "shows the start position".to_owned(), String::new())
            } else {
                (
                    Level::Warn,
                    format!("shows {} pieces, not the start position", b.occupied().count()),
                    "set up the start position".to_owned(),
                )
            };
            let version = version.map_or_else(String::new, |v| format!("version {v}, "));
            Finding::new(level, item, format!("DGT board on {}: {version}{shows}", port.display()), todo)
        }
        None if connected => Finding::new(
            Level::Fail,
            item,
            format!("{} opens but no DGT board answers within {} s", port.display(), ANSWER_WITHIN.as_secs()),
            "check the baud rate (9600) and the board's cable",
        ),
        None => {
            Finding::new(Level::Fail, item, format!("{} did not open", port.display()), "check the cable")
        }
    }
}

/// The DGT clock, when it keeps the time.
pub fn check_dgt_clock(checker: Checker, config: &Config) -> Vec<Finding> {
    if config.clock.source != ClockSource::Dgt {
        return Vec::new();
    }
    let Some(board) = config.boards.mirror.as_ref().filter(|m| m.driver == DriverKind::Dgt) else {
        return vec![Finding::new(
            Level::Fail,
            "DGT clock",
            "[clock] source = \"dgt\" but no DGT board is configured to read it through",
            "configure [boards.mirror] driver = \"dgt\", or use the station's clock",
        )];
    };
    let Some(port) = board.port.as_ref().filter(|p| p.exists()) else {
        return vec![Finding::new(
            Level::Fail,
            "DGT clock",
            "its DGT board's port is not there",
            "see the board's line",
        )];
    };
    if checker.holds_device(port) {
        return vec![Finding::ok(
            "DGT clock",
            format!(
                "read through this station's DGT board on {} (held by this station); set to mode 23 when the game starts",
                port.display()
            ),
        )];
    }
    let mut settings = DgtSettings::new(port);
    settings.baud = board.baud;
    let mut driver = DgtDriver::spawn(settings);
    let events = driver.events();
    let until = Instant::now() + ANSWER_WITHIN;
    let (mut model, mut reading) = (None, false);
    while Instant::now() < until && (model.is_none() || !reading) {
        let Ok(event) = events.recv_deadline(until) else { break };
        match event.event {
            DgtEvent::Clock(station_serial::dgt::ClockReport::Model { model: m, version }) => {
                model = Some(format!("{m:?} version {}.{}", version.0, version.1));
            }
            DgtEvent::Message(DgtMessage::ClockTime(_)) => reading = true,
            _ => {}
        }
    }
    driver.shutdown();
    match (model, reading) {
        (Some(model), _) => vec![Finding::ok(
            "DGT clock",
            format!("{model}; set to mode 23 when the game starts (its lever switches)"),
        )],
        (None, true) => vec![Finding::new(
            Level::Warn,
            "DGT clock",
            "times read, but the clock did not say its version",
            "a DGT 3000 or XL is needed for the station to set it (mode 23)",
        )],
        (None, false) => vec![Finding::new(
            Level::Fail,
            "DGT clock",
            "no clock answers through the DGT board",
            "connect the clock to the board's clock socket and switch it on",
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulated_board_answers_with_its_identity_and_the_start_position() {
        let b: BoardConfig = toml::from_str("driver = \"sim\"").unwrap();
        let f = check_board(Checker::Alone, "board blind", &b);
        assert_eq!(f.level, Level::Ok, "{f:?}");
        assert!(f.found.contains("AnnexD-SimPegBoard") && f.found.contains("start position"), "{f:?}");
    }

    #[test]
    fn a_wrong_port_fails_and_says_what_to_do() {
        let b: BoardConfig = toml::from_str("driver = \"pegboard\"\nport = \"/dev/ttyUSB77\"").unwrap();
        let f = check_board(Checker::Alone, "board blind", &b);
        assert_eq!(f.level, Level::Fail, "{f:?}");
        assert!(f.found.contains("/dev/ttyUSB77") && f.todo.contains("cable"), "{f:?}");
        assert!(!f.todo.contains("station devices"), "says what to do itself: {f:?}");
    }

    /// Issue 34 §9: the advice names the ports that are there, or says there are none.
    #[test]
    fn a_missing_port_is_told_with_the_ports_that_are_plugged_in() {
        let none = missing_port_advice(&[]);
        assert!(none.contains("no serial port is plugged in") && none.contains("cable"), "{none}");
        let some = missing_port_advice(&["/dev/ttyUSB0".into(), "/dev/ttyACM1".into()]);
        assert!(some.contains("plugged in now: /dev/ttyUSB0, /dev/ttyACM1"), "{some}");
        assert!(some.contains("`port`"), "{some}");
        // The ports of a device folder: the udev rule's names first, no console ttys.
        let dev = std::env::temp_dir().join(format!("station-doctor-dev-{}", std::process::id()));
        std::fs::create_dir_all(dev.join("serial/by-id")).unwrap();
        for name in ["ttyUSB0", "ttyS0", "tty1", "annexd-pegboard", "ttyACM0", "serial/by-id/usb-FTDI_A1"] {
            std::fs::write(dev.join(name), b"").unwrap();
        }
        let found: Vec<String> = serial_ports_under(&dev)
            .iter()
            .map(|p| p.strip_prefix(&dev).unwrap().display().to_string())
            .collect();
        assert_eq!(found, ["annexd-pegboard", "serial/by-id/usb-FTDI_A1", "ttyACM0", "ttyUSB0"]);
        let _ = std::fs::remove_dir_all(dev);
    }

    #[test]
    fn a_port_held_by_another_process_is_named_with_its_pid() {
        use serialport::SerialPort;
        let (_master, slave) = serialport::TTYPort::pair().unwrap();
        let path = slave.name().unwrap();
        let mut holder = std::process::Command::new("sleep")
            .arg("30")
            .stdin(std::fs::File::open(&path).unwrap())
            .spawn()
            .unwrap();
        let b: BoardConfig = toml::from_str(&format!("driver = \"pegboard\"\nport = \"{path}\"")).unwrap();
        let f = check_board(Checker::Alone, "board blind", &b);
        let _ = holder.kill();
        let _ = holder.wait();
        assert_eq!(f.level, Level::Fail, "{f:?}");
        assert!(f.found.contains(&format!("in use by process {}", holder.id())), "{f:?}");
    }

    #[test]
    fn a_port_the_checking_station_holds_is_ok_and_not_opened_again() {
        use serialport::SerialPort;
        let (_master, slave) = serialport::TTYPort::pair().unwrap();
        let path = slave.name().unwrap();
        // This process has it open, as a running station's driver would.
        let b: BoardConfig = toml::from_str(&format!("driver = \"pegboard\"\nport = \"{path}\"")).unwrap();
        let f = check_board(Checker::this_station(), "board blind", &b);
        assert_eq!(f.level, Level::Ok, "{f:?}");
        assert!(f.found.contains("held by this station") && f.found.contains(&path), "{f:?}");
        // `station doctor` alone holds nothing: the same port would be probed.
        assert!(!Checker::Alone.holds_device(std::path::Path::new(&path)));
        drop(slave);
        // Once the station has let it go it is probed again, not "held".
        assert!(!Checker::this_station().holds_device(std::path::Path::new(&path)));
    }

    #[test]
    fn a_port_that_opens_but_stays_silent_fails() {
        use serialport::SerialPort;
        let (_master, slave) = serialport::TTYPort::pair().unwrap();
        let path = slave.name().unwrap();
        drop(slave);
        let b: BoardConfig = toml::from_str(&format!("driver = \"pegboard\"\nport = \"{path}\"")).unwrap();
        let f = check_board(Checker::Alone, "board blind", &b);
        assert_eq!(f.level, Level::Fail, "{f:?}");
        assert!(f.found.contains("does not answer"), "{f:?}");
    }
}
