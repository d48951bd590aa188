use super::*;
use crate::two_boards::DiscrepancyKind;
use shakmaty::Square;

/// Hands on both boards of a table.
struct Hands {
    table: Table,
    t: Millis,
    out: Vec<Event>,
}

impl Hands {
    fn new(mirror_sensed: bool) -> Hands {
        let cfg = TableConfig { mirror_sensed, ..TableConfig::single(TrackerConfig::default()) };
        Hands { table: Table::new(cfg), t: 0, out: Vec::new() }
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

    fn agreed(&self) -> Vec<String> {
        let g = self.table.agreed().unwrap();
        g.moves().iter().map(|m| g.uci(*m)).collect()
    }
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
    let mut h = Hands::new(true);
    h.set_up();
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
    let mut h = Hands::new(true);
    h.set_up();
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

mod clock {
    use super::*;
    use crate::clock::{Missing, Side};

    fn timed(auto_press: bool) -> Hands {
        let cfg = TableConfig {
            time_control: Some("5400+30".parse().unwrap()),
            clock_auto_press: auto_press,
            ..TableConfig::single(TrackerConfig::default())
        };
        Hands { table: Table::new(cfg), t: 0, out: Vec::new() }
    }

    #[test]
    fn d_2_4_a_press_before_the_move_is_made_is_premature_and_does_not_switch() {
        let mut h = timed(false);
        h.set_up();
        h.take();
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        let events = h.take_unwarned();
        assert!(
            matches!(&events[..], [Event::ClockPremature { side: Side::White, missing, .. }] if missing.contains(&Missing::Placement)),
            "{events:?}"
        );
        assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
        h.play(BoardRole::Blind, "e2", "e4");
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        assert!(
            h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, moves: 1, .. }))
        );
        assert_eq!(h.table.clock().unwrap().on_move(), Side::Black);
        // A second press for the same move is premature again: no move was made since.
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        assert!(matches!(h.take_unwarned()[..], [Event::ClockPremature { .. }]));
    }

    #[test]
    fn without_a_lever_the_clock_switches_once_the_move_is_made_and_announced() {
        let mut h = timed(true);
        h.set_up();
        let start = h.t;
        h.play(BoardRole::Blind, "e2", "e4");
        let events = h.take();
        let game_move = events.iter().position(|e| matches!(e, Event::GameMove { .. })).unwrap();
        let pressed = events.iter().position(|e| matches!(e, Event::ClockPressed { .. })).unwrap();
        assert!(pressed > game_move, "the clock starts only after the announcement");
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::Black);
        // White used the time from the start to the settled move, and got 30 s back.
        let used = h.t - 1000 - start;
        assert!(clock.remaining(Side::White, h.t) <= 5_400_000 + 30_000 - used + 1000);
    }

    /// Without speech input the station's own announcement is the
    /// announcement: the move pressed his clock already, and a matching
    /// announcement entered afterwards is checked without a second press.
    #[test]
    fn d_2_4_an_announcement_after_an_auto_pressed_move_does_not_press_again() {
        let mut h = timed(true);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        assert!(h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, .. })));
        h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
        let events = h.take_unwarned();
        assert!(
            matches!(&events[..], [Event::AnnouncementChecked { matches: true, .. }]),
            "checked, neither pressed nor premature: {events:?}"
        );
        assert_eq!(h.table.clock().unwrap().on_move(), Side::Black);
    }

    /// Both boards sensed and a lever for each side: the D.2.9 set-up.
    fn timed_two_boards() -> Hands {
        let cfg = TableConfig {
            time_control: Some("5400+30".parse().unwrap()),
            mirror_sensed: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        Hands { table: Table::new(cfg), t: 0, out: Vec::new() }
    }

    fn press(h: &mut Hands, side: Side) {
        h.table.clock_press(side, h.t, &mut h.out).unwrap();
        assert!(
            h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: s, .. } if *s == side)),
            "{side:?}'s press after a made move counts"
        );
    }

    #[test]
    fn d_2_9_after_going_back_the_clock_runs_for_the_side_to_move_and_counts_the_record() {
        let mut h = timed_two_boards();
        h.set_up();
        let moves = [
            ("e2", "e4", Side::White),
            ("e7", "e5", Side::Black),
            ("g1", "f3", Side::White),
            ("b8", "c6", Side::Black),
        ];
        for (from, to, side) in moves {
            h.play(BoardRole::Blind, from, to);
            h.play(BoardRole::Mirror, from, to);
            press(&mut h, side);
        }
        assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
        // The sighted player's scoresheet says 1... c5: back to the position after 1. e4.
        h.table.scoresheet(&["e4".into(), "c5".into()], h.t, &mut h.out).unwrap();
        for role in [BoardRole::Blind, BoardRole::Mirror] {
            h.play(role, "c6", "b8");
            h.play(role, "f3", "g1");
            h.play(role, "e5", "e7");
        }
        let events = h.take();
        assert!(events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })), "{events:?}");
        assert!(events.iter().any(|e| matches!(
            e,
            Event::ClockChanged { action, side: Some(Side::Black), .. } if action == "on_move_set"
        )));
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::Black, "Black is to move after 1. e4");
        assert_eq!((clock.moves_made(Side::White), clock.moves_made(Side::Black)), (1, 0));
        let who = clock.corrections().iter().map(|c| c.who.as_str()).collect::<Vec<_>>();
        assert!(who.iter().all(|w| *w == "station"), "logged: {who:?}");
        // Play goes on with the presses judged against the right side.
        h.play(BoardRole::Mirror, "c7", "c5");
        h.play(BoardRole::Blind, "c7", "c5");
        press(&mut h, Side::Black);
        assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
        assert_eq!(h.table.clock().unwrap().moves_made(Side::Black), 1);
    }

    #[test]
    fn a_take_back_after_the_press_gives_the_clock_back_to_the_mover() {
        let mut h = timed(false);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        press(&mut h, Side::White);
        let black_before = h.table.clock().unwrap().remaining(Side::Black, h.t);
        h.t += 5_000;
        h.table.take_back(h.t, &mut h.out).unwrap();
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::White);
        assert_eq!(clock.moves_made(Side::White), 0);
        // Black's clock ran for those 5 s and keeps them spent.
        assert_eq!(clock.remaining(Side::Black, h.t), black_before - 5_000);
        h.play(BoardRole::Blind, "e4", "e2");
        h.play(BoardRole::Blind, "d2", "d4");
        press(&mut h, Side::White);
        // A take-back before the press changes nothing on the clock.
        h.play(BoardRole::Blind, "d7", "d5");
        h.take();
        h.table.take_back(h.t, &mut h.out).unwrap();
        assert!(!h.take().iter().any(|e| matches!(e, Event::ClockChanged { .. })));
        assert_eq!(h.table.clock().unwrap().on_move(), Side::Black);
    }

    #[test]
    fn arbiter_corrections_are_events_with_who_and_why() {
        let mut h = timed(false);
        h.set_up();
        h.take();
        let cmd = ClockCommand::SetTime {
            side: Side::Black,
            ms: 60_000,
            who: "arbiter".into(),
            why: "6.14".into(),
        };
        h.table.clock_command(cmd, h.t, &mut h.out).unwrap();
        let events = h.take_unwarned();
        assert!(matches!(&events[..], [Event::ClockChanged { who: Some(w), .. }] if w == "arbiter"));
        assert_eq!(h.table.clock().unwrap().remaining(Side::Black, h.t), 60_000);
        let untimed = &mut Hands::new(false);
        untimed.set_up();
        assert_eq!(
            untimed.table.clock_command(ClockCommand::Start, 0, &mut untimed.out),
            Err(TableError::NoClock)
        );
    }

    #[test]
    fn a_flag_falls_at_its_exact_time_and_warnings_come_in_order() {
        let cfg = TableConfig {
            time_control: Some("60".parse().unwrap()),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.set_up();
        let started = h.t - 1000 + 300 - 300; // the game started when the initial position settled
        let _ = started;
        let deadline = h.table.deadline().unwrap();
        h.table.tick(deadline, &mut h.out);
        let events = h.take();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::FlagFell { side: Side::White, t_ms } if *t_ms == deadline)),
            "{events:?}"
        );
        let warnings: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::ClockWarning {
                    warning: crate::clock::Warning::Remaining { threshold_ms, side: Side::White, .. },
                    ..
                } => Some(*threshold_ms),
                _ => None,
            })
            .collect();
        assert!(warnings.windows(2).all(|w| w[0] > w[1]), "{warnings:?}");
    }
}

