//! Spoken draughts moves at the table (issue 17 §5), named after the code's
//! VIII.2.3 (moves announced by start and end square, a slip corrected at
//! once) with the chess Annex D's D.2.8 check that the board's move is the
//! one announced, before the clock counts the press.

use super::{Table, TableConfig, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::draughts::board::{Position, Variant};
use crate::draughts::movegen::legal_moves;
use crate::draughts::moves::Move;
use crate::draughts::path::DraughtsPath;
use crate::draughts::pdn::{find_move, read_games};
use crate::event::{BoardRole, Event};
use crate::inference::TrackerConfig;
use crate::input::Input;

const V: Variant = Variant::International;

/// The draughts position a spoken move is about at `table`, as the app asks it.
fn announce_position(table: &Table) -> Option<Position> {
    table.draughts()?.announce_position(table.config(), table.announced_ply())
}

/// The blind player (White) announces his moves; the station presses the
/// clock (no lever) once the announcement matched; the sighted player's
/// replies are entered at the console.
fn spoken_cfg(blind_unsensed: bool) -> TableConfig {
    TableConfig {
        time_control: Some("4800+60".parse().unwrap()),
        clock_auto_press: true,
        announcement_required: true,
        blind_unsensed,
        ..TableConfig::single(TrackerConfig::default())
    }
}

struct Hand {
    table: Table,
    t: Millis,
    events: Vec<Event>,
    occ: u64,
    /// Every input fed, as the journal records it.
    inputs: Vec<(Millis, Input)>,
    /// The table as the game started (what the journal's header records).
    at_start: Option<Table>,
}

impl Hand {
    fn new(cfg: TableConfig) -> Hand {
        let unsensed = cfg.blind_unsensed;
        let mut h = Hand {
            table: Table::new(cfg).with_draughts(V),
            t: 1000,
            events: Vec::new(),
            occ: 0,
            inputs: Vec::new(),
            at_start: None,
        };
        if !unsensed {
            h.scan(Position::initial(V).occupied());
        }
        h.wait(400);
        assert!(h.table.draughts().is_some(), "a game started");
        h.at_start = Some(h.table.clone());
        h
    }

    /// The journal of what was fed since the game started, restored.
    fn restored(&self) -> crate::journal::Restored {
        use crate::journal::{Contents, Header, Record};
        let started = self
            .events
            .iter()
            .find_map(|e| match e {
                Event::GameStarted { t_ms, .. } => Some(*t_ms),
                _ => None,
            })
            .expect("a game started");
        let at_start = self.at_start.as_ref().expect("a game started");
        let header = Header::of_table(
            at_start,
            "game-1",
            &at_start.start_fen(),
            started,
            crate::pgn::SevenTags::default(),
        );
        let mut records: Vec<Record> = Vec::new();
        for (seq, (t, input)) in self.inputs.iter().enumerate().filter(|(_, (t, _))| *t >= started) {
            records.push(Record::Input { seq: seq as u64, t_ms: *t, input: input.clone() });
        }
        for (seq, e) in self.events.iter().enumerate() {
            if matches!(e, Event::GameMove { .. }) {
                records.push(Record::Event { seq: 100_000 + seq as u64, event: e.clone() });
            }
        }
        crate::journal::restore(&Contents { header, records, valid_len: 0, torn_tail: false }).unwrap()
    }

    fn input(&mut self, input: Input) -> Result<Vec<Event>, TableError> {
        self.inputs.push((self.t, input.clone()));
        let out = self.table.apply(self.t, &input)?;
        self.events.extend(out.iter().cloned());
        Ok(out)
    }

    fn scan(&mut self, occ: u64) {
        self.t += 60;
        self.occ = occ;
        self.input(Input::scan50(BoardRole::Blind, occ)).unwrap();
    }

    fn wait(&mut self, ms: Millis) {
        self.t += ms;
        self.input(Input::Tick).unwrap();
    }

    /// His hand makes `mv` on his peg board (captured pieces removed in capture order).
    fn play(&mut self, mv: &Move) {
        let mut occ = self.occ & !mv.from.bit();
        self.scan(occ);
        occ |= mv.to.bit();
        self.scan(occ);
        for sq in &mv.captured {
            occ &= !sq.bit();
            self.scan(occ);
        }
        self.wait(400);
    }

    fn say(&mut self, pdn: &str) -> Result<Vec<Event>, TableError> {
        self.t += 100;
        self.input(Input::Announce { mv: pdn.to_owned() })
    }

    fn enter(&mut self, pdn: &str) {
        self.t += 100;
        self.input(Input::EnterMove { mv: pdn.to_owned() }).unwrap();
    }

    fn presses(&self, side: Side) -> usize {
        self.events.iter().filter(|e| matches!(e, Event::ClockPressed { side: s, .. } if *s == side)).count()
    }

    fn checked(&self) -> Vec<(usize, String, String, bool)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::AnnouncementChecked { ply, said, sensed, matches, .. } => {
                    Some((*ply, said.to_string(), sensed.to_string(), *matches))
                }
                _ => None,
            })
            .collect()
    }
}

