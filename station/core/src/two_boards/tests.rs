//! Scenario tests, each written from the rule text it checks (FIDE Laws of
//! Chess, Annex D.2.9, /shared/rules/004): "If during a game different
//! positions should arise on the two boards, they shall be corrected with the
//! assistance of the arbiter and by consulting both players' game scores. If
//! the two game scores correspond with each other, the player who has written
//! the correct move but made the wrong one on his board must adjust his
//! position to correspond with the move on the game scores. If the game scores
//! differ, the moves shall be retraced to the point where the two scores agree,
//! and the arbiter shall readjust the clocks accordingly."

use super::*;
use crate::correction::{StepRecord, apply, steps_between};
use shakmaty::uci::UciMove;

struct Table {
    sync: TwoBoards,
    blind: Game,
    mirror: Game,
    t: Millis,
    out: Vec<Event>,
}

impl Table {
    /// The blind player has White; the sighted player's board is sensed.
    fn new() -> Table {
        let cfg = TwoBoardsConfig {
            blind_color: Color::White,
            mirror_sensed: true,
            grace_ms: 30_000,
            opponent_entered: false,
        };
        Table {
            sync: TwoBoards::new(cfg, Game::default()),
            blind: Game::default(),
            mirror: Game::default(),
            t: 0,
            out: Vec::new(),
        }
    }

    fn on(&mut self, role: BoardRole, uci: &str) -> &mut Self {
        self.t += 1000;
        let game = match role {
            BoardRole::Blind => &mut self.blind,
            BoardRole::Mirror => &mut self.mirror,
        };
        let mv = UciMove::from_ascii(uci.as_bytes()).unwrap().to_move(game.position()).unwrap();
        game.push(mv);
        let g = game.clone();
        self.sync.board_record(role, &g, self.t, &mut self.out);
        self
    }

    /// A board whose holder put it right and whose tracker took over the target record.
    fn adopt(&mut self, role: BoardRole) {
        let target = self.sync.target_for(role).expect("a target");
        match role {
            BoardRole::Blind => self.blind = target.clone(),
            BoardRole::Mirror => self.mirror = target.clone(),
        }
        self.t += 1000;
        self.sync.board_record(role, &target, self.t, &mut self.out);
    }

    fn both(&mut self, uci: &str) -> &mut Self {
        let mover = self.sync.owner(self.sync.agreed().position().turn());
        let other = if mover == BoardRole::Blind { BoardRole::Mirror } else { BoardRole::Blind };
        self.on(mover, uci).on(other, uci)
    }

    fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.out)
    }
}

fn discrepancies(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|e| matches!(e, Event::Discrepancy { .. })).collect()
}

fn agreed_ucis(sync: &TwoBoards) -> Vec<String> {
    sync.agreed().moves().iter().map(|m| sync.agreed().uci(*m)).collect()
}

#[test]
fn d_2_9_moves_come_from_their_owners_board_and_are_announced_once() {
    let mut t = Table::new();
    t.both("e2e4").both("e7e5").both("g1f3");
    let announced: Vec<_> = t
        .take()
        .into_iter()
        .filter_map(|e| match e {
            Event::GameMove { uci, by, .. } => Some((uci, by)),
            _ => None,
        })
        .collect();
    assert_eq!(
        announced,
        [
            ("e2e4".into(), BoardRole::Blind),
            ("e7e5".into(), BoardRole::Mirror),
            ("g1f3".into(), BoardRole::Blind)
        ]
    );
    assert!(!t.sync.has_open_discrepancy());
}

#[test]
fn d_2_9_records_agree_so_the_blind_player_who_executed_wrongly_corrects_his_board() {
    let mut t = Table::new();
    t.both("e2e4");
    // The sighted player plays Nc6; the blind player executes it as Na6.
    t.on(BoardRole::Mirror, "b8c6").on(BoardRole::Blind, "b8a6");
    let events = t.take();
    let d = discrepancies(&events);
    assert_eq!(d.len(), 1);
    let Event::Discrepancy { id, kind, board, agreed_ply, fix, clock_proposal, .. } = d[0] else {
        unreachable!()
    };
    assert_eq!((*kind, *board, *agreed_ply), (DiscrepancyKind::Execution, Some(BoardRole::Blind), 2));
    assert!(clock_proposal.is_none(), "the clocks are not touched when only a board is wrong");
    assert_eq!(fix.len(), 1);
    assert_eq!(
        fix[0].steps,
        [StepRecord {
            action: "move".into(),
            piece: "n".into(),
            from: Some("a6".into()),
            to: Some("c6".into())
        }]
    );
    assert!(t.sync.has_open_discrepancy(), "the game waits until his board is right");
    assert_eq!(
        agreed_ucis(&t.sync),
        ["e2e4", "b8c6"],
        "the record follows the announcement, not the wrong board"
    );
    // He puts the knight from a6 to c6: his tracker revises the move.
    t.blind.pop();
    t.on(BoardRole::Blind, "b8c6");
    assert!(t.take().contains(&Event::DiscrepancyResolved { id: *id, t_ms: t.t }));
    assert!(!t.sync.has_open_discrepancy());
}

