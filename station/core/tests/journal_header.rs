//! The journal header holds the table's configuration as it is: old headers
//! (written when the header copied the configuration field by field) still
//! read and restore, new headers read back to the configuration they were
//! written from, and a new header line is a superset of an old one.

use serde_json::Value;
use shakmaty::{Color, Role, Square};
use station_core::clock::{TimeControl, WarningConfig};
use station_core::draughts::Variant;
use station_core::draughts::board::Position;
use station_core::journal::{Header, Input, Record, decode, restore};
use station_core::pgn::SevenTags;
use station_core::table::draughts_play::fen;
use station_core::{BoardRole, Event, Game, Table, TableConfig, TrackerConfig};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A header line as the station wrote it before the header held the
/// configuration (its 24 fields in their order then): a sensed peg mirror
/// board, a clock, a knight as the assumed promotion, the blind player with Black.
const OLD_TIMED_HEADER: &str = concat!(
    r#"{"rec":"header","format":"annexd-station-journal","version":1,"game_id":"2026-11-20-round3","#,
    r#""fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","t_ms":1763650000000,"#,
    r#""board":"blind","occupancy":"ffff00000000ffff","mirror_occupancy":"ffff00000000ffff","mirror_board":null,"#,
    r#""blind_color":"black","grace_ms":20000,"time_control":"300+2","clock_auto_start":false,"#,
    r#""clock_auto_press":true,"warnings":{"period_start":true,"every_minutes":5,"every_minute_below_minutes":3,"#,
    r#""at_seconds":[30],"time_control_reached":true,"time_trouble_minutes":2,"muted":false,"rearm_margin_seconds":60},"#,
    r#""announcement_required":true,"external_clock":false,"blind_unsensed":false,"#,
    r#""settle_ms":250,"debounce_ms":20,"promotion":"n","#,
    r#""tags":{"event":"Club","site":"Here","date":"2026.11.20","round":"3","white":"Anna","black":"Ben"}}"#
);

/// The oldest header form: before `blind_color`, `grace_ms` and the clock keys.
const OLDEST_HEADER: &str = concat!(
    r#"{"rec":"header","format":"annexd-station-journal","version":1,"game_id":"game-1","#,
    r#""fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","t_ms":1000,"#,
    r#""board":"blind","occupancy":"ffff00000000ffff","settle_ms":300,"debounce_ms":40,"promotion":"q","#,
    r#""tags":{"event":"?","site":"?","date":"????.??.??","round":"?","white":"?","black":"?"}}"#
);

fn header_of(line: &str) -> Header {
    decode(format!("{line}\n")).expect("the header reads").header
}

