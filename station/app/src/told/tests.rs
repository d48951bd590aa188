//! The changes to the record as the blind player hears them, sentence by
//! sentence in each language, from a real table fed the arbiter's inputs.

use super::*;
use shakmaty::Move;
use station_core::clock::Side;
use station_core::input::{ClockCommand, Input};
use station_core::table::{Table, TableConfig};
use station_core::{Event, TrackerConfig};
use station_voices::{BUILTIN_LANGUAGES, Phrasebook, VoiceSettings};

fn wording(lang: &str) -> Wording {
    Wording::new(&VoiceSettings::language(lang)).unwrap()
}

const BLIND: Viewer = Viewer { color: Color::White, blind: true };
const MIRROR: Viewer = Viewer { color: Color::Black, blind: false };

/// A table with no sensed board and a clock: the arbiter enters every move.
fn table() -> Table {
    let cfg = TableConfig {
        blind_unsensed: true,
        time_control: Some("5400+30".parse().unwrap()),
        ..TableConfig::single(TrackerConfig::default())
    };
    Table::new(cfg)
}

/// Feeds inputs to a table, folding every event into `told` as the station
/// delivers them (one batch per input), and returns the changes told.
struct Run {
    table: Table,
    told: Told,
    t: Millis,
    events: Vec<Event>,
}

impl Run {
    fn new() -> Run {
        let mut run = Run { table: table(), told: Told::new(), t: 1000, events: Vec::new() };
        run.input(Input::Tick);
        assert!(run.table.agreed().is_some(), "the game started at once");
        run
    }

    fn input(&mut self, input: Input) -> Vec<Change> {
        self.t += 1000;
        let events = self.table.apply(self.t, &input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let mut changes = Vec::new();
        for e in &events {
            changes.extend(self.told.observe(e, &self.table));
        }
        changes.extend(self.told.flush());
        self.events.extend(events);
        changes
    }

    fn moves(&mut self, moves: &[&str]) {
        for m in moves {
            let told = self.input(Input::EnterMove { mv: (*m).into() });
            assert!(told.is_empty(), "{m}: {told:?}");
        }
    }
}

fn said(changes: &[Change], lang: &str, viewer: Viewer) -> Vec<String> {
    let w = wording(lang);
    changes.iter().map(|c| word(c, &w, viewer)).collect()
}

#[test]
fn a_take_back_names_the_move_and_what_to_put_back_in_each_language() {
    let mut run = Run::new();
    run.moves(&["e4", "d5", "exd5"]);
    let told = run.input(Input::TakeBack);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        said(&told, "de", BLIND),
        ["Zurückgenommen: Eva schlägt David fünf. Bauer von David fünf zurück nach Eva vier. \
          Bauer zurück auf David fünf. Sie sind am Zug"]
    );
    assert_eq!(
        said(&told, "pl", BLIND),
        ["cofnięto: Ewa bije Dawid pięć. pion z Dawid pięć z powrotem na Ewa cztery. \
          pion wraca na Dawid pięć. twoje posunięcie"]
    );
    assert_eq!(
        said(&told, "en", BLIND),
        ["taken back: Eva takes David five. Pawn from David five back to Eva four. \
          Pawn back on David five. your move"]
    );
    // The mirror: one short line, from the sighted player's side.
    assert_eq!(said(&told, "de", MIRROR), ["Zurückgenommen: Eva schlägt David fünf. Ihr Gegner ist am Zug"]);
}

