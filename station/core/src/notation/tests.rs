use super::*;

/// The sample game of ICCF Appendix A (its table, with two misprints of the
/// source corrected: 9. Sbd2 in the Polish column, and the figurine column's
/// pieces, which there name other pieces than the moves').
const SAN: &str = "e4 e5 Nf3 Nf6 d4 exd4 e5 Ne4 Qxd4 d5 exd6 Nxd6 Bg5 Nc6 Qe3+ Be7 Nbd2 O-O O-O-O Re8 Kb1";
const PL: &str = "e4 e5 Sf3 Sf6 d4 exd4 e5 Se4 Hxd4 d5 exd6 Sxd6 Gg5 Sc6 He3+ Ge7 Sbd2 0-0 0-0-0 We8 Kb1";
const ICCF: &str = "5254 5755 7163 7866 4244 5544 5455 6654 4144 4745 5546 5446 3175 2836 4453 6857 2142 5878 5131 6858 3121";
const LAN: &str = "e2-e4 e7-e5 Ng1-f3 Ng8-f6 d2-d4 e5xd4 e4-e5 Nf6-e4 Qd1xd4 d7-d5 e5xd6 Ne4xd6 Bc1-g5 Nb8-c6 Qd4-e3+ \
                   Bf8-e7 Nb1-d2 0-0 0-0-0 Rf8-e8 Kc1-b1";
const FAN: &str = "e4 e5 ♘f3 ♞f6 d4 exd4 e5 ♞e4 ♕xd4 d5 exd6 ♞xd6 ♗g5 ♞c6 ♕e3+ ♝e7 ♘bd2 0-0 0-0-0 ♜e8 ♔b1";

fn appendix_game() -> Game {
    let mut g = Game::default();
    for san in SAN.split_whitespace() {
        let mv = san.parse::<SanPlus>().unwrap().san.to_move(g.position()).unwrap();
        g.push(mv);
    }
    g
}

#[test]
fn iccf_appendix_a_the_sample_game_is_written_in_every_notation_as_the_table_shows() {
    let g = appendix_game();
    for (notation, expected) in [
        (Notation::San, SAN),
        (Notation::Pl, PL),
        (Notation::Iccf, ICCF),
        (Notation::Lan, LAN),
        (Notation::Fan, FAN),
    ] {
        let written: Vec<String> =
            (0..g.ply()).map(|i| write(g.position_at(i).unwrap(), g.moves()[i], notation)).collect();
        assert_eq!(written.join(" "), expected, "{notation:?}");
    }
}

#[test]
fn iccf_appendix_a_every_notation_is_read_back_to_the_same_move() {
    let g = appendix_game();
    for text in [SAN, PL, ICCF, LAN, FAN] {
        for (i, token) in text.split_whitespace().enumerate() {
            let pos = g.position_at(i).unwrap();
            assert_eq!(read(pos, token), Some(g.moves()[i]), "ply {} `{token}`", i + 1);
        }
    }
}

#[test]
fn appendix_e_polish_captures_with_x_colon_or_nothing_and_uci() {
    let g = appendix_game();
    let pos = g.position_at(8).unwrap(); // 5. Qxd4
    let qxd4 = g.moves()[8];
    for text in ["Hxd4", "H:d4", "Hd4", "Qd4", "d1d4", "Qd1-d4", "4144", "Qxd4+", "Hxd4!"] {
        assert_eq!(read(pos, text), Some(qxd4), "`{text}`");
    }
    let pos = g.position_at(5).unwrap(); // 3... exd4
    for text in ["exd4", "e:d4", "ed4", "ed", "e5d4"] {
        let expected = if text == "ed" { None } else { Some(g.moves()[5]) };
        assert_eq!(read(pos, text), expected, "`{text}`");
    }
}

