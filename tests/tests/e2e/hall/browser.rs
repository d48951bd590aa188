//! The hall page in a real headless Chromium: a real Mosquitto, the real
//! `station hall`, board messages published with `mosquitto_pub`; the page is
//! used by keyboard only, axe-core finds no serious violation, and an alert
//! (a flag fall) arrives in the live region while the page is open and is
//! acknowledged with the arbiter's token.

use super::support::{free_port, hall_view, mosquitto};
use station_core::pgn::SevenTags;
use station_core::{BoardRole, Event};
use station_tests::browser::{
    ENTER, active_id, assert_accessible, browser, keys, start_chromedriver, tab_to, text_of, text_within,
};
use station_tests::scratch;
use std::time::Duration;

const TOKEN: &str = "hall-arbiter-token-5c1e";

fn publish(port: u16, topic: &str, payload: &serde_json::Value) {
    assert!(super::support::publish(port, topic, &payload.to_string(), false), "mosquitto_pub {topic}");
}

fn event(seq: u64, e: &Event) -> serde_json::Value {
    serde_json::json!({"hall": "web", "board": "4", "game_id": "g4", "seq": seq, "event": e})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hall_page_is_keyboard_usable_accessible_and_announces_a_flag_fall() {
    let dir = scratch("hall-browser");
    let port = free_port();
    let _broker = mosquitto(&dir, port, "");
    let (_hall, base) = hall_view(&format!("mqtt://127.0.0.1:{port}"), "web", &["--token", TOKEN], None);
    std::thread::sleep(Duration::from_millis(500));

    let tags = SevenTags { white: "Anna Blind".into(), black: "Bert Sighted".into(), ..SevenTags::default() };
    let header = serde_json::json!({"hall": "web", "board": "4", "game_id": "g4", "seq": 0,
        "header": {"fen": station_core::Game::default().fen(), "started_ms": 1, "tags": tags}});
    publish(port, "annexd/web/4/event", &header);
    for (seq, ply, san) in [(2, 1, "e4"), (4, 2, "c5")] {
        let mv = Event::GameMove {
            ply,
            san: san.into(),
            uci: "".into(),
            by: BoardRole::Blind,
            revised: false,
            t_ms: 0,
            pdn: None,
        };
        publish(port, "annexd/web/4/event", &event(seq, &mv));
    }

    let (_driver, driver_url) = start_chromedriver();
    let page = browser(&driver_url, &dir.join("profile"), 1280, 900).await;
    page.goto(&format!("{base}/hall")).await.unwrap();
    text_within(&page, "boards", Duration::from_secs(10), "board 4 in the table", |t| {
        t.contains("Anna Blind")
    })
    .await;
    assert!(text_of(&page, "boards").await.contains("Bert Sighted"));
    assert_accessible(&page, "the hall with one board").await;

    // A flag falls while the page is open: the alert arrives in the live region.
    publish(
        port,
        "annexd/web/4/event",
        &event(6, &Event::FlagFell { side: station_core::clock::Side::White, t_ms: 9 }),
    );
    text_within(&page, "alerts", Duration::from_secs(10), "the flag fall alert", |t| t.contains("flag fall"))
        .await;
    assert_accessible(&page, "the hall with an alert").await;

    // Keyboard only: the token, then the alert's button.
    tab_to(&page, "token", 20).await;
    keys(&page, TOKEN).await;
    tab_to(&page, "ack-1", 20).await;
    assert_eq!(active_id(&page).await, "ack-1");
    keys(&page, &ENTER.to_string()).await;
    text_within(&page, "alerts", Duration::from_secs(5), "the alert acknowledged", |t| {
        t.contains("Acknowledged")
    })
    .await;
    let _ = page.close().await;
}
