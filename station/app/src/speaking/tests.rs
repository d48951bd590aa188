//! Events said after the table moved on: the voices word each from the
//! record as told (issue 37), never from the table's position now.

use super::*;
use station_core::event::PlayedMove;
use station_core::input::Input;
use station_core::table::TableConfig;
use station_core::{Event, TrackerConfig};

/// A table with no sensed board: the arbiter enters every move.
fn table() -> Table {
    Table::new(TableConfig { blind_unsensed: true, ..TableConfig::single(TrackerConfig::default()) })
}

/// Voices that say text only, in the default language.
fn voices() -> Voices {
    let config = Config::parse("[audio.private]\nvoices = [\"text\"]\n", std::path::Path::new("test.toml"))
        .expect("a valid config");
    Voices::start(&config).expect("text voices start")
}

/// Applies `inputs` to `table` from `t` on; their events, in order.
fn apply(table: &mut Table, t: &mut Millis, inputs: &[Input]) -> Vec<Event> {
    let mut events = Vec::new();
    for input in inputs {
        *t += 1000;
        events.extend(table.apply(*t, input).unwrap_or_else(|e| panic!("{input:?}: {e}")));
    }
    events
}

/// One batch delivered to the voices with the table as it is now; what the blind player was told.
fn deliver(voices: &mut Voices, table: &Table, t: Millis, batch: &[Event]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for event in batch {
        voices.on_event(event, table, t, &mut out);
    }
    voices.end_batch(table, t, &mut out);
    out.into_iter()
        .filter_map(|e| match e {
            Event::Announcement { listener, text, about, .. } if listener == "private" => {
                Some((about.to_string(), text))
            }
            _ => None,
        })
        .collect()
}

/// The move of ply 3 and the check of its announcement (he said Nc3, his
/// board shows Nf3) are said after the table went on in the same batch:
/// every move taken back, or the arbiter's new game. Both are worded in the
/// position the record as told holds for ply 3.
#[test]
fn a_move_and_its_announcement_are_worded_from_the_record_as_told_after_the_table_moved_on() {
    let enter = |mv: &str| Input::EnterMove { mv: mv.into() };
    let afterwards: [Vec<Input>; 2] = [
        vec![Input::TakeBack, Input::TakeBack, Input::TakeBack],
        vec![
            Input::NewGame { fen: None, chess960: None, moves: Vec::new(), tags: Default::default() },
            Input::Tick,
        ],
    ];
    for later in afterwards {
        let (mut table, mut voices, mut t) = (table(), voices(), 1000);
        let start = apply(&mut table, &mut t, &[Input::Tick, enter("e4"), enter("e5")]);
        deliver(&mut voices, &table, t, &start);
        let mut batch = apply(&mut table, &mut t, &[enter("Nf3")]);
        batch.push(Event::AnnouncementChecked {
            ply: 3,
            said: PlayedMove::from_text("b1c3"),
            sensed: PlayedMove::from_text("g1f3"),
            matches: false,
            t_ms: t,
        });
        batch.extend(apply(&mut table, &mut t, &later));
        assert!(table.agreed().is_none_or(|g| g.ply() == 0), "the table went on: {later:?}");
        let told = deliver(&mut voices, &table, t, &batch);
        let mismatch = voices.private.wording.message(Message::BoardMismatch).to_owned();
        let moves: Vec<&str> =
            told.iter().filter(|(about, _)| about == "move").map(|(_, text)| text.as_str()).collect();
        assert_eq!(moves, ["Springer Felix drei"], "{later:?}: {told:?}");
        let corrections: Vec<&str> =
            told.iter().filter(|(about, _)| about == "correction").map(|(_, text)| text.as_str()).collect();
        assert_eq!(
            corrections,
            [format!("Springer Cesar drei — {mismatch}: Springer Felix drei")],
            "{later:?}: {told:?}"
        );
    }
}