#[test]
fn d_2_9_records_agree_so_the_sighted_player_who_executed_wrongly_corrects_his_board() {
    let mut t = Table::new();
    // The blind player plays e4; the sighted player executes it as e3.
    t.on(BoardRole::Blind, "e2e4").on(BoardRole::Mirror, "e2e3");
    let events = t.take();
    let d = discrepancies(&events);
    let Event::Discrepancy { kind, board, fix, .. } = d[0] else { panic!("{events:?}") };
    assert_eq!((*kind, *board), (DiscrepancyKind::Execution, Some(BoardRole::Mirror)));
    assert_eq!(fix[0].steps[0].from.as_deref(), Some("e3"));
    assert_eq!(fix[0].steps[0].to.as_deref(), Some("e4"));
    t.mirror.pop();
    t.on(BoardRole::Mirror, "e2e4");
    assert!(t.take().iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })));
}

#[test]
fn d_2_9_a_board_that_has_not_executed_the_move_is_reminded_after_the_grace_time() {
    let mut t = Table::new();
    t.on(BoardRole::Blind, "e2e4");
    t.take();
    t.sync.tick(t.t + 29_000, &mut t.out);
    assert!(discrepancies(&t.out).is_empty(), "within the grace time");
    t.sync.tick(t.t + 30_000, &mut t.out);
    let events = t.take();
    let Event::Discrepancy { board, fix, .. } = discrepancies(&events)[0] else { unreachable!() };
    assert_eq!(*board, Some(BoardRole::Mirror));
    assert_eq!(fix[0].steps[0].to.as_deref(), Some("e4"));
    t.sync.tick(t.t + 90_000, &mut t.out);
    assert!(discrepancies(&t.take()).is_empty(), "reminded once");
    t.on(BoardRole::Mirror, "e2e4");
    assert!(t.take().iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })));
}

#[test]
fn d_2_9_records_differ_so_both_boards_go_back_to_where_they_agree_and_the_clocks_are_proposed() {
    let mut t = Table::new();
    t.sync.record_clock(0, 5_400_000, 5_400_000);
    t.both("e2e4");
    t.sync.record_clock(1, 5_390_000, 5_400_000);
    t.both("e7e5");
    t.sync.record_clock(2, 5_390_000, 5_380_000);
    t.both("g1f3").both("b8c6");
    t.take();
    // The sighted player's scoresheet says 2... d5, not 2... e5 (several moves back).
    let mut sheet = Game::default();
    for m in ["e2e4", "d7d5"] {
        sheet.push_uci(m).unwrap();
    }
    t.sync.scoresheet(sheet.moves(), t.t, &mut t.out);
    let events = t.take();
    let d = discrepancies(&events);
    let Event::Discrepancy { id, kind, board, agreed_ply, fix, clock_proposal, .. } = d[0] else {
        unreachable!()
    };
    assert_eq!((*kind, *board, *agreed_ply), (DiscrepancyKind::Records, None, 1));
    assert_eq!(*clock_proposal, Some(ClockProposal { ply: 1, white_ms: 5_390_000, black_ms: 5_400_000 }));
    assert_eq!(fix.len(), 2, "each board gets its steps");
    for f in fix {
        assert!(!f.steps.is_empty());
    }
    assert_eq!(t.sync.rewind_target(), Some(1));
    // No new move is accepted while going back.
    t.on(BoardRole::Blind, "d2d4");
    assert!(!t.take().iter().any(|e| matches!(e, Event::GameMove { .. })));
    t.blind.pop();
    // Both boards set up the position after 1. e4 and their trackers take it over.
    t.adopt(BoardRole::Blind);
    assert!(t.sync.has_open_discrepancy(), "the other board is not back yet");
    t.adopt(BoardRole::Mirror);
    assert!(t.take().contains(&Event::DiscrepancyResolved { id: *id, t_ms: t.t }));
    assert_eq!(agreed_ucis(&t.sync), ["e2e4"]);
    // Play continues from there.
    t.both("d7d5");
    assert_eq!(agreed_ucis(&t.sync), ["e2e4", "d7d5"]);
}