#[test]
fn take_backs_of_one_moment_are_one_correction_and_the_clock_turn_is_part_of_it() {
    let mut run = Run::new();
    run.moves(&["e4", "e5", "Nf3", "Nc6"]);
    // Art. 7.4: the illegal move found two plies late takes three plies back at once.
    let told = run.input(Input::IllegalMove { ply: 2 });
    let kinds: Vec<station_core::event::About> = told.iter().map(Change::about).collect();
    // Without presses there are no clock readings of ply 1 to set: only 7.4(b)'s two minutes.
    assert_eq!(kinds, ["take_back", "clock"], "{told:?}");
    let Change::TakenBack { moves, illegal: true, to_move: Color::Black, .. } = &told[0] else {
        panic!("{told:?}")
    };
    assert_eq!(moves.len(), 3);
    let de = said(&told, "de", BLIND);
    assert_eq!(
        de[0],
        "Unzulässiger Zug zurückgenommen: Eva fünf, Springer Felix drei, Springer Cesar sechs. \
         Springer von Felix drei zurück nach Gustav eins. Bauer von Eva fünf zurück nach Eva sieben. \
         Springer von Cesar sechs zurück nach Bella acht. Ihr Gegner ist am Zug"
    );
    assert!(de[1].starts_with("Sie: zwei Minuten dazu, jetzt "), "{de:?}");
    // A take-back by the arbiter: the station's clock-turn correction is no second message.
    let mut run = Run::new();
    run.moves(&["e4"]);
    run.input(Input::ClockPress { side: Side::White });
    run.moves(&["e5"]);
    run.input(Input::ClockPress { side: Side::Black });
    let told = run.input(Input::TakeBack);
    assert!(
        run.events.iter().any(|e| matches!(e, Event::ClockChanged { action, .. } if action == "on_move_set"))
    );
    assert_eq!(
        said(&told, "en", BLIND),
        ["taken back: Eva five. Pawn from Eva five back to Eva seven. your opponent's move"]
    );
}

#[test]
fn time_added_or_set_says_whose_how_much_and_the_time_now() {
    let mut run = Run::new();
    run.moves(&["e4"]);
    let add =
        ClockCommand::AddTime { side: Side::Black, ms: 120_000, who: "arbiter".into(), why: "7.5.5".into() };
    let told = run.input(Input::from_clock_command(&add));
    assert_eq!(
        said(&told, "de", BLIND),
        ["Gegner: zwei Minuten dazu, jetzt eine Stunde zweiunddreißig Minuten"]
    );
    assert_eq!(
        said(&told, "pl", BLIND),
        ["Przeciwnik: dodano dwie minuty, teraz jedna godzina trzydzieści dwie minuty"]
    );
    assert_eq!(said(&told, "en", BLIND), ["Opponent: two minutes added, now one hour thirty-two minutes"]);
    assert_eq!(said(&told, "en", MIRROR), ["You: two minutes added, now one hour thirty-two minutes"]);
    let set =
        ClockCommand::SetTime { side: Side::White, ms: 600_000, who: "arbiter".into(), why: "6.11".into() };
    let told = run.input(Input::from_clock_command(&set));
    assert_eq!(said(&told, "de", BLIND), ["Sie: Uhr gestellt auf zehn Minuten"]);
    assert_eq!(said(&told, "pl", BLIND), ["Ty: zegar ustawiony na dziesięć minut"]);
    let moves = ClockCommand::SetMoves { moves: 21, who: "arbiter".into(), why: "6.11".into() };
    let told = run.input(Input::from_clock_command(&moves));
    assert_eq!(said(&told, "de", BLIND), ["Zugzähler gestellt auf einundzwanzig Züge"]);
    assert_eq!(said(&told, "en", BLIND), ["move counter set to twenty-one moves"]);
}

