//! Draughts through the real `station run` (issue 17): a simulated 10×10 peg
//! board on a pseudo-terminal (13-digit scans), a simulated hand playing a
//! whole shared game on the blind player's board, the sighted player's moves
//! entered at the console; then `station export --pdn`.
//!
//! Also: a wrong execution and an omitted capture (5.4.6, `correct`) named and recovered, a kill -9
//! resumed, and two peg boards with a wrong execution recovered.

use serde_json::{Value, json};
use station_core::draughts::pdn::{PdnGame, find_move, read_games};
use station_core::draughts::{Position, Variant};
use station_sim::draughts_hands::{DraughtsHands, HandMove};
use station_sim::pegboard::SimPegBoard;
use station_tests::draughts::{self, hand_move};
use station_tests::{
    Kill, console_address, exported, of_type, pegboard_config, post_command, read_events, scratch,
    station_run, wait_for, write_config,
};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// The hand's steps take at most 250 sim-ms and it thinks 900 sim-ms between
/// moves: at speed 2 that is 125 ms and 450 ms, the settle time between them.
const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;
const TOKEN: &str = "draughts-e2e-token";

fn config(dir: &Path, link: &Path) -> PathBuf {
    pegboard_config(
        dir,
        link,
        &format!(
            "baud = 115200\n\n[game]\nrules = \"draughts\"\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[tags]\nevent = \"e2e draughts\"\nwhite = \"Blind\"\nblack = \"Sighted\"\n\n[console]\nlisten = \"127.0.0.1:0\"\ntoken = \"{TOKEN}\"\n"
        ),
    )
}

fn shared_games() -> Vec<PdnGame> {
    let path = station_tests::workspace().join("tests/data/draughts/selfplay-international.pdn");
    read_games(&std::fs::read_to_string(path).expect("the shared draughts games")).expect("they read")
}

/// The shortest shared game with a king made and at least two multiple captures.
fn shared_game() -> PdnGame {
    let mut games: Vec<PdnGame> = shared_games()
        .into_iter()
        .filter(|g| {
            g.moves.iter().any(|m| m.promotes) && g.moves.iter().filter(|m| m.captured.len() > 1).count() >= 2
        })
        .collect();
    games.sort_by_key(|g| g.moves.len());
    games.into_iter().next().expect("a shared game with a king and multiple captures")
}

/// The station, its console address and its events file.
struct Run {
    child: Kill,
    base: String,
    events: PathBuf,
}

impl Run {
    fn start(dir: &Path, link: &Path) -> Run {
        let events = dir.join("events.jsonl");
        let mut child = Kill(
            station_run(&config(dir, link), &dir.join("journal"), Some(&events))
                .stdout(Stdio::piped())
                .spawn()
                .expect("station starts"),
        );
        let base = console_address(&mut child);
        Run { child, base, events }
    }

    fn events(&self) -> Vec<Value> {
        read_events(&self.events)
    }

    fn wait_event(&self, what: &str, f: impl Fn(&Value) -> bool) -> Value {
        wait_for(Duration::from_secs(30), what, || self.events().into_iter().find(|e| f(e)))
    }

    fn enter(&self, pdn: &str) {
        let (status, answer) = post_command(&self.base, TOKEN, &json!({"cmd": "enter_move", "move": pdn}));
        assert_eq!(status, 200, "enter {pdn}: {answer}");
    }

    fn stop(mut self) -> Vec<Value> {
        self.child.end();
        self.events()
    }
}

/// Plays `mv` with the hand on the simulated board; returns the occupancy after
/// it and whether its captured pieces went in reverse order (several captured).
fn play(sim: &SimPegBoard, hands: &mut DraughtsHands, occ: u64, mv: &HandMove) -> (u64, Option<bool>) {
    let (after, scans) = draughts::play(sim, hands, occ, mv);
    (after, removal_reversed(&scans, occ, mv))
}

/// For a move taking several pieces: whether the hand removed them in the
/// reverse of the capture order.
fn removal_reversed(scans: &[(u64, u64)], before: u64, mv: &HandMove) -> Option<bool> {
    let mut last = before;
    let mut removed = Vec::new();
    for &(_, occ) in scans {
        let gone = last & !occ;
        removed.extend(mv.captured.iter().copied().filter(|&c| gone == 1 << c));
        last = occ;
    }
    (mv.captured.len() > 1).then(|| removed.first() == mv.captured.last())
}

fn start_board(link: &Path) -> SimPegBoard {
    draughts::start_board(link, SPEED)
}