#[test]
fn d_2_9_a_scoresheet_that_only_lags_behind_is_not_a_discrepancy() {
    let mut t = Table::new();
    t.both("e2e4").both("e7e5");
    let mut sheet = Game::default();
    sheet.push_uci("e2e4").unwrap();
    t.sync.scoresheet(sheet.moves(), t.t, &mut t.out);
    assert!(discrepancies(&t.take()).is_empty());
}

#[test]
fn d_2_9_both_boards_wrong_at_once_each_gets_its_own_steps() {
    let mut t = Table::new();
    t.both("e2e4").both("e7e5");
    t.take();
    // The blind player plays Nf3; the sighted player executes Nh3; meanwhile a
    // black pawn on the blind board got pushed to d6 by mistake (his tracker saw d7d6 … as
    // its own record we model the wrong state directly).
    t.on(BoardRole::Blind, "g1f3").on(BoardRole::Mirror, "g1h3");
    let mut sheet = Game::default();
    for m in ["e2e4", "c7c5"] {
        sheet.push_uci(m).unwrap();
    }
    t.sync.scoresheet(sheet.moves(), t.t, &mut t.out);
    let events = t.take();
    let records: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, Event::Discrepancy { kind: DiscrepancyKind::Records, .. }))
        .collect();
    let Event::Discrepancy { fix, agreed_ply, .. } = records[0] else { unreachable!() };
    assert_eq!(*agreed_ply, 1);
    let blind_steps = &fix.iter().find(|f| f.board == BoardRole::Blind).unwrap().steps;
    let mirror_steps = &fix.iter().find(|f| f.board == BoardRole::Mirror).unwrap().steps;
    assert_ne!(blind_steps, mirror_steps, "the two boards are wrong in different ways");
    t.adopt(BoardRole::Blind);
    t.adopt(BoardRole::Mirror);
    assert!(!t.sync.has_open_discrepancy(), "{:?}", t.take());
}

#[test]
fn correction_steps_really_produce_the_agreed_position() {
    let mut wrong = Game::default();
    for m in ["e2e4", "b8a6"] {
        wrong.push_uci(m).unwrap();
    }
    let mut right = Game::default();
    for m in ["e2e4", "b8c6"] {
        right.push_uci(m).unwrap();
    }
    let steps = steps_between(wrong.position().board(), right.position().board());
    assert_eq!(&apply(wrong.position().board(), &steps), right.position().board());
}

#[test]
fn without_a_sensed_mirror_the_peg_board_makes_both_sides_moves() {
    let cfg = TwoBoardsConfig {
        blind_color: Color::Black,
        mirror_sensed: false,
        grace_ms: 30_000,
        opponent_entered: false,
    };
    let mut sync = TwoBoards::new(cfg, Game::default());
    let mut g = Game::default();
    let mut out = Vec::new();
    for (i, m) in ["e2e4", "c7c5"].iter().enumerate() {
        g.push_uci(m).unwrap();
        sync.board_record(BoardRole::Blind, &g, i as u64, &mut out);
        // A mirror that is not sensed is ignored.
        sync.board_record(BoardRole::Mirror, &Game::default(), i as u64, &mut out);
    }
    assert_eq!(agreed_ucis(&sync), ["e2e4", "c7c5"]);
    assert!(discrepancies(&out).is_empty());
}

#[test]
fn one_board_caught_up_by_several_plies_at_once_agrees_every_one() {
    // One sensed board (the opponent's moves executed on it too): its tracker
    // decided a capture and its recapture together; both are the game's moves.
    let cfg = TwoBoardsConfig {
        blind_color: Color::White,
        mirror_sensed: false,
        grace_ms: 30_000,
        opponent_entered: false,
    };
    let mut sync = TwoBoards::new(cfg, Game::default());
    let mut game = Game::default();
    let mut out = Vec::new();
    for uci in ["e2e4", "d7d5"] {
        let mv = UciMove::from_ascii(uci.as_bytes()).unwrap().to_move(game.position()).unwrap();
        game.push(mv);
    }
    sync.board_record(BoardRole::Blind, &game, 1000, &mut out);
    for uci in ["e4d5", "d8d5"] {
        let mv = UciMove::from_ascii(uci.as_bytes()).unwrap().to_move(game.position()).unwrap();
        game.push(mv);
    }
    sync.board_record(BoardRole::Blind, &game, 2000, &mut out);
    let agreed: Vec<usize> = out
        .iter()
        .filter_map(|e| if let Event::GameMove { ply, .. } = e { Some(*ply) } else { None })
        .collect();
    assert_eq!(agreed, [1, 2, 3, 4]);
    assert_eq!(sync.agreed().ply(), 4);
}