fn mv(pos: &Position, pdn: &str) -> Move {
    find_move(pos, pdn).unwrap().unwrap()
}

/// VIII.2.3: his move made on his board, then announced: the announcement
/// matches the board's move and only then is his clock pressed.
#[test]
fn viii_2_3_a_move_announced_after_the_board_shows_it_presses_his_clock() {
    let mut h = Hand::new(spoken_cfg(false));
    let start = Position::initial(V);
    h.play(&mv(&start, "32-28"));
    assert_eq!(h.table.draughts().unwrap().ply(), 1, "the board's move is agreed");
    assert_eq!(h.presses(Side::White), 0, "not pressed before he announced it");
    // The position a spoken move is about is the one before his move.
    assert_eq!(announce_position(&h.table), Some(start));
    h.say("32-28").unwrap();
    assert_eq!(h.checked(), [(1, "32-28".into(), "32-28".into(), true)]);
    assert_eq!(h.presses(Side::White), 1);
    assert_eq!(announce_position(&h.table).as_ref(), h.table.draughts().map(|d| d.position()));
    // The reply entered at the console presses Black's clock as before.
    h.enter("19-23");
    assert_eq!(h.presses(Side::Black), 1);
}

/// VIII.2.3 with D.2.8: a slip of the tongue ("33-28" for the board's 32-28)
/// names both and the clock waits; the corrected announcement matches.
#[test]
fn viii_2_3_a_slip_of_the_tongue_names_the_board_move_and_the_clock_waits() {
    let mut h = Hand::new(spoken_cfg(false));
    h.play(&mv(&Position::initial(V), "32-28"));
    h.say("33-28").unwrap();
    assert_eq!(h.checked(), [(1, "33-28".into(), "32-28".into(), false)]);
    assert_eq!(h.presses(Side::White), 0, "a mismatching announcement never presses");
    assert_eq!(h.table.draughts().unwrap().moves(), ["32-28"], "the record is the board's");
    h.say("32-28").unwrap();
    assert_eq!(h.checked().last(), Some(&(1, "32-28".into(), "32-28".into(), true)));
    assert_eq!(h.presses(Side::White), 1);
    // A move not legal in that position is refused, naming it; nothing changes.
    let before = h.events.len();
    assert!(matches!(h.say("32-27"), Err(TableError::IllegalMove { .. })));
    assert_eq!(h.events.len(), before);
    // The journal: the same inputs, announcements included, restore the same game.
    let restored = h.restored();
    assert!(restored.reproduced, "{:?}", restored.damage);
    assert_eq!(restored.table.record_moves().unwrap(), ["32-28"]);
    assert_eq!(announce_position(&restored.table), announce_position(&h.table));
}

/// Without `announcement_required` (no speech input) his move presses at once;
/// a matching announcement (the console's `spoken`) never presses a second time.
#[test]
fn viii_2_3_an_announcement_without_speech_input_presses_no_second_time() {
    let mut h = Hand::new(TableConfig { announcement_required: false, ..spoken_cfg(false) });
    h.play(&mv(&Position::initial(V), "32-28"));
    assert_eq!(h.presses(Side::White), 1);
    h.say("32-28").unwrap();
    assert_eq!(h.checked(), [(1, "32-28".into(), "32-28".into(), true)]);
    assert_eq!(h.presses(Side::White), 1);
    assert!(!h.events.iter().any(|e| matches!(e, Event::ClockPremature { .. })));
}