mod dgt_mirror {
    use super::*;
    use crate::two_boards::DiscrepancyKind;
    use shakmaty::{Board, Color, Piece, Role};

    #[test]
    fn d_2_9_a_piece_sensing_mirror_board_executes_wrongly_and_is_put_right() {
        let cfg = TableConfig {
            mirror_sensed: true,
            mirror_pieces: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.t += 100;
        h.table.on_pieces(h.t, &Board::default(), &mut h.out);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        let pawn = Piece { color: Color::White, role: Role::Pawn };
        // The sighted player executes 1. e4 as e3 on his DGT board.
        h.t += 100;
        h.table.on_field(h.t, Square::E2, None, &mut h.out);
        h.t += 100;
        h.table.on_field(h.t, Square::E3, Some(pawn), &mut h.out);
        h.rest();
        let events = h.take();
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Discrepancy { kind: DiscrepancyKind::Execution, board: Some(BoardRole::Mirror), .. }
            )),
            "{events:?}"
        );
        h.t += 100;
        h.table.on_field(h.t, Square::E3, None, &mut h.out);
        h.t += 100;
        h.table.on_field(h.t, Square::E4, Some(pawn), &mut h.out);
        h.rest();
        let events = h.take();
        assert!(events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })), "{events:?}");
        // The sighted player answers on his board; it is the agreed move.
        let knight = Piece { color: Color::Black, role: Role::Knight };
        h.t += 100;
        h.table.on_field(h.t, Square::G8, None, &mut h.out);
        h.t += 100;
        h.table.on_field(h.t, Square::F6, Some(knight), &mut h.out);
        h.rest();
        assert_eq!(h.agreed(), ["e2e4", "g8f6"]);
    }
}

mod knocked {
    use super::*;
    use shakmaty::{Board, Color, Piece, Role};

    #[test]
    fn d_2_9_a_knocked_over_piece_put_back_is_no_move_and_no_discrepancy() {
        let cfg = TableConfig {
            mirror_sensed: true,
            mirror_pieces: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.t += 100;
        h.table.on_pieces(h.t, &Board::default(), &mut h.out);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        let pawn = Piece { color: Color::White, role: Role::Pawn };
        for (sq, p) in [(Square::E2, None), (Square::E4, Some(pawn))] {
            h.t += 100;
            h.table.on_field(h.t, sq, p, &mut h.out);
        }
        h.rest();
        h.take();
        // A black rook is knocked off the sighted player's board and lies there for 5 s …
        let rook = Piece { color: Color::Black, role: Role::Rook };
        h.t += 100;
        h.table.on_field(h.t, Square::A8, None, &mut h.out);
        h.t += 5000;
        h.table.tick(h.t, &mut h.out);
        // … and a peg is knocked out of the blind player's board and put back.
        let occ = h.table.sensed(BoardRole::Blind);
        h.scan(BoardRole::Blind, occ.without(Square::H7));
        h.t += 3000;
        h.table.tick(h.t, &mut h.out);
        h.scan(BoardRole::Blind, occ);
        h.t += 100;
        h.table.on_field(h.t, Square::A8, Some(rook), &mut h.out);
        h.rest();
        let events = h.take();
        assert!(
            !events.iter().any(|e| matches!(
                e,
                Event::Move { .. } | Event::GameMove { .. } | Event::Discrepancy { .. }
            )),
            "{events:?}"
        );
        assert!(
            events.iter().any(|e| matches!(e, Event::PieceReturned { square, .. } if square == "a8")),
            "{events:?}"
        );
        assert_eq!(h.agreed(), ["e2e4"]);
        assert!(!h.table.sync().unwrap().has_open_discrepancy());
    }
}

mod operator {
    use super::*;