#[test]
fn iccf_a_19_and_a_20_promotion_digits_and_castling_as_the_kings_move() {
    let pos = crate::pgn::position_from_fen("1k6/5P2/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let rook = read(&pos, "67682").unwrap();
    assert_eq!(rook.promotion(), Some(Role::Rook));
    assert_eq!(write(&pos, rook, Notation::Iccf), "67682");
    assert_eq!(write(&pos, rook, Notation::Pl), "f8W+");
    assert_eq!(write(&pos, rook, Notation::Lan), "f7-f8R+");
    assert_eq!(write(&pos, rook, Notation::Fan), "f8♖+");
    assert_eq!(read(&pos, "f8W"), Some(rook));
    assert_eq!(read(&pos, "f7f8r"), Some(rook));
    assert_eq!(read(&pos, "f8=R+"), Some(rook));
    assert_eq!(read(&pos, "f8"), None, "a promotion needs its piece: never guessed");
    let short = read(&pos, "5171").unwrap();
    assert!(matches!(short, Move::Castle { .. }));
    assert_eq!(read(&pos, "0-0"), Some(short));
    assert_eq!(read(&pos, "e1g1"), Some(short));
    assert_eq!(write(&pos, short, Notation::Iccf), "5171");
    assert_eq!(write(&pos, read(&pos, "O-O-O").unwrap(), Notation::Iccf), "5131");
    for bad in ["", "9999", "51", "5179", "Zf3", "e9", "O-O-O-O", "x", "Hxd4xd5"] {
        assert_eq!(read(&pos, bad), None, "`{bad}`");
    }
}

#[test]
fn a_text_that_fits_two_moves_is_never_guessed() {
    // Knights on b1 and f3 may both go to d2: "Sd2" is ambiguous, "Sbd2" is not.
    let pos = crate::pgn::position_from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap();
    assert_eq!(read(&pos, "Sd2"), None);
    assert!(read(&pos, "Sbd2").is_some());
    assert!(read(&pos, "N3d2").is_some());
    assert!(read(&pos, "2142").is_some());
}

#[test]
fn appendix_e_a_scoresheet_has_move_numbers_draw_offer_marks_and_the_result() {
    let g = appendix_game();
    let sheet = scoresheet(&g, Notation::Pl, &[21], "1/2-1/2");
    let lines: Vec<&str> = sheet.lines().collect();
    assert_eq!(lines[0], "1. e4 e5");
    assert_eq!(lines[8], "9. Sbd2 0-0");
    assert_eq!(lines[10], "11. Kb1 (=)");
    assert_eq!(lines[11], "1/2-1/2");
    let iccf = scoresheet(&g, Notation::Iccf, &[], "*");
    assert!(iccf.starts_with("1. 5254 5755\n2. 7163 7866\n"), "{iccf}");
}

/// Every move of every real game (all files of the data set), in every
/// notation, is read back to itself and to nothing else.
#[test]
fn every_move_of_the_real_games_round_trips_in_every_notation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pgn");
    let mut moves = 0;
    for file in ["games/Fischer.pgn", "games/PolgarJ.pgn", "chess960/cutechess-fischerrandom.pgn"] {
        let Ok(bytes) = std::fs::read(dir.join(file)) else {
            assert!(!file.starts_with("games/"), "{file} is part of the data set");
            continue;
        };
        for game in crate::pgn::read_games(&bytes).iter().take(300) {
            let g = &game.game;
            for (i, &mv) in g.moves().iter().enumerate() {
                let pos = g.position_at(i).unwrap();
                for notation in [Notation::San, Notation::Pl, Notation::Iccf, Notation::Lan, Notation::Fan] {
                    let text = write(pos, mv, notation);
                    let back = read(pos, &text);
                    if back.is_none() && notation == Notation::Iccf && matches!(mv, Move::Castle { .. }) {
                        // Chess960: the king's castling move can be the same two squares as a
                        // plain king step (Kf8-g8 beside 0-0). Numeric notation cannot tell
                        // them apart, and the reader does not guess.
                        let twins = pos
                            .legal_moves()
                            .iter()
                            .filter(|m| m.from() == mv.from() && king_target(m) == king_target(&mv))
                            .count();
                        assert_eq!(twins, 2, "{file} ply {} `{text}`", i + 1);
                        continue;
                    }
                    assert_eq!(back, Some(mv), "{file} ply {} {notation:?} `{text}`", i + 1);
                }
                assert_eq!(read(pos, &g.uci(mv)), Some(mv), "UCI");
                for notation in [Notation::San, Notation::Pl, Notation::Iccf, Notation::Lan, Notation::Fan] {
                    let text = write(pos, mv, notation);
                    if let Ok(reading) = read_strictly(pos, &text) {
                        assert_eq!(
                            reading.needed,
                            [],
                            "{file} ply {} {notation:?} `{text}` reads exactly",
                            i + 1
                        );
                    }
                }
                assert_eq!(read_strictly(pos, &g.uci(mv)).map(|r| r.needed), Ok(vec![]), "UCI reads exactly");
                moves += 1;
            }
        }
    }
    assert!(moves > 40_000, "{moves} moves");
}

