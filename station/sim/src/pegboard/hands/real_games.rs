//! The hands over the repository's real games: every scan of every move stays
//! on the move's own holes (noise put back aside), and castling is king first.

use super::{BOUNCE_LIMIT_MS, Hands, TimedScan, check_timing, occupancy_after};
use shakmaty::san::San;
use shakmaty::{Bitboard, Chess, Move, Position, Square};

/// The moves of every game in one PGN file of `tests/data/pgn/games`, as far
/// as they parse (a game stops at its first move that does not).
fn games(file: &str) -> Vec<Vec<Move>> {
    let path = format!("{}/../../tests/data/pgn/games/{file}", env!("CARGO_MANIFEST_DIR"));
    // Names in some files are Latin-1; only the moves matter here.
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = String::from_utf8_lossy(&bytes);
    let mut games = Vec::new();
    let mut movetext = String::new();
    for line in text.lines().chain(std::iter::once("[End]")) {
        if line.starts_with('[') {
            if !movetext.trim().is_empty() {
                games.push(moves(&movetext));
            }
            movetext.clear();
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    games
}

fn moves(movetext: &str) -> Vec<Move> {
    // Comments and variations out, then move numbers, results and NAGs.
    let (mut plain, mut depth) = (String::new(), 0i32);
    for c in movetext.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for token in plain.split_whitespace() {
        let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if san.is_empty() || san.starts_with('$') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            continue;
        }
        let Some(mv) = san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()) else { break };
        pos.play_unchecked(mv);
        out.push(mv);
    }
    out
}

/// The holes a move itself uses.
fn own_squares(pos: &Chess, mv: &Move) -> Bitboard {
    let after = occupancy_after(pos, mv);
    let mut own = pos.board().occupied() ^ after;
    if let Some(from) = mv.from() {
        own |= Bitboard::from(from);
    }
    own | Bitboard::from(mv.to())
}

/// The scans without sensor bounces: a state that lasts under the bounce
/// limit and is followed by the state before it.
fn without_bounces(start: Bitboard, scans: &[TimedScan]) -> Vec<TimedScan> {
    let mut kept: Vec<TimedScan> = Vec::new();
    for (i, scan) in scans.iter().enumerate() {
        let before = kept.last().map_or(start, |s| s.occupancy);
        let next = scans.get(i + 1);
        let bounce = next.is_some_and(|n| n.occupancy == before && n.at_ms - scan.at_ms < BOUNCE_LIMIT_MS);
        if !bounce && scan.occupancy != before {
            kept.push(*scan);
        }
    }
    kept
}

/// Checks one move's scans: no peg parked in a foreign hole, castling king first.
fn check_scans(pos: &Chess, mv: &Move, scans: &[TimedScan], what: &str) {
    let before = pos.board().occupied();
    let after = occupancy_after(pos, mv);
    let own = own_squares(pos, mv);
    assert_eq!(scans.last().map(|s| s.occupancy), Some(after), "{what}: ends on the move");
    let states = without_bounces(before, scans);
    for (i, state) in states.iter().enumerate() {
        let foreign = (state.occupancy ^ before) & !own;
        // A foreign hole may only be emptied for a moment (a neighbour knocked
        // or touched and put back), never filled: that is a piece parked.
        assert!(
            (foreign & state.occupancy).is_empty(),
            "{what}: a peg rests in foreign hole(s) {:?} at {} ms",
            foreign & state.occupancy,
            state.at_ms
        );
        assert!(foreign.count() <= 1, "{what}: two foreign holes disturbed at {} ms", state.at_ms);
        if let Some(sq) = foreign.first() {
            let back = states[i + 1..].iter().find(|s| s.occupancy.contains(sq));
            assert!(back.is_some(), "{what}: {sq} knocked and never put back");
        }
    }
    if let Move::Castle { king, rook } = *mv {
        let first = states
            .iter()
            .find(|s| !((s.occupancy ^ before) & (Bitboard::from(king) | Bitboard::from(rook))).is_empty());
        let first = first.unwrap_or_else(|| panic!("{what}: castling never lifts the king or the rook"));
        assert!(
            !first.occupancy.contains(king) && first.occupancy.contains(rook),
            "{what}: castling must lift the king first"
        );
    }
}

/// Plays every game of `file` with `seeds` hands each (one hand per game and
/// seed), checking every move; returns (plies, castlings) checked.
fn play_file(file: &str, seeds: &[Option<u64>], every: usize) -> (usize, usize) {
    let (mut plies, mut castlings) = (0, 0);
    for (g, game) in games(file).iter().enumerate().step_by(every) {
        for &seed in seeds {
            let mut hands = Hands::new(seed.map(|s| s ^ g as u64));
            let (mut pos, mut now, mut out) = (Chess::default(), 0, Vec::new());
            for (ply, mv) in game.iter().enumerate() {
                out.clear();
                hands.play(&pos, mv, &mut now, &mut out);
                let what = format!("{file} game {} ply {} ({mv}) seed {seed:?}", g + 1, ply + 1);
                check_timing(&out, None, hands.timing()).unwrap_or_else(|e| panic!("{what}: {e}"));
                check_scans(&pos, mv, &out, &what);
                castlings += usize::from(mv.is_castle());
                plies += 1;
                pos.play_unchecked(*mv);
                let mut noise = Vec::new();
                hands.think(pos.board().occupied(), 1_000, &mut now, &mut noise);
            }
        }
    }
    (plies, castlings)
}

#[test]
fn every_game_of_the_repository_with_noisy_hands() {
    for file in ["Capablanca.pgn", "Fischer.pgn", "Kasparov.pgn", "PolgarJ.pgn"] {
        let parsed = games(file);
        let whole = parsed.iter().filter(|g| g.len() >= 20).count();
        assert!(whole * 10 >= parsed.len() * 9, "{file}: only {whole} of {} games parse", parsed.len());
        let (plies, castlings) = play_file(file, &[Some(0x5eed), None], 1);
        assert!(plies > 10_000 && castlings > 100, "{file}: {plies} plies, {castlings} castlings");
    }
}

#[test]
fn some_games_with_many_seeds() {
    let seeds: Vec<Option<u64>> = (1..=12).map(|s| Some(s * 7919)).collect();
    let (plies, castlings) = play_file("Fischer.pgn", &seeds, 25);
    assert!(plies > 10_000 && castlings > 100, "{plies} plies, {castlings} castlings");
}

#[test]
fn a_slip_into_a_foreign_hole_is_caught() {
    let pos = Chess::default();
    let mv = "Nf3".parse::<San>().unwrap().to_move(&pos).unwrap();
    let start = pos.board().occupied();
    let parked = start.without(Square::G1).with(Square::E3);
    let scans = [
        TimedScan { at_ms: 100, occupancy: start.without(Square::G1) },
        TimedScan { at_ms: 200, occupancy: parked },
        TimedScan { at_ms: 400, occupancy: start.without(Square::G1) },
        TimedScan { at_ms: 500, occupancy: occupancy_after(&pos, &mv) },
    ];
    let caught = std::panic::catch_unwind(|| check_scans(&pos, &mv, &scans, "slip"));
    assert!(caught.is_err());
    check_scans(&pos, &mv, &[scans[0], scans[3]], "straight");
}