#[test]
fn a_draw_claim_stops_both_clocks_and_its_outcome_is_told() {
    let mut run = Run::new();
    run.moves(&["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    // Black claims with his written move: the position would stand a third time.
    let told = run.input(Input::ClaimDraw { side: Side::Black, mv: Some("Ng8".into()) });
    assert_eq!(
        said(&told, "de", BLIND),
        ["Ihr Gegner reklamiert Remis mit dem Zug Springer Gustav acht. Dreifache Stellungswiederholung. \
          Beide Uhren stehen, der Schiedsrichter entscheidet"]
    );
    assert_eq!(
        said(&told, "pl", BLIND),
        ["przeciwnik reklamuje remis z posunięciem skoczek Gustaw osiem. trzykrotne powtórzenie pozycji. \
          oba zegary zatrzymane, decyduje sędzia"]
    );
    let told = run.input(Input::ConfirmClaim);
    assert_eq!(
        said(&told, "de", BLIND),
        [
            "Der Schiedsrichter gibt der Reklamation statt",
            "Partie beendet. Remis durch dreifache Stellungswiederholung"
        ]
    );
    assert_eq!(said(&told, "en", BLIND)[1], "game over. draw by threefold repetition");

    // An incorrect claim: the facts, then 9.5's time change, and play goes on.
    let mut run = Run::new();
    run.moves(&["e4", "e5"]);
    let told = run.input(Input::ClaimDraw { side: Side::White, mv: None });
    assert_eq!(
        said(&told, "en", BLIND),
        ["you claim a draw. this position for the first time. zero moves without a pawn move or capture. \
          both clocks stopped, the arbiter decides"]
    );
    let told = run.input(Input::ConfirmClaim);
    let en = said(&told, "en", BLIND);
    assert_eq!(en[0], "the arbiter rejects the claim, play goes on");
    assert!(en[1].starts_with("Opponent: three minutes added, now "), "{en:?}");
    // 9.5: the claimant's time is cut.
    assert!(en[2].starts_with("You: clock set to "), "{en:?}");
}

#[test]
fn the_result_is_said_in_words_never_as_a_symbol() {
    let cases = [
        ("1-0", "resignation", None, "Partie beendet. Weiß gewinnt, Schwarz hat aufgegeben"),
        ("1/2-1/2", "agreement", None, "Partie beendet. Remis durch Vereinbarung"),
        ("0-1", "checkmate", None, "Partie beendet. Schwarz gewinnt durch Matt"),
        ("1/2-1/2", "stalemate", None, "Partie beendet. Remis durch Patt"),
        (
            "0-1",
            "Black's flag fell",
            Some("time forfeit"),
            "Partie beendet. Schwarz gewinnt, Weiß hat die Zeit überschritten",
        ),
        (
            "1-0",
            "White won 1-0 (adjourned)",
            Some("adjudication"),
            "Partie beendet. Weiß gewinnt durch Entscheidung des Schiedsrichters",
        ),
        // The arbiter's own words, in English, are not read inside a German
        // sentence: what they name is said in German.
        ("0-1", "White resigned", Some("normal"), "Partie beendet. Schwarz gewinnt, Weiß hat aufgegeben"),
        ("1/2-1/2", "Draw agreed", Some("normal"), "Partie beendet. Remis durch Vereinbarung"),
        ("*", "new_game", None, "Partie ohne Ergebnis beendet, eine neue Partie beginnt"),
        ("2-0", "no_pieces", None, "Partie beendet. Weiß gewinnt, Schwarz hat keine Steine mehr"),
        ("1-1", "king_moves", None, "Partie beendet. Remis, nur noch Damenzüge"),
    ];
    let de = wording("de");
    for (result, reason, termination, expected) in cases {
        assert_eq!(result_words(&de, &result.into(), reason, termination), expected);
    }
    let pl = wording("pl");
    assert_eq!(
        result_words(&pl, &GameResult::WhiteWon, "resignation", None),
        "koniec partii. białe wygrywają, czarne poddały partię"
    );
    assert_eq!(result_words(&pl, &GameResult::Draw, "agreement", None), "koniec partii. remis za zgodą");
    let en = wording("en");
    assert_eq!(
        result_words(&en, &GameResult::BlackWon, "illegal_moves", None),
        "game over. Black wins, White made too many illegal moves"
    );
    assert_eq!(
        result_words(&en, &GameResult::Draw, "fifty_moves", None),
        "game over. draw by the fifty move rule"
    );
}

#[test]
fn a_revised_move_and_his_board_right_again_are_told() {
    let pos = Chess::default();
    let mv = station_core::notation::read(&pos, "Nf3").unwrap();
    let revised = Change::Revised(Said::Chess { before: pos, mv });
    assert_eq!(said(std::slice::from_ref(&revised), "de", BLIND), ["Korrektur: Springer Felix drei"]);
    assert_eq!(said(std::slice::from_ref(&revised), "pl", BLIND), ["korekta: skoczek Feliks trzy"]);
    let right = [Change::BoardRight { his: true }];
    assert_eq!(said(&right, "de", BLIND), ["Ihr Brett stimmt wieder mit der Partie überein"]);
    assert_eq!(said(&right, "en", BLIND), ["your board matches the game again"]);
    assert_eq!(said(&right, "en", MIRROR), ["position restored"]);

    // His board's difference told, then his board right: once, whatever else comes with it.
    let table = table();
    let mut told = Told::new();
    let mismatch = Event::BoardMismatch {
        board: BoardRole::Blind,
        reason: station_core::event::MismatchReason::Unexplained,
        diff: Vec::new(),
        candidates: Vec::new(),
        takeback_to_ply: None,
        t_ms: 5,
    };
    assert!(told.observe(&mismatch, &table).is_empty());
    assert!(told.observe(&Event::BoardRestored { board: BoardRole::Blind, t_ms: 9 }, &table).is_empty());
    assert!(told.observe(&Event::DiscrepancyResolved { id: 1, t_ms: 9 }, &table).is_empty());
    assert_eq!(told.flush(), [Change::BoardRight { his: true }]);
    assert!(told.flush().is_empty());
}

/// A station whose voices start in the middle of a game (nothing followed
/// yet) still names the move taken back, from the table.
#[test]
fn a_record_followed_from_the_middle_still_names_the_take_back() {
    let mut run = Run::new();
    run.moves(&["e4", "e5", "Nf3"]);
    run.told = Told::new();
    run.moves(&["Nc6"]);
    let told = run.input(Input::TakeBack);
    assert_eq!(
        said(&told, "en", BLIND),
        ["taken back: Knight Cesar six. Knight from Cesar six back to Bella eight. your opponent's move"]
    );
    // Nothing known at all: the head without moves, never an empty colon.
    let change =
        Change::TakenBack { moves: Vec::new(), steps: Vec::new(), illegal: false, to_move: Color::White };
    assert_eq!(word(&change, &wording("de"), BLIND), "Zurückgenommen. Sie sind am Zug");
}

/// Every message of every language, filled in, and every change worded:
/// nothing a voice would read out as a symbol.
#[test]
fn no_spoken_text_contains_a_symbol() {
    assert_eq!(symbols("1-0 (=) one-zero zweiunddreißig — achtundzwanzig"), ['-', '(', '=', ')']);
    let pos = Chess::default();
    let nf3 = station_core::notation::read(&pos, "Nf3").unwrap();
    let changes = vec![
        Change::Revised(Said::Chess { before: pos.clone(), mv: nf3 }),
        Change::ClaimDecided { correct: true },
        Change::ClaimDecided { correct: false },
        Change::TimeAdded { side: Side::White, added_ms: 180_000, now_ms: 3_723_000 },
        Change::TimeSet { side: Side::Black, now_ms: 59_000 },
        Change::MovesSet { moves: 40 },
        Change::BoardRight { his: true },
        Change::BoardRight { his: false },
    ];
    let mut run = Run::new();
    run.moves(&["e4", "d5", "exd5", "Qxd5", "Nc3"]);
    let mut all = changes;
    all.extend(run.input(Input::TakeBack));
    all.extend(run.input(Input::ClaimDraw { side: Side::White, mv: Some("Nc3".into()) }));
    for lang in BUILTIN_LANGUAGES {
        let w = wording(lang);
        let book = Phrasebook::builtin(lang).unwrap();
        for message in Message::ALL {
            let text = book
                .message(message)
                .say()
                .replace("{square}", "Eva vier")
                .replace("{piece}", "Bauer")
                .replace("{moves}", "zwei Züge")
                .replace("{move}", "Springer Felix drei")
                .replace("{n}", "vier")
                .replace("{who}", "Sie")
                .replace("{amount}", "zwei Minuten")
                .replace("{time}", "eine Minute")
                .replace("{side}", "Weiß")
                .replace("{result}", "Remis")
                .replace("{loser}", "Schwarz");
            assert!(symbols(&text).is_empty(), "{lang} {}: {text:?}", message.id());
        }
        let words = book.words();
        for entry in [
            &words.capture,
            &words.check,
            &words.mate,
            &words.stalemate,
            &words.en_passant,
            &words.short_castling,
            &words.long_castling,
            &words.from,
            &words.to,
            &words.back,
            &words.draw_offer,
            &words.white_wins,
            &words.black_wins,
            &words.draw,
        ] {
            assert!(symbols(entry.say()).is_empty(), "{lang}: {:?}", entry.say());
        }
        for viewer in [BLIND, MIRROR] {
            for change in &all {
                let text = word(change, &w, viewer);
                assert!(!text.is_empty(), "{lang} {change:?}");
                assert!(symbols(&text).is_empty(), "{lang}: {text:?}");
            }
        }
        for result in ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"] {
            for reason in [
                "checkmate",
                "resignation",
                "agreement",
                "stalemate",
                "threefold_repetition",
                "fifty_moves",
                "insufficient_material",
                "illegal_moves",
                "new_game",
                "no_pieces",
                "no_move",
                "king_moves",
                "long_ending",
                "short_ending",
                "1-0 [White resigned] *",
            ] {
                for termination in [None, Some("time forfeit"), Some("adjudication"), Some("abandoned")] {
                    let text = result_words(&w, &result.into(), reason, termination);
                    assert!(symbols(&text).is_empty(), "{lang} {result} {reason}: {text:?}");
                }
            }
        }
    }
}

/// The record as told stays the table's record through random moves,
/// take-backs, illegal moves found late and clock changes (1,000 steps):
/// every take-back names exactly the moves the table lost.
#[test]
fn the_record_as_told_follows_the_table_through_random_changes() {
    let mut seed: u64 = 0x5eed_0022;
    let mut next = move |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let mut run = Run::new();
    let (mut take_backs, mut games) = (0, 0);
    for step in 0..1000 {
        let g = run.table.agreed().unwrap().clone();
        let before: Vec<Move> = g.moves().to_vec();
        let input = match next(10) {
            0 | 1 if g.ply() > 0 => Input::TakeBack,
            2 if g.ply() > 0 => Input::IllegalMove { ply: 1 + next(g.ply()) },
            3 => Input::from_clock_command(&ClockCommand::AddTime {
                side: if next(2) == 0 { Side::White } else { Side::Black },
                ms: 1000 * (1 + next(300)) as u64,
                who: "arbiter".into(),
                why: "test".into(),
            }),
            _ => {
                let legal = g.position().legal_moves();
                Input::EnterMove { mv: g.uci(legal[next(legal.len())]) }
            }
        };
        let Ok(events) = run.table.apply(run.t + 1000, &input) else { continue };
        run.t += 1000;
        let mut told = Vec::new();
        for e in &events {
            told.extend(run.told.observe(e, &run.table));
        }
        told.extend(run.told.flush());
        let now = run.table.agreed().unwrap();
        let as_told = run.told.game.as_ref().unwrap();
        assert_eq!(as_told.moves(), now.moves(), "step {step}: {input:?}");
        assert_eq!(as_told.position().board(), now.position().board(), "step {step}");
        for change in &told {
            if let Change::TakenBack { moves, steps, .. } = change {
                take_backs += 1;
                let lost: Vec<Move> = before[now.ply()..].to_vec();
                let named: Vec<Move> = moves
                    .iter()
                    .map(|s| match s {
                        Said::Chess { mv, .. } => *mv,
                        Said::Draughts { .. } => unreachable!(),
                    })
                    .collect();
                assert_eq!(named, lost, "step {step}: {input:?}");
                let after = g.position().board();
                assert_eq!(
                    &station_core::correction::apply(after, steps),
                    now.position().board(),
                    "step {step}"
                );
            }
        }
        if run.table.phase() != station_core::table::Phase::Playing {
            games += 1;
            run = Run::new();
        }
    }
    assert!(take_backs > 100 && games > 1, "{take_backs} take-backs in {games} games");
}

/// A resumed game is followed from its `game_resumed` (its moves), not from
/// the table, which may be further on when the event is told: a take-back
/// later in the same batch still names the move it took back.
#[test]
fn a_resumed_game_is_followed_from_its_event() {
    let mut run = Run::new();
    run.moves(&["e4", "e5", "Nf3"]);
    let game_id = run.table.record().unwrap().game_id.clone();
    let moves = ["e2e4", "e7e5", "g1f3"].map(station_core::event::PlayedMove::from_text).to_vec();
    let resumed = Event::GameResumed { game_id, ply: 3, moves, t_ms: run.t };
    run.t += 1000;
    let later = run.table.apply(run.t, &Input::TakeBack).unwrap();
    let mut told = Told::new();
    let mut changes = told.observe(&resumed, &run.table);
    for e in &later {
        changes.extend(told.observe(e, &run.table));
    }
    changes.extend(told.flush());
    assert_eq!(
        said(&changes, "en", BLIND),
        ["taken back: Knight Felix three. Knight from Felix three back to Gustav one. your move"]
    );
}

/// A game started from a scoresheet has its moves on the record as told
/// from its start: a take-back names them, whatever the table holds now.
#[test]
fn a_scoresheet_start_is_on_the_record_as_told() {
    let started = Event::GameStarted {
        game_id: "sheet".into(),
        fen: station_core::Game::default().fen(),
        t_ms: 0,
        tags: None,
        moves: ["e2e4", "e7e5", "g1f3"].map(station_core::event::PlayedMove::from_text).to_vec(),
    };
    // The table plays another game: nothing of this one is read from it.
    let table = table();
    let mut told = Told::new();
    assert!(told.observe(&started, &table).is_empty());
    assert_eq!(told.plies(), 3);
    let mut changes = told.observe(&Event::TakenBack { ply: 3, t_ms: 5, clock_proposal: None }, &table);
    changes.extend(told.flush());
    assert_eq!(
        said(&changes, "de", BLIND),
        [
            "Zurückgenommen: Springer Felix drei. Springer von Felix drei zurück nach Gustav eins. Sie sind am Zug"
        ]
    );
}

/// A clock correction is told with the figures its event carries: the table's
/// clock may be a new game's by the time it is told.
#[test]
fn a_clock_correction_is_told_from_its_event() {
    let table = table();
    let mut told = Told::new();
    let added = Event::ClockChanged {
        action: "time_added".into(),
        side: Some(Side::Black),
        who: Some("arbiter".into()),
        why: Some("7.5.5".into()),
        added_ms: Some(120_000),
        remaining_ms: Some(5_520_000),
        t_ms: 7,
    };
    let changes = told.observe(&added, &table);
    assert_eq!(changes, [Change::TimeAdded { side: Side::Black, added_ms: 120_000, now_ms: 5_520_000 }]);
    assert_eq!(said(&changes, "en", BLIND), ["Opponent: two minutes added, now one hour thirty-two minutes"]);
}
