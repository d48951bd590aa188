use super::*;
use crate::input::Input;
use crate::two_boards::DiscrepancyKind;
use shakmaty::Square;

/// The blind player's peg board alone and a clock of `time_control`, the
/// other settings as configured by default.
fn timed_cfg(time_control: &str) -> TableConfig {
    TableConfig {
        time_control: Some(time_control.parse().unwrap()),
        ..TableConfig::single(TrackerConfig::default())
    }
}

/// Hands on both boards of a table.
struct Hands {
    table: Table,
    t: Millis,
    out: Vec<Event>,
}

impl Hands {
    fn new(mirror_sensed: bool) -> Hands {
        let cfg = TableConfig { mirror_sensed, ..TableConfig::single(TrackerConfig::default()) };
        Hands::with(cfg)
    }

    fn scan(&mut self, role: BoardRole, occ: Bitboard) {
        self.t += 120;
        self.table.on_scan(role, self.t, occ, &mut self.out);
    }

    /// Lifts `from` and places on `to` (the peg on `to`, if any, removed first), then rests.
    fn play(&mut self, role: BoardRole, from: &str, to: &str) -> &mut Self {
        let (from, to): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
        let mut occ = self.table.sensed(role);
        if occ.contains(to) {
            occ.discard(to);
            self.scan(role, occ);
        }
        occ.discard(from);
        self.scan(role, occ);
        occ.add(to);
        self.scan(role, occ);
        self.rest();
        self
    }

    fn rest(&mut self) {
        self.t += 1000;
        self.table.tick(self.t, &mut self.out);
    }

    /// Both boards (the mirror sensed or not) set up in the start position:
    /// the game has started.
    fn started(mirror_sensed: bool) -> Hands {
        let mut h = Hands::new(mirror_sensed);
        h.set_up();
        h
    }

    fn set_up(&mut self) {
        let start = Game::default().occupancy();
        self.scan(BoardRole::Mirror, start);
        self.scan(BoardRole::Blind, start);
        self.rest();
        assert_eq!(self.table.phase(), Phase::Playing);
    }

    fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.out)
    }

    /// The events, spoken time warnings left out.
    fn take_unwarned(&mut self) -> Vec<Event> {
        self.take().into_iter().filter(|e| !matches!(e, Event::ClockWarning { .. })).collect()
    }

    /// A table set as `cfg`, nothing scanned yet.
    fn with(cfg: TableConfig) -> Hands {
        Hands { table: Table::new(cfg), t: 0, out: Vec::new() }
    }

    /// The blind player's peg board alone, its game starting from `fen`:
    /// the board shows that position and has settled.
    fn from_fen(fen: &str) -> Hands {
        let cfg = TableConfig {
            start: Game::from_fen(fen).unwrap().into(),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands::with(cfg);
        h.scan(BoardRole::Blind, h.table.config().start.occupancy());
        h.rest();
        h
    }

    /// The blind player's peg board alone and a clock of `time_control`,
    /// pressed by the station when `auto_press`; nothing scanned yet.
    fn timed(time_control: &str, auto_press: bool) -> Hands {
        Hands::with(TableConfig { clock_auto_press: auto_press, ..timed_cfg(time_control) })
    }

    /// A 5400+30 game on the peg board alone, the station pressing the
    /// clock, the start position set up.
    fn pressed_by_station() -> Hands {
        let mut h = Hands::timed("5400+30", true);
        h.set_up();
        h
    }

    /// Applies `input` `after_ms` after the last thing that happened.
    fn apply_after(&mut self, after_ms: Millis, input: &Input) -> Result<Vec<Event>, TableError> {
        self.t += after_ms;
        self.table.apply(self.t, input)
    }

    /// A peg board for the blind player and a DGT board for the sighted one
    /// (`cfg`'s other settings), both showing the start position.
    fn with_dgt(cfg: TableConfig) -> Hands {
        let cfg = TableConfig { mirror_sensed: true, mirror_pieces: true, ..cfg };
        let mut h = Hands::with(cfg);
        h.t += 100;
        h.table.on_pieces(h.t, &shakmaty::Board::default(), &mut h.out);
        h.set_up();
        h
    }

    /// One square of the DGT board changes 100 ms after the last change.
    fn field(&mut self, square: &str, piece: Option<shakmaty::Piece>) {
        self.t += 100;
        self.table.on_field(self.t, square.parse().unwrap(), piece, &mut self.out);
    }

    /// `piece` taken from `from` and put on `to` on the DGT board (not rested).
    fn dgt_move(&mut self, from: &str, to: &str, piece: shakmaty::Piece) {
        self.field(from, None);
        self.field(to, Some(piece));
    }

    fn agreed(&self) -> Vec<String> {
        let g = self.table.agreed().unwrap();
        g.moves().iter().map(|m| g.uci(*m)).collect()
    }
}

/// The plies `events` took back, in the order they went (last first): how a
/// test of either game sees how far a ruling rewound the record.
pub(super) fn taken_back_plies(events: &[Event]) -> Vec<usize> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TakenBack { ply, .. } => Some(*ply),
            _ => None,
        })
        .collect()
}