/// VIII.2.3: announced before the board shows it, checked when the move comes.
#[test]
fn viii_2_3_a_move_announced_first_is_checked_when_the_board_shows_it() {
    let mut h = Hand::new(spoken_cfg(false));
    let said = h.say("31-27").unwrap();
    assert!(said.iter().all(|e| !matches!(e, Event::AnnouncementChecked { .. })));
    h.play(&mv(&Position::initial(V), "31-27"));
    assert_eq!(h.checked(), [(1, "31-27".into(), "31-27".into(), true)]);
    assert_eq!(h.presses(Side::White), 1, "pressed once, by the matched announcement");
    assert!(!h.events.iter().any(|e| matches!(e, Event::ClockPremature { .. })));
}

/// Without his sensor board the spoken move is his move (VIII.2.3 with
/// nothing to check it against): his turn and legal, it is the game's and
/// his clock is pressed; on the opponent's turn it is refused.
#[test]
fn viii_2_3_without_his_board_the_spoken_move_is_the_move() {
    let mut h = Hand::new(spoken_cfg(true));
    let out = h.say("34-30").unwrap();
    assert!(out.iter().any(
        |e| matches!(e, Event::GameMove { ply: 1, by: BoardRole::Blind, pdn: Some(p), .. } if p == "34-30")
    ));
    assert_eq!(h.presses(Side::White), 1);
    assert!(matches!(h.say("33-29"), Err(TableError::NotYourTurn { .. })));
    h.enter("17-21");
    assert_eq!(h.presses(Side::Black), 1);
    h.say("33-29").unwrap();
    assert_eq!(h.table.draughts().unwrap().moves(), ["34-30", "17-21", "33-29"]);
}

/// 4.13 with VIII.2.3: two maximal captures with the same start and end but
/// different men taken. The board's removals decide which was made; an
/// announcement of the other path is named as a mismatch, the right one matches.
#[test]
fn viii_2_3_the_same_squares_capture_pair_announced_by_its_path() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/draughts/selfplay-international.pdn");
    let games = read_games(&std::fs::read_to_string(path).expect("the shared draughts games")).unwrap();
    // The first position of a shared game, White to move, with such a pair.
    let found = games.iter().find_map(|g| {
        let positions = g.positions();
        (0..g.moves.len()).step_by(2).find_map(|i| {
            let legal = legal_moves(&positions[i]);
            let pair = legal.iter().enumerate().find_map(|(a, m)| {
                legal[a + 1..]
                    .iter()
                    .find(|o| o.from == m.from && o.to == m.to)
                    .map(|o| (m.clone(), o.clone()))
            })?;
            Some((g.moves[..i].to_vec(), pair))
        })
    });
    let Some((before, (made, other))) = found else {
        panic!("no shared game reaches two captures with the same squares for White");
    };
    let mut h = Hand::new(TableConfig { blind_unsensed: false, ..spoken_cfg(false) });
    for (i, m) in before.iter().enumerate() {
        let text = m.pdn(V, true);
        if i % 2 == 0 {
            h.play(m);
            h.say(&text).unwrap();
        } else {
            h.enter(&text);
            h.play(m);
        }
    }
    let ply = before.len() + 1;
    h.play(&made);
    assert_eq!(
        h.table.draughts().unwrap().moves().last(),
        Some(&DraughtsPath::of_move(&made, V)),
        "the removals decided"
    );
    // Named by start and end alone the announcement does not say which: refused, asked back by the voices.
    let short = format!("{}x{}", made.from.number(), made.to.number());
    assert!(matches!(h.say(&short), Err(TableError::Invalid(_))));
    h.say(&other.pdn(V, true)).unwrap();
    assert_eq!(h.checked().last(), Some(&(ply, other.pdn(V, true), made.pdn(V, true), false)));
    let presses = h.presses(Side::White);
    h.say(&made.pdn(V, true)).unwrap();
    assert_eq!(h.checked().last(), Some(&(ply, made.pdn(V, true), made.pdn(V, true), true)));
    assert_eq!(h.presses(Side::White), presses + 1);
}