/// VIII.1.3, VIII.2.4: the blind player (White) on a peg board executes both
/// sides' moves; the sighted player's are entered at the console. A whole
/// shared game with multiple captures removed in both orders (4.11) and a
/// king (3.7): every move decided, `move`/`game_move` carry `pdn` and `ply`,
/// and `station export --pdn` gives the game back.
#[test]
fn a_whole_shared_game_on_the_draughts_peg_board_exports_as_the_same_pdn() {
    let dir = scratch("draughts-run");
    let link = dir.join("pegboard");
    let game = shared_game();
    let sim = start_board(&link);
    let run = Run::start(&dir, &link);
    run.wait_event("game started", |e| e["type"] == "game_started");
    let positions = game.positions();
    // The hand removes captured pieces in capture order or the reverse at
    // random: a seed whose hand does both in this game (the hand is
    // deterministic), so both orders reach the station.
    let orders_of = |seed: u64| {
        let mut hands = DraughtsHands::new(50, seed, false);
        let mut occ = positions[0].occupied();
        let mut orders = Vec::new();
        for (i, mv) in game.moves.iter().enumerate() {
            let hm = hand_move(&positions[i], mv);
            let (scans, _) = hands.play(occ, &hm, 900);
            orders.extend(removal_reversed(&scans, occ, &hm));
            occ = scans.last().map_or(occ, |s| s.1);
        }
        orders
    };
    let seed = (1..100).find(|&s| {
        let o = orders_of(s);
        o.contains(&true) && o.contains(&false)
    });
    let mut hands = DraughtsHands::new(50, seed.expect("a seed with both removal orders"), false);
    let mut occ = Position::initial(Variant::International).occupied();
    let mut orders = Vec::new();
    for (i, mv) in game.moves.iter().enumerate() {
        let ply = i + 1;
        let pdn = mv.pdn(Variant::International, true);
        if i % 2 == 1 {
            run.enter(&pdn);
        }
        let (after, reverse) = play(&sim, &mut hands, occ, &hand_move(&positions[i], mv));
        occ = after;
        orders.extend(reverse);
        // Executed on the board; the move that ends the game ends the following too (7.2).
        let last = ply == game.moves.len();
        run.wait_event(&format!("ply {ply} ({pdn}) executed on the board"), |e| {
            (e["type"] == "move" && e["ply"] == ply && e["pdn"] == pdn.as_str())
                || (last && e["type"] == "game_over")
        });
    }
    assert!(orders.contains(&true) && orders.contains(&false), "captures removed in both orders: {orders:?}");
    let ev = run.stop();
    let expected: Vec<String> = game.moves.iter().map(|m| m.pdn(Variant::International, true)).collect();
    let agreed: Vec<(u64, String)> = of_type(&ev, "game_move")
        .iter()
        .map(|e| (e["ply"].as_u64().unwrap(), e["pdn"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(agreed.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(), expected);
    assert!(agreed.iter().enumerate().all(|(i, (ply, _))| *ply == i as u64 + 1), "plies in order");
    assert!(of_type(&ev, "irregularity").is_empty(), "{:?}", of_type(&ev, "irregularity"));
    assert!(of_type(&ev, "board_mismatch").is_empty(), "{:?}", of_type(&ev, "board_mismatch"));
    let said: Vec<&Value> = of_type(&ev, "announcement");
    assert!(said.iter().any(|a| a["about"] == "move"), "moves are said");
    // VIII.2.3: a move is announced by its start and end square; the squares a
    // multiple capture passed are said only when he asks for the move again.
    assert!(expected.iter().any(|p| p.matches('x').count() >= 2), "the game has a multiple capture");
    let moves_said: Vec<&str> =
        said.iter().filter(|a| a["about"] == "move").filter_map(|a| a["text"].as_str()).collect();
    assert!(moves_said.iter().all(|t| !t.contains(" über ")), "{moves_said:?}");

    let pdn = exported(&dir.join("journal"), &["--pdn"]);
    assert!(pdn.contains("[GameType \"20\"]"), "{pdn}");
    let reread = read_games(&pdn).unwrap_or_else(|e| panic!("{e}: {pdn}"));
    assert_eq!(reread.len(), 1, "{pdn}");
    assert_eq!(reread[0].moves, game.moves, "{pdn}");
    assert_eq!(reread[0].tag("Event"), Some("e2e draughts"));
}

/// VIII.3.1: the sighted player's entered move executed wrongly on the blind
/// player's board is named with what puts it right; put right, the board
/// follows the game again. 5.4.6: a capture omitted is named, the console's
/// `correct` says what to put back; put back, play goes on.
#[test]
fn a_wrong_execution_and_an_omitted_capture_are_named_and_the_board_recovers() {
    let dir = scratch("draughts-wrong");
    let link = dir.join("pegboard");
    let sim = start_board(&link);
    let run = Run::start(&dir, &link);
    run.wait_event("game started", |e| e["type"] == "game_started");
    let mut hands = DraughtsHands::new(50, 5, false);
    let start = Position::initial(Variant::International);
    let w = find_move(&start, "32-28").unwrap().unwrap();
    let (mut occ, _) = play(&sim, &mut hands, start.occupied(), &hand_move(&start, &w));
    run.wait_event("32-28 agreed", |e| e["type"] == "game_move" && e["pdn"] == "32-28");
    let p1 = w.apply(&start);
    run.enter("19-23");
    // The blind player makes 19-24 on his board instead.
    let wrong = find_move(&p1, "19-24").unwrap().unwrap();
    (occ, _) = play(&sim, &mut hands, occ, &hand_move(&p1, &wrong));
    let named = run.wait_event("the wrong execution named", |e| {
        e["type"] == "irregularity" && e["article"] == "VIII.3.1"
    });
    assert_eq!(named["steps"], json!(["take the piece off 24", "put a black man on 23"]), "{named}");
    // Put right: the man from 24 to 23.
    let fix = HandMove { from: 23, path: vec![22], captured: Vec::new(), man_takes_man: false };
    (occ, _) = play(&sim, &mut hands, occ, &fix);
    run.wait_event("the board restored", |e| e["type"] == "board_restored" && e["board"] == "blind");
    // 5.4.6: White moves 31-27 while 28x19 is compulsory; the opponent wants it corrected.
    let omitted = HandMove { from: 30, path: vec![26], captured: Vec::new(), man_takes_man: false };
    (occ, _) = play(&sim, &mut hands, occ, &omitted);
    let named = run.wait_event("5.4.6 named", |e| e["type"] == "irregularity" && e["article"] == "5.4.6");
    assert_eq!(named["decision_wanted"], true, "{named}");
    let (status, answer) = post_command(&run.base, TOKEN, &json!({"cmd": "correct"}));
    assert_eq!(status, 200, "{answer}");
    let decided = run.wait_event("correct decided", |e| e["type"] == "irregularity_decided");
    assert_eq!(decided["steps"], json!(["take the piece off 27", "put a white man on 31"]), "{decided}");
    let back = HandMove { from: 26, path: vec![30], captured: Vec::new(), man_takes_man: false };
    (occ, _) = play(&sim, &mut hands, occ, &back);
    wait_for(Duration::from_secs(30), "the board restored again", || {
        (of_type(&run.events(), "board_restored").len() >= 2).then_some(())
    });
    // Play goes on: 28x19 decided from the board.
    let p2 = find_move(&p1, "19-23").unwrap().unwrap().apply(&p1);
    let next = find_move(&p2, "28x19").unwrap().unwrap();
    let _ = play(&sim, &mut hands, occ, &hand_move(&p2, &next));
    run.wait_event("28x19 agreed", |e| e["type"] == "game_move" && e["pdn"] == "28x19" && e["ply"] == 3);
    let ev = run.stop();
    let moves: Vec<&str> = of_type(&ev, "game_move").iter().map(|e| e["pdn"].as_str().unwrap()).collect();
    assert_eq!(moves, ["32-28", "19-23", "28x19"]);
}

/// Journal first (invariant 3): a draughts game killed with SIGKILL resumes
/// from its journal at the ply it reached, with its PDN record, and goes on.
#[test]
fn a_draughts_game_survives_a_kill_9() {
    let dir = scratch("draughts-kill9");
    let link = dir.join("pegboard");
    let game = shared_game();
    let positions = game.positions();
    let sim = start_board(&link);
    let mut hands = DraughtsHands::new(50, 9, false);
    let mut occ = positions[0].occupied();
    let expected: Vec<String> = game.moves.iter().map(|m| m.pdn(Variant::International, true)).collect();
    let mut run = Run::start(&dir, &link);
    run.wait_event("game started", |e| e["type"] == "game_started");
    let half = 10;
    for i in 0..half + 2 {
        if i == half {
            // SIGKILL: no clean-up runs; the same events file and journal.
            let events = run.events.clone();
            run.child.kill().unwrap();
            run.child.wait().unwrap();
            drop(run);
            run = Run::start(&dir, &link);
            assert_eq!(run.events, events);
            let resumed = run.wait_event("game resumed", |e| e["type"] == "game_resumed");
            assert_eq!(resumed["ply"], half, "{resumed}");
            assert_eq!(resumed["moves"], json!(expected[..half]), "{resumed}");
        }
        if i % 2 == 1 {
            run.enter(&expected[i]);
        }
        (occ, _) = play(&sim, &mut hands, occ, &hand_move(&positions[i], &game.moves[i]));
        let ply = i + 1;
        run.wait_event(&format!("ply {ply} on the board"), |e| e["type"] == "move" && e["ply"] == ply);
    }
    let ev = run.stop();
    let last: Vec<&str> =
        of_type(&ev, "game_move").iter().rev().take(2).map(|e| e["pdn"].as_str().unwrap()).collect();
    assert_eq!(last, [expected[half + 1].as_str(), expected[half].as_str()]);
}

fn two_board_config(dir: &Path, blind: &Path, mirror: &Path) -> PathBuf {
    write_config(
        dir,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[game]\nrules = \"draughts\"\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[clock]\ntime_control = \"4800+60\"\nauto_press = true\n\n[console]\nlisten = \"127.0.0.1:0\"\ntoken = \"{TOKEN}\"\n",
            blind.display(),
            mirror.display()
        ),
    )
}

/// VIII.1.3, VIII.2.4, VIII.3.1 with two blind players: each move made on its
/// player's peg board and executed on the other; once the blind player
/// executes his opponent's move wrongly, the station names it with what puts
/// it right, the board is put right and the game goes on; the FMJD clock
/// (80 min + 1 min a move) is pressed for every move.
#[test]
fn two_peg_boards_one_game_a_wrong_execution_recovered() {
    use station_core::draughts::movegen::legal_moves;
    let dir = scratch("draughts-two");
    let (blind_link, mirror_link) = (dir.join("pegboard-blind"), dir.join("pegboard-mirror"));
    let game = shared_game();
    let positions = game.positions();
    let sims = [start_board(&blind_link), start_board(&mirror_link)];
    let events = dir.join("events.jsonl");
    let mut child = Kill(
        station_run(&two_board_config(&dir, &blind_link, &mirror_link), &dir.join("journal"), Some(&events))
            .stdout(Stdio::piped())
            .spawn()
            .expect("station starts"),
    );
    let base = console_address(&mut child);
    let run = Run { child, base, events };
    run.wait_event("game started", |e| e["type"] == "game_started");
    let mut hands = [DraughtsHands::new(50, 21, false), DraughtsHands::new(50, 22, false)];
    let mut occ = [positions[0].occupied(); 2];
    // Black's first quiet move with another quiet move beside it: executed wrongly on the blind board.
    let wrong_at = (1..game.moves.len())
        .step_by(2)
        .find(|&i| !game.moves[i].is_capture() && legal_moves(&positions[i]).len() > 1)
        .expect("a quiet Black move with an alternative");
    let plies = wrong_at + 3;
    for (i, mv) in game.moves.iter().take(plies).enumerate() {
        let ply = i + 1;
        let owner = i % 2; // 0: the blind player's board (White), 1: the other's
        let hm = hand_move(&positions[i], mv);
        (occ[owner], _) = play(&sims[owner], &mut hands[owner], occ[owner], &hm);
        run.wait_event(&format!("ply {ply} agreed"), |e| e["type"] == "game_move" && e["ply"] == ply);
        let other = 1 - owner;
        if i == wrong_at {
            let wrong = legal_moves(&positions[i]).into_iter().find(|m| !m.same_effect(mv)).unwrap();
            (occ[other], _) =
                play(&sims[other], &mut hands[other], occ[other], &hand_move(&positions[i], &wrong));
            let named = run.wait_event("the wrong execution named", |e| {
                e["type"] == "irregularity" && e["article"] == "VIII.3.1" && e["board"] == "blind"
            });
            assert!(named["steps"].as_array().is_some_and(|s| !s.is_empty()), "{named}");
            // Put right: the wrong move taken back by hand, the right one made.
            let back = HandMove {
                from: wrong.to.0,
                path: vec![wrong.from.0],
                captured: Vec::new(),
                man_takes_man: false,
            };
            (occ[other], _) = play(&sims[other], &mut hands[other], occ[other], &back);
        }
        (occ[other], _) = play(&sims[other], &mut hands[other], occ[other], &hm);
        run.wait_event(&format!("ply {ply} executed on the other board"), |e| {
            e["type"] == "move"
                && e["ply"] == ply
                && e["board"] == if other == 0 { "blind" } else { "mirror" }
        });
    }
    run.wait_event("the blind board restored", |e| e["type"] == "board_restored" && e["board"] == "blind");
    let ev = run.stop();
    let expected: Vec<String> =
        game.moves.iter().take(plies).map(|m| m.pdn(Variant::International, true)).collect();
    let agreed: Vec<&str> = of_type(&ev, "game_move").iter().map(|e| e["pdn"].as_str().unwrap()).collect();
    assert_eq!(agreed, expected);
    assert_eq!(of_type(&ev, "clock_pressed").len(), plies, "one press a move");
    let by: Vec<&str> = of_type(&ev, "game_move").iter().map(|e| e["by"].as_str().unwrap()).collect();
    assert!(by.iter().enumerate().all(|(i, b)| *b == if i % 2 == 0 { "blind" } else { "mirror" }), "{by:?}");
}
