//! The one record: random games of moves, take-backs, draw offers and claims,
//! illegal-move corrections, clock adjustments, adjournments and results,
//! journaled as the daemon journals them; at random points the journal is
//! folded again (as exports and the hall fold it) and restored (as a restart
//! restores it), and every view's moves, tags and result equal the record's.

use super::*;
use crate::clock::Side;
use crate::inference::TrackerConfig;
use crate::input::Input;
use crate::journal::{Contents, Header, Record as JournalRecord, restore};
use crate::pgn::{TagOverrides, read_games};
use crate::table::{Table, TableConfig};
use proptest::prelude::*;
use shakmaty::{Color, Position};

/// A table with no sensed board: the assistant enters every move.
fn table() -> Table {
    Table::new(TableConfig {
        blind_unsensed: true,
        mirror_sensed: false,
        time_control: Some("300+2".parse().expect("a time control")),
        clock_auto_start: true,
        clock_auto_press: true,
        ..TableConfig::single(TrackerConfig::default())
    })
}

/// What the daemon writes: the journal of the game in progress.
struct Desk {
    table: Table,
    t: Millis,
    header: Option<Header>,
    records: Vec<JournalRecord>,
    seq: u64,
}

impl Desk {
    fn new() -> Desk {
        Desk { table: table(), t: 1_000, header: None, records: Vec::new(), seq: 0 }
    }

    /// Journals `input`, applies it, journals its events (a refusal as
    /// `input_refused`), opening the journal when a game starts.
    fn feed(&mut self, input: Input) {
        if self.header.is_some() {
            self.seq += 1;
            self.records.push(JournalRecord::Input { seq: self.seq, t_ms: self.t, input: input.clone() });
        }
        let events = match self.table.apply(self.t, &input) {
            Ok(events) => events,
            Err(e) => {
                vec![Event::InputRefused { input: input.kind().into(), reason: e.to_string(), t_ms: self.t }]
            }
        };
        for event in events {
            if let Event::GameStarted { game_id, fen, t_ms, tags, moves } = &event {
                let mut h =
                    Header::of_table(&self.table, game_id, fen, *t_ms, tags.clone().unwrap_or_default());
                h.moves = moves.clone();
                self.header = Some(h);
                self.records.clear();
                self.seq = 0;
            }
            if self.header.is_some() {
                self.seq += 1;
                self.records.push(JournalRecord::Event { seq: self.seq, event });
            }
        }
    }

    fn journal(&self) -> Contents {
        Contents {
            header: self.header.clone().expect("a game started"),
            records: self.records.clone(),
            valid_len: 0,
            torn_tail: false,
        }
    }
}

/// One step of a random game, read against the position it meets.
fn step(desk: &mut Desk, op: u8, pick: u32) {
    desk.t += 100 + u64::from(pick % 4_000);
    let record = desk.table.record().cloned();
    let game = record.as_ref().and_then(GameRecord::chess_game);
    let pick = pick as usize;
    let legal = game.as_ref().map(|g| g.position().legal_moves()).unwrap_or_default();
    let to_move = game.as_ref().map_or(Side::White, |g| Side::from(g.position().turn()));
    let any_side = if pick.is_multiple_of(2) { Side::White } else { Side::Black };
    let san_of = |i: usize| {
        let g = game.as_ref()?;
        let mv = legal.get(i % legal.len().max(1))?;
        Some(shakmaty::san::San::from_move(g.position(), *mv).to_string())
    };
    let input = match op % 16 {
        0..=6 => match san_of(pick) {
            Some(san) => Input::EnterMove { mv: san },
            None => Input::Tick,
        },
        7 => Input::TakeBack,
        8 => Input::DrawOffer { side: any_side },
        9 => Input::AcceptDraw,
        10 => Input::ClaimDraw {
            side: to_move,
            mv: if pick.is_multiple_of(3) { san_of(pick / 3) } else { None },
        },
        11 => Input::ConfirmClaim,
        12 => Input::IllegalMove { ply: 1 + pick % record.as_ref().map_or(1, |r| r.ply().max(1)) },
        13 => {
            // An arbiter's clock correction, with his reason.
            let by_arbiter = |action: &str, side: Option<Side>, value: u64, why: &str| Input::Clock {
                action: action.into(),
                side,
                value: Some(value),
                who: Some("arbiter".into()),
                why: Some(why.into()),
            };
            match pick % 3 {
                0 => by_arbiter("add_time", Some(any_side), 60_000, "disturbance"),
                1 => by_arbiter("set_time", Some(any_side), 120_000, "a wrong setting"),
                _ => by_arbiter(
                    "set_moves",
                    None,
                    record.as_ref().map_or(0, |r| r.ply() as u64 / 2),
                    "the counter",
                ),
            }
        }
        14 => match (desk.table.is_adjourned(), san_of(pick)) {
            (true, _) => Input::ResumeAdjourned,
            (false, Some(sealed)) => Input::Adjourn { sealed, session_left_ms: None },
            (false, None) => Input::Tick,
        },
        _ => {
            let (result, reason) = [
                ("1-0", "Black resigned"),
                ("0-1", "White's flag fell"),
                ("1/2-1/2", "draw agreed"),
                ("1-0", "arbiter's decision"),
            ][pick % 4];
            Input::Result { result: result.into(), reason: reason.into(), termination: None }
        }
    };
    desk.feed(input);
}