    #[test]
    fn an_entered_move_is_announced_and_the_board_executes_it() {
        let mut h = Hands::new(false);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        h.take();
        h.table.enter_move("e5", h.t, &mut h.out).unwrap();
        assert!(h.take().iter().any(|e| matches!(e, Event::GameMove { ply: 2, san, .. } if san == "e5")));
        h.play(BoardRole::Blind, "e7", "e5");
        let events = h.take();
        assert!(
            !events.iter().any(|e| matches!(e, Event::Discrepancy { .. } | Event::GameMove { .. })),
            "{events:?}"
        );
        assert_eq!(h.agreed(), ["e2e4", "e7e5"]);
        assert!(h.table.enter_move("e5", h.t, &mut h.out).is_err(), "illegal now");
    }

    #[test]
    fn a_take_back_is_followed_by_the_board() {
        let mut h = Hands::new(false);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        h.play(BoardRole::Blind, "e7", "e5");
        h.take();
        h.table.take_back(h.t, &mut h.out).unwrap();
        assert!(h.take().iter().any(|e| matches!(e, Event::TakenBack { ply: 2, .. })));
        assert_eq!(h.agreed(), ["e2e4"]);
        // The pawn goes back to e7; the board's record follows the agreed one.
        h.play(BoardRole::Blind, "e5", "e7");
        assert_eq!(h.table.tracker(BoardRole::Blind).unwrap().game().ply(), 1);
        assert!(!h.table.sync().unwrap().has_open_discrepancy());
        // And a different reply is accepted.
        h.play(BoardRole::Blind, "c7", "c5");
        assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
        let mut empty = Hands::new(false);
        empty.set_up();
        assert_eq!(empty.table.take_back(0, &mut empty.out), Err(TableError::NothingToTakeBack));
    }
}

mod adjournment {
    use super::*;

    #[test]
    fn a_sealed_move_is_never_an_event_until_the_game_resumes() {
        let cfg = TableConfig {
            time_control: Some("5400".parse().unwrap()),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        h.take();
        h.table.adjourn("c5", h.t, &mut h.out).unwrap();
        let events = h.take();
        assert!(matches!(events[..], [Event::Adjourned { ply: 2, .. }]), "{events:?}");
        assert!(!format!("{events:?}").contains("c5"), "the sealed move stays sealed");
        assert!(!h.table.clock().unwrap().is_running());
        assert_eq!(h.table.resume_adjourned(h.t + 1, &mut Vec::new()).map(|_| ()), Ok(()));
        assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
        assert!(h.table.clock().unwrap().is_running());
        assert_eq!(h.table.resume_adjourned(h.t + 2, &mut h.out), Err(TableError::NotAdjourned));
        assert!(h.table.adjourn("Ke2", h.t, &mut h.out).is_ok(), "legal for White now");
    }

    #[test]
    fn a_new_game_from_a_chess960_position_starts_at_once_and_the_board_is_told_what_differs() {
        let mut h = Hands::new(false);
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        // A peg off the board too: no move from the new start explains it.
        let lifted = h.table.sensed(BoardRole::Blind).without(Square::A1);
        h.scan(BoardRole::Blind, lifted);
        h.take();
        let occ = Game::chess960(0).unwrap().occupancy();
        let tags = crate::pgn::TagOverrides { white: Some("Anna".into()), ..Default::default() };
        let new_game = crate::input::Input::NewGame { fen: None, chess960: Some(0), moves: Vec::new(), tags };
        let events = h.table.apply(h.t, &new_game).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::GameOver { result, .. } if result == "*")));
        assert!(events.iter().any(|e| matches!(e, Event::GameStarted { .. })), "{events:?}");
        // The game starts when the command returns: the next input plays into it.
        assert_eq!(h.table.phase(), Phase::Playing);
        // His board still shows 1.e4: once still, it is told what differs, never silence.
        h.rest();
        let told = h.take();
        assert!(told.iter().any(|e| matches!(e, Event::BoardMismatch { .. })), "{told:?}");
        // Chess960 starts have the same holes as the standard one: the board is set up.
        h.play(BoardRole::Blind, "e4", "e2");
        let back = h.table.sensed(BoardRole::Blind).with(Square::A1);
        h.scan(BoardRole::Blind, back);
        h.rest();
        assert_eq!(h.table.sensed(BoardRole::Blind), occ);
        let right = h.take();
        assert!(right.iter().any(|e| matches!(e, Event::BoardRestored { .. })), "{right:?}");
        assert_eq!(h.table.record().unwrap().tags.white, "Anna");
        assert!(h.table.agreed().unwrap().start_fen().starts_with("bbqnnrkr/"));
    }
}

mod spoken {
    use super::*;
    use crate::clock::Side;
    use shakmaty::Role;