/// The result and reason of the game's end among `events`, if it ended.
fn game_over(events: &[Event]) -> Option<(String, String)> {
    events.iter().find_map(|e| match e {
        Event::GameOver { result, reason, .. } => Some((result.to_string(), reason.clone())),
        _ => None,
    })
}

#[test]
fn a_game_starts_on_the_initial_position_and_ends_on_mate() {
    let mut h = Hands::new(false);
    h.scan(BoardRole::Blind, Game::default().occupancy().without(Square::A1));
    h.rest();
    assert_eq!(h.table.phase(), Phase::Waiting);
    assert!(h.take().is_empty(), "a set-up in progress is not read out at every pause");
    // Any other position is said once it is still for longer, never silence.
    h.t += SETUP_QUIET_MS;
    h.table.tick(h.t, &mut h.out);
    let waiting = h.take();
    assert!(matches!(&waiting[..], [Event::SetupDiffers { diff, .. }] if diff.len() == 1), "{waiting:?}");
    h.set_up();
    assert!(matches!(h.take()[0], Event::GameStarted { .. }));
    for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
        h.play(BoardRole::Blind, from, to);
    }
    let events = h.take();
    let sans: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameMove { san, .. } => Some(san.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    assert!(matches!(events.last(), Some(Event::GameOver { result, .. }) if result == "0-1"));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::GameOver { .. })).count(), 1);
    assert_eq!(h.table.phase(), Phase::Finished);
    // Setting the pieces up again starts a new game.
    h.scan(BoardRole::Blind, Game::default().occupancy());
    h.rest();
    assert_eq!(h.table.phase(), Phase::Playing);
    assert_eq!(h.table.agreed().unwrap().ply(), 0);
}

#[test]
fn d_2_9_the_mirror_board_executed_wrongly_and_is_put_right_square_by_square() {
    let mut h = Hands::started(true);
    h.play(BoardRole::Blind, "e2", "e4");
    h.play(BoardRole::Mirror, "e2", "e3");
    let events = h.take();
    let Some(Event::Discrepancy {
        id,
        kind: DiscrepancyKind::Execution,
        board: Some(BoardRole::Mirror),
        fix,
        ..
    }) = events.iter().find(|e| matches!(e, Event::Discrepancy { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(fix[0].steps.len(), 1);
    let id = *id;
    // The sighted player moves the pawn on from e3 to e4.
    h.play(BoardRole::Mirror, "e3", "e4");
    let events = h.take();
    assert!(
        events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { id: i, .. } if *i == id)),
        "{events:?}"
    );
    assert_eq!(h.agreed(), ["e2e4"]);
    // The game goes on: the sighted player's reply, executed on the peg board.
    h.play(BoardRole::Mirror, "c7", "c5");
    h.play(BoardRole::Blind, "c7", "c5");
    assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
    assert!(!h.table.sync().unwrap().has_open_discrepancy());
}

#[test]
fn d_2_9_records_differ_and_both_boards_go_back_to_the_last_agreed_position() {
    let mut h = Hands::started(true);
    for (role, from, to) in [
        (BoardRole::Blind, "e2", "e4"),
        (BoardRole::Mirror, "e2", "e4"),
        (BoardRole::Mirror, "e7", "e5"),
        (BoardRole::Blind, "e7", "e5"),
        (BoardRole::Blind, "g1", "f3"),
        (BoardRole::Mirror, "g1", "f3"),
    ] {
        h.play(role, from, to);
    }
    h.take();
    h.table.scoresheet(&["e4".into(), "c5".into()], h.t, &mut h.out).unwrap();
    let events = h.take();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Discrepancy { kind: DiscrepancyKind::Records, agreed_ply: 1, .. }))
    );
    // Both boards are set back to the position after 1. e4 (knight home, e5 pawn back).
    for role in [BoardRole::Blind, BoardRole::Mirror] {
        h.play(role, "f3", "g1");
        h.play(role, "e5", "e7");
    }
    let events = h.take();
    assert!(events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })), "{events:?}");
    assert_eq!(h.agreed(), ["e2e4"]);
    h.play(BoardRole::Mirror, "c7", "c5");
    h.play(BoardRole::Blind, "c7", "c5");
    assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
}

#[test]
fn a_scoresheet_with_an_illegal_move_is_refused() {
    let mut h = Hands::new(false);
    assert_eq!(h.table.scoresheet(&["e4".into()], 0, &mut h.out), Err(TableError::NoGame));
    h.set_up();
    let err = h.table.scoresheet(&["e4".into(), "e4".into()], h.t, &mut h.out).unwrap_err();
    assert!(matches!(&err, TableError::IllegalMove { ply: 2, text, .. } if text == "e4"), "{err}");
    assert_eq!(err.to_string(), "1... e4: no pawn can go to e4", "as on a scoresheet");
}

mod clock;

mod clock_start;

mod dgt_mirror;

mod knocked;

mod operator;

mod adjournment;

mod spoken;

mod spoken_only;

mod two_board_clock;

mod draws;

mod illegal_moves;

mod guidelines_i;