/// What the voices crate's own reader (now gone) accepted, the one reader
/// accepts too: scoresheet suffixes and zeros, UCI castling and promotion;
/// and refuses what it refused.
#[test]
fn the_forms_of_the_former_voices_reader_are_read_here() {
    let start = Chess::default();
    let castling = crate::pgn::position_from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let ep = crate::pgn::position_from_fen("4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 2").unwrap();
    let promo = crate::pgn::position_from_fen("3r4/4P3/8/8/8/k7/8/4K3 w - - 0 1").unwrap();
    let uci = |mv: Move| mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
    let cases: [(&Chess, &str, &str); 8] = [
        (&start, "g1f3", "g1f3"),
        (&start, "e2e4", "e2e4"),
        (&castling, "e1g1", "e1g1"),
        (&castling, "e1c1", "e1c1"),
        (&castling, "0-0-0", "e1c1"),
        (&ep, "exf6 e.p.", "e5f6"),
        (&ep, "exf6!?", "e5f6"),
        (&promo, "e7d8n", "e7d8n"),
    ];
    for (pos, text, expected) in cases {
        let mv = read(pos, text).unwrap_or_else(|| panic!("`{text}` reads"));
        assert_eq!(uci(mv), expected, "`{text}`");
    }
    for text in ["", "Nf6", "e5e6", "Ke2", "xyz", "Qh5#", "e2e5", "a very long string indeed, not a move"] {
        assert_eq!(read(&start, text), None, "`{text}`");
    }
    assert_eq!(read_exactly(&start, "xyz"), Err(ReadError::Unreadable));
    assert_eq!(read_exactly(&start, "e2e5"), Err(ReadError::Illegal));
}