    fn listening() -> Hands {
        let cfg = TableConfig {
            time_control: Some("5400".parse().unwrap()),
            announcement_required: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        Hands { table: Table::new(cfg), t: 0, out: Vec::new() }
    }

    fn checked(events: &[Event]) -> Vec<(String, String, bool)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::AnnouncementChecked { said, sensed, matches, .. } => {
                    Some((said.clone(), sensed.clone(), *matches))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn d_2_8_a_slip_of_the_tongue_holds_the_clock_until_it_is_corrected() {
        let mut h = listening();
        h.set_up();
        h.play(BoardRole::Blind, "g1", "f3");
        h.take();
        // He says "Springer Hector drei" but his knight stands on f3.
        h.table.announce_uci("g1h3", h.t, &mut h.out).unwrap();
        assert_eq!(checked(&h.take()), [("g1h3".into(), "g1f3".into(), false)]);
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        assert!(
            h.take().iter().any(|e| matches!(e, Event::ClockPremature { .. })),
            "D.2.4: not made until announced"
        );
        // He corrects the announcement: now the move is made and the clock may start.
        h.table.announce_uci("Nf3", h.t, &mut h.out).unwrap();
        assert_eq!(checked(&h.take()), [("g1f3".into(), "g1f3".into(), true)]);
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        assert!(h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, .. })));
    }

    #[test]
    fn an_announcement_before_the_move_is_checked_when_the_move_is_sensed() {
        let mut h = listening();
        h.set_up();
        h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
        assert!(checked(&h.take()).is_empty());
        h.play(BoardRole::Blind, "e2", "e4");
        assert_eq!(checked(&h.take()), [("e2e4".into(), "e2e4".into(), true)]);
    }

    #[test]
    fn the_announced_promotion_piece_settles_what_the_pegs_cannot_show() {
        let cfg = TableConfig {
            start: Game::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
            announcement_required: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        let occ = Game::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap().occupancy();
        h.scan(BoardRole::Blind, occ);
        h.rest();
        h.play(BoardRole::Blind, "a7", "a8");
        h.take();
        h.table.announce_uci("a7a8n", h.t, &mut h.out).unwrap();
        let events = h.take();
        assert_eq!(checked(&events), [("a7a8n".into(), "a7a8n".into(), true)], "{events:?}");
        let last = *h.table.agreed().unwrap().moves().last().unwrap();
        assert_eq!(last.promotion(), Some(Role::Knight));
    }

    #[test]
    fn without_announcing_required_a_promotion_said_before_it_is_made_names_its_piece() {
        // Practice at home: he never announces, except the piece his pegs cannot show.
        let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        let cfg = TableConfig {
            start: Game::from_fen(fen).unwrap(),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.scan(BoardRole::Blind, Game::from_fen(fen).unwrap().occupancy());
        h.rest();
        h.play(BoardRole::Blind, "e1", "d1");
        h.take();
        // Said after it is made, while it is the last move, it is about that move.
        h.table.announce_uci("Kd1", h.t, &mut h.out).unwrap();
        assert_eq!(checked(&h.take()), [("e1d1".into(), "e1d1".into(), true)]);
        h.play(BoardRole::Blind, "e8", "d7");
        h.play(BoardRole::Blind, "d1", "c2");
        h.play(BoardRole::Blind, "d7", "c7");
        h.take();
        // His king move to c2 was never announced: "a8 Turm" is about the move to come.
        h.table.announce_uci("a8=R", h.t, &mut h.out).unwrap();
        assert!(checked(&h.take()).is_empty());
        h.play(BoardRole::Blind, "a7", "a8");
        let events = h.take();
        assert_eq!(checked(&events), [("a7a8r".into(), "a7a8r".into(), true)], "{events:?}");
        let last = *h.table.agreed().unwrap().moves().last().unwrap();
        assert_eq!(last.promotion(), Some(Role::Rook));
    }
}

/// No sensor board for the blind player: his spoken moves are his moves.
mod spoken_only {
    use super::*;
    use crate::journal::{self, Header, Input, Record};

    fn config(mirror_sensed: bool) -> TableConfig {
        TableConfig {
            mirror_sensed,
            announcement_required: true,
            blind_unsensed: true,
            time_control: Some("5400".parse().unwrap()),
            ..TableConfig::single(TrackerConfig::default())
        }
    }

    fn moves(out: &[Event]) -> Vec<(String, BoardRole)> {
        out.iter()
            .filter_map(|e| match e {
                Event::GameMove { uci, by, .. } => Some((uci.clone(), *by)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn without_any_board_the_game_starts_at_once_and_is_played_by_voice_and_operator() {
        let mut h = Hands { table: Table::new(config(false)), t: 0, out: Vec::new() };
        h.t = 5_000;
        h.rest();
        assert_eq!(h.table.phase(), Phase::Playing);
        assert!(matches!(h.take()[0], Event::GameStarted { .. }));
        assert!(h.table.tracker(BoardRole::Blind).is_none());
        h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
        assert_eq!(moves(&h.take()), [("e2e4".into(), BoardRole::Blind)]);
        // His clock press counts: the spoken move is made and announced.
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        assert!(h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, .. })));
        // Not his turn: refused, nothing changes.
        let err = h.table.announce_uci("e7e5", h.t, &mut h.out).unwrap_err();
        assert!(matches!(err, TableError::NotYourTurn { .. } | TableError::IllegalMove { .. }), "{err}");
        h.table.enter_move("e5", h.t, &mut h.out).unwrap();
        // An illegal spoken move is refused.
        assert!(h.table.announce_uci("e4e5", h.t, &mut h.out).is_err());
        h.table.announce_uci("Nf3", h.t, &mut h.out).unwrap();
        assert_eq!(h.agreed(), ["e2e4", "e7e5", "g1f3"]);
        // The operator enters a move for him; what is spoken next is about the position now.
        h.table.enter_move("Nc6", h.t, &mut h.out).unwrap();
        h.table.enter_move("Bb5", h.t, &mut h.out).unwrap();
        assert_eq!(h.table.announce_position().unwrap(), *h.table.agreed().unwrap().position());
        h.table.announce_uci("a6", h.t, &mut h.out).unwrap_err();
        h.table.enter_move("a6", h.t, &mut h.out).unwrap();
        h.table.announce_uci("Ba4", h.t, &mut h.out).unwrap();
        // Nothing waits for a board that does not exist.
        h.t += 120_000;
        h.rest();
        assert!(!h.take().iter().any(|e| matches!(e, Event::Discrepancy { .. })));
    }

    #[test]
    fn a_resignation_ends_the_game_and_stops_the_clock() {
        let mut h = Hands { table: Table::new(config(false)), t: 0, out: Vec::new() };
        h.t = 5_000;
        h.rest();
        h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
        h.take();
        h.table.resign(Side::Black, h.t, &mut h.out).unwrap();
        let out = h.take();
        assert!(
            matches!(&out[..], [Event::GameOver { result, reason, .. }] if result == "1-0" && reason == "resignation"),
            "{out:?}"
        );
        assert_eq!(h.table.phase(), Phase::Finished);
        assert!(!h.table.clock().unwrap().is_running());
        assert_eq!(h.table.resign(Side::White, h.t, &mut h.out), Err(TableError::NoGame));
    }

    #[test]
    fn with_a_sensed_mirror_the_game_starts_on_its_initial_position() {
        let mut h = Hands { table: Table::new(config(true)), t: 0, out: Vec::new() };
        h.rest();
        assert_eq!(h.table.phase(), Phase::Waiting);
        h.scan(BoardRole::Mirror, Game::default().occupancy());
        h.rest();
        assert_eq!(h.table.phase(), Phase::Playing);
        h.table.announce_uci("d4", h.t, &mut h.out).unwrap();
        // The sighted player executes it on his board, then plays his own move.
        h.play(BoardRole::Mirror, "d2", "d4");
        h.play(BoardRole::Mirror, "d7", "d5");
        let out = h.take();
        assert_eq!(
            moves(&out),
            [("d2d4".into(), BoardRole::Blind), ("d7d5".into(), BoardRole::Mirror)],
            "{out:?}"
        );
        assert!(!out.iter().any(|e| matches!(e, Event::Discrepancy { .. })), "{out:?}");
    }

    #[test]
    fn a_journal_of_spoken_moves_restores_the_game() {
        let mut table = Table::new(config(false));
        let mut out = Vec::new();
        table.tick(2_000, &mut out);
        table.announce_uci("c4", 3_000, &mut out).unwrap();
        table.enter_move("e5", 4_000, &mut out).unwrap();
        table.announce_uci("Nc3", 5_000, &mut out).unwrap();
        let id = table.game_id().unwrap();
        let header = Header::of_table(&table, id, &Game::default().fen(), 2_000, Default::default());
        // No sensor board: the blind player's holes were never sensed.
        assert!(header.blind_unsensed && header.occupancy == journal::occ_hex(Bitboard::EMPTY));
        let mut text = Record::Header(Box::new(header)).encode() + "\n";
        let inputs = [
            (3_000, Input::Announce { mv: "c2c4".into() }),
            (4_000, Input::EnterMove { mv: "e5".into() }),
            (5_000, Input::Announce { mv: "b1c3".into() }),
        ];
        for (seq, (t_ms, input)) in (1..).zip(inputs) {
            text += &(Record::Input { seq, t_ms, input }.encode() + "\n");
        }
        for (seq, event) in (10..).zip(out.iter().filter(|e| matches!(e, Event::GameMove { .. }))) {
            text += &(Record::Event { seq, event: event.clone() }.encode() + "\n");
        }
        let restored = journal::restore(&journal::decode(&text).unwrap()).unwrap();
        assert!(restored.reproduced);
        let g = restored.table.agreed().unwrap();
        assert_eq!(g.moves().iter().map(|m| g.uci(*m)).collect::<Vec<_>>(), ["c2c4", "e7e5", "b1c3"]);
    }
}

mod two_board_clock {
    use super::*;
    use crate::clock::TimeControl;
    use shakmaty::{Board, Color, Piece, Role};

    /// D.2.4 and D.2.6.1 in a two-board game without levers: every agreed move
    /// presses for its mover, whichever board made it, so the clock runs for
    /// the side to move and counts the moves made.
    #[test]
    fn d_2_6_1_in_a_two_board_game_the_clock_follows_both_players_and_counts_their_moves() {
        let cfg = TableConfig {
            mirror_sensed: true,
            mirror_pieces: true,
            time_control: Some("5400+30".parse::<TimeControl>().unwrap()),
            clock_auto_press: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.t += 100;
        h.table.on_pieces(h.t, &Board::default(), &mut h.out);
        h.set_up();
        let white = |role| Piece { color: Color::White, role };
        let black = |role| Piece { color: Color::Black, role };
        // Each move on the blind player's board, then executed on the DGT board.
        let moves = [
            ("e2", "e4", white(Role::Pawn)),
            ("e7", "e5", black(Role::Pawn)),
            ("g1", "f3", white(Role::Knight)),
            ("b8", "c6", black(Role::Knight)),
        ];
        for (i, (from, to, piece)) in moves.into_iter().enumerate() {
            let blind_moves = i % 2 == 0;
            if blind_moves {
                h.play(BoardRole::Blind, from, to);
            }
            h.t += 100;
            h.table.on_field(h.t, from.parse().unwrap(), None, &mut h.out);
            h.t += 100;
            h.table.on_field(h.t, to.parse().unwrap(), Some(piece), &mut h.out);
            h.rest();
            if !blind_moves {
                h.play(BoardRole::Blind, from, to);
            }
            let clock = h.table.clock().unwrap();
            let to_move = if i % 2 == 0 { Side::Black } else { Side::White };
            assert_eq!(clock.on_move(), to_move, "after ply {}", i + 1);
        }
        assert_eq!(h.agreed(), ["e2e4", "e7e5", "g1f3", "b8c6"]);
        let clock = h.table.clock().unwrap();
        assert_eq!((clock.moves_made(Side::White), clock.moves_made(Side::Black)), (2, 2));
    }
}

/// Article 9 at the table: offers, agreement, claims checked and decided.
mod draws {
    use super::*;
    use crate::clock::Side;
    use crate::input::Input;

    /// A timed game on the blind player's peg board alone, the station pressing the clock.
    fn timed() -> Hands {
        let cfg = TableConfig {
            time_control: Some("5400+30".parse().unwrap()),
            clock_auto_press: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.set_up();
        h
    }

    fn apply(h: &mut Hands, input: Input) -> Result<Vec<Event>, TableError> {
        h.t += 500;
        h.table.apply(h.t, &input)
    }

    fn shuffle(h: &mut Hands, moves: &[(&str, &str)]) {
        for (from, to) in moves {
            h.play(BoardRole::Blind, from, to);
        }
    }

    const OUT_AND_BACK: [(&str, &str); 4] = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")];

    fn game_over(events: &[Event]) -> Option<(String, String)> {
        events.iter().find_map(|e| match e {
            Event::GameOver { result, reason, .. } => Some((result.clone(), reason.clone())),
            _ => None,
        })
    }

    #[test]
    fn art_9_1_a_draw_offer_is_recorded_after_the_move_and_agreement_ends_the_game() {
        let mut h = timed();
        h.play(BoardRole::Blind, "e2", "e4");
        let events = apply(&mut h, Input::DrawOffer { side: Side::White }).unwrap();
        assert!(matches!(events[..], [Event::DrawOffered { side: Side::White, ply: 1, .. }]), "{events:?}");
        assert_eq!(h.table.draw_offers(), [(1, Side::White)]);
        let events = apply(&mut h, Input::AcceptDraw).unwrap();
        assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "agreement".into())));
        assert!(!h.table.clock().unwrap().is_running());
        assert_eq!(apply(&mut h, Input::AcceptDraw), Err(TableError::NoGame));
    }

    #[test]
    fn art_9_2_b_a_correct_claim_after_the_third_occurrence_ends_the_game_once_the_arbiter_confirms() {
        let mut h = timed();
        shuffle(&mut h, &OUT_AND_BACK);
        shuffle(&mut h, &OUT_AND_BACK);
        assert_eq!(h.table.draw_facts().unwrap().repetitions, 3);
        h.take();
        assert_eq!(
            apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: None }),
            Err(TableError::NotToMove),
            "only the player to move claims"
        );
        let events = apply(&mut h, Input::ClaimDraw { side: Side::White, mv: None }).unwrap();
        let claimed = events.iter().find(|e| matches!(e, Event::DrawClaimed { .. })).unwrap();
        let Event::DrawClaimed { correct, ground, repetitions, written, .. } = claimed else {
            unreachable!()
        };
        assert!(*correct);
        assert_eq!(ground.as_deref(), Some("threefold_repetition"));
        assert_eq!((*repetitions, written.clone()), (3, None));
        assert!(!h.table.clock().unwrap().is_running(), "9.5: the claim stops the clocks");
        assert!(h.table.is_playing(), "the arbiter decides");
        let events = apply(&mut h, Input::ConfirmClaim).unwrap();
        assert!(matches!(events[0], Event::DrawClaimDecided { correct: true, .. }));
        assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "threefold_repetition".into())));
        assert_eq!(h.table.phase(), Phase::Finished);
    }

    #[test]
    fn art_9_2_a_a_claim_with_the_written_move_that_repeats_the_position_is_correct() {
        let mut h = timed();
        shuffle(&mut h, &OUT_AND_BACK);
        shuffle(&mut h, &OUT_AND_BACK[..3]);
        let events = apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: Some("Ng8".into()) }).unwrap();
        assert!(events.iter().any(|e| matches!(e,
            Event::DrawClaimed { correct: true, written: Some(w), repetitions: 3, .. } if w == "Ng8")));
        let events = apply(&mut h, Input::ConfirmClaim).unwrap();
        assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "threefold_repetition".into())));
    }

    #[test]
    fn art_9_5_an_incorrect_claim_gives_three_minutes_to_the_opponent_halves_the_claimant_and_the_written_move_is_played()
     {
        let mut h = timed();
        shuffle(&mut h, &OUT_AND_BACK);
        shuffle(&mut h, &OUT_AND_BACK[..2]);
        // White claims with Ng1, which brings the position only a second time.
        let before = h.table.clock().unwrap().clone();
        let events = apply(&mut h, Input::ClaimDraw { side: Side::White, mv: Some("f3g1".into()) }).unwrap();
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::DrawClaimed { correct: false, ground: None, repetitions: 2, .. }
            ))
        );
        assert_eq!(apply(&mut h, Input::EnterMove { mv: "Ng1".into() }), Err(TableError::ClaimPending));
        let at = h.t + 500;
        let white = h.table.clock().unwrap().remaining(Side::White, at);
        let black = h.table.clock().unwrap().remaining(Side::Black, at);
        assert_eq!(black, before.remaining(Side::Black, at), "Black's time stood still");
        let events = apply(&mut h, Input::ConfirmClaim).unwrap();
        assert!(matches!(events[0], Event::DrawClaimDecided { correct: false, side: Side::White, .. }));
        assert!(game_over(&events).is_none());
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.remaining(Side::White, h.t), white - 3 * 60_000, "half of ~90 min is more than 3");
        let corrections: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::ClockChanged { action, side, who, .. } => Some((action.as_str(), *side, who.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(corrections[0], ("time_added", Some(Side::Black), Some("arbiter".into())));
        assert_eq!(corrections[1], ("time_set", Some(Side::White), Some("arbiter".into())));
        assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 7, san, .. } if san == "Ng1")));
        // The written move is the record's; once his board shows it the clock goes on to
        // Black, with his 3 minutes.
        h.play(BoardRole::Blind, "f3", "g1");
        apply(&mut h, Input::ClockPress { side: Side::White }).unwrap();
        let clock = h.table.clock().unwrap();
        assert!(clock.is_running());
        assert_eq!(clock.on_move(), Side::Black);
        assert!(clock.remaining(Side::Black, h.t) >= black + 3 * 60_000);
        assert_eq!(apply(&mut h, Input::ConfirmClaim), Err(TableError::NoClaim));
    }

    #[test]
    fn art_9_3_a_fifty_move_claim_counts_the_moves_without_a_pawn_move_or_capture() {
        let cfg = TableConfig {
            start: Game::from_fen("4k2n/8/8/8/8/8/8/1N2K3 w - - 98 60").unwrap(),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.scan(BoardRole::Blind, h.table.config().start.occupancy());
        h.rest();
        assert!(h.table.is_playing());
        h.play(BoardRole::Blind, "b1", "c3");
        let events = apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: None }).unwrap();
        assert!(events.iter().any(|e| matches!(
            e,
            Event::DrawClaimed { correct: false, moves_without_pawn_or_capture: 49, .. }
        )));
        // No clock: the incorrect claim is only refused.
        apply(&mut h, Input::ConfirmClaim).unwrap();
        let events = apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: Some("h8g6".into()) }).unwrap();
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::DrawClaimed { correct: true, moves_without_pawn_or_capture: 50, .. }
            )),
            "9.3(a)"
        );
        let events = apply(&mut h, Input::ConfirmClaim).unwrap();
        assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "fifty_moves".into())));
    }

    #[test]
    fn art_9_6_a_dead_position_ends_the_game_at_once() {
        let cfg = TableConfig {
            start: Game::from_fen("4k3/8/8/8/8/8/3n4/4K3 w - - 0 60").unwrap(),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.scan(BoardRole::Blind, h.table.config().start.occupancy());
        h.rest();
        h.play(BoardRole::Blind, "e1", "d2");
        let events = h.take();
        assert_eq!(
            game_over(&events),
            Some(("1/2-1/2".into(), "insufficient_material".into())),
            "{events:?}"
        );
    }

    #[test]
    fn a_restored_journal_gives_the_same_claim_decisions() {
        let mut h = timed();
        shuffle(&mut h, &OUT_AND_BACK);
        shuffle(&mut h, &OUT_AND_BACK[..2]);
        let claim = Input::ClaimDraw { side: Side::White, mv: Some("Ng1".into()) };
        let a = apply(&mut h, claim.clone()).unwrap();
        let json = serde_json::to_string(&claim).unwrap();
        assert_eq!(json, r#"{"kind":"claim_draw","side":"white","move":"Ng1"}"#);
        assert_eq!(serde_json::from_str::<Input>(&json).unwrap(), claim);
        assert!(a.iter().any(|e| matches!(e, Event::DrawClaimed { correct: false, .. })));
    }
}

/// Article 7.4: an illegal move found later.
mod illegal_moves {
    use super::*;
    use crate::clock::Side;
    use crate::input::Input;

    fn timed() -> Hands {
        let cfg = TableConfig {
            time_control: Some("5400+30".parse().unwrap()),
            clock_auto_press: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.set_up();
        h
    }

    fn apply(h: &mut Hands, input: Input) -> Result<Vec<Event>, TableError> {
        h.t += 500;
        h.table.apply(h.t, &input)
    }

    #[test]
    fn art_7_4_a_the_position_before_the_illegal_move_is_reinstated_on_the_board_and_the_clocks() {
        let mut h = timed();
        for (from, to) in [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4")] {
            h.play(BoardRole::Blind, from, to);
        }
        let at_ply_2 = h.table.sync().unwrap().clock_at(2).unwrap();
        h.take();
        let events = apply(&mut h, Input::IllegalMove { ply: 3 }).unwrap();
        let taken: Vec<usize> = events
            .iter()
            .filter_map(|e| match e {
                Event::TakenBack { ply, .. } => Some(*ply),
                _ => None,
            })
            .collect();
        assert_eq!(taken, [5, 4, 3], "three plies back");
        assert!(events.iter().any(|e| matches!(e,
            Event::IllegalMoveFound { ply: 3, side: Side::White, count: 1, uci, .. } if uci == "g1f3")));
        assert_eq!(h.agreed(), ["e2e4", "e7e5"]);
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::White, "White replays his move");
        assert_eq!(clock.remaining(Side::White, h.t), at_ply_2.white_ms, "6.14: White's time as at ply 2");
        assert_eq!(
            clock.remaining(Side::Black, h.t),
            at_ply_2.black_ms + ILLEGAL_MOVE_BONUS_MS,
            "7.4(b): Black's time as at ply 2 and two minutes"
        );
        assert_eq!(h.table.illegal_moves(Side::White), 1);
        // The board shows ply 5: it is told how to go back, and once it does the game goes on.
        h.rest();
        for (from, to) in [("c4", "f1"), ("c6", "b8"), ("f3", "g1")] {
            h.play(BoardRole::Blind, from, to);
        }
        h.play(BoardRole::Blind, "d2", "d4");
        assert_eq!(h.agreed(), ["e2e4", "e7e5", "d2d4"]);
    }

    #[test]
    fn art_7_4_b_two_minutes_for_the_first_and_second_illegal_move_the_third_loses() {
        let mut h = timed();
        h.play(BoardRole::Blind, "e2", "e4");
        h.play(BoardRole::Blind, "e7", "e5");
        for n in 1..=2 {
            h.play(BoardRole::Blind, "g1", "f3");
            let black = h.table.clock().unwrap().remaining(Side::Black, h.t + 500);
            let events = apply(&mut h, Input::IllegalMove { ply: 3 }).unwrap();
            assert!(events.iter().any(|e| matches!(e, Event::IllegalMoveFound { count, .. } if *count == n)));
            assert!(events.iter().any(|e| matches!(e,
                Event::ClockChanged { action, side: Some(Side::Black), .. } if action == "time_added")));
            assert!(
                h.table.clock().unwrap().remaining(Side::Black, h.t) >= black + ILLEGAL_MOVE_BONUS_MS - 1000
            );
            h.play(BoardRole::Blind, "f3", "g1");
            assert_eq!(h.agreed(), ["e2e4", "e7e5"]);
        }
        h.play(BoardRole::Blind, "g1", "f3");
        let events = apply(&mut h, Input::IllegalMove { ply: 3 }).unwrap();
        assert!(events.iter().any(|e| matches!(e,
            Event::GameOver { result, reason, .. } if result == "0-1" && reason == "illegal_moves")));
        assert_eq!(h.table.phase(), Phase::Finished);
        assert_eq!(apply(&mut h, Input::IllegalMove { ply: 1 }), Err(TableError::NoGame));
    }

    #[test]
    fn art_7_4_a_ply_outside_the_record_is_refused_and_changes_nothing() {
        let mut h = timed();
        h.play(BoardRole::Blind, "e2", "e4");
        assert!(matches!(apply(&mut h, Input::IllegalMove { ply: 2 }), Err(TableError::Invalid(_))));
        assert!(matches!(apply(&mut h, Input::IllegalMove { ply: 0 }), Err(TableError::Invalid(_))));
        assert_eq!(h.agreed(), ["e2e4"]);
        assert_eq!(h.table.illegal_moves(Side::White), 0);
    }
}

/// Guidelines I: adjournment to the end, each clause a scenario.
mod guidelines_i {
    use super::*;
    use crate::clock::Side;
    use crate::input::Input;

    /// 1.e4 played, the clock running (90 min), White's peg board alone; Black to seal.
    fn adjournable() -> Hands {
        let cfg = TableConfig {
            time_control: Some("5400".parse().unwrap()),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.set_up();
        h.play(BoardRole::Blind, "e2", "e4");
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
        h.take();
        h
    }

    fn apply(h: &mut Hands, input: Input) -> Result<Vec<Event>, TableError> {
        h.t += 1000;
        h.table.apply(h.t, &input)
    }

    fn adjourn(h: &mut Hands, sealed: &str) {
        apply(h, Input::Adjourn { sealed: sealed.into(), session_left_ms: None }).unwrap();
        assert!(h.table.is_adjourned());
        assert_eq!(h.table.sealer(), Some(Side::Black));
    }

    fn game_over(events: &[Event]) -> Option<(String, String)> {
        events.iter().find_map(|e| match e {
            Event::GameOver { result, reason, .. } => Some((result.clone(), reason.clone())),
            _ => None,
        })
    }

    #[test]
    fn i_1_2_adjourning_before_the_session_ends_costs_the_sealer_the_time_left() {
        let mut h = adjournable();
        let t = h.t + 1000;
        let black = h.table.clock().unwrap().remaining(Side::Black, t);
        let white = h.table.clock().unwrap().remaining(Side::White, t);
        let events =
            apply(&mut h, Input::Adjourn { sealed: "c5".into(), session_left_ms: Some(20 * 60_000) })
                .unwrap();
        assert!(events.iter().any(|e| matches!(e,
            Event::ClockChanged { action, side: Some(Side::Black), who: Some(w), .. } if action == "time_set" && w == "arbiter")));
        let clock = h.table.clock().unwrap();
        assert!(!clock.is_running());
        assert_eq!(clock.remaining(Side::Black, h.t), black - 20 * 60_000);
        assert_eq!(clock.remaining(Side::White, h.t), white, "only the sealer's time");
        assert!(!format!("{events:?}").contains("c5"), "the sealed move stays sealed");
    }

    #[test]
    fn i_6_a_draw_agreed_or_a_resignation_before_resumption_ends_the_game_unopened() {
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        let events = apply(&mut h, Input::AcceptDraw).unwrap();
        assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "agreement".into())));
        assert_eq!(h.agreed(), ["e2e4"], "the envelope was never opened");
        assert!(!h.table.is_adjourned());
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        let events = apply(&mut h, Input::Resign { side: Side::White }).unwrap();
        assert_eq!(game_over(&events), Some(("0-1".into(), "resignation".into())));
        assert_eq!(h.agreed(), ["e2e4"]);
    }

    #[test]
    fn i_8_a_sealed_move_that_is_ambiguous_unreadable_or_illegal_loses_when_opened() {
        // After 1.e4 Black seals a move that is not his, nonsense, a pawn that cannot go there.
        for (sealed, reason) in [
            ("Ke2", "sealed_move_illegal"),
            ("blah", "sealed_move_unreadable"),
            ("b4", "sealed_move_illegal"),
        ] {
            let mut h = adjournable();
            adjourn(&mut h, sealed);
            let events = apply(&mut h, Input::ResumeAdjourned).unwrap();
            assert_eq!(game_over(&events), Some(("1-0".into(), reason.into())), "`{sealed}`");
            assert_eq!(h.agreed(), ["e2e4"]);
        }
        // Ambiguous: knights on b1 and f3 could both go to d2.
        let cfg = TableConfig {
            start: Game::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap(),
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
        h.scan(BoardRole::Blind, h.table.config().start.occupancy());
        h.rest();
        apply(&mut h, Input::Adjourn { sealed: "Sd2".into(), session_left_ms: None }).unwrap();
        let events = apply(&mut h, Input::ResumeAdjourned).unwrap();
        assert_eq!(game_over(&events), Some(("0-1".into(), "sealed_move_ambiguous".into())));
    }

    #[test]
    fn i_9_1_both_present_the_sealed_move_is_made_and_the_repliers_clock_runs() {
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        let events = apply(&mut h, Input::ResumeAdjourned).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 2, san, .. } if san == "c5")));
        assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
        let clock = h.table.clock().unwrap();
        assert!(clock.is_running());
        assert_eq!(clock.on_move(), Side::White, "the replier's clock");
    }

    #[test]
    fn i_9_2_the_replier_absent_his_clock_runs_and_the_envelope_waits_for_him() {
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        let white = h.table.clock().unwrap().remaining(Side::White, h.t);
        let events = apply(&mut h, Input::ResumeReplierAbsent).unwrap();
        assert!(!format!("{events:?}").contains("c5"), "not revealed");
        assert!(h.table.is_adjourned());
        let clock = h.table.clock().unwrap();
        assert!(clock.is_running());
        assert_eq!(clock.on_move(), Side::White);
        h.t += 600_000; // he comes ten minutes late
        let events = apply(&mut h, Input::OpenEnvelope).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 2, .. })));
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::White);
        assert!(clock.remaining(Side::White, h.t) <= white - 600_000, "his lateness is on his clock");
        assert_eq!(apply(&mut h, Input::OpenEnvelope), Err(TableError::NotAdjourned));
    }

    #[test]
    fn i_9_3_the_sealer_absent_the_reply_is_sealed_in_a_new_envelope_and_his_clock_runs() {
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        apply(&mut h, Input::ResumeAdjourned).unwrap();
        let black = h.table.clock().unwrap().remaining(Side::Black, h.t);
        let events = apply(&mut h, Input::SealReply { sealed: "Nf3".into() }).unwrap();
        assert!(matches!(events[0], Event::Adjourned { ply: 3, .. }), "{events:?}");
        assert!(!format!("{events:?}").contains("Nf3") && !format!("{events:?}").contains("g1f3"));
        assert_eq!(h.table.sealer(), Some(Side::White));
        assert_eq!(h.table.clock().unwrap().on_move(), Side::Black, "the absent sealer's time runs");
        h.t += 300_000;
        let events = apply(&mut h, Input::OpenEnvelope).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 3, san, .. } if san == "Nf3")));
        assert_eq!(h.agreed(), ["e2e4", "c7c5", "g1f3"]);
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::Black);
        assert!(clock.remaining(Side::Black, h.t) <= black - 300_000);
    }

    #[test]
    fn i_12_1_a_lost_envelope_play_goes_on_from_the_adjourned_position_and_times() {
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        let at = h.table.clock().unwrap().clone();
        let events = apply(&mut h, Input::EnvelopeLost).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::AdjournmentResumed { .. })));
        assert!(!h.table.is_adjourned());
        assert_eq!(h.agreed(), ["e2e4"]);
        let clock = h.table.clock().unwrap();
        assert_eq!(clock.on_move(), Side::Black, "the sealer says and makes his move");
        assert_eq!(clock.remaining(Side::White, h.t), at.remaining(Side::White, h.t));
        assert_eq!(clock.remaining(Side::Black, h.t), at.remaining(Side::Black, h.t - 1000));
    }

    #[test]
    fn i_13_the_clock_is_corrected_before_the_repliers_first_move() {
        let mut h = adjournable();
        adjourn(&mut h, "c5");
        apply(&mut h, Input::ResumeAdjourned).unwrap();
        let cmd = crate::input::ClockCommand::SetTime {
            side: Side::White,
            ms: 3_000_000,
            who: "arbiter".into(),
            why: "Guidelines I.13: the time at the adjournment".into(),
        };
        let events = apply(&mut h, Input::from_clock_command(&cmd)).unwrap();
        assert!(
            events.iter().any(|e| matches!(e, Event::ClockChanged { action, .. } if action == "time_set"))
        );
        assert_eq!(h.table.clock().unwrap().remaining(Side::White, h.t), 3_000_000);
        assert!(h.table.clock().unwrap().is_running());
    }
}
