use super::*;
use crate::BoardRole;
use crate::clock::Missing;
use crate::game::Game;
use crate::inference::TrackerConfig;
use crate::journal::{self, Header, Input, Record};
use crate::table::{ClockCommand, Phase, TableConfig};
use shakmaty::{Bitboard, Square};

/// One journaled input, fed to the table as the daemon does.
enum In {
    Scan(Bitboard),
    Reading(ClockReading),
    Tick,
}

/// A table whose clock is a DGT 3000, with the inputs it was fed journaled.
struct Desk {
    table: Table,
    t: Millis,
    out: Vec<Event>,
    inputs: Vec<(Millis, In)>,
    /// The journal header the daemon writes when the game starts.
    header: Option<Header>,
}

fn reading(white_s: u64, black_s: u64, running: Option<Side>) -> ClockReading {
    ClockReading {
        white_ms: white_s * 1000,
        black_ms: black_s * 1000,
        running,
        white_flag: false,
        black_flag: false,
    }
}

impl Desk {
    fn new() -> Desk {
        let cfg = TableConfig {
            time_control: Some("5400+30".parse().unwrap()),
            external_clock: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut desk =
            Desk { table: Table::new(cfg), t: 0, out: Vec::new(), inputs: Vec::new(), header: None };
        desk.scan(Game::default().occupancy());
        desk.rest();
        assert_eq!(desk.table.phase(), Phase::Playing);
        let id = desk.table.game_id().unwrap();
        desk.header =
            Some(Header::of_table(&desk.table, id, &Game::default().fen(), desk.t, Default::default()));
        desk.inputs.clear();
        desk.out.clear();
        desk
    }

    fn scan(&mut self, occ: Bitboard) {
        self.t += 120;
        self.inputs.push((self.t, In::Scan(occ)));
        self.table.on_scan(BoardRole::Blind, self.t, occ, &mut self.out);
    }

    fn rest(&mut self) {
        self.t += 1000;
        let before = self.out.len();
        self.table.tick(self.t, &mut self.out);
        if self.out.len() > before {
            self.inputs.push((self.t, In::Tick));
        }
    }

    fn read(&mut self, after_ms: Millis, r: ClockReading) {
        self.t += after_ms;
        self.inputs.push((self.t, In::Reading(r)));
        self.table.on_clock_reading(r, self.t, &mut self.out).unwrap();
    }

    fn play(&mut self, from: Square, to: Square) {
        let mut occ = self.table.sensed(BoardRole::Blind);
        if occ.contains(to) {
            occ.discard(to);
            self.scan(occ);
        }
        occ.discard(from);
        self.scan(occ);
        occ.add(to);
        self.scan(occ);
        self.rest();
    }

    fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.out)
            .into_iter()
            .filter(|e| !matches!(e, Event::ClockWarning { .. }))
            .collect()
    }

    /// The journal the daemon would have written.
    fn journal(&self) -> String {
        let header = self.header.clone().expect("taken when the game started");
        let mut text = Record::Header(Box::new(header)).encode() + "\n";
        for (seq, (t_ms, input)) in (1..).zip(&self.inputs) {
            let input = match input {
                In::Scan(occ) => Input::scan(BoardRole::Blind, *occ),
                In::Reading(r) => Input::from_clock_reading(r),
                In::Tick => Input::Tick,
            };
            text += &(Record::Input { seq, t_ms: *t_ms, input }.encode() + "\n");
        }
        // The agreed moves, as the events after those inputs recorded them.
        let game = self.table.agreed().unwrap();
        for (i, mv) in game.moves().iter().enumerate() {
            let event = Event::GameMove {
                ply: i + 1,
                san: game.sans()[i].to_string(),
                uci: game.played(*mv).into(),
                by: BoardRole::Blind,
                revised: false,
                t_ms: self.t,
                pdn: None,
            };
            text += &(Record::Event { seq: 1000 + i as u64, event }.encode() + "\n");
        }
        text
    }
}

