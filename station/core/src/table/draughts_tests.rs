//! Draughts through the table's one reducer: scans, entered moves, the
//! clock, irregularities and the journal restore, named after the articles.

use super::tests::taken_back_plies;
use super::{Phase, Table, TableConfig, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::draughts::board::{Position, Variant};
use crate::draughts::movegen::legal_moves;
use crate::draughts::moves::Move;
use crate::draughts::pdn::{find_move, read_games};
use crate::event::{BoardRole, Event};
use crate::inference::TrackerConfig;
use crate::input::Input;
use crate::journal::{Contents, Header, Record};
use crate::pgn::SevenTags;

const V: Variant = Variant::International;

fn shared_games() -> Vec<crate::draughts::pdn::PdnGame> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/draughts/selfplay-international.pdn");
    let text = std::fs::read_to_string(path).expect("the shared draughts games (tests/data/draughts)");
    read_games(&text).expect("the shared games read")
}

fn cfg(mirror_sensed: bool) -> TableConfig {
    TableConfig { mirror_sensed, ..TableConfig::single(TrackerConfig::default()) }
}

/// A table fed by hand, every input journaled like the daemon does.
struct Hand {
    table: Table,
    t: Millis,
    events: Vec<Event>,
    inputs: Vec<(Millis, Input)>,
    occ: [u64; 2],
    /// The table as the game started (what the journal's header records).
    at_start: Option<Table>,
}

impl Hand {
    fn new(table: Table, boards: usize) -> Hand {
        let mut h =
            Hand { table, t: 1000, events: Vec::new(), inputs: Vec::new(), occ: [0; 2], at_start: None };
        let start = Position::initial(V).occupied();
        for role in [BoardRole::Blind, BoardRole::Mirror].into_iter().take(boards) {
            h.scan(role, start);
        }
        h.wait(400);
        assert_eq!(h.table.phase(), Phase::Playing, "the initial position starts a game");
        h.at_start = Some(h.table.clone());
        h
    }

    fn input(&mut self, input: Input) -> Result<(), TableError> {
        self.inputs.push((self.t, input.clone()));
        let out = self.table.apply(self.t, &input)?;
        self.events.extend(out);
        Ok(())
    }

    fn scan(&mut self, role: BoardRole, occ: u64) {
        self.t += 60;
        self.occ[slot(role)] = occ;
        self.input(Input::scan50(role, occ)).expect("a 13-digit scan");
    }

    fn wait(&mut self, ms: Millis) {
        self.t += ms;
        self.input(Input::Tick).unwrap();
    }

    /// A hand makes `mv` on a board (4.9 landing squares touched, 4.11
    /// removals in capture order or reverse) and the board settles.
    fn play(&mut self, role: BoardRole, mv: &Move, reverse: bool) {
        let mut occ = self.occ[slot(role)];
        occ &= !mv.from.bit();
        self.scan(role, occ);
        for sq in mv.intermediate() {
            self.scan(role, occ | sq.bit());
            self.scan(role, occ);
        }
        occ |= mv.to.bit();
        self.scan(role, occ);
        let mut captured = mv.captured.clone();
        if reverse {
            captured.reverse();
        }
        for sq in captured {
            occ &= !sq.bit();
            self.scan(role, occ);
        }
        self.wait(400);
    }

    fn game_moves(&self) -> Vec<(usize, String)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::GameMove { ply, pdn: Some(p), .. } => Some((*ply, p.to_string())),
                _ => None,
            })
            .collect()
    }

    fn irregularities(&self) -> Vec<(String, bool)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Irregularity { article, decision_wanted, .. } => {
                    Some((article.clone(), *decision_wanted))
                }
                _ => None,
            })
            .collect()
    }
}

