use super::*;
use crate::dgt::hands::{DgtHands, apply_updates};
use crate::test_support::{self, TempDir};
use crossbeam_channel::Receiver;
use shakmaty::{Chess, Move, Piece, Position, san::San};
use station_serial::dgt::clock_link::{self, ClockFailure, ClockReport};
use station_serial::dgt::protocol::{ClockModel, DgtError};
use station_serial::dgt::serial::{DgtDriver, DgtEvent, DgtSettings, OrientationSetting, UpdateMode};
use std::io::Write;

/// The driver's events without their arrival stamps (these tests judge what, not when).
/// The driver's events without their stamps, read from the driver's own
/// channel. No forwarding thread: a forwarder left from an earlier call would
/// race the next reader for the driver's events and drop the one it took.
struct Events(Receiver<station_stamp::Stamped<DgtEvent>>);

impl Events {
    fn recv_deadline(&self, deadline: Instant) -> Result<DgtEvent, crossbeam_channel::RecvTimeoutError> {
        self.0.recv_deadline(deadline).map(|s| s.event)
    }

    fn try_recv(&self) -> Result<DgtEvent, crossbeam_channel::TryRecvError> {
        self.0.try_recv().map(|s| s.event)
    }
}

fn unstamped(stamped: Receiver<station_stamp::Stamped<DgtEvent>>) -> Events {
    Events(stamped)
}

fn wait_for(events: &Events, timeout: Duration, wanted: impl FnMut(&DgtEvent) -> bool) -> Option<DgtEvent> {
    test_support::wait_for(&events.0, timeout, wanted)
}

fn is_dump(board: &Board) -> impl Fn(&DgtEvent) -> bool + '_ {
    move |e| matches!(e, DgtEvent::Message(DgtMessage::BoardDump(b)) if b == board)
}