fn json(line: &str) -> serde_json::Map<String, Value> {
    match serde_json::from_str(line).unwrap() {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Every key of `old` is in `new` with the same value.
fn assert_superset(old: &str, new: &str) {
    let (old, new) = (json(old), json(new));
    for (key, value) in &old {
        assert_eq!(new.get(key), Some(value), "key {key}");
    }
}

#[test]
fn an_old_header_reads_with_every_setting_it_held() {
    let h = header_of(OLD_TIMED_HEADER);
    let cfg = &h.config;
    assert_eq!(cfg.tracker, TrackerConfig { settle_ms: 250, debounce_ms: 20, promotion: Role::Knight });
    assert_eq!(cfg.start.fen(), START_FEN);
    assert_eq!(cfg.blind_color, Color::Black);
    // Told then only by the mirror board's recorded occupancy.
    assert!(cfg.mirror_sensed);
    assert!(!cfg.mirror_pieces);
    assert_eq!(cfg.grace_ms, 20_000);
    assert_eq!(cfg.time_control, Some("300+2".parse::<TimeControl>().unwrap()));
    assert!(!cfg.clock_auto_start && cfg.clock_auto_press);
    assert_eq!(cfg.warnings.every_minutes, 5);
    assert_eq!(cfg.warnings.at_seconds, vec![30]);
    assert!(cfg.announcement_required && !cfg.external_clock && !cfg.blind_unsensed && !cfg.opponent_entered);
    assert_eq!(
        (cfg.tags.white.as_str(), cfg.tags.black.as_str(), cfg.tags.round.as_str()),
        ("Anna", "Ben", "3")
    );
    assert_eq!(h.rules.draughts_variant(), None);
    assert_eq!(h.mirror_occupancy.as_deref(), Some("ffff00000000ffff"));

    // It restores, with that configuration.
    let restored = restore(&decode(format!("{OLD_TIMED_HEADER}\n")).unwrap()).unwrap();
    assert!(restored.reproduced);
    assert_eq!(restored.table.config(), cfg);
    assert!(restored.table.tracker(BoardRole::Mirror).is_some());

    // Written again, the line says everything the old one said.
    let again = Record::Header(Box::new(h.clone())).encode();
    assert_superset(OLD_TIMED_HEADER, &again);
    assert_eq!(header_of(&again), h);
}

#[test]
fn the_oldest_header_reads_with_the_defaults_of_its_time() {
    let h = header_of(OLDEST_HEADER);
    assert_eq!(h.config.blind_color, Color::White);
    assert_eq!(h.config.grace_ms, 30_000);
    assert_eq!(h.config.time_control, None);
    assert!(!h.config.clock_auto_start && !h.config.mirror_sensed);
    assert_eq!(h.config.warnings, WarningConfig::default());
    assert_eq!(h.config.tags, SevenTags::default());
    assert_superset(OLDEST_HEADER, &Record::Header(Box::new(h)).encode());
}

#[test]
fn an_old_journal_restores_to_the_same_moves() {
    // The game is played once from the old header: the journal is its header
    // line, every input and every event the table decided, as the daemon writes it.
    let start = Game::default().occupancy();
    let lifted = start.without(Square::E2);
    let placed = lifted.with(Square::E4);
    let header = header_of(OLDEST_HEADER);
    let mut table = restore(&decode(format!("{OLDEST_HEADER}\n")).unwrap()).unwrap().table;
    let mut text = format!("{OLDEST_HEADER}\n");
    let mut seq = 0;
    let inputs = [
        (2_000, Input::scan(BoardRole::Blind, lifted)),
        (2_100, Input::scan(BoardRole::Blind, placed)),
        (5_000, Input::Tick),
    ];
    for (t_ms, input) in inputs {
        let events = table.apply(t_ms, &input).unwrap();
        seq += 1;
        text.push_str(&Record::Input { seq, t_ms, input }.encode());
        text.push('\n');
        for event in events {
            seq += 1;
            text.push_str(&Record::Event { seq, event }.encode());
            text.push('\n');
        }
    }
    let contents = decode(&text).unwrap();
    assert_eq!(contents.header, header);
    assert_eq!(contents.recorded_moves(), ["e2e4"]);
    let restored = restore(&contents).unwrap();
    assert!(restored.reproduced, "{:?}", restored.damage);
    assert_eq!(restored.table.record().map(|r| r.ucis()), Some(vec!["e2e4".to_string()]));
    assert!(
        contents
            .records
            .iter()
            .any(|r| matches!(r, Record::Event { event: Event::GameMove { ply: 1, .. }, .. })),
        "{text}"
    );
}

#[test]
fn a_new_header_reads_back_to_the_configuration_it_was_written_from() {
    let cfg = TableConfig {
        tracker: TrackerConfig { settle_ms: 180, debounce_ms: 25, promotion: Role::Rook },
        start: Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap().into(),
        blind_color: Color::Black,
        mirror_sensed: true,
        grace_ms: 12_000,
        time_control: Some("40/7200:20/3600:900+30".parse().unwrap()),
        clock_auto_press: true,
        warnings: WarningConfig { every_minutes: 7, muted: true, ..WarningConfig::default() },
        external_clock: true,
        opponent_entered: true,
        ..TableConfig::single(TrackerConfig::default())
    };
    let table = Table::new(cfg.clone());
    let tags = SevenTags { white: "Anna".into(), black: "Ben".into(), ..SevenTags::default() };
    let fen = cfg.start.fen();
    let header = Header::of_table(&table, "g", &fen, 1_000, tags.clone());
    assert_eq!(header.config, TableConfig { tags: tags.clone(), ..cfg.clone() });
    let line = Record::Header(Box::new(header.clone())).encode();
    let read = header_of(&line);
    assert_eq!(read, header);
    assert_eq!(read.config, TableConfig { tags, ..cfg });
    // The keys outside tools read keep their names and value forms.
    let map = json(&line);
    assert_eq!(map["fen"], fen);
    assert_eq!(map["blind_color"], "black");
    assert_eq!(map["time_control"], "40/7200:20/3600:900+30");
    assert_eq!(map["promotion"], "r");
    assert_eq!(map["settle_ms"], 180);
    assert_eq!(map["tags"]["white"], "Anna");
    assert_eq!(map["opponent_entered"], true);
    assert!(!map.contains_key("rules"), "a chess header names no draughts rules: {line}");
}

#[test]
fn a_draughts_header_names_its_rules_and_an_old_one_is_judged_by_its_fen() {
    for variant in [Variant::International, Variant::Draughts64] {
        let table = Table::new(TableConfig::single(TrackerConfig::default())).with_draughts(variant);
        let start = fen(&Position::initial(variant));
        let header = Header::of_table(&table, "d", &start, 0, SevenTags::default());
        let line = Record::Header(Box::new(header.clone())).encode();
        let name = if variant == Variant::International { "draughts" } else { "draughts64" };
        assert_eq!(json(&line)["rules"], name);
        assert_eq!(json(&line)["fen"], start.as_str());
        let read = header_of(&line);
        assert_eq!(read, header);
        assert_eq!(read.rules.draughts_variant(), Some(variant));
        let restored = restore(&decode(format!("{line}\n")).unwrap()).unwrap();
        assert_eq!(restored.table.draughts_variant(), Some(variant));

        // The same header as written before `rules` (and the mirror keys) existed.
        let mut old = json(&line);
        for key in ["rules", "mirror_sensed", "mirror_pieces"] {
            old.remove(key);
        }
        let old = Value::Object(old).to_string();
        let read_old = header_of(&old);
        assert_eq!(read_old, header);
        let restored = restore(&decode(format!("{old}\n")).unwrap()).unwrap();
        assert_eq!(restored.table.draughts_variant(), Some(variant));
        assert_eq!(restored.table.config(), &header.config);
    }
}

#[test]
fn the_header_names_the_rules_where_the_fen_would_mislead() {
    // A numbered 8×8 start (squares 1–32) reads as international by its form
    // alone; the `rules` key settles it.
    let table = Table::new(TableConfig::single(TrackerConfig::default())).with_draughts(Variant::Draughts64);
    let numbered = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let header = Header::of_table(&table, "d", numbered, 0, SevenTags::default());
    let mut old = json(&Record::Header(Box::new(header.clone())).encode());
    assert_eq!(
        header_of(&Value::Object(old.clone()).to_string()).rules.draughts_variant(),
        Some(Variant::Draughts64)
    );
    old.remove("rules");
    assert_eq!(
        header_of(&Value::Object(old).to_string()).rules.draughts_variant(),
        Some(Variant::International)
    );
}

#[test]
fn a_header_with_a_bad_value_does_not_read() {
    let bad_colour = OLDEST_HEADER.replace(r#""settle_ms""#, r#""blind_color":"green","settle_ms""#);
    assert!(decode(format!("{bad_colour}\n")).is_err());
    let bad_piece = OLDEST_HEADER.replace(r#""promotion":"q""#, r#""promotion":"x""#);
    assert!(decode(format!("{bad_piece}\n")).is_err());
    let bad_fen = OLDEST_HEADER.replace(START_FEN, "not a fen");
    assert!(decode(format!("{bad_fen}\n")).is_err());
}