/// The journal of what `h` was fed (from the game's start) restored.
fn restore(h: &Hand) -> crate::journal::Restored {
    let started = h.events.iter().find_map(|e| match e {
        Event::GameStarted { t_ms, .. } => Some(*t_ms),
        _ => None,
    });
    let at_start = h.at_start.as_ref().expect("a game started");
    let header =
        Header::of_table(at_start, "game-1", &at_start.start_fen(), started.unwrap(), SevenTags::default());
    let mut records: Vec<Record> = Vec::new();
    let first = h.inputs.iter().position(|(t, _)| *t >= started.unwrap()).unwrap_or(h.inputs.len());
    for (seq, (t, input)) in h.inputs.iter().enumerate().skip(first) {
        records.push(Record::Input { seq: seq as u64, t_ms: *t, input: input.clone() });
    }
    for (seq, e) in h.events.iter().enumerate() {
        if matches!(e, Event::GameMove { .. }) {
            records.push(Record::Event { seq: 100_000 + seq as u64, event: e.clone() });
        }
    }
    crate::journal::restore(&Contents { header, records, valid_len: 0, torn_tail: false }).unwrap()
}

fn slot(role: BoardRole) -> usize {
    match role {
        BoardRole::Blind => 0,
        BoardRole::Mirror => 1,
    }
}

fn draughts_table(mirror: bool) -> Table {
    Table::new(cfg(mirror)).with_draughts(V)
}

/// VIII.1.3, VIII.2.4: one peg board (the blind player, White) and the sighted
/// player's moves entered at the console; the blind player executes both
/// sides' moves. A whole shared game, captures removed in both orders (4.11),
/// kings made (3.7): the agreed record is the game, every `move` and
/// `game_move` carries its PDN and ply, and the journal's inputs restore it.
#[test]
fn viii_2_4_a_shared_game_on_one_peg_board_with_entered_replies_is_the_record() {
    let games = shared_games();
    let game = games
        .iter()
        .find(|g| g.moves.iter().any(|m| m.promotes) && g.moves.len() > 60)
        .expect("a game with a king");
    let mut h = Hand::new(draughts_table(false), 1);
    let positions = game.positions();
    for (i, mv) in game.moves.iter().enumerate() {
        let text = mv.pdn(V, true);
        if i % 2 == 1 {
            h.input(Input::EnterMove { mv: text.clone() }).unwrap();
        }
        h.play(BoardRole::Blind, mv, i % 4 < 2);
        assert_eq!(h.table.draughts().unwrap().ply(), i + 1, "ply {} ({text}) agreed", i + 1);
        assert_eq!(h.table.draughts().unwrap().position(), &positions[i + 1]);
        if h.table.phase() != Phase::Playing {
            break;
        }
    }
    let agreed: Vec<String> = h.game_moves().into_iter().map(|(_, p)| p).collect();
    let expected: Vec<String> = game.moves.iter().map(|m| m.pdn(V, true)).collect();
    assert_eq!(agreed, expected[..agreed.len()]);
    assert_eq!(agreed.len(), expected.len(), "the whole game was played");
    for e in &h.events {
        if let Event::Move { ply, pdn, .. } = e {
            assert_eq!(
                pdn.as_ref().map(ToString::to_string).as_ref(),
                Some(&expected[ply - 1]),
                "the board's move {ply}"
            );
        }
    }
    assert!(h.irregularities().is_empty(), "a regular game names no irregularity: {:?}", h.irregularities());

    // The journal: the same inputs restore the same record.
    let restored = restore(&h);
    assert!(restored.reproduced, "{:?}", restored.damage);
    assert_eq!(
        restored.table.record_moves().unwrap().iter().map(ToString::to_string).collect::<Vec<_>>(),
        expected
    );
}

