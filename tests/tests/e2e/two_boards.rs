//! One game on two boards through the real `station run`: the blind player's
//! peg board and the sighted player's DGT board, each simulated on its own
//! pseudo-terminal; the DGT board is unplugged and plugged in again mid-game.

use shakmaty::Chess;
use station_core::pgn::read_games;
use station_sim::games::two_boards;
use station_tests::{
    board_statuses as statuses, of_type, peg_and_dgt_boards, read_events, scratch, shared_pgn, start_station,
    wait_for, write_config,
};
use std::time::Duration;

const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;

#[test]
fn d_2_9_a_real_game_on_two_boards_stays_in_step_across_an_unplugged_dgt_board() {
    let dir = scratch("two-boards");
    let (peg_link, dgt_link) = (dir.join("pegboard"), dir.join("dgt"));
    let events = dir.join("events.jsonl");
    let bytes = std::fs::read(shared_pgn("games/Capablanca.pgn")).unwrap();
    let game = read_games(&bytes)
        .into_iter()
        .find(|g| g.error.is_none() && (40..=60).contains(&g.moves().len()))
        .expect("a game of 40 to 60 plies")
        .game;
    let moves = game.moves();
    let half = moves.len() / 2;
    let config = write_config(
        &dir,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"dgt\"\nport = \"{}\"\nbaud = 9600\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\nblind_color = \"white\"\n\n[console]\nlisten = \"127.0.0.1:0\"\n",
            peg_link.display(),
            dgt_link.display()
        ),
    );
    let (pegs, dgt) = peg_and_dgt_boards(&dir, SPEED, None);
    let mut station = start_station(&config, &dir.join("journal"), &events);
    wait_for(Duration::from_secs(15), "both boards connected", || {
        (statuses(&events, "blind") == ["connected"] && statuses(&events, "mirror") == ["connected"])
            .then_some(())
    });
    let play = |start: &Chess, part: &[shakmaty::Move]| {
        let (scans, updates) =
            two_boards(start, part, shakmaty::Color::White, 900, SETTLE_MS, SPEED, None, None);
        pegs.play_scans(scans);
        dgt.play_updates(updates);
        pegs.wait_idle();
        dgt.wait_idle();
    };
    let agreed = || of_type(&read_events(&events), "game_move").len();
    play(game.start(), &moves[..half]);
    wait_for(Duration::from_secs(20), "first half agreed", || (agreed() >= half).then_some(()));

    dgt.unplug();
    wait_for(Duration::from_secs(10), "DGT board disconnected", || {
        (statuses(&events, "mirror").last().map(String::as_str) == Some("disconnected")).then_some(())
    });
    dgt.replug().unwrap();
    wait_for(Duration::from_secs(10), "DGT board connected again", || {
        (statuses(&events, "mirror") == ["connected", "disconnected", "connected"]).then_some(())
    });

    play(game.position_at(half).unwrap(), &moves[half..]);
    wait_for(Duration::from_secs(30), "every move agreed", || (agreed() >= moves.len()).then_some(()));
    std::thread::sleep(Duration::from_millis(4 * SETTLE_MS));
    station.kill().unwrap();
    station.wait().unwrap();

    let ev = read_events(&events);
    let record: Vec<String> =
        of_type(&ev, "game_move").iter().map(|e| e["uci"].as_str().unwrap().to_owned()).collect();
    let expected: Vec<String> = moves.iter().map(|m| game.uci(*m)).collect();
    assert_eq!(record, expected, "the agreed record is the game");
    assert!(of_type(&ev, "discrepancy").is_empty(), "{:?}", of_type(&ev, "discrepancy"));
    assert!(of_type(&ev, "board_mismatch").is_empty(), "{:?}", of_type(&ev, "board_mismatch"));
    let mirror_moves = of_type(&ev, "move").iter().filter(|e| e["board"] == "mirror").count();
    assert_eq!(mirror_moves, moves.len(), "the DGT board executed every move");
}