/// A short game with a capture, castling and both capture orders, as DGT field updates.
fn scripted_game() -> (Vec<TimedUpdate>, Board) {
    let mut hands = DgtHands::new(11);
    let mut pos = Chess::default();
    let mut now = 0;
    let mut updates = Vec::new();
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"] {
        let mv: Move = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        hands.play(&pos, &mv, &mut now, &mut updates);
        pos.play_unchecked(mv);
        hands.think(500, &mut now);
    }
    (updates, pos.board().clone())
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn pty_round_trip_with_driver() {
    let dir = TempDir::new("emu");
    let link = dir.0.join("dgt");
    let mut opts = EmulatorOptions::new(&link);
    opts.speed = 10.0;
    opts.clock = Some(SimClock::new(300_000, 300_000, ClockRun::LeftRunning));
    let emu = DgtEmulator::start(opts).unwrap();
    assert!(link.exists());

    let mut driver = DgtDriver::spawn(DgtSettings::new(&link));
    let events = unstamped(driver.events());
    assert_eq!(wait_for(&events, 10 * SECOND, |e| *e == DgtEvent::Connected), Some(DgtEvent::Connected));
    let version = DgtEvent::Message(DgtMessage::Version { major: 1, minor: 8 });
    assert!(wait_for(&events, 2 * SECOND, |e| *e == version).is_some());
    let serial = DgtEvent::Message(DgtMessage::SerialNumber("12345".into()));
    assert!(wait_for(&events, 2 * SECOND, |e| *e == serial).is_some());
    assert!(wait_for(&events, 2 * SECOND, is_dump(&Board::new())).is_some());

    // Clock relayed every second in 0x43 mode; the left side is running.
    let Some(DgtEvent::Message(DgtMessage::ClockTime(first))) =
        wait_for(&events, 10 * SECOND, |e| matches!(e, DgtEvent::Message(DgtMessage::ClockTime(_))))
    else {
        panic!("no clock time");
    };
    assert!(first.running && first.left_to_move && !first.no_clock);
    assert!(first.left.total_secs() <= 300 && first.right.total_secs() == 300);

    // A game: every field update arrives, in order, in real squares.
    let (updates, final_board) = scripted_game();
    let count = updates.len();
    emu.play_updates(updates);
    emu.wait_idle();
    let mut mirror = Board::new();
    let mut seen = 0;
    let deadline = Instant::now() + 3 * SECOND;
    while seen < count {
        match events.recv_deadline(deadline) {
            Ok(DgtEvent::Message(DgtMessage::FieldUpdate { square, piece })) => {
                apply_updates(&mut mirror, &[TimedUpdate { at_ms: 0, square, piece }]);
                seen += 1;
            }
            Ok(DgtEvent::Message(DgtMessage::ClockTime(_))) => {}
            Ok(other) => panic!("unexpected {other:?}"),
            Err(_) => panic!("timed out after {seen} of {count} updates"),
        }
    }
    assert_eq!(mirror, final_board);
    assert_eq!(emu.board(), final_board);

    // A clock command: set both times, right side running; acknowledged.
    let set = ClockCommand::SetAndRun {
        left: SideTime::from_secs(600),
        right: SideTime::from_secs(540),
        run: ClockRun::RightRunning,
        lever: true,
    };
    driver.send(HostCommand::Clock(set.clone())).unwrap();
    let ack = wait_for(
        &events,
        3 * SECOND,
        |e| matches!(e, DgtEvent::Message(DgtMessage::ClockAck(a)) if a.ack1 == 0x0a),
    );
    assert!(matches!(
        ack,
        Some(DgtEvent::Message(DgtMessage::ClockAck(ClockAck { ack0: 0x10, ack1: 0x0a, .. })))
    ));
    // The version query on connect, then the command, each once.
    assert_eq!(emu.clock_commands(), vec![ClockCommand::Version, set]);
    let relayed = wait_for(
        &events,
        3 * SECOND,
        |e| matches!(e, DgtEvent::Message(DgtMessage::ClockTime(t)) if t.right_to_move && t.left.total_secs() == 600),
    );
    assert!(relayed.is_some());

    // Malformed traffic is dropped and counted; the next message still gets through.
    emu.inject_raw(vec![1, 2, 3]);
    emu.inject_raw(vec![0x8e, 0, 5, 36]);
    emu.inject_raw(vec![0x86, 0, 5, 1, 2]);
    emu.inject_raw(vec![0x94, 0, 4, 1]);
    emu.inject_raw(vec![0x8e, 0, 5, 99, 1]);
    driver.send(HostCommand::SendVersion).unwrap();
    // The injected bytes and the version request travel different ways (the
    // emulator's control queue, the serial line), so either may come out first:
    // wait for both the five drops and the version.
    let mut dropped = Vec::new();
    let mut version = false;
    let deadline = Instant::now() + 3 * SECOND;
    while !(version && dropped.len() >= 5) {
        match events.recv_deadline(deadline) {
            Ok(DgtEvent::Dropped { error, .. }) => dropped.push(error),
            Ok(DgtEvent::Message(DgtMessage::Version { .. })) => version = true,
            Ok(
                DgtEvent::Message(DgtMessage::ClockTime(_) | DgtMessage::ClockAck(_)) | DgtEvent::Clock(_),
            ) => {}
            Ok(other) => panic!("unexpected {other:?}"),
            Err(_) => panic!("timed out; dropped so far {dropped:?}"),
        }
    }
    assert_eq!(
        dropped,
        [
            DgtError::Garbage,
            DgtError::Truncated,
            DgtError::BadLength,
            DgtError::UnknownId,
            DgtError::Malformed
        ]
    );
    assert_eq!(driver.drop_counters().total(), 5);

    // Unplug: noticed. A piece moves meanwhile; on replug the full board is asked for again.
    let requests = emu.board_requests();
    emu.unplug();
    assert!(!link.exists());
    assert!(wait_for(&events, 10 * SECOND, |e| matches!(e, DgtEvent::Disconnected { .. })).is_some());
    let mut moved = final_board.clone();
    moved.discard_piece_at(Square::A2);
    emu.set_board(moved.clone());
    emu.replug().unwrap();
    assert_eq!(
        wait_for(&events, 5 * SECOND, |e| matches!(e, DgtEvent::Connected | DgtEvent::Disconnected { .. })),
        Some(DgtEvent::Connected)
    );
    assert!(wait_for(&events, 2 * SECOND, is_dump(&moved)).is_some());
    assert!(emu.board_requests() > requests);
    // Back in bus mode after the power loss; the greeting's reset took it out.
    wait_for(&events, 2 * SECOND, |_| emu.mode() == BoardMode::UpdatesWithClock);
    assert_eq!(emu.mode(), BoardMode::UpdatesWithClock);
    assert_eq!(emu.bytes_lost(), 0, "the driver paces its commands");

    driver.shutdown();
    assert!(wait_for(&events, SECOND, |e| matches!(e, DgtEvent::Disconnected { .. })).is_some());
    drop(emu);
    assert!(!link.exists(), "stop removes the link");
}

