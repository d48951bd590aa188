use super::BrokerUrl;
use super::board_state::BoardState;
use super::view::Hall;
use super::wire::{EventMessage, GameHeader, MAX_PAYLOAD, StatusMessage};
use station_core::pgn::SevenTags;
use station_core::{BoardRole, Event};

fn header(started_ms: u64) -> GameHeader {
    GameHeader {
        fen: station_core::Game::default().fen(),
        started_ms,
        tags: SevenTags { white: "Anna".into(), black: "Bert".into(), ..SevenTags::default() },
        moves: Vec::new(),
    }
}

fn msg(board: &str, game: &str, seq: u64, event: Option<Event>, h: Option<GameHeader>) -> Vec<u8> {
    serde_json::to_vec(&EventMessage {
        hall: "h".into(),
        board: board.into(),
        game_id: Some(game.into()),
        seq: Some(seq),
        event,
        header: h,
    })
    .unwrap()
}

fn mv(ply: usize, san: &str) -> Event {
    Event::GameMove {
        ply,
        san: san.into(),
        uci: String::new(),
        by: BoardRole::Blind,
        revised: false,
        t_ms: 0,
        pdn: None,
    }
}

#[test]
fn broker_urls_parse_and_bad_ones_are_refused() {
    assert_eq!(BrokerUrl::parse("mqtt://127.0.0.1:1884").unwrap().port, 1884);
    assert_eq!(BrokerUrl::parse("mqtt://hall.local").unwrap().port, 1883);
    assert!(BrokerUrl::parse("mqtts://hall.local").unwrap().tls);
    assert!(BrokerUrl::parse("http://x:1").is_err());
    assert!(BrokerUrl::parse("mqtt://:1").is_err());
    assert!(BrokerUrl::parse("mqtt://x:99999").is_err());
}

#[test]
fn events_twice_and_out_of_order_give_each_move_once() {
    let mut hall = Hall::new("h");
    let t = "annexd/h/7/event";
    hall.on_message(t, &msg("7", "g1", 0, None, Some(header(10)))).unwrap();
    let started = Event::GameStarted {
        game_id: "g1".into(),
        fen: station_core::Game::default().fen(),
        t_ms: 10,
        tags: None,
        moves: Vec::new(),
    };
    hall.on_message(t, &msg("7", "g1", 1, Some(started), None)).unwrap();
    for (seq, ply, san) in [(3, 1, "e4"), (9, 3, "Nf3"), (5, 2, "e5"), (3, 1, "e4"), (9, 3, "Nf3")] {
        hall.on_message(t, &msg("7", "g1", seq, Some(mv(ply, san)), None)).unwrap();
    }
    let json = hall.json();
    assert_eq!(json["duplicates"], 2);
    assert_eq!(json["boards"][0]["moves"], serde_json::json!(["e4", "e5", "Nf3"]));
    let pgn = hall.pgn();
    assert!(pgn.contains("1. e4 e5 2. Nf3 *"), "{pgn}");
    assert!(pgn.contains("[White \"Anna\"]"), "{pgn}");
}

#[test]
fn forged_malformed_oversized_and_older_messages_are_dropped_with_a_reason() {
    let mut hall = Hall::new("h");
    hall.on_message("annexd/h/7/event", &msg("7", "g2", 0, None, Some(header(100)))).unwrap();
    let forged = hall.on_message("annexd/h/7/event", &msg("8", "g2", 4, Some(mv(1, "e4")), None));
    assert!(forged.unwrap_err().starts_with("forged"));
    assert!(hall.on_message("annexd/h/7/event", b"{not json").unwrap_err().starts_with("malformed"));
    let big = vec![b' '; MAX_PAYLOAD + 1];
    assert!(hall.on_message("annexd/h/7/event", &big).unwrap_err().starts_with("oversized"));
    let mut old = BoardState::new("7");
    old.game_id = Some("g1".into());
    old.header = Some(header(50));
    old.moves = vec!["d4".into()];
    let older = hall.on_message("annexd/h/7/state", &serde_json::to_vec(&old).unwrap());
    assert!(older.unwrap_err().starts_with("older game"));
    let dropped = &hall.json()["dropped"];
    for reason in ["forged", "malformed", "oversized", "older game"] {
        assert_eq!(dropped[reason], 1, "{dropped}");
    }
    assert_eq!(hall.json()["boards"][0]["moves"], serde_json::json!([]));
}

#[test]
fn alerts_come_for_flag_fall_device_loss_and_a_vanished_station() {
    let mut hall = Hall::new("h");
    let t = "annexd/h/3/event";
    hall.on_message(t, &msg("3", "g", 0, None, Some(header(1)))).unwrap();
    let flag = Event::FlagFell { side: station_core::clock::Side::White, t_ms: 5 };
    hall.on_message(t, &msg("3", "g", 2, Some(flag.clone()), None)).unwrap();
    hall.on_message(t, &msg("3", "g", 2, Some(flag), None)).unwrap();
    let mic = Event::DeviceStatus {
        device: "microphone".into(),
        name: None,
        status: "unavailable".into(),
        detail: None,
        t_ms: 6,
    };
    hall.on_message(t, &msg("3", "g", 3, Some(mic), None)).unwrap();
    let gone = serde_json::to_vec(&StatusMessage { board: "3".into(), online: false }).unwrap();
    hall.on_message("annexd/h/3/status", &gone).unwrap();
    let kinds: Vec<String> = hall.json()["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds, ["flag fall", "device lost", "station gone"]);
    assert!(hall.acknowledge(1));
    assert!(!hall.acknowledge(99));
}

#[test]
fn the_sealed_move_and_speech_are_never_published() {
    let heard = Event::Heard {
        text: "e4".into(),
        confidence: 1.0,
        understood: "move".into(),
        latency_ms: None,
        t_ms: 0,
    };
    assert!(!super::wire::publishable(&heard));
    assert!(super::wire::publishable(&Event::Adjourned { ply: 3, t_ms: 0 }));
}

#[test]
fn a_resumed_game_s_moves_become_san() {
    let mut state = BoardState::new("2");
    state.start_game("g");
    state.header = Some(header(1));
    let resumed = Event::GameResumed {
        game_id: "g".into(),
        ply: 3,
        moves: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
        t_ms: 2,
    };
    state.apply(Some(5), &resumed);
    state.apply(Some(6), &mv(4, "Nc6"));
    assert_eq!(state.moves, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(state.pgn().unwrap().contains("1. e4 e5 2. Nf3 Nc6 *"));
}

#[test]
fn the_hall_section_parses_and_unknown_keys_are_refused() {
    let path = std::path::Path::new("station.toml");
    let text = "[hall]\nbroker = \"mqtt://127.0.0.1:1883\"\nhall = \"ibca\"\nboard = \"7\"\n";
    let config = crate::config::Config::parse(text, path).unwrap();
    let hall = config.hall.unwrap();
    assert_eq!((hall.hall.as_str(), hall.board.as_str()), ("ibca", "7"));
    assert!(crate::config::Config::parse(&format!("{text}qos = 2\n"), path).is_err());
    assert!(crate::config::Config::parse("", path).unwrap().hall.is_none());
    assert!(super::check_name("board", "7/#").is_err());
}
