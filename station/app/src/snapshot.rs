//! The state the console and the mirror show (`GET /api/state`), built from the
//! table after every batch of events.
//!
//! It includes each open discrepancy's target position and which boards show it already
//! (`discrepancy_progress`), whether the game is adjourned, each board's port (a board that is not
//! there, `driver = "none"`, is `sensed: false`: nothing to connect, no alarm), the last move's SAN
//! with each language's piece letters (`last_move.sans`) and the listeners' languages.

use crate::config::Config;
use serde_json::{Value, json};
use shakmaty::{Color, EnPassantMode, Position, fen::Fen};
use station_core::clock::Side;
use station_core::diff::square_diff;
use station_core::inference::Agreement;
use station_core::journal::occ_hex;
use station_core::role::ByBoard;
use station_core::table::{Phase, Table};
use station_core::{BoardRole, Event, Millis};
use station_voices::{VoiceSettings, Wording};

/// What the station knows beside the table.
pub struct Extras<'a> {
    /// Link state per board.
    pub connected: ByBoard<bool>,
    /// Open discrepancy events.
    pub discrepancies: &'a [Event],
    /// The last events.
    pub log: &'a [Event],
}

/// The snapshot.
pub fn build(table: &Table, config: &Config, extras: &Extras<'_>, t: Millis) -> Value {
    let phase = match table.phase() {
        Phase::Waiting => "waiting",
        Phase::Playing => "playing",
        Phase::Finished => "finished",
    };
    let agreed = table.agreed();
    // The record is what every view shows: its moves, tags, marks and result.
    let record = table.record();
    let game = record.and_then(|r| r.chess_game());
    let moves: Vec<Value> = record
        .map(|r| {
            r.moves
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let notations = game
                        .as_ref()
                        .and_then(|g| Some(notations(g, i, *g.moves().get(i)?)))
                        .unwrap_or(Value::Null);
                    let mut v = json!({"ply": m.ply, "san": m.san, "uci": m.played, "notations": notations});
                    if let (Some(o), Some(pdn)) = (v.as_object_mut(), &m.pdn) {
                        o.insert("pdn".into(), Value::String(pdn.to_string()));
                    }
                    v
                })
                .collect()
        })
        .unwrap_or_default();
    let last_move = game.as_ref().and_then(|g| {
        let ply = g.ply();
        let mv = *g.moves().last()?;
        let before = g.position_at(ply - 1)?;
        let mut text = serde_json::Map::new();
        for lang in station_voices::BUILTIN_LANGUAGES {
            // The mirror's words for the sighted player: letter names, whatever
            // the blind player chose to hear (`move_reading`).
            let settings = VoiceSettings {
                language: lang.into(),
                move_reading: station_voices::MoveReading::Letters,
                ..config.voice.clone()
            };
            if let Ok(w) = Wording::new(&settings)
                && let Ok(a) = w.word_move(before, &mv)
            {
                text.insert(lang.into(), Value::String(a.to_string()));
            }
        }
        let san = g.sans()[ply - 1].to_string();
        // SAN with each language's piece letters (Sf3 for Springer and
        // skoczek): what the mirror and the player's page write.
        let sans: serde_json::Map<String, Value> = station_voices::BUILTIN_LANGUAGES
            .iter()
            .map(|lang| {
                ((*lang).to_owned(), Value::String(crate::braille_display::piece_letters(&san, lang)))
            })
            .collect();
        Some(json!({
            "ply": ply,
            "san": san,
            "sans": sans,
            "uci": g.uci(mv),
            "notations": notations(g, ply - 1, mv),
            "text": text
        }))
    });
    let boards: Vec<Value> = BoardRole::ALL
        .into_iter()
        .map(|role| {
            let tracker = table.tracker(role);
            // A board that is not there (`driver = "none"`, or no section) is
            // not sensed: nothing to connect, nothing to raise an alarm about.
            let unsensed = match role {
                BoardRole::Mirror => tracker.is_none() && !config.mirror_sensed(),
                BoardRole::Blind => table.config().blind_unsensed,
            };
            if unsensed {
                return json!({"role": role.to_string(), "sensed": false});
            }
            let sensed = table.sensed(role);
            let pieces = if role == BoardRole::Mirror { table.piece_tracker() } else { None };
            let (fen, board_moves, agreement, diff) = match (tracker, pieces) {
                (None, Some(p)) => {
                    let g = p.game();
                    let agreement = match p.agreement() {
                        station_core::piece_tracking::PieceAgreement::InStep => "in_step",
                        station_core::piece_tracking::PieceAgreement::Pending => "pending",
                        station_core::piece_tracking::PieceAgreement::Reported => "mismatch",
                    };
                    let diff: Vec<_> =
                        station_core::piece_tracking::piece_diff(g.position().board(), p.sensed())
                            .iter()
                            .map(|d| d.to_square_diff())
                            .collect();
                    let diff = serde_json::to_value(diff).unwrap_or_default();
                    (g.fen(), g.sans().iter().map(ToString::to_string).collect::<Vec<_>>(), agreement, diff)
                }
                _ => match tracker {
                    Some(tr) => {
                        let g = tr.game();
                        let agreement = match tr.agreement() {
                            Agreement::InStep => "in_step",
                            Agreement::Pending => "pending",
                            Agreement::Reported(_) => "mismatch",
                        };
                        let diff = serde_json::to_value(square_diff(g.position().board(), tr.sensed()))
                            .unwrap_or_default();
                        (
                            g.fen(),
                            g.sans().iter().map(ToString::to_string).collect::<Vec<_>>(),
                            agreement,
                            diff,
                        )
                    }
                    None => (String::new(), Vec::new(), "in_step", Value::Array(Vec::new())),
                },
            };
            let board_config =
                if role == BoardRole::Mirror { &config.boards.mirror } else { &config.boards.blind };
            // Where the board is expected: the console says it when the board is
            // not there (a missing or wrong port must not be silent).
            let port = board_config.as_ref().and_then(|b| b.port.as_ref()).map(|p| p.display().to_string());
            json!({
                "role": role.to_string(),
                "sensed": true,
                "connected": extras.connected[role],
                "port": port,
                "fen": fen,
                "occupancy": occ_hex(sensed),
                "moves": board_moves,
                "agreement": agreement,
                "diff": diff,
            })
        })
        .collect();
    let clock = table.clock().map(|c| {
        json!({
            "white_ms": c.remaining(Side::White, t),
            "black_ms": c.remaining(Side::Black, t),
            "running": c.is_running(),
            "started": c.is_started(),
            "on_move": if c.on_move() == Side::White { "white" } else { "black" },
            "moves": c.moves_made(Side::White),
            "flag": c.flagged(t).map(|f| if f.side == Side::White { "white" } else { "black" }),
        })
    });
    let discrepancy_progress = discrepancy_progress(table, extras.discrepancies);
    let adjourned = table.is_adjourned();
    let waiting_for_execution = table.sync().is_some_and(|s| s.deadline().is_some());
    // A game written otherwise (draughts' PDN) shows its own last move.
    let last_move = crate::games::words_of(table.rules()).last_move(table, record, last_move);
    let turn = table
        .turn()
        .map(|(_, side)| if side == station_core::clock::Side::White { "white" } else { "black" });
    let fen = table.fen();
    json!({
        "game_id": table.game_id(),
        "phase": phase,
        "start_fen": agreed.map(|g| g.start_fen()),
        "start": start(table),
        "fen": fen,
        "rules": table.rules().name(),
        "turn": turn,
        "moves": moves,
        "tags": record.map(|r| &r.tags),
        "result": record.and_then(|r| r.end.as_ref()).map(|e| json!({
            "result": e.result,
            "reason": e.reason,
            "termination": e.termination,
            "words": station_core::record::reason_in_words(&e.reason, &e.result),
            "t_ms": e.t_ms,
        })),
        "marks": record.map(|r| &r.marks),
        "last_move": last_move,
        "blind_color": if table.config().blind_color == Color::White { "white" } else { "black" },
        "mirror_language": config.console.mirror_language,
        // The language of what each listener hears and of the blind player's speech
        // (the console marks those words with it: they are not English).
        "languages": {
            "private": config.audio.private.language,
            "public": config.audio.public.language,
            "speech": config.speech.model_language(&config.voice),
        },
        "boards": boards,
        "clock": clock,
        "discrepancies": extras.discrepancies,
        "discrepancy_progress": discrepancy_progress,
        "adjourned": adjourned,
        "waiting_for_execution": waiting_for_execution,
        "log": extras.log,
    })
}