#[test]
fn a_turned_board_is_detected_and_reported_the_right_way_round() {
    let dir = TempDir::new("rot");
    let link = dir.0.join("dgt");
    let mut opts = EmulatorOptions::new(&link);
    opts.rotated = true;
    let emu = DgtEmulator::start(opts).unwrap();
    let driver = DgtDriver::spawn(DgtSettings::new(&link));
    let events = unstamped(driver.events());
    assert_eq!(
        wait_for(&events, 10 * SECOND, |e| matches!(e, DgtEvent::OrientationChanged(_))),
        Some(DgtEvent::OrientationChanged(Orientation::Rotated))
    );
    assert!(wait_for(&events, SECOND, is_dump(&Board::new())).is_some());
    assert_eq!(driver.orientation(), Orientation::Rotated);

    // e2–e4 on the real board arrives as e2 and e4, though the sensors say d7 and d5.
    emu.play_updates(vec![
        TimedUpdate { at_ms: 0, square: Square::E2, piece: None },
        TimedUpdate { at_ms: 50, square: Square::E4, piece: Piece::from_char('P') },
    ]);
    let first =
        wait_for(&events, 2 * SECOND, |e| matches!(e, DgtEvent::Message(DgtMessage::FieldUpdate { .. })));
    assert_eq!(first, Some(DgtEvent::Message(DgtMessage::FieldUpdate { square: Square::E2, piece: None })));
    let second =
        wait_for(&events, 2 * SECOND, |e| matches!(e, DgtEvent::Message(DgtMessage::FieldUpdate { .. })));
    assert_eq!(
        second,
        Some(DgtEvent::Message(DgtMessage::FieldUpdate { square: Square::E4, piece: Piece::from_char('P') }))
    );

    // A fixed orientation is never changed by what the board shows.
    drop(driver);
    let mut settings = DgtSettings::new(&link);
    settings.orientation = OrientationSetting::Fixed(Orientation::Normal);
    let fixed = DgtDriver::spawn(settings);
    let events = unstamped(fixed.events());
    let mut raw_start = Board::new();
    raw_start.rotate_180();
    let mut e4 = raw_start.clone();
    e4.discard_piece_at(Square::D7);
    e4.set_piece_at(Square::D5, Piece::from_char('P').unwrap());
    assert!(wait_for(&events, 10 * SECOND, is_dump(&e4)).is_some());
    assert!(
        wait_for(&events, Duration::from_millis(500), |e| matches!(e, DgtEvent::OrientationChanged(_)))
            .is_none()
    );
}