/// Every view of the journal equals the live record: the fold (exports, the
/// hall), the restore (a restart), the PGN read back.
fn views_agree(desk: &Desk) -> Result<(), TestCaseError> {
    let live = desk.table.record().expect("a record once a game started").clone();
    let journal = desk.journal();
    let folded = journal.record();
    prop_assert_eq!(&folded.ucis(), &live.ucis(), "fold: moves");
    prop_assert_eq!(&folded.tags, &live.tags, "fold: tags");
    prop_assert_eq!(folded.result(), live.result(), "fold: result");
    prop_assert_eq!(&folded.marks, &live.marks, "fold: marks");
    // The hall carries the record as JSON (the retained board state): it comes back whole.
    let json = serde_json::to_string(&live).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: GameRecord =
        serde_json::from_str(&json).map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
    prop_assert_eq!(&back, &live, "JSON round trip");
    let restored = restore(&journal).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let again = restored.table.record().expect("a restored record");
    prop_assert!(restored.reproduced, "the inputs reproduce the record");
    prop_assert_eq!(&again.ucis(), &live.ucis(), "restore: moves");
    prop_assert_eq!(&again.tags, &live.tags, "restore: tags");
    prop_assert_eq!(again.result(), live.result(), "restore: result");
    let pgn = live.pgn(None).expect("a chess record writes PGN");
    let back = read_games(pgn.as_bytes());
    prop_assert_eq!(back.len(), 1);
    let g = &back[0].game;
    let ucis: Vec<String> = g.moves().iter().map(|m| g.uci(*m)).collect();
    prop_assert_eq!(&ucis, &live.ucis(), "PGN: moves");
    prop_assert_eq!(back[0].tags.get("White"), Some(&live.tags.white), "PGN: White");
    prop_assert_eq!(back[0].tags.get("Black"), Some(&live.tags.black), "PGN: Black");
    prop_assert_eq!(back[0].tags.get("Result").map(String::as_str), Some(live.result()), "PGN: result");
    Ok(())
}

fn name() -> impl Strategy<Value = Option<String>> {
    proptest::option::of("[A-Za-zÄÖÜäöüłśżŁ ,.'-]{1,24}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn every_view_of_a_random_game_is_the_record(
        white in name(),
        black in name(),
        steps in proptest::collection::vec((any::<u8>(), any::<u32>(), any::<bool>()), 1..40),
    ) {
        let mut desk = Desk::new();
        let tags = TagOverrides { white: white.clone(), black, round: Some("3".into()), ..TagOverrides::default() };
        desk.feed(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags });
        prop_assert!(desk.table.is_playing(), "the game starts when the command returns");
        // A name given is the record's (trimmed, on one line); an empty one keeps the default.
        if let Some(w) = white.as_deref().map(str::trim).filter(|w| !w.is_empty()) {
            prop_assert_eq!(desk.table.record().unwrap().tags.white.as_str(), w);
        }
        for (op, pick, fold_here) in steps {
            step(&mut desk, op, pick);
            if fold_here {
                views_agree(&desk)?;
            }
        }
        views_agree(&desk)?;
    }
}