/// 5.4.6 / 5.9: a quiet move while a capture was compulsory is named to both
/// players with the decision asked; `correct` says what to put back and the
/// board put back is the game again; then `accept` of the same irregularity
/// makes the board's position the game's (5.7) and play goes on from it.
#[test]
fn irregularity_5_4_6_capture_omitted_named_corrected_then_accepted() {
    let mut h = Hand::new(draughts_table(false), 1);
    // 1. 32-28 19-23: White must take 28x19.
    for text in ["32-28", "19-23"] {
        let mv = find_move(h.table.draughts().unwrap().position(), text).unwrap().unwrap();
        if text == "19-23" {
            h.input(Input::EnterMove { mv: text.into() }).unwrap();
        }
        h.play(BoardRole::Blind, &mv, false);
    }
    assert_eq!(h.table.draughts().unwrap().ply(), 2);
    let pos = *h.table.draughts().unwrap().position();
    let quiet = Move { from: sq(31), to: sq(27), path: vec![], captured: vec![], promotes: false };
    h.play(BoardRole::Blind, &quiet, false);
    assert_eq!(h.irregularities(), vec![("5.4.6".to_string(), true)]);
    // The structured facts any language words: the case, the move, the counts, the fixes.
    let facts = h.events.iter().find_map(|e| match e {
        Event::Irregularity { kind, moves, ply, required, taken, fixes, .. } => {
            Some((kind.clone(), moves.clone(), *ply, *required, *taken, fixes.clone()))
        }
        _ => None,
    });
    let put = |square: &str| crate::PieceFix {
        action: "put".into(),
        square: square.into(),
        color: Some("white".into()),
        piece: Some("man".into()),
    };
    let remove = |square: &str| crate::PieceFix {
        action: "remove".into(),
        square: square.into(),
        color: None,
        piece: None,
    };
    assert_eq!(
        facts.unwrap(),
        (
            "capture_omitted".to_string(),
            vec!["31-27".into()],
            Some(3),
            Some(1),
            Some(0),
            vec![remove("27"), put("31")]
        )
    );
    assert_eq!(h.table.draughts().unwrap().ply(), 2, "never decided as a move");
    h.input(Input::IrregularityDecision { decision: "correct".into() }).unwrap();
    let steps = h.events.iter().find_map(|e| match e {
        Event::IrregularityDecided { decision, steps, .. } if decision == "correct" => Some(steps.clone()),
        _ => None,
    });
    assert_eq!(
        steps.unwrap(),
        vec!["take the piece off 27".to_string(), "put a white man on 31".to_string()]
    );
    // Put back: the board is the game again.
    h.scan(BoardRole::Blind, pos.occupied());
    h.wait(400);
    assert!(h.events.iter().any(|e| matches!(e, Event::BoardRestored { .. })));
    // Again, and this time the opponent lets it stand.
    h.play(BoardRole::Blind, &quiet, false);
    h.input(Input::IrregularityDecision { decision: "accept".into() }).unwrap();
    let d = h.table.draughts().unwrap();
    assert_eq!(d.ply(), 3);
    assert_eq!(d.position().occupied(), h.occ[0], "the board's position is the game's");
    assert_eq!(d.to_move(), Side::Black);
    assert_eq!(h.game_moves().last().unwrap(), &(3, "31-27".to_string()));
    // Nothing left to decide.
    assert!(h.input(Input::IrregularityDecision { decision: "accept".into() }).is_err());
}

/// VIII.3.1: the blind player executes his opponent's entered move wrongly;
/// the board is named with what puts it right, and once put right it
/// follows the game again.
#[test]
fn viii_3_1_an_entered_move_executed_wrongly_is_named_and_recovered() {
    let mut h = Hand::new(draughts_table(false), 1);
    let pos0 = *h.table.draughts().unwrap().position();
    let w = find_move(&pos0, "32-28").unwrap().unwrap();
    h.play(BoardRole::Blind, &w, false);
    h.input(Input::EnterMove { mv: "19-23".into() }).unwrap();
    let pos1 = *h.table.draughts().unwrap().position();
    let wrong = find_move(&w.apply(&pos0), "19-24").unwrap().unwrap();
    h.play(BoardRole::Blind, &wrong, false);
    let named = h.events.iter().find_map(|e| match e {
        Event::Irregularity { article, steps, .. } if article == "VIII.3.1" => Some(steps.clone()),
        _ => None,
    });
    let facts = h.events.iter().find_map(|e| match e {
        Event::Irregularity { article, kind, moves, ply, fixes, .. } if article == "VIII.3.1" => {
            Some((kind.clone(), moves.clone(), *ply, fixes.len()))
        }
        _ => None,
    });
    assert_eq!(
        facts.unwrap(),
        ("boards_differ".to_string(), vec!["19-24".into(), "19-23".into()], Some(2), 2)
    );
    assert_eq!(
        named.unwrap(),
        vec!["take the piece off 24".to_string(), "put a black man on 23".to_string()]
    );
    // Put right: 24 back to 19 and then 19-23 as entered.
    let mut occ = h.occ[0] & !sq(24).bit() | sq(19).bit();
    h.scan(BoardRole::Blind, occ);
    occ = occ & !sq(19).bit() | sq(23).bit();
    h.scan(BoardRole::Blind, occ);
    h.wait(400);
    assert_eq!(occ, pos1.occupied());
    let restored = h.events.iter().rev().take_while(|e| !matches!(e, Event::Irregularity { .. }));
    assert!(restored.into_iter().any(|e| matches!(e, Event::BoardRestored { board: BoardRole::Blind, .. })));
    // The game goes on: White's next move is decided from the board.
    let next = find_move(&pos1, "28x19").unwrap().unwrap();
    h.play(BoardRole::Blind, &next, false);
    assert_eq!(h.table.draughts().unwrap().ply(), 3);
}