#[test]
fn garbage_on_the_line_never_produces_board_messages() {
    let dir = TempDir::new("noise");
    let link = dir.0.join("dgt");
    let emu = DgtEmulator::start(EmulatorOptions::new(&link)).unwrap();
    let mut settings = DgtSettings::new(&link);
    settings.updates = UpdateMode::BoardOnly;
    let driver = DgtDriver::spawn(settings);
    let events = unstamped(driver.events());
    assert!(wait_for(&events, 10 * SECOND, is_dump(&Board::new())).is_some());

    // Deterministic noise whose header bytes are never a board message id.
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut noise = Vec::with_capacity(20_000);
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let b = (state >> 24) as u8;
        noise.push(if matches!(b, 0x86 | 0x8e) { b & 0x7f } else { b });
    }
    for chunk in noise.chunks(997) {
        emu.inject_raw(chunk.to_vec());
    }
    emu.play_updates(vec![TimedUpdate { at_ms: 0, square: Square::G1, piece: None }]);
    let deadline = Instant::now() + 5 * SECOND;
    let mut drops = 0;
    loop {
        match events.recv_deadline(deadline) {
            Ok(DgtEvent::Dropped { .. }) => drops += 1,
            Ok(DgtEvent::Message(DgtMessage::FieldUpdate { square: Square::G1, piece: None })) => break,
            Ok(DgtEvent::Message(DgtMessage::BoardDump(_) | DgtMessage::FieldUpdate { .. })) => {
                panic!("a board message out of noise")
            }
            Ok(_) => {}
            Err(_) => panic!("the real update did not arrive after the noise ({drops} drops)"),
        }
    }
    assert!(drops > 100, "{drops}");
}

#[test]
fn driver_keeps_retrying_until_the_board_appears_and_shuts_down_promptly() {
    let dir = TempDir::new("late");
    let link = dir.0.join("dgt");
    let mut driver = DgtDriver::spawn(DgtSettings::new(&link));
    let events = unstamped(driver.events());
    std::thread::sleep(Duration::from_millis(400));
    // A port missing at start is reported once (the console and the player hear it).
    let first = events.try_recv();
    assert!(
        matches!(&first, Ok(DgtEvent::Disconnected { reason }) if reason.contains("cannot open")),
        "{first:?}"
    );
    assert!(events.try_recv().is_err(), "reported once, not at every retry");
    let _emu = DgtEmulator::start(EmulatorOptions::new(&link)).unwrap();
    assert_eq!(wait_for(&events, 10 * SECOND, |e| *e == DgtEvent::Connected), Some(DgtEvent::Connected));
    let started = Instant::now();
    driver.shutdown();
    assert!(started.elapsed() < SECOND);
    assert!(driver.send(HostCommand::SendBoard).is_err());
}

// ---- the clock as real hardware behaves ------------------------------------------

/// A driver on an emulated board with `clock`, connected and past its greeting.
fn connected(tag: &str, clock: Option<SimClock>, updates: UpdateMode) -> (TempDir, DgtEmulator, DgtDriver) {
    let dir = TempDir::new(tag);
    let link = dir.0.join("dgt");
    let mut opts = EmulatorOptions::new(&link);
    opts.clock = clock;
    let emu = DgtEmulator::start(opts).unwrap();
    let mut settings = DgtSettings::new(&link);
    settings.updates = updates;
    let driver = DgtDriver::spawn(settings);
    let events = unstamped(driver.events());
    assert!(wait_for(&events, 10 * SECOND, |e| *e == DgtEvent::Connected).is_some());
    assert!(wait_for(&events, 10 * SECOND, is_dump(&Board::new())).is_some());
    (dir, emu, driver)
}

fn set_and_run(lever: bool) -> ClockCommand {
    let five = SideTime::from_secs(300);
    ClockCommand::SetAndRun { left: five, right: five, run: ClockRun::LeftRunning, lever }
}

/// The next command done or given up (the version query's success on connect skipped).
fn clock_report(events: &Events, timeout: Duration) -> Option<ClockReport> {
    let wanted = |e: &DgtEvent| match e {
        DgtEvent::Clock(ClockReport::Done(ClockCommand::Version)) => false,
        DgtEvent::Clock(ClockReport::Done(_) | ClockReport::Failed { .. }) => true,
        _ => false,
    };
    match wait_for(events, timeout, wanted) {
        Some(DgtEvent::Clock(report)) => Some(report),
        _ => None,
    }
}

