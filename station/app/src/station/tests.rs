//! The station with its devices: a simulated gamepad (the lever) pulled out in
//! the middle of a game played on a simulated peg board on a real pty.

use super::dgt_link::reading_of;
use super::test_support::{
    config, device_statuses, game_moves, observed, scratch, serve_with_script, started, wait_until,
    write_journal,
};
use super::*;
use crate::event_sink::EventSink;
use crate::journal_file::{JournalDir, WriterOptions};
use crate::run::{open_board, serve};
use station_serial::dgt::SideTime;
use station_sim::gamepad::SimGamepad;
use station_voices::{Message, Wording};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A scratch folder `name` and the config `text` whose simulated blind board's
/// port (`{port}` in `text`) is in that folder.
fn sim_blind(name: &str, text: &str) -> (PathBuf, Config) {
    let dir = scratch(name);
    let config = config(&text.replace("{port}", &dir.join("pegboard").display().to_string()));
    (dir, config)
}

#[test]
fn a_gamepad_unplugged_mid_game_is_told_once_the_game_goes_on_and_its_return_is_told_once() {
    let (dir, config) = sim_blind(
        "gamepad",
        "[boards.blind]\ndriver = \"sim\"\nport = \"{port}\"\nspeed = 3.0\n\n[game]\nsettle_ms = 200\ndebounce_ms = 15\n\n[clock]\ntime_control = \"5400+30\"\n\n[buttons]\nclock = [\"gamepad:South\"]\n\n[audio.private]\nvoices = [\"text\"]\n",
    );
    let wording = Wording::new(&config.voice).unwrap();
    let (told_gone, told_back) = (
        wording.message(Message::GamepadDisconnected).to_owned(),
        wording.message(Message::GamepadConnected).to_owned(),
    );
    let board = config.boards.blind.clone().unwrap();
    let link = open_board(BoardRole::Blind, &board, config.game.settle_ms, &dir).unwrap().unwrap();
    let mut station = started(config, &dir.join("journal"));
    station.enable_voices().unwrap();
    let pad = SimGamepad::new("Foot switch");
    station.use_gamepad_feed(pad.events());
    let events = observed(&mut station);

    let (ok, unplugged_at) =
        serve_with_script(station, &link, &events, Duration::from_secs(150), move |events| {
            let limit = Duration::from_secs(60);
            pad.plug();
            let ok = wait_until(limit, || game_moves(&events) >= 4);
            pad.press("South");
            pad.unplug();
            let unplugged_at = game_moves(&events);
            // The game goes on without the pad: moves are still recorded.
            let ok = ok && wait_until(limit, || game_moves(&events) >= unplugged_at + 4);
            pad.plug();
            std::thread::sleep(Duration::from_millis(300));
            (ok, unplugged_at)
        });
    let events = events.lock().unwrap();
    let trouble: Vec<&Event> =
        events.iter().filter(|e| matches!(e, Event::BoardMismatch { .. } | Event::GameOver { .. })).collect();
    assert!(ok, "the game went on after the pad was pulled out (moves before: {unplugged_at}; {trouble:?})");

    let statuses = device_statuses(&events, "gamepad");
    assert_eq!(statuses, ["connected", "disconnected", "connected"]);
    let told: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Announcement { listener, text, about, .. } if about == "device" => {
                assert_eq!(listener, "private", "only the blind player is told");
                Some(text.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(told, [told_gone.as_str(), told_back.as_str()], "told once each way");
    let moves = events.iter().filter(|e| matches!(e, Event::GameMove { .. })).count();
    assert!(moves >= unplugged_at + 4, "moves were recorded while the pad was out");
    // The lever worked before it was pulled out: its press reached the clock.
    assert!(
        events.iter().any(|e| matches!(e, Event::ClockPressed { .. } | Event::ClockPremature { .. })),
        "the pad's lever press reached the clock"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dgt_clock_readings_map_to_white_and_black() {
    let side = |secs| SideTime::from_secs(secs);
    let time = BwTime {
        left: side(100),
        right: side(200),
        running: true,
        left_to_move: false,
        right_to_move: true,
        lever_right_high: true,
        ..BwTime::default()
    };
    let r = reading_of(&time, DgtDisplay::Left);
    assert_eq!((r.white_ms, r.black_ms, r.running), (100_000, 200_000, Some(Side::Black)));
    let r = reading_of(&time, DgtDisplay::Right);
    assert_eq!((r.white_ms, r.black_ms, r.running), (200_000, 100_000, Some(Side::White)));
    let stopped = BwTime { running: false, right: SideTime { flag_shown: true, ..side(0) }, ..time };
    let r = reading_of(&stopped, DgtDisplay::Left);
    assert_eq!(r.running, None);
    assert!(r.black_flag && !r.white_flag);
}

/// A stall of the loop (500 ms, in the middle of a move: a peg just lifted)
/// on top of a slow disk (every fsync 200 ms) delays decisions but changes
/// none: every move of a real game once, in order, and nothing else.
#[test]
fn a_stalled_loop_and_a_slow_disk_lose_nothing() {
    let (dir, config) = sim_blind(
        "stall",
        "[boards.blind]\ndriver = \"sim\"\nport = \"{port}\"\nspeed = 4.0\n\n[game]\nsettle_ms = 300\ndebounce_ms = 40\n\n[audio.private]\nvoices = [\"text\"]\n",
    );
    let board = config.boards.blind.clone().unwrap();
    let link = open_board(BoardRole::Blind, &board, config.game.settle_ms, &dir).unwrap().unwrap();
    let slow = WriterOptions { extra_sync_delay: Duration::from_millis(200) };
    let mut station = Station::start_with(
        config,
        JournalDir::open(&dir.join("journal")).unwrap(),
        EventSink::open(None).unwrap(),
        slow,
    )
    .unwrap();
    let events = observed(&mut station);
    let game = crate::famous_game::famous_game().game;
    let expected: Vec<String> = game.moves().iter().map(|m| game.uci(*m)).collect();
    let stop = AtomicBool::new(false);
    let give_up = Instant::now() + Duration::from_secs(240);
    let mut stalls = 0;
    let stats = serve(station, std::slice::from_ref(&link), None, &stop, || {
        let (moves, lifted) = {
            let events = events.lock().unwrap();
            let moves = events.iter().filter(|e| matches!(e, Event::GameMove { .. })).count();
            (moves, matches!(events.last(), Some(Event::Touch { .. })))
        };
        // Mid-move, every tenth ply: the loop takes no input for 500 ms.
        if lifted && moves / 10 > stalls {
            stalls += 1;
            std::thread::sleep(Duration::from_millis(500));
        }
        moves >= expected.len() || Instant::now() > give_up
    })
    .unwrap();
    eprintln!(
        "pipeline with 200 ms fsyncs: {} batches, fsync mean {:.1} ms, longest {:.1} ms; longest loop turn {:.1} ms (stalls of 500 ms injected: {stalls})",
        stats.batches,
        stats.total_sync.as_secs_f64() * 1000.0 / stats.batches.max(1) as f64,
        stats.longest_sync.as_secs_f64() * 1000.0,
        stats.longest_turn.as_secs_f64() * 1000.0,
    );
    let events = events.lock().unwrap();
    let agreed: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameMove { uci, revised: false, .. } => Some(uci.to_string()),
            _ => None,
        })
        .collect();
    let trouble: Vec<&Event> = events
        .iter()
        .filter(|e| {
            matches!(e, Event::BoardMismatch { .. } | Event::MoveRevised { .. } | Event::InputRefused { .. })
        })
        .collect();
    assert!(stalls >= 2, "the loop was stalled mid-move ({stalls} times)");
    assert_eq!(agreed, expected, "every move once, in order; trouble: {trouble:?}");
    assert!(trouble.is_empty(), "{trouble:?}");
}

mod restore {
    use super::*;
    use shakmaty::Square;
    use station_core::input::Occupancy;
    use station_core::journal::{Header, Input, Record};

    /// A journal of 1. e4 as the daemon writes it: the inputs and the events
    /// they decided, the announcement of the move missing (the station was
    /// killed between deciding and saying it).
    fn journal_of_e4(dir: &Path) -> std::path::PathBuf {
        journal_of_e4_then(dir, Vec::new())
    }

    /// [`journal_of_e4`] with `more` inputs after it (their events journaled, an
    /// end record after a `game_over`).
    fn journal_of_e4_then(dir: &Path, more: Vec<(u64, Input)>) -> std::path::PathBuf {
        let start = Game::default().occupancy();
        let mut table = Table::new(TableConfig::single(Default::default()));
        let mut records = Vec::new();
        let mut seq = 0;
        let mut header = None;
        let lifted = start.without(Square::E2);
        let inputs = [
            (1000, Input::scan(BoardRole::Blind, start)),
            (1400, Input::Tick),
            (2000, Input::scan(BoardRole::Blind, lifted)),
            (2100, Input::scan(BoardRole::Blind, lifted.with(Square::E4))),
            (2500, Input::Tick),
        ];
        for (t, input) in inputs.into_iter().chain(more) {
            let events = table.apply(t, &input).unwrap();
            if header.is_some() {
                seq += 1;
                records.push(Record::Input { seq, t_ms: t, input });
            }
            for e in events {
                if let Event::GameStarted { game_id, fen, t_ms, .. } = &e {
                    header = Some(Header::of_table(&table, game_id, fen, *t_ms, Default::default()));
                }
                seq += 1;
                let end = match &e {
                    Event::GameOver { result, t_ms, .. } => Some((*t_ms, result.to_string())),
                    _ => None,
                };
                records.push(Record::Event { seq, event: e });
                if let Some((t_ms, result)) = end {
                    seq += 1;
                    records.push(Record::End { seq, t_ms, result });
                }
            }
        }
        assert_eq!(table.agreed().unwrap().ply(), 1);
        write_journal(dir, header.expect("the game started"), records)
    }

    fn start(dir: &Path) -> (Station, Arc<Mutex<Vec<Event>>>) {
        let config = config("[audio.private]\nvoices = [\"text\"]\n");
        let mut station = started(config, dir);
        station.enable_voices().unwrap();
        let events = observed(&mut station);
        station.drain(Duration::from_secs(5)).unwrap();
        (station, events)
    }

    #[test]
    fn a_move_decided_but_never_said_before_a_kill_is_said_after_the_restart() {
        let dir = scratch("unsaid");
        journal_of_e4(&dir);
        let (station, events) = start(&dir);
        assert_eq!(station.table.agreed().unwrap().ply(), 1);
        let events = events.lock().unwrap();
        let said: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::Announcement { about, listener, .. } if about == "move" && listener == "private"))
            .collect();
        assert_eq!(said.len(), 1, "{events:?}");
    }

    /// Issue 32 §5: every input read is on disk at the end of its turn,
    /// decided or not: a peg lifted, which decides nothing yet (a touch is
    /// told once the lift is more than a bounce), is not lost to a kill.
    #[test]
    fn an_input_that_decides_nothing_is_journaled_in_its_turn() {
        let dir = scratch("undecided-input");
        let text = "[boards.blind]\ndriver = \"pegboard\"\nport = \"/nonexistent/pegboard\"\n\n\
                    [audio.private]\nvoices = [\"text\"]\n";
        let mut station = started(config(text), &dir);
        let start = Game::default().occupancy();
        let lifted = start.without(Square::E2);
        let t0 = Instant::now();
        for (ms, occ) in [(0, start), (500, lifted)] {
            let scan = DriverEvent::Message(BoardMessage::Scan(occ));
            station.handle(BoardRole::Blind, scan, t0 + Duration::from_millis(ms)).unwrap();
            station.flush();
            station.drain(Duration::from_secs(5)).unwrap();
        }
        let found = JournalDir::open(&dir).unwrap().list().unwrap().found;
        let records = &found[0].contents.records;
        let scans: Vec<shakmaty::Bitboard> = records
            .iter()
            .filter_map(|r| match r {
                Record::Input { input: Input::Scan { occ: Occupancy::Squares64(occ), .. }, .. } => Some(*occ),
                _ => None,
            })
            .collect();
        assert_eq!(scans.last(), Some(&lifted), "the lift is on disk: {scans:?}");
        let decided = records.iter().filter(
            |r| matches!(r, Record::Event { event, .. } if !matches!(event, Event::GameStarted { .. })),
        );
        assert_eq!(decided.count(), 0, "the lift decided nothing");
    }

    /// Issue 32 §5: the events on disk after the last `delivered` record
    /// reach the subscribers after a restart, once, before `game_resumed`;
    /// those before it are not delivered again.
    #[test]
    fn the_events_the_subscribers_missed_are_delivered_after_the_restart_and_only_those() {
        let dir = scratch("missed");
        let path = journal_of_e4(&dir);
        let text = std::fs::read_to_string(&path).unwrap();
        let records: Vec<Record> = text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
        let (through, next) = records
            .iter()
            .find_map(|r| match r {
                Record::Event { seq, event: Event::Move { .. } } => Some((seq - 1, *seq)),
                _ => None,
            })
            .expect("the move decided");
        let last = records.iter().map(Record::seq).max().unwrap();
        let mark = Record::Delivered { seq: last + 1, game_id: None, through };
        std::fs::write(&path, format!("{text}{}\n", mark.encode())).unwrap();
        let (_station, events) = start(&dir);
        let events = events.lock().unwrap();
        let missed: Vec<&Event> = records
            .iter()
            .filter_map(|r| match r {
                Record::Event { seq, event } if *seq >= next => Some(event),
                _ => None,
            })
            .collect();
        assert!(missed.iter().any(|e| matches!(e, Event::GameMove { .. })), "{missed:?}");
        let resumed = events.iter().position(|e| matches!(e, Event::GameResumed { .. })).expect("resumed");
        assert_eq!(events[..resumed].iter().collect::<Vec<_>>(), missed, "what they missed, in order, first");
        assert!(!events[resumed..].iter().any(|e| matches!(e, Event::Move { .. } | Event::Touch { .. })));
        // The move he never heard is said once.
        let said = events.iter().filter(|e| matches!(e, Event::Announcement { about, listener, .. } if about == "move" && listener == "private"));
        assert_eq!(said.count(), 1);
    }

    /// Issue 32 §4: a finished game is the game a restart shows, as it stood
    /// (no journal of the restart's own, even with no board to wait for), and
    /// its result, never heard, is said.
    #[test]
    fn a_finished_game_is_restored_as_it_stood_and_its_unheard_result_said() {
        let dir = scratch("finished");
        let result =
            Input::Result { result: "1-0".into(), reason: "Black resigned".into(), termination: None };
        journal_of_e4_then(&dir, vec![(3000, result)]);
        let (mut station, events) = start(&dir);
        station.tick_until(Instant::now() + Duration::from_secs(2)).unwrap();
        station.drain(Duration::from_secs(5)).unwrap();
        assert_eq!(station.table.phase(), station_core::table::Phase::Finished);
        let record = station.table.record().expect("the game's record");
        assert_eq!((record.ply(), record.end.as_ref().map(|e| e.result.as_str())), (1, Some("1-0")));
        let journals = JournalDir::open(&dir).unwrap().list().unwrap().found;
        assert_eq!(journals.len(), 1, "no journal of the restart's own");
        let events = events.lock().unwrap();
        let results = events.iter().filter(|e| matches!(e, Event::Announcement { about, listener, .. } if about == "result" && listener == "private"));
        assert_eq!(results.count(), 1, "{events:?}");
        // Its words are the last words of the finished game's journal; once
        // heard to the end (the speaker says so), nothing is left to say again.
        let path = &journals[0].path;
        assert!(std::fs::read_to_string(path).unwrap().contains(r#""about":"result""#));
        let heard = wait_until(Duration::from_secs(5), || {
            for (listener, rx) in station.speech_endings() {
                for e in rx.try_iter() {
                    station.handle_ended(listener, e);
                }
            }
            station.drain(Duration::from_millis(200)).unwrap();
            let contents = station_core::journal::decode(std::fs::read(path).unwrap()).unwrap();
            contents.to_say_again().is_empty()
        });
        assert!(heard, "{}", std::fs::read_to_string(path).unwrap());
    }

    #[test]
    fn a_flipped_byte_in_a_recorded_move_never_stops_the_station_the_inputs_carry_the_game() {
        let dir = scratch("flipped");
        let path = journal_of_e4(&dir);
        let text = std::fs::read_to_string(&path).unwrap().replace("\"uci\":\"e2e4\"", "\"uci\":\"e2e5\"");
        std::fs::write(&path, text).unwrap();
        let (station, events) = start(&dir);
        let game = station.table.agreed().unwrap();
        assert_eq!(game.uci(game.moves()[0]), "e2e4");
        let events = events.lock().unwrap();
        assert!(
            events.iter().any(|e| matches!(e, Event::DeviceStatus { device, status, .. } if device == "journal" && status == "damaged")),
            "reported: {events:?}"
        );
    }

    #[test]
    fn a_journal_damaged_in_the_middle_is_set_aside_and_the_game_goes_on_from_what_can_be_read() {
        let dir = scratch("damaged");
        let path = journal_of_e4(&dir);
        let mut lines: Vec<String> =
            std::fs::read_to_string(&path).unwrap().lines().map(String::from).collect();
        // A torn write in the middle of the file: one event line cut short.
        let touch = lines.iter().position(|l| l.contains("\"touch\"")).unwrap();
        lines[touch].truncate(20);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let (mut station, events) = start(&dir);
        assert_eq!(station.table.agreed().unwrap().ply(), 1, "the game goes on from the readable records");
        assert!(dir.join(format!("{}.damaged", path.file_name().unwrap().to_str().unwrap())).exists());
        assert!(
            events.lock().unwrap().iter().any(|e| matches!(e, Event::DeviceStatus { device, status, .. } if device == "journal" && status == "damaged"))
        );
        // The journal was written again, readable, and is what a later start restores.
        station.drain(Duration::from_secs(5)).unwrap();
        drop(station);
        let found = JournalDir::open(&dir).unwrap().list().unwrap();
        assert!(found.damaged.is_empty());
        assert_eq!(found.found.len(), 1);
        let restored = station_core::journal::restore(&found.found[0].contents).unwrap();
        assert_eq!(restored.table.agreed().unwrap().ply(), 1);
    }
}

/// A 10×10 peg board turned round (`flipped = true`): its square n is the game's 51−n.
#[test]
fn a_flipped_draughts_board_reads_its_squares_turned_round() {
    let dir = scratch("flipped-draughts");
    let text = "[game]\nrules = \"draughts\"\nsettle_ms = 300\ndebounce_ms = 40\n\n\
                [boards.blind]\ndriver = \"pegboard\"\nport = \"/nonexistent/pegboard\"\nflipped = true\n\n\
                [audio.private]\nvoices = [\"text\"]\n";
    let config = config(text);
    let mut station = started(config, &dir);
    let events = observed(&mut station);
    let square = |n: u32| 1u64 << (n - 1);
    // The start: 1–20 and 31–50 on either side.
    let start = ((1u64 << 20) - 1) | (((1u64 << 20) - 1) << 30);
    // White plays 32-28; the sensors see the peg leave their 19 and land on their 23.
    let lifted = start & !square(51 - 32);
    let placed = lifted | square(51 - 28);
    let t0 = Instant::now();
    for (ms, bits) in [(0, start), (2_000, start), (2_500, lifted), (2_800, placed), (5_000, placed)] {
        let scan = DriverEvent::Message(BoardMessage::Scan50(bits));
        station.handle(BoardRole::Blind, scan, t0 + Duration::from_millis(ms)).unwrap();
    }
    station.drain(Duration::from_secs(5)).unwrap();
    let events = events.lock().unwrap();
    let moves: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameMove { uci, .. } => Some(uci.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["32-28"], "{events:?}");
}