/// Two peg boards with the FMJD clock (80 min + 1 min a move), pressed by
/// the station for each mover, and the first `moves` moves of the first
/// shared game played: each made on its owner's board (White's on the blind
/// player's), which decides it, then executed on the other.
fn fmjd_two_peg_boards_after(moves: usize) -> Hand {
    let tc = crate::draughts::time_controls::FmjdTimeControl::Basic.time_control();
    let cfg = TableConfig { time_control: Some(tc), clock_auto_press: true, ..cfg(true) };
    let mut h = Hand::new(Table::new(cfg).with_draughts(V), 2);
    let game = &shared_games()[0];
    for (i, mv) in game.moves.iter().take(moves).enumerate() {
        let (owner, other) = if i.is_multiple_of(2) {
            (BoardRole::Blind, BoardRole::Mirror)
        } else {
            (BoardRole::Mirror, BoardRole::Blind)
        };
        h.play(owner, mv, false);
        assert_eq!(h.table.draughts().unwrap().ply(), i + 1, "the owner's board decides the move");
        h.play(other, mv, true);
    }
    h
}

/// Two peg boards (two blind players): each side's moves come from its
/// owner's board, the other executes them; the clock is pressed for each
/// mover (FMJD 80 min + 1 min a move).
#[test]
fn viii_1_3_two_peg_boards_one_game_with_the_fmjd_clock() {
    let h = fmjd_two_peg_boards_after(12);
    let presses = h.events.iter().filter(|e| matches!(e, Event::ClockPressed { .. })).count();
    assert_eq!(presses, 12, "one press a move");
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.moves_made(Side::White), 6);
    assert!(h.irregularities().is_empty());
    // Both boards are in the journal's header: the restore follows both again.
    let restored = restore(&h);
    assert!(restored.reproduced, "{:?}", restored.damage);
    assert_eq!(restored.table.record_moves(), h.table.record_moves());
    assert_eq!(restored.table.sensed(BoardRole::Mirror), h.table.sensed(BoardRole::Mirror));
}

/// VIII.5.1: on request, the time *used* by both players and the number of
/// moves: the table's clock keeps both for a draughts game as for chess —
/// the time each clock ran (not what is left), one move counted a press.
#[test]
fn viii_5_1_time_used_and_moves_made_are_known_for_both_players() {
    let h = fmjd_two_peg_boards_after(6);
    let clock = h.table.clock().unwrap();
    let (white, black) = (clock.time_used(Side::White, h.t), clock.time_used(Side::Black, h.t));
    assert_eq!((clock.moves_made(Side::White), clock.moves_made(Side::Black)), (3, 3));
    // Both clocks ran, one at a time, never longer than the game has lasted
    // (increments add to what is left, never to what is used).
    assert!(white > 0 && black > 0, "{white} {black}");
    assert!(white + black <= h.t, "{white} + {black} within {}", h.t);
    let left = clock.remaining(Side::White, h.t);
    assert_eq!(left, 80 * 60_000 + 3 * 60_000 - white, "80 min + 1 min a move, minus what he used");
}