#[test]
fn a_set_n_run_refused_outside_mode_23_is_retried_and_reported() {
    let clock = SimClock { mode_23: false, ..SimClock::new(60_000, 60_000, ClockRun::Paused) };
    let (_dir, emu, driver) = connected("mode23", Some(clock), UpdateMode::WithClock);
    let events = unstamped(driver.events());
    driver.send(HostCommand::Clock(set_and_run(true))).unwrap();
    let report = clock_report(&events, 30 * SECOND);
    assert_eq!(
        report,
        Some(ClockReport::Failed {
            command: set_and_run(true),
            failure: ClockFailure::NotInMode23,
            tries: clock_link::MAX_TRIES
        })
    );
    let tries = emu.clock_commands().iter().filter(|c| **c == set_and_run(true)).count();
    assert_eq!(tries, clock_link::MAX_TRIES as usize, "sent three times, then given up");
    assert_eq!(emu.clock().unwrap().left_ms, 60_000, "the clock was not set");
    assert!(emu.acks_sent().iter().all(|a| a.not_in_mode_23() || a.version().is_some()));

    // In mode 23 the same command goes through at its first try.
    emu.set_clock(Some(SimClock { mode_23: true, ..emu.clock().unwrap() }));
    driver.send(HostCommand::Clock(set_and_run(true))).unwrap();
    assert_eq!(clock_report(&events, 15 * SECOND), Some(ClockReport::Done(set_and_run(true))));
    assert_eq!(emu.clock().unwrap().run, ClockRun::LeftRunning);
}

#[test]
fn the_lever_switches_sides_only_when_set_n_run_set_the_lever_bit() {
    let (_dir, emu, driver) =
        connected("lever", Some(SimClock::new(60_000, 60_000, ClockRun::Paused)), UpdateMode::WithClock);
    let events = unstamped(driver.events());
    driver.send(HostCommand::Clock(set_and_run(false))).unwrap();
    assert_eq!(clock_report(&events, 15 * SECOND), Some(ClockReport::Done(set_and_run(false))));
    emu.press_lever();
    emu.wait_idle();
    assert_eq!(emu.clock().unwrap().run, ClockRun::LeftRunning, "no lever bit: the press does nothing");

    driver.send(HostCommand::Clock(set_and_run(true))).unwrap();
    assert_eq!(clock_report(&events, 15 * SECOND), Some(ClockReport::Done(set_and_run(true))));
    emu.press_lever();
    emu.wait_idle();
    assert_eq!(emu.clock().unwrap().run, ClockRun::RightRunning, "with the lever bit the press switches");
    let relayed = wait_for(
        &events,
        3 * SECOND,
        |e| matches!(e, DgtEvent::Message(DgtMessage::ClockTime(t)) if t.right_to_move && !t.left_to_move),
    );
    assert!(relayed.is_some(), "the station reads the switch");
}

#[test]
fn an_all_zero_reading_is_ignored_and_a_board_without_clock_says_so() {
    let (_dir, emu, driver) = connected("empty", None, UpdateMode::WithClock);
    let events = unstamped(driver.events());
    let no_clock =
        wait_for(&events, 10 * SECOND, |e| matches!(e, DgtEvent::Message(DgtMessage::ClockTime(_))));
    let Some(DgtEvent::Message(DgtMessage::ClockTime(reading))) = no_clock else { panic!("no reading") };
    assert!(reading.no_clock, "without a clock the board sets the no-clock bit: {reading:?}");

    // An all-zero frame, then a marker on the same path: the zero frame never comes out.
    // (Sent again if a loaded machine lost the first pair: every pair must pass the same way.)
    let mut tries = 0;
    let mut deadline = Instant::now();
    loop {
        if Instant::now() >= deadline && tries < 3 {
            emu.inject_raw(vec![0x8d, 0, 10, 0, 0, 0, 0, 0, 0, 0]);
            emu.inject_raw(DgtMessage::Version { major: 7, minor: 7 }.encode());
            tries += 1;
            deadline = Instant::now() + 4 * SECOND;
        }
        match events.recv_deadline(deadline) {
            Ok(DgtEvent::Message(DgtMessage::Version { major: 7, minor: 7 })) => break,
            Ok(DgtEvent::Message(DgtMessage::ClockTime(t))) => {
                assert!(!t.is_empty(), "empty reading forwarded")
            }
            Ok(DgtEvent::Dropped { error, .. }) => {
                panic!("the empty reading is ignored, not dropped: {error}")
            }
            Ok(_) => {}
            Err(_) if tries < 3 => {}
            Err(_) => panic!("the marker never came"),
        }
    }
    // With no clock, the version query is answered by nobody: given up and reported.
    let report = clock_report(&events, 30 * SECOND);
    assert_eq!(
        report,
        Some(ClockReport::Failed {
            command: ClockCommand::Version,
            failure: ClockFailure::NoAnswer,
            tries: 3
        })
    );
}