#[test]
fn a_take_back_leaves_every_view_and_the_restore_without_the_move() {
    let mut desk = Desk::new();
    desk.feed(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags: TagOverrides::default() });
    for san in ["e4", "e5", "Nf3", "Nc6"] {
        desk.t += 1_000;
        desk.feed(Input::EnterMove { mv: san.into() });
    }
    desk.t += 1_000;
    desk.feed(Input::TakeBack);
    let live = desk.table.record().unwrap();
    assert_eq!(live.ucis(), ["e2e4", "e7e5", "g1f3"]);
    assert!(matches!(&live.marks[..], [Mark::TakenBack { after: 3, sans, .. }] if sans == &["Nc6"]));
    let journal = desk.journal();
    assert_eq!(journal.record().ucis(), live.ucis());
    let restored = restore(&journal).unwrap();
    assert!(restored.reproduced);
    assert_eq!(restored.table.agreed().unwrap().ply(), 3, "a restart resumes without Nc6");
    assert!(!live.pgn(None).unwrap().contains("Nc6"));
}

/// A restart delivers again the events its subscribers missed: a move
/// folded twice is one move, and the plies after it stay on the record.
#[test]
fn a_move_delivered_again_leaves_the_record_as_it_was() {
    let mut desk = Desk::new();
    desk.feed(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags: TagOverrides::default() });
    for san in ["e4", "e5", "Nf3"] {
        desk.t += 1_000;
        desk.feed(Input::EnterMove { mv: san.into() });
    }
    let mut record = desk.journal().record();
    let before = record.clone();
    let second = desk
        .records
        .iter()
        .find_map(|r| match r {
            JournalRecord::Event { event: e @ Event::GameMove { ply: 2, .. }, .. } => Some(e.clone()),
            _ => None,
        })
        .expect("the second move's event");
    record.apply(&second);
    assert_eq!(record, before, "the move again changes nothing");
}

#[test]
fn a_result_ends_the_game_with_its_reason_and_termination_in_the_pgn() {
    let mut desk = Desk::new();
    let tags = TagOverrides {
        white: Some("Anna Nowak".into()),
        black: Some("Bert\n[Result \"1-0\"]".into()),
        event: Some("Open".into()),
        board: Some("7".into()),
        ..TagOverrides::default()
    };
    desk.feed(Input::NewGame { fen: None, chess960: None, moves: vec!["e4".into(), "e5".into()], tags });
    let record = desk.table.record().unwrap().clone();
    assert_eq!(record.ucis(), ["e2e4", "e7e5"], "the scoresheet so far is on the record");
    assert_eq!(record.tags.black, "Bert [Result \"1-0\"]", "a tag stays on one line");
    desk.t += 5_000;
    desk.feed(Input::Result { result: "0-1".into(), reason: "White's flag fell".into(), termination: None });
    let record = desk.table.record().unwrap();
    let end = record.end.as_ref().unwrap();
    assert_eq!((end.result.as_str(), end.termination.as_str()), ("0-1", "time forfeit"));
    let pgn = record.pgn(None).unwrap();
    assert!(pgn.contains("[White \"Anna Nowak\"]"), "{pgn}");
    assert!(pgn.contains("[Board \"7\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5 {White's flag fell} 0-1"), "{pgn}");
    // A result is given once: the game is over.
    desk.feed(Input::Result { result: "1-0".into(), reason: "again".into(), termination: None });
    assert_eq!(desk.table.record().unwrap().result(), "0-1");
    // A result that is none is refused with the reason.
    let mut other = Desk::new();
    other.feed(Input::NewGame {
        fen: None,
        chess960: None,
        moves: Vec::new(),
        tags: TagOverrides::default(),
    });
    let refused = other
        .table
        .apply(other.t, &Input::Result { result: "2-0".into(), reason: String::new(), termination: None });
    assert!(refused.unwrap_err().to_string().contains("1-0, 0-1, 1/2-1/2"));
}