/// VIII.3.1.1 and VIII.3.1.2: a player's scoresheet compared with the game.
/// Agreeing as far as both go, nothing changes (the positions are corrected
/// from the records: the boards are told already). Differing from move 3,
/// the game goes back to the last position both records agree on: the later
/// plies are taken back, the peg board is told square by square, and once it
/// shows that position play goes on from it.
#[test]
fn viii_3_1_1_and_3_1_2_records_compared_and_the_game_back_where_they_agree() {
    let mut h = Hand::new(draughts_table(false), 1);
    let game = &shared_games()[0];
    let mut pos = Position::initial(V);
    let mut positions = vec![pos];
    // The blind player (White) on his peg board; Black's replies entered and executed by him.
    for (i, mv) in game.moves.iter().take(4).enumerate() {
        if i % 2 == 1 {
            h.input(Input::EnterMove { mv: mv.pdn(V, true) }).unwrap();
        }
        h.play(BoardRole::Blind, mv, false);
        pos = mv.apply(&pos);
        positions.push(pos);
    }
    assert_eq!(h.table.draughts().unwrap().ply(), 4);
    let texts: Vec<String> = game.moves.iter().map(|m| m.pdn(V, true)).collect();
    // 3.1.1: the same record (and a shorter one) changes nothing.
    let before = h.events.len();
    h.input(Input::Scoresheet { moves: texts[..4].to_vec() }).unwrap();
    h.input(Input::Scoresheet { moves: texts[..2].to_vec() }).unwrap();
    assert_eq!(h.events.len(), before, "{:?}", &h.events[before..]);
    // 3.1.2: his sheet has another third move.
    let other = legal_moves(&positions[2])
        .into_iter()
        .find(|m| !m.same_effect(&game.moves[2]))
        .expect("another legal move");
    let sheet = vec![texts[0].clone(), texts[1].clone(), other.pdn(V, true)];
    let before = h.events.len();
    h.input(Input::Scoresheet { moves: sheet }).unwrap();
    let events = h.events[before..].to_vec();
    let taken = taken_back_plies(&events);
    assert_eq!(taken, [4, 3], "the plies after the agreed position taken back, last first");
    assert!(
        events.iter().any(|e| matches!(e, Event::Irregularity { article, kind, ply: Some(3), fixes, .. }
            if article == "VIII.3.1.2" && kind == "records_differ" && !fixes.is_empty())),
        "{events:?}"
    );
    assert_eq!(h.table.draughts().unwrap().ply(), 2);
    assert_eq!(h.table.draughts().unwrap().position(), &positions[2]);
    // The board set back to the agreed position: it follows the game again.
    h.scan(BoardRole::Blind, positions[2].occupied());
    h.wait(400);
    assert!(
        h.events[before..].iter().any(|e| matches!(e, Event::BoardRestored { board: BoardRole::Blind, .. }))
    );
    h.play(BoardRole::Blind, &game.moves[2], false);
    assert_eq!(h.table.draughts().unwrap().ply(), 3);
    // An illegal sheet is refused by name, the record untouched.
    let err = h.input(Input::Scoresheet { moves: vec!["1-2".into()] }).unwrap_err();
    assert!(err.to_string().contains("move 1"), "{err}");
    assert_eq!(h.table.draughts().unwrap().ply(), 3);
}

/// Bad input: a 13-digit scan while chess is configured, a 16-digit one while
/// draughts is, bits beyond square 50, an illegal entered move: each a clear
/// error naming it, the record untouched.
#[test]
fn bad_scans_and_an_illegal_move_are_refused_by_name() {
    let mut chess = Table::new(cfg(false));
    let err = chess.apply(10, &Input::scan50(BoardRole::Blind, 0x3_FFFF_FFFF_FFFF)).unwrap_err();
    assert!(err.to_string().contains("13-digit draughts scan"), "{err}");
    let mut h = Hand::new(draughts_table(false), 1);
    let err = h.input(Input::scan(BoardRole::Blind, shakmaty::Bitboard(0xFFFF))).unwrap_err();
    assert!(err.to_string().contains("16-digit scan while the game is international draughts"), "{err}");
    let err = h.input(Input::scan50(BoardRole::Blind, 0x4_0000_0000_0000)).unwrap_err();
    assert!(err.to_string().contains("beyond 50"), "{err}");
    let err = h.input(Input::EnterMove { mv: "32-27x".into() }).unwrap_err();
    assert!(matches!(err, TableError::IllegalMove { ply: 1, .. }), "{err}");
    let err = h.input(Input::EnterMove { mv: "19-23".into() }).unwrap_err();
    assert!(
        matches!(err, TableError::IllegalMove { ply: 1, .. }),
        "Black's move when White is to move: {err}"
    );
    assert_eq!(h.table.draughts().unwrap().ply(), 0);
    assert!(h.game_moves().is_empty());
}