#[test]
fn a_dgt_xl_is_told_by_its_version_and_gets_no_text() {
    let xl = SimClock { model: ClockModel::DgtXl, ..SimClock::new(60_000, 60_000, ClockRun::Paused) };
    let dir = TempDir::new("xl");
    let link = dir.0.join("dgt");
    let mut opts = EmulatorOptions::new(&link);
    opts.clock = Some(xl);
    let emu = DgtEmulator::start(opts).unwrap();
    let driver = DgtDriver::spawn(DgtSettings::new(&link));
    let events = unstamped(driver.events());
    let model = wait_for(&events, 5 * SECOND, |e| matches!(e, DgtEvent::Clock(ClockReport::Model { .. })));
    assert!(
        matches!(
            model,
            Some(DgtEvent::Clock(ClockReport::Model { model: ClockModel::DgtXl, version: (1, _) }))
        ),
        "{model:?}"
    );
    driver.send(HostCommand::Clock(ClockCommand::Display { text: "e4".into(), beep: false })).unwrap();
    driver.send(HostCommand::Clock(set_and_run(true))).unwrap();
    driver.send(HostCommand::Clock(ClockCommand::EndDisplay)).unwrap();
    assert_eq!(clock_report(&events, 15 * SECOND), Some(ClockReport::Done(set_and_run(true))));
    assert_eq!(clock_report(&events, 15 * SECOND), Some(ClockReport::Done(ClockCommand::EndDisplay)));
    assert!(
        !emu.clock_commands().iter().any(|c| matches!(c, ClockCommand::Display { .. })),
        "no text display for an XL: {:?}",
        emu.clock_commands()
    );
}

#[test]
fn no_acknowledgement_outside_the_update_modes_with_clock() {
    let clock = SimClock::new(60_000, 60_000, ClockRun::Paused);
    let (_dir, emu, driver) = connected("noack", Some(clock), UpdateMode::BoardOnly);
    let events = unstamped(driver.events());
    assert_eq!(emu.mode(), BoardMode::UpdatesBoardOnly);
    driver.send(HostCommand::Clock(set_and_run(true))).unwrap();
    let report = clock_report(&events, 30 * SECOND);
    assert_eq!(
        report,
        Some(ClockReport::Failed { command: set_and_run(true), failure: ClockFailure::NoAnswer, tries: 3 })
    );
    assert_eq!(emu.clock_commands().len(), 3, "{:?}", emu.clock_commands());
    assert_eq!(emu.acks_sent(), [], "the clock took the command but the board relayed no ack");
}

#[test]
fn a_board_powers_up_in_bus_mode_and_a_burst_overflows_its_buffer() {
    let dir = TempDir::new("bus");
    let link = dir.0.join("dgt");
    let emu = DgtEmulator::start(EmulatorOptions::new(&link)).unwrap();
    assert_eq!(emu.mode(), BoardMode::Bus);
    let mut port = station_serial::serial_link::open_8n1(&link, 9600).unwrap();
    // The first single-board command only leaves bus mode: no board comes back.
    port.write_all(&[0x42]).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!((emu.mode(), emu.board_requests()), (BoardMode::Idle, 0));
    // A burst: the first command keeps the board busy, ten bytes wait, the rest is lost.
    let mut burst = vec![0x42];
    burst.extend(HostCommand::Clock(set_and_run(true)).encode());
    burst.extend([0x42, 0x42, 0x42]);
    port.write_all(&burst).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(emu.bytes_lost(), burst.len() as u64 - 1 - INPUT_BUFFER as u64);
    assert_eq!(emu.board_requests(), 1, "only the first request survived whole");
}