#[test]
fn a_confirmed_claim_is_the_same_result_in_every_view() {
    let mut desk = Desk::new();
    desk.feed(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags: TagOverrides::default() });
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        desk.t += 1_000;
        desk.feed(Input::EnterMove { mv: san.into() });
    }
    desk.t += 1_000;
    desk.feed(Input::ClaimDraw { side: Side::from(Color::White), mv: None });
    desk.feed(Input::ConfirmClaim);
    let record = desk.table.record().unwrap();
    assert_eq!(record.result(), "1/2-1/2");
    assert!(matches!(&record.marks[..], [Mark::DrawClaim { correct: true, decided: Some(true), .. }]));
    assert_eq!(desk.journal().record().result(), "1/2-1/2");
    let pgn = record.pgn(None).unwrap().replace('\n', " ");
    assert!(pgn.contains("{Draw claimed: threefold repetition} 1/2-1/2"), "{pgn}");
}

/// Issue 34 §11: White's draw offer made when it was his turn goes with the
/// move he then made, Black's after his own; an incorrect claim, the time
/// added to the opponent and the claimant's time cut are comments where the
/// clocks jump, and the journal's fold writes the same PGN.
#[test]
fn offers_go_with_the_offerers_move_and_an_incorrect_claim_explains_the_clocks() {
    let mut desk = Desk::new();
    desk.feed(Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags: TagOverrides::default() });
    let play = |desk: &mut Desk, san: &str| {
        desk.t += 1_000;
        desk.feed(Input::EnterMove { mv: san.into() });
    };
    play(&mut desk, "e4");
    play(&mut desk, "e5");
    // White offers before his second move, then makes it.
    desk.feed(Input::DrawOffer { side: Side::White });
    play(&mut desk, "Nf3");
    play(&mut desk, "Nc6");
    // Black offers after his own move.
    desk.feed(Input::DrawOffer { side: Side::Black });
    desk.t += 1_000;
    desk.feed(Input::ClaimDraw { side: Side::White, mv: None });
    desk.feed(Input::ConfirmClaim);
    play(&mut desk, "Bc4");
    let record = desk.table.record().unwrap().clone();
    assert_eq!(record.draw_offers(), [3, 4]);
    let tc: crate::clock::TimeControl = "300+2".parse().unwrap();
    let pgn = record.pgn(Some(&tc)).unwrap().replace('\n', " ");
    let words: Vec<&str> = pgn.split(['{', '}']).map(str::trim).filter(|w| !w.is_empty()).collect();
    let at = |w: &str| words.iter().position(|x| *x == w).unwrap_or_else(|| panic!("{w} in {pgn}"));
    let offers: Vec<usize> = words.iter().enumerate().filter(|(_, w)| **w == "(=)").map(|(i, _)| i).collect();
    assert_eq!(offers.len(), 2, "{pgn}");
    // 2. Nf3 [%clk] (=) 2... Nc6 [%clk] (=): each offer after its offerer's move.
    assert!(words[offers[0] - 2].ends_with("2. Nf3") && words[offers[1] - 2].ends_with("2... Nc6"), "{pgn}");
    let claim = at("White claims a draw: incorrect, as the arbiter confirmed (Art. 9.5)");
    assert_eq!(claim, offers[1] + 1, "{pgn}");
    let added = &words[claim + 1];
    assert!(added.starts_with("Black's clock: 3 min added, now 0:0"), "{added}");
    assert!(added.ends_with("(arbiter: Art. 9.5: incorrect draw claim)"), "{added}");
    let cut = &words[claim + 2];
    assert!(cut.starts_with("White's clock set to 0:0") && cut.ends_with("incorrect draw claim)"), "{cut}");
    assert!(words[claim + 3].starts_with("3. Bc4"), "{pgn}");
    // Black's time now, as the comment says it, is what his next [%clk] starts from.
    let black_now = added.split("now ").nth(1).unwrap().split(' ').next().unwrap();
    let black_clock = record.moves[3].clock_ms.map(crate::clock::format_clock).unwrap();
    assert_ne!(black_now, black_clock, "the jump the comment explains");
    assert_eq!(desk.journal().record().pgn(Some(&tc)).unwrap().replace('\n', " "), pgn);
    let games = read_games(pgn.as_bytes());
    assert_eq!(games.len(), 1, "the comments keep the PGN readable: {pgn}");
}