fn sq(n: u8) -> crate::draughts::board::Square {
    V.square(n).unwrap()
}

/// The 64-square version (2.1–2.8, "W wersji 64"): the ordinary 16-digit scan
/// (a1 = bit 0 … h8 = bit 63) read as the 8×8 draughts board, moves named a1–h8.
#[test]
fn draughts64_reads_the_ordinary_scan_and_names_squares_a1_h8() {
    let v = Variant::Draughts64;
    // A square's chess bit from its name alone: file + 8 × (rank − 1).
    let bit = |name: &str| {
        let b = name.as_bytes();
        1u64 << (u32::from(b[0] - b'a') + 8 * u32::from(b[1] - b'1'))
    };
    let chess_occ = |pos: &Position| {
        crate::draughts::board::squares(pos.occupied()).map(|sq| bit(&v.name(sq))).sum::<u64>()
    };
    let mut table = Table::new(cfg(false)).with_draughts(v);
    let start = Position::initial(v);
    let scan = |occ: u64| Input::scan(BoardRole::Blind, shakmaty::Bitboard(occ));
    let started = table.apply(100, &scan(chess_occ(&start))).unwrap();
    assert!(started.iter().any(|e| matches!(e, Event::GameStarted { .. })), "{started:?}");
    let mv = find_move(&start, "c3-d4").unwrap().expect("c3-d4 is White's first move");
    let after = mv.apply(&start);
    let mut events = table.apply(600, &scan(chess_occ(&start) & !bit("c3"))).unwrap();
    events.extend(table.apply(700, &scan(chess_occ(&after))).unwrap());
    events.extend(table.apply(1100, &Input::Tick).unwrap());
    let agreed: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameMove { pdn: Some(p), .. } => Some(p.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(agreed, ["c3-d4"]);
    let err = table.apply(1200, &Input::scan50(BoardRole::Blind, 0x3_FFFF_FFFF_FFFF)).unwrap_err();
    assert!(err.to_string().contains("13-digit scan while the game is 64-square draughts"), "{err}");
}

/// 7.2.2–7.2.3 and 6.1–6.4 through the table: every shared game entered
/// move by move is accepted until it ends, and it ends either at its last
/// move with the recorded result or, earlier, where the code declares it
/// drawn (article 6: "the game is considered drawn"), `1-1` with the draw's
/// reason; the self-play records play on past such a draw, the live table
/// does not (it refuses the next move). Game 10 passes a 6.4 ending.
#[test]
fn i_6_1_to_6_4_and_7_2_every_shared_game_entered_ends_at_its_end_or_its_draw() {
    let (mut ended, mut drawn) = (0, 0);
    for (n, game) in shared_games().iter().enumerate() {
        let mut h = Hand::new(draughts_table(false), 1);
        let mut over_at = None;
        for (i, mv) in game.moves.iter().enumerate() {
            if h.table.phase() != Phase::Playing {
                over_at = Some(i);
                assert!(h.input(Input::EnterMove { mv: mv.pdn(V, true) }).is_err(), "game {}: ended", n + 1);
                break;
            }
            h.input(Input::EnterMove { mv: mv.pdn(V, true) }).unwrap();
        }
        let over = h.events.iter().find_map(|e| match e {
            Event::GameOver { result, reason, .. } => Some((result.clone(), reason.clone())),
            _ => None,
        });
        let draw = h.table.draughts().unwrap().draw();
        match (over, over_at) {
            (Some((result, reason)), Some(at)) => {
                // Ended before the record's end: only a draw of article 6 does that.
                let draw = draw.unwrap_or_else(|| panic!("game {} ended at move {at} without a draw", n + 1));
                assert_eq!(result, "1-1", "game {}", n + 1);
                let expected = match draw.article() {
                    "6.1" => "threefold_repetition",
                    "6.2" => "king_moves",
                    "6.3" => "long_ending",
                    _ => "short_ending",
                };
                assert_eq!(reason, expected, "game {}", n + 1);
                assert_eq!(h.table.draughts().unwrap().ply(), at);
                drawn += 1;
            }
            (Some((result, _)), None) => {
                // A file's `*` (result not written) agrees with any end.
                if game.tag("Result") != Some("*") && draw.is_none() {
                    assert_eq!(Some(result.as_str()), game.tag("Result"), "game {}", n + 1);
                }
                ended += 1;
            }
            (None, Some(at)) => panic!("game {} stopped at move {at} without an end", n + 1),
            (None, None) => assert!(draw.is_none(), "game {}: a draw reached and not ended on", n + 1),
        }
    }
    assert!(ended > 0, "some shared games end on the board");
    assert!(drawn > 0, "some shared games reach a draw of article 6 (game 10: 6.4)");
}

/// VIII 7.2 (a game won scores 2 points): a resignation in a draughts game
/// is written `0-2` or `2-0`, never chess's `0-1`, and the record keeps it.
#[test]
fn a_resignation_in_draughts_is_scored_in_draughts_points() {
    for (side, result) in [(Side::White, "0-2"), (Side::Black, "2-0")] {
        let mut h = Hand::new(draughts_table(false), 1);
        h.t += 1000;
        h.input(Input::Resign { side }).expect("a game is in progress");
        let over: Vec<&str> = h
            .events
            .iter()
            .filter_map(|e| match e {
                Event::GameOver { result, reason, .. } if reason == "resignation" => Some(result.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(over, [result], "{side:?} resigned");
        assert_eq!(h.table.phase(), Phase::Finished);
        assert_eq!(h.table.record().map(|r| r.result()), Some(result));
    }
}

/// A new draughts game at the arbiter's word: the game in progress ends `*`,
/// the next starts at once from the initial position with the tags named for
/// it; a start of chess's (a FEN, a scoresheet) and chess's own rulings
/// (a sealed move, a draw claim, an illegal move found) are refused by name.
#[test]
fn a_new_draughts_game_starts_from_the_initial_position_and_chess_rulings_are_refused() {
    let mut h = Hand::new(draughts_table(false), 1);
    let first = h.table.game_id().map(str::to_owned);
    h.t += 1000;
    let tags = crate::pgn::TagOverrides { white: Some("Anna".into()), ..Default::default() };
    h.events.clear();
    h.input(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags }).expect("a new game");
    let over = h.events.iter().any(
        |e| matches!(e, Event::GameOver { result, reason, .. } if result == "*" && reason == "new_game"),
    );
    assert!(over, "{:?}", h.events);
    let started = h.events.iter().find_map(|e| match e {
        Event::GameStarted { fen, moves, .. } => Some((fen.clone(), moves.len())),
        _ => None,
    });
    assert_eq!(started, Some((super::draughts_play::fen(&Position::initial(V)), 0)));
    assert_ne!(h.table.game_id().map(str::to_owned), first);
    assert_eq!(h.table.turn(), Some((0, Side::White)));
    assert_eq!(h.table.record().map(|r| r.tags.white.as_str()), Some("Anna"));
    for refused in [
        Input::NewGame { fen: None, chess960: None, moves: vec!["32-28".into()], tags: Default::default() },
        Input::Adjourn { sealed: "32-28".into(), session_left_ms: None },
        Input::ClaimDraw { side: Side::White, mv: None },
        Input::IllegalMove { ply: 1 },
    ] {
        assert!(matches!(h.input(refused.clone()), Err(TableError::Invalid(_))), "{refused:?}");
    }
    assert!(!h.table.is_adjourned());
    assert_eq!(h.table.illegal_moves(Side::White), 0);
    assert_eq!(h.table.phase(), Phase::Playing);
}

/// A draw offer belongs to the game it was made in (9.1): the next draughts
/// game starts with none, as a chess game does.
#[test]
fn a_new_draughts_game_starts_with_no_draw_offer() {
    let mut h = Hand::new(draughts_table(false), 1);
    h.t += 1000;
    h.input(Input::DrawOffer { side: Side::White }).expect("a game is in progress");
    assert_eq!(h.table.draw_offers(), [(0, Side::White)]);
    h.t += 1000;
    let tags = crate::pgn::TagOverrides::default();
    h.input(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags }).expect("a new game");
    assert_eq!(h.table.draw_offers(), [], "the last game's offer is not this game's");
}