/// The console's (and the hub's) "enter move" goes to `Table::enter_move`:
/// the same moves entered in each of the five notations make the same game.
#[test]
fn iccf_appendix_a_a_move_entered_in_any_notation_is_the_same_move() {
    use crate::table::{Table, TableConfig};
    let g = appendix_game();
    let mut records = Vec::new();
    for notation in [Notation::San, Notation::Pl, Notation::Iccf, Notation::Lan, Notation::Fan] {
        let cfg = TableConfig {
            blind_unsensed: true,
            ..TableConfig::single(crate::inference::TrackerConfig::default())
        };
        let mut table = Table::new(cfg);
        let mut out = Vec::new();
        table.tick(1_000, &mut out);
        for i in 0..g.ply() {
            let text = write(g.position_at(i).unwrap(), g.moves()[i], notation);
            let t = 2_000 + 1_000 * i as u64;
            table.enter_move(&text, t, &mut out).unwrap_or_else(|e| panic!("{notation:?} `{text}`: {e}"));
        }
        let entered: Vec<String> = out
            .iter()
            .filter_map(|e| match e {
                crate::Event::GameMove { uci, .. } => Some(uci.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(entered.len(), g.ply(), "{notation:?}");
        records.push(entered);
    }
    let expected: Vec<String> = g.moves().iter().map(|m| g.uci(*m)).collect();
    for (record, notation) in records.iter().zip(["san", "pl", "iccf", "lan", "fan"]) {
        assert_eq!(record, &expected, "{notation}");
    }
}

fn after(moves: &str) -> Chess {
    let mut g = Game::default();
    for san in moves.split_whitespace() {
        let mv = san.parse::<SanPlus>().unwrap().san.to_move(g.position()).unwrap();
        g.push(mv);
    }
    g.position().clone()
}

/// Issue 22: after 1.e4 d5, `d5` made exd5 and the console said "done".
#[test]
fn a_bare_square_is_a_pawns_move_to_it_never_a_capture() {
    let pos = after("e4 d5");
    assert_eq!(read_exactly(&pos, "d5"), Err(ReadError::Illegal));
    assert_eq!(
        refusal(&pos, "d5"),
        "no pawn can go to d5 (exd5 is a capture: it is written with the pawn's file)"
    );
    let exd5 = read(&pos, "exd5").unwrap();
    for text in ["exd5", "ed5", "e:d5", "e4d5", "e4xd5", "5445"] {
        assert_eq!(
            read_strictly(&pos, text),
            Ok(Reading { mv: exd5, needed: vec![] }),
            "`{text}` reads exactly"
        );
    }
    // And the scoresheet entry obeys the same rule.
    let mut table = crate::table::Table::new(crate::table::TableConfig {
        blind_unsensed: true,
        ..crate::table::TableConfig::single(crate::inference::TrackerConfig::default())
    });
    let mut out = Vec::new();
    table.tick(1_000, &mut out);
    let err = table.scoresheet(&["e4".into(), "d5".into(), "d5".into()], 2_000, &mut out).unwrap_err();
    assert_eq!(
        err.to_string(),
        "2. d5: no pawn can go to d5 (exd5 is a capture: it is written with the pawn's file)"
    );
}

/// Issue 22: `e4` with Black to move became 21...dxe4 and was announced.
#[test]
fn a_square_for_the_wrong_side_is_refused_not_made_a_capture() {
    let pos = after("e4 d5 Nc3");
    assert_eq!(read(&pos, "e4"), None);
    assert!(refusal(&pos, "e4").starts_with("no pawn can go to e4"), "{}", refusal(&pos, "e4"));
    assert_eq!(move_number(&pos), "2...");
    assert!(read(&pos, "dxe4").is_some());
}

#[test]
fn a_text_that_names_no_move_is_refused_with_the_reason() {
    let start = Chess::default();
    assert_eq!(refusal(&start, "xyz"), "not a move");
    assert_eq!(refusal(&start, "hello"), "not a move");
    assert_eq!(refusal(&start, "Ke9"), "the king cannot go there");
    assert_eq!(refusal(&start, "Ke2"), "the king cannot go to e2");
    assert_eq!(refusal(&start, "Qd4"), "the queen cannot go to d4");
    assert_eq!(refusal(&start, "Nd4"), "no knight can go to d4");
    assert_eq!(refusal(&start, "O-O"), "castling short is not possible now");
    assert_eq!(refusal(&start, "Nc3-d5"), "there is no knight on c3");
    assert_eq!(refusal(&start, "Nf3"), "", "a move that reads has no refusal");
    let two = crate::pgn::position_from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap();
    assert_eq!(refusal(&two, "Nd2"), "Nbd2 and Nfd2 fit: write which");
    let promo = crate::pgn::position_from_fen("1k6/5P2/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(refusal(&promo, "f8").starts_with("a pawn reaching f8 is promoted"), "{}", refusal(&promo, "f8"));
    assert_eq!(refusal(&promo, "Qa3"), "White has no queen");
}

/// The TableError of an entered move names it as a scoresheet does: "21... Ke9".
#[test]
fn an_illegal_entered_move_is_named_with_its_move_number() {
    use crate::table::TableError;
    let pos =
        crate::pgn::position_from_fen("r1bq1rk1/3nbppp/p2p4/1p2p3/2PPP3/1B3N1P/PP3PP1/RNBQR1K1 b - - 0 21")
            .unwrap();
    let said = |text: &str| TableError::illegal_move(&pos, 42, text).to_string();
    assert_eq!(said("Ke9"), "21... Ke9: the king cannot go there");
    assert_eq!(said("blah"), "21... blah: not a move");
    assert_eq!(
        said("c4"),
        "21... c4: no pawn can go to c4 (bxc4 is a capture: it is written with the pawn's file)"
    );
    assert_eq!(
        TableError::illegal_at(3, "19-23", "`19-23` is not a legal draughts move here").to_string(),
        "2. 19-23: not a legal draughts move here"
    );
}

#[test]
fn a_lower_case_piece_letter_is_read_but_said_back() {
    let start = Chess::default();
    let nf3 = read(&start, "Nf3").unwrap();
    assert_eq!(read_strictly(&start, "nf3"), Ok(Reading { mv: nf3, needed: vec![Liberty::LowerCase] }));
    assert_eq!(read_strictly(&start, "sf3"), Ok(Reading { mv: nf3, needed: vec![Liberty::LowerCase] }));
    // As written first: "bc3" names the b-pawn's capture (Polish, capture sign
    // omitted), never the bishop, even where a bishop could take there too.
    let both = crate::pgn::position_from_fen("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1").unwrap();
    let taken = read_strictly(&both, "bc3").unwrap();
    assert_eq!((taken.mv.role(), taken.needed), (Role::Pawn, vec![]));
    assert_eq!(read_strictly(&both, "bxc3").unwrap().mv.role(), Role::Pawn);
    let bishop = read_strictly(&both, "Bxc3").unwrap();
    assert_eq!((bishop.mv.role(), bishop.needed), (Role::Bishop, vec![]));
    let promo = crate::pgn::position_from_fen("1k6/5P2/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        read_strictly(&promo, "f8q+").unwrap().needed,
        [Liberty::LowerCase],
        "not UCI: a lower-case piece"
    );
    assert_eq!(read_strictly(&promo, "f7f8q").unwrap().needed, [], "UCI writes it in lower case");
}

#[test]
fn missing_or_wrong_capture_and_check_signs_are_said_back() {
    let g = appendix_game();
    let pos = g.position_at(8).unwrap(); // 5. Qxd4
    for (text, needed) in [
        ("Qxd4", vec![]),
        ("Hxd4", vec![]),
        ("H:d4", vec![]),
        ("Hd4", vec![]),
        ("d1d4", vec![]),
        ("4144", vec![]),
        ("Qd1xd4", vec![]),
        ("Hxd4!", vec![]),
        ("Qd4", vec![Liberty::CaptureUnmarked]),
        ("♕d4", vec![Liberty::CaptureUnmarked]),
        ("Qd1-d4", vec![Liberty::CaptureUnmarked]),
        ("Qxd4+", vec![Liberty::CheckMarked]),
        ("qxd4", vec![Liberty::LowerCase]),
    ] {
        assert_eq!(read_strictly(pos, text).map(|r| r.needed), Ok(needed), "`{text}`");
    }
    let pos = g.position_at(14).unwrap(); // 8. Qe3+
    assert_eq!(read_strictly(pos, "Qe3+").unwrap().needed, []);
    assert_eq!(read_strictly(pos, "He3+").unwrap().needed, []);
    assert_eq!(read_strictly(pos, "Qe3").unwrap().needed, [Liberty::CheckUnmarked]);
    assert_eq!(read_strictly(pos, "4453").unwrap().needed, [], "numeric notation has no check sign");
    let start = Chess::default();
    assert_eq!(read_strictly(&start, "Nxf3").unwrap().needed, [Liberty::CaptureMarked]);
    assert_eq!(read_strictly(&start, "Pe4").unwrap().needed, [Liberty::PawnLetter]);
    let mate = after("f3 e5 g4");
    assert_eq!(read_strictly(&mate, "Qh4#").unwrap().needed, []);
    assert_eq!(read_strictly(&mate, "Qh4++").unwrap().needed, []);
    assert_eq!(read_strictly(&mate, "Qh4+").unwrap().needed, [Liberty::MateUnmarked]);
    assert_eq!(read_strictly(&mate, "Qh4").unwrap().needed, [Liberty::MateUnmarked]);
    assert_eq!(read_strictly(&mate, "Hh4#").unwrap().needed, [], "Polish SAN");
    assert_eq!(read_strictly(&mate, "d8h4").unwrap().needed, [], "UCI");
    assert_eq!(read_strictly(&mate, "4884").unwrap().needed, [], "ICCF numeric");
    assert_eq!(read_strictly(&mate, "Qd8-h4#").unwrap().needed, [], "long algebraic");
}