/// The move of ply `index + 1` in every notation of ICCF Appendix A, keyed as
/// `station export --notation` names them (the console shows the chosen one).
fn notations(g: &station_core::Game, index: usize, mv: shakmaty::Move) -> Value {
    use station_core::notation::{Notation, write};
    let Some(pos) = g.position_at(index) else { return Value::Null };
    let mut out = serde_json::Map::new();
    for (key, notation) in [
        ("san", Notation::San),
        ("pl", Notation::Pl),
        ("iccf", Notation::Iccf),
        ("lan", Notation::Lan),
        ("fan", Notation::Fan),
    ] {
        out.insert(key.into(), Value::String(write(pos, mv, notation)));
    }
    Value::Object(out)
}

/// The start position the table plays (or waits for): its FEN, its
/// Chess960 number (ICCF Appendix B; 518 is the standard start) and White's
/// first rank a to h, as the blind player hears it for his set-up.
fn start(table: &Table) -> Value {
    // A draughts table has no chess start: its set-up reads as a standard one's.
    let standard = station_core::Game::default();
    let start = table.config().start.chess().unwrap_or(&standard);
    let board = start.start().board();
    let first_rank: String =
        station_core::setup::first_rank(board).iter().map(|r| r.map_or('.', |r| r.upper_char())).collect();
    json!({
        "fen": start.start_fen(),
        "chess960": station_core::setup::chess960_number(board),
        "first_rank": first_rank,
    })
}

