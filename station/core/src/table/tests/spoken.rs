use super::*;
use crate::clock::Side;
use shakmaty::Role;

fn listening() -> Hands {
    let cfg = TableConfig { announcement_required: true, ..timed_cfg("5400") };
    Hands::with(cfg)
}

fn checked(events: &[Event]) -> Vec<(String, String, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::AnnouncementChecked { said, sensed, matches, .. } => {
                Some((said.to_string(), sensed.to_string(), *matches))
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
        start: Game::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap().into(),
        announcement_required: true,
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut h = Hands::with(cfg);
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
        start: Game::from_fen(fen).unwrap().into(),
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut h = Hands::with(cfg);
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
    // Decided as the rook at once: never said as a queen and corrected.
    let moves: Vec<(String, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameMove { uci, revised, .. } => Some((uci.to_string(), *revised)),
            _ => None,
        })
        .collect();
    assert_eq!(moves, [("a7a8r".to_owned(), false)], "{events:?}");
}