#[test]
fn the_clock_follows_the_master_and_runs_on_between_readings() {
    let mut d = Desk::new();
    assert!(!d.table.clock().unwrap().is_started(), "the master starts it");
    d.read(0, reading(5400, 5400, Some(Side::White)));
    let start = d.t;
    assert!(matches!(&d.take()[..], [Event::ClockChanged { action, .. }] if action == "started"));
    let clock = d.table.clock().unwrap();
    assert_eq!(clock.remaining(Side::White, start + 400), 5_400_000 - 400, "runs on between readings");
    // The master is a little slow: its reading wins.
    d.read(1000, reading(5399, 5400, Some(Side::White)));
    assert_eq!(d.table.clock().unwrap().remaining(Side::White, d.t), 5_399_000);
    assert_eq!(d.table.clock().unwrap().remaining(Side::Black, d.t + 5000), 5_400_000);
    // The master stands still: so does the clock.
    d.read(1000, reading(5398, 5400, None));
    assert!(matches!(&d.take()[..], [Event::ClockChanged { action, .. }] if action == "paused"));
    assert_eq!(d.table.clock().unwrap().remaining(Side::White, d.t + 60_000), 5_398_000);
    // Neither the station's lever nor the console moves a master clock.
    assert_eq!(d.table.clock_press(Side::White, d.t, &mut d.out), Err(TableError::ExternalClock));
    assert_eq!(d.table.clock_command(ClockCommand::Resume, d.t, &mut d.out), Err(TableError::ExternalClock));
}

#[test]
fn d_2_4_a_switch_of_the_master_before_the_move_is_made_is_premature_and_recorded() {
    let mut d = Desk::new();
    d.read(0, reading(5400, 5400, Some(Side::White)));
    d.take();
    // The blind player (White) presses before making his move.
    d.read(1000, reading(5399, 5400, Some(Side::Black)));
    let events = d.take();
    assert!(
        events.iter().any(|e| matches!(e, Event::ClockPremature { side: Side::White, missing, .. }
            if missing.contains(&Missing::Placement))),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::ClockPressed { .. })));
    // The master runs on for Black all the same; the clock shows it.
    assert_eq!(d.table.clock().unwrap().on_move(), Side::Black);
    // Black presses back at once (no move made by him either)…
    d.read(500, reading(5399, 5400, Some(Side::White)));
    assert!(d.take().iter().any(|e| matches!(e, Event::ClockPremature { side: Side::Black, .. })));
    // …then White moves and presses: accepted, with the master's increment.
    d.play(Square::E2, Square::E4);
    d.take();
    d.read(200, reading(5427, 5400, Some(Side::Black)));
    let events = d.take();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::ClockPressed { side: Side::White, remaining_ms: 5_427_000, moves: 2, .. }
        )),
        "{events:?}"
    );
}

#[test]
fn setting_the_master_is_not_a_press() {
    let mut d = Desk::new();
    // An old game's reading: Black's time runs.
    d.read(0, reading(100, 200, Some(Side::Black)));
    d.take();
    // SetNRun for this game: White runs, Black gets his time back.
    d.read(1000, reading(5400, 5400, Some(Side::White)));
    let events = d.take();
    assert!(
        !events.iter().any(|e| matches!(e, Event::ClockPremature { .. } | Event::ClockPressed { .. })),
        "{events:?}"
    );
    assert_eq!(d.table.clock().unwrap().moves_made(Side::Black), 0);
}

#[test]
fn a_flag_shown_by_the_master_falls_once() {
    let mut d = Desk::new();
    d.read(0, reading(2, 5400, Some(Side::White)));
    d.take();
    // The station does not decide the flag by itself, even past the time.
    d.t += 5000;
    d.table.tick(d.t, &mut d.out);
    assert!(!d.take().iter().any(|e| matches!(e, Event::FlagFell { .. })));
    d.read(0, reading(0, 5400, Some(Side::White)));
    d.read(1000, ClockReading { white_flag: true, ..reading(0, 5400, None) });
    let flags: Vec<_> = d.take().into_iter().filter(|e| matches!(e, Event::FlagFell { .. })).collect();
    assert!(matches!(&flags[..], [Event::FlagFell { side: Side::White, .. }]), "{flags:?}");
}

#[test]
fn restoring_from_the_journal_reproduces_the_followed_clock_exactly() {
    let mut d = Desk::new();
    d.read(0, reading(5400, 5400, Some(Side::White)));
    d.play(Square::E2, Square::E4);
    d.read(300, reading(5427, 5400, Some(Side::Black)));
    d.read(1000, reading(5427, 5399, Some(Side::Black)));
    d.read(700, reading(5427, 5399, None));
    d.read(9000, reading(5427, 5399, Some(Side::Black)));
    let restored = journal::restore(&journal::decode(d.journal()).unwrap()).unwrap();
    assert!(restored.reproduced);
    let (a, b) = (restored.table.clock().unwrap(), d.table.clock().unwrap());
    assert_eq!(a, b);
    assert_eq!(a.moves_made(Side::White), 1);
    assert!(a.is_followed());
    for t in [d.t, d.t + 1234] {
        for side in [Side::White, Side::Black] {
            assert_eq!(a.remaining(side, t), b.remaining(side, t));
        }
    }
}
