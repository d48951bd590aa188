use super::*;
use crate::dgt::hands::{DgtHands, apply_updates};
use crate::dgt::protocol::DgtError;
use crate::dgt::serial::{DgtDriver, DgtEvent, DgtSettings, OrientationSetting, UpdateMode};
use shakmaty::{Chess, Move, Piece, Position, san::San};

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("annexd-dgt-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn wait_for(
    events: &Receiver<DgtEvent>,
    timeout: Duration,
    mut wanted: impl FnMut(&DgtEvent) -> bool,
) -> Option<DgtEvent> {
    let deadline = Instant::now() + timeout;
    while let Ok(event) = events.recv_deadline(deadline) {
        if wanted(&event) {
            return Some(event);
        }
    }
    None
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
    opts.clock = Some(SimClock { left_ms: 300_000, right_ms: 300_000, run: ClockRun::LeftRunning });
    let emu = DgtEmulator::start(opts).unwrap();
    assert!(link.exists());

    let mut driver = DgtDriver::spawn(DgtSettings::new(&link));
    let events = driver.events();
    assert_eq!(wait_for(&events, 3 * SECOND, |e| *e == DgtEvent::Connected), Some(DgtEvent::Connected));
    let version = DgtEvent::Message(DgtMessage::Version { major: 1, minor: 8 });
    assert!(wait_for(&events, 2 * SECOND, |e| *e == version).is_some());
    let serial = DgtEvent::Message(DgtMessage::SerialNumber("12345".into()));
    assert!(wait_for(&events, 2 * SECOND, |e| *e == serial).is_some());
    assert!(wait_for(&events, 2 * SECOND, is_dump(&Board::new())).is_some());

    // Clock relayed every second in 0x43 mode; the left side is running.
    let Some(DgtEvent::Message(DgtMessage::ClockTime(first))) =
        wait_for(&events, 3 * SECOND, |e| matches!(e, DgtEvent::Message(DgtMessage::ClockTime(_))))
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
    };
    driver.send(HostCommand::Clock(set.clone())).unwrap();
    let ack = wait_for(&events, 2 * SECOND, |e| matches!(e, DgtEvent::Message(DgtMessage::ClockAck(_))));
    assert!(matches!(
        ack,
        Some(DgtEvent::Message(DgtMessage::ClockAck(ClockAck { ack0: 0x10, ack1: 0x0a, .. })))
    ));
    assert_eq!(emu.clock_commands(), vec![set]);
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
            Ok(DgtEvent::Message(DgtMessage::ClockTime(_))) => {}
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
    assert!(wait_for(&events, 3 * SECOND, |e| matches!(e, DgtEvent::Disconnected { .. })).is_some());
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
    assert_eq!(emu.mode(), BoardMode::UpdatesWithClock);

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
    let events = driver.events();
    assert_eq!(
        wait_for(&events, 3 * SECOND, |e| matches!(e, DgtEvent::OrientationChanged(_))),
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
    let events = fixed.events();
    let mut raw_start = Board::new();
    raw_start.rotate_180();
    let mut e4 = raw_start.clone();
    e4.discard_piece_at(Square::D7);
    e4.set_piece_at(Square::D5, Piece::from_char('P').unwrap());
    assert!(wait_for(&events, 3 * SECOND, is_dump(&e4)).is_some());
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
    let events = driver.events();
    assert!(wait_for(&events, 3 * SECOND, is_dump(&Board::new())).is_some());

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
    let events = driver.events();
    std::thread::sleep(Duration::from_millis(400));
    // A port missing at start is reported once (the console and the player hear it).
    let first = events.try_recv();
    assert!(
        matches!(&first, Ok(DgtEvent::Disconnected { reason }) if reason.contains("cannot open")),
        "{first:?}"
    );
    assert!(events.try_recv().is_err(), "reported once, not at every retry");
    let _emu = DgtEmulator::start(EmulatorOptions::new(&link)).unwrap();
    assert_eq!(wait_for(&events, 3 * SECOND, |e| *e == DgtEvent::Connected), Some(DgtEvent::Connected));
    let started = Instant::now();
    driver.shutdown();
    assert!(started.elapsed() < SECOND);
    assert!(driver.send(HostCommand::SendBoard).is_err());
}