/// For each open discrepancy, the position every board must show and whether
/// each board concerned shows it already: what the console walks the operator
/// through while the boards are put right (D.2.9).
fn discrepancy_progress(table: &Table, open: &[Event]) -> Vec<Value> {
    let Some(agreed) = table.agreed() else { return Vec::new() };
    open.iter()
        .filter_map(|e| match e {
            Event::Discrepancy { id, agreed_ply, fix, .. } => {
                // After a take-back the position may be gone: then nothing to show.
                let target = agreed.position_at(*agreed_ply)?;
                let boards: Vec<Value> = fix
                    .iter()
                    .map(|f| {
                        let shows = match (f.board, table.piece_tracker()) {
                            (BoardRole::Mirror, Some(p)) => p.sensed() == target.board(),
                            (role, _) => table.sensed(role) == target.board().occupied(),
                        };
                        json!({"board": f.board.to_string(), "shows_target": shows})
                    })
                    .collect();
                let fen = Fen::from_position(target, EnPassantMode::Legal).to_string();
                Some(json!({"id": id, "agreed_ply": agreed_ply, "target_fen": fen, "boards": boards}))
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Bitboard, Square};
    use station_core::game::Game;
    use station_core::inference::TrackerConfig;
    use station_core::table::TableConfig;

    /// Two peg boards; returns the table and the time after the start position settled.
    fn two_boards() -> (Table, Millis, Vec<Event>) {
        let cfg = TableConfig { mirror_sensed: true, ..TableConfig::single(TrackerConfig::default()) };
        let mut table = Table::new(cfg);
        let mut out = Vec::new();
        let start = Game::default().occupancy();
        table.on_scan(BoardRole::Mirror, 100, start, &mut out);
        table.on_scan(BoardRole::Blind, 200, start, &mut out);
        table.tick(1200, &mut out);
        assert_eq!(table.phase(), Phase::Playing);
        (table, 1200, out)
    }

    fn play(
        table: &mut Table,
        role: BoardRole,
        t: &mut Millis,
        from: Square,
        to: Square,
        out: &mut Vec<Event>,
    ) {
        let mut occ: Bitboard = table.sensed(role);
        occ.discard(from);
        *t += 120;
        table.on_scan(role, *t, occ, out);
        occ.add(to);
        *t += 120;
        table.on_scan(role, *t, occ, out);
        *t += 1000;
        table.tick(*t, out);
    }

    fn extras<'a>(discrepancies: &'a [Event], log: &'a [Event]) -> Extras<'a> {
        Extras { connected: ByBoard::both(true), discrepancies, log }
    }

    #[test]
    fn the_progress_of_a_discrepancy_says_which_boards_show_the_position() {
        let (mut table, mut t, mut out) = two_boards();
        play(&mut table, BoardRole::Blind, &mut t, Square::E2, Square::E4, &mut out);
        play(&mut table, BoardRole::Mirror, &mut t, Square::E2, Square::E3, &mut out);
        let disc: Vec<Event> =
            out.iter().filter(|e| matches!(e, Event::Discrepancy { .. })).cloned().collect();
        assert_eq!(disc.len(), 1, "{out:?}");
        let config = Config::default();
        let s = build(&table, &config, &extras(&disc, &[]), t);
        let progress = &s["discrepancy_progress"][0];
        assert_eq!(progress["agreed_ply"], 1);
        assert_eq!(progress["target_fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(progress["boards"], json!([{"board": "mirror", "shows_target": false}]));
        // The sighted player moves the pawn on to e4: his board shows the position now.
        play(&mut table, BoardRole::Mirror, &mut t, Square::E3, Square::E4, &mut out);
        let s = build(&table, &config, &extras(&disc, &[]), t);
        assert_eq!(
            s["discrepancy_progress"][0]["boards"],
            json!([{"board": "mirror", "shows_target": true}])
        );
        // No open discrepancy, no progress.
        assert_eq!(build(&table, &config, &extras(&[], &[]), t)["discrepancy_progress"], json!([]));
    }

    #[test]
    fn each_board_names_its_port() {
        let (table, t, _) = two_boards();
        let config = Config::parse(
            "[boards.blind]\nport = \"/dev/annexd-pegboard\"\n[boards.mirror]\ndriver = \"sim\"\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let extras = Extras { connected: ByBoard::new(false, true), discrepancies: &[], log: &[] };
        let s = build(&table, &config, &extras, t);
        assert_eq!(s["boards"][0]["port"], "/dev/annexd-pegboard");
        assert_eq!(s["boards"][0]["connected"], false);
        assert_eq!(s["boards"][1]["port"], Value::Null, "a simulated board has no port of its own");
    }

    #[test]
    fn a_board_that_is_not_there_is_not_sensed_and_the_last_move_has_each_languages_letters() {
        // Neither board sensed (`driver = "none"` for both): a game at once.
        let cfg = TableConfig { blind_unsensed: true, ..TableConfig::single(TrackerConfig::default()) };
        let mut table = Table::new(cfg);
        table.apply(5_000, &station_core::input::Input::Tick).unwrap();
        table.apply(5_100, &station_core::input::Input::EnterMove { mv: "Nf3".into() }).unwrap();
        let config = Config::parse(
            "[boards.blind]\ndriver = \"none\"\n[boards.mirror]\ndriver = \"none\"\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let extras = Extras { connected: ByBoard::both(false), discrepancies: &[], log: &[] };
        let s = build(&table, &config, &extras, 5_200);
        assert_eq!(
            s["boards"],
            json!([{"role": "blind", "sensed": false}, {"role": "mirror", "sensed": false}]),
            "nothing to connect, nothing to raise an alarm about"
        );
        assert_eq!(s["last_move"]["san"], "Nf3");
        let sans = &s["last_move"]["sans"];
        assert_eq!((&sans["de"], &sans["pl"], &sans["en"]), (&json!("Sf3"), &json!("Sf3"), &json!("Nf3")));
        for lang in station_voices::BUILTIN_LANGUAGES {
            assert!(sans[lang].is_string(), "the move written for {lang}: {sans}");
        }
    }

    /// The mirror's large print and the player's page write the last move of
    /// a real game (Thomason–Fischer, USA-chJ 1955, from `tests/data`) with
    /// each language's piece letters, as its chess literature prints them
    /// (hu.wikipedia "A sakkjátszmák lejegyzése", its table of the letters
    /// in other languages).
    #[test]
    fn the_last_move_of_a_real_game_has_each_languages_piece_letters() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pgn/games/Fischer.pgn");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = station_core::pgn::read_games(&bytes).into_iter().next().expect("a game").game;
        let cfg = TableConfig { blind_unsensed: true, ..TableConfig::single(TrackerConfig::default()) };
        let mut table = Table::new(cfg);
        table.apply(5_000, &station_core::input::Input::Tick).unwrap();
        let config = Config::parse(
            "[boards.blind]\ndriver = \"none\"\n[boards.mirror]\ndriver = \"none\"\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let extras = Extras { connected: ByBoard::both(false), discrepancies: &[], log: &[] };
        // Ply → SAN, then German, Polish, Spanish, Russian and Hungarian.
        let want: [(usize, [&str; 6]); 5] = [
            (2, ["Nf6", "Sf6", "Sf6", "Cf6", "Кf6", "Hf6"]),
            (6, ["Bg7", "Lg7", "Gg7", "Ag7", "Сg7", "Fg7"]),
            (28, ["Kh7", "Kh7", "Kh7", "Rh7", "Крh7", "Kh7"]),
            (29, ["Qe2", "De2", "He2", "De2", "Фe2", "Ve2"]),
            (42, ["Rxf4", "Txf4", "Wxf4", "Txf4", "Лxf4", "Bxf4"]),
        ];
        let mut t = 5_100;
        for (ply, san) in game.sans().iter().enumerate().map(|(i, s)| (i + 1, s.to_string())) {
            table.apply(t, &station_core::input::Input::EnterMove { mv: san.clone() }).unwrap();
            t += 100;
            let Some((_, written)) = want.iter().find(|(p, _)| *p == ply) else { continue };
            let s = build(&table, &config, &extras, t);
            let last = &s["last_move"];
            assert_eq!((&last["ply"], &last["san"]), (&json!(ply), &json!(written[0])));
            for (lang, want) in ["de", "pl", "es", "ru", "hu"].into_iter().zip(&written[1..]) {
                assert_eq!(last["sans"][lang], *want, "ply {ply} in {lang}: {}", last["sans"]);
            }
        }
        assert!(game.sans().len() >= 42, "the game has the plies looked at");
    }

    #[test]
    fn adjourned_until_resumed_or_a_new_game() {
        let (mut table, t, mut out) = two_boards();
        let config = Config::default();
        let adjourned = |table: &Table| build(table, &config, &extras(&[], &[]), t)["adjourned"].clone();
        assert_eq!(adjourned(&table), false, "not adjourned");
        table.adjourn("e4", t + 1, &mut out).unwrap();
        assert_eq!(adjourned(&table), true, "sealed");
        table.resume_adjourned(t + 2, &mut out).unwrap();
        assert_eq!(adjourned(&table), false, "resumed");
        table.adjourn("e5", t + 3, &mut out).unwrap();
        table.new_game(Game::default(), &[], &Default::default(), t + 4, &mut out).unwrap();
        assert_eq!(adjourned(&table), false, "a new game");
        assert_eq!(build(&table, &config, &extras(&[], &[]), t)["clock"], Value::Null, "no time control");
    }
}
