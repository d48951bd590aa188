//! What a restart says again and delivers again, on journals written as the
//! daemon writes them (issue 32 §5).

use super::super::test_support::{config, observed, scratch, started, write_journal};
use super::*;
use shakmaty::Square;
use station_core::journal::Record;
use std::path::Path;

/// The moves of the journals below: a quiet opening, each a lift and a put-down.
const MOVES: [(Square, Square); 5] = [
    (Square::E2, Square::E4),
    (Square::E7, Square::E5),
    (Square::G1, Square::F3),
    (Square::B8, Square::C6),
    (Square::F1, Square::C4),
];

/// How the speaker was done with each move's words before the stop.
#[derive(Clone, Copy)]
enum Words {
    /// No `said` record: the stop came before the speaker was done with any.
    NoneDone,
    /// Every move's words cut or dropped for the next move's (a fast game),
    /// the last move's never done.
    EachCutByTheNext,
    /// Like `EachCutByTheNext`, and the last move's words finished.
    LastFinished,
    /// The words of the moves up to this ply heard to the end, those after
    /// never done (the stop came while the speaker had them).
    HeardUpTo(usize),
}

/// A journal of [`MOVES`] played on his board as the daemon writes it: its
/// inputs, the events they decided, each move's private announcement and,
/// as `words` says, the speaker's `said` records and a `delivered` mark
/// after every batch.
fn journal_of_moves(dir: &Path, words: Words) -> std::path::PathBuf {
    let mut table = Table::new(TableConfig::single(Default::default()));
    let mut occ = Game::default().occupancy();
    let mut inputs = vec![(1000, Input::scan(BoardRole::Blind, occ)), (1400, Input::Tick)];
    for (i, (from, to)) in MOVES.into_iter().enumerate() {
        let t = 2000 + 1000 * i as u64;
        occ = occ.without(from);
        inputs.push((t, Input::scan(BoardRole::Blind, occ)));
        occ = occ.with(to);
        inputs.push((t + 100, Input::scan(BoardRole::Blind, occ)));
        inputs.push((t + 500, Input::Tick));
    }
    let mut records = Vec::new();
    let mut seq = 0;
    let mut next = || {
        seq += 1;
        seq
    };
    let mut header = None;
    for (t, input) in inputs {
        let events = table.apply(t, &input).unwrap();
        if header.is_some() {
            records.push(Record::Input { seq: next(), t_ms: t, input });
        }
        for e in events {
            if let Event::GameStarted { game_id, fen, t_ms, .. } = &e {
                header = Some(Header::of_table(&table, game_id, fen, *t_ms, Default::default()));
            }
            let ply = match &e {
                Event::GameMove { ply, .. } => Some(*ply),
                _ => None,
            };
            let event_seq = next();
            records.push(Record::Event { seq: event_seq, event: e });
            records.push(Record::Delivered { seq: next(), game_id: None, through: event_seq });
            let Some(ply) = ply else { continue };
            let text = format!("move {ply}");
            let said =
                Event::Announcement { listener: "private".into(), text, about: "move".into(), t_ms: t };
            let said_seq = next();
            records.push(Record::Event { seq: said_seq, event: said });
            records.push(Record::Delivered { seq: next(), game_id: None, through: said_seq });
            if let Words::HeardUpTo(heard) = words {
                if ply <= heard {
                    records.push(said_record(next(), ply, "finished"));
                }
                continue;
            }
            // The words of the move before were cut or dropped for this move's.
            let outcome = match words {
                Words::NoneDone => continue,
                _ if ply == 1 => continue,
                _ if ply % 2 == 0 => "cut",
                _ => "dropped",
            };
            records.push(said_record(next(), ply - 1, outcome));
        }
    }
    if let Words::LastFinished = words {
        records.push(said_record(next(), MOVES.len(), "finished"));
    }
    assert_eq!(table.agreed().unwrap().ply(), MOVES.len());
    write_journal(dir, header.expect("the game started"), records)
}

/// The speaker was done with the private words of the move of `ply`: `outcome`.
fn said_record(seq: u64, ply: usize, outcome: &str) -> Record {
    Record::Said {
        seq,
        t_ms: 9000 + seq,
        listener: "private".into(),
        about: "move".into(),
        ply: Some(ply),
        outcome: outcome.into(),
        voice: Some("espeak".into()),
    }
}

/// The private move announcements a restart on `dir`'s journal made, and everything it delivered.
fn restarted(dir: &Path) -> (Vec<String>, Vec<Event>) {
    let mut station = started(config("[audio.private]\nvoices = [\"text\"]\n"), dir);
    station.enable_voices().unwrap();
    let events = observed(&mut station);
    station.drain(Duration::from_secs(5)).unwrap();
    let events = events.lock().unwrap().clone();
    let said = events
        .iter()
        .filter_map(|e| match e {
            Event::Announcement { about, listener, text, .. } if about == "move" && listener == "private" => {
                Some(text.clone())
            }
            _ => None,
        })
        .collect();
    (said, events)
}

/// A restart on a fresh journal `name` of moves whose words the speaker was
/// done with as `words` says: the journal's folder, then what [`restarted`] gives.
fn restart_after(name: &str, words: Words) -> (std::path::PathBuf, Vec<String>, Vec<Event>) {
    let dir = scratch(name);
    journal_of_moves(&dir, words);
    let (said, events) = restarted(&dir);
    (dir, said, events)
}

/// The last move's words as the station says them ("Läufer c4" in its words).
fn last_move_words(dir: &Path) -> String {
    let scratch_dir = dir.join("last");
    std::fs::create_dir_all(&scratch_dir).unwrap();
    journal_of_moves(&scratch_dir, Words::NoneDone);
    let (said, _) = restarted(&scratch_dir);
    said.last().cloned().expect("the last move said")
}

/// Issue 32 §5: every move of a fast game was cut or dropped for the next
/// one (the speaker finished none), and the last was never done: the
/// restart says the last move once, not the whole game again, and delivers
/// nothing again (every event was marked delivered).
#[test]
fn a_restart_after_a_fast_game_says_the_last_move_alone() {
    let (dir, said, events) = restart_after("resume-fast-game", Words::EachCutByTheNext);
    assert_eq!(said.len(), 1, "the last move alone: {said:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::GameMove { .. })), "nothing delivered again");
    assert_eq!(said[0], last_move_words(&dir));
}

/// A journal with no `said` record at all (the stop came before the speaker
/// was done with any words): the last move alone, never every move again.
#[test]
fn a_journal_without_said_records_says_its_last_move_alone() {
    let (_, said, _) = restart_after("resume-none-said", Words::NoneDone);
    assert_eq!(said.len(), 1, "{said:?}");
}

/// The last move heard to the end: nothing is said again.
#[test]
fn a_last_move_heard_to_the_end_is_not_said_again() {
    let (_, said, _) = restart_after("resume-last-heard", Words::LastFinished);
    assert!(said.is_empty(), "{said:?}");
}

/// Issue 32 §5: the stop came while the speaker had the last two moves'
/// words (the first three heard to the end): the restart says both again,
/// in order, and the blind player hears both to the end (espeak-ng, on
/// ALSA's null device at real time: the first is still being said when the
/// second is queued); the newer one never takes the place of the older, as
/// it takes that of a move decided in an earlier turn.
#[test]
fn two_moves_not_heard_before_the_stop_are_both_heard_after_the_restart() {
    let dir = scratch("resume-two-unheard");
    let path = journal_of_moves(&dir, Words::HeardUpTo(3));
    let before = station_core::journal::decode(std::fs::read(&path).unwrap()).unwrap().records.len();
    let mut station = started(config("[audio.private]\nvoices = [\"espeak\"]\n"), &dir);
    station.enable_voices().unwrap();
    station.drain(Duration::from_secs(5)).unwrap();
    // What the speaker was done with, journaled as the loop does.
    let endings = station.speech_endings();
    let (_, private) = endings.iter().find(|(l, _)| *l == "private").expect("his earphone");
    for _ in 0..2 {
        let Ok(ended) = private.recv_timeout(Duration::from_secs(20)) else { break };
        station.handle_ended("private", ended);
    }
    station.drain(Duration::from_secs(5)).unwrap();
    let records = station_core::journal::decode(std::fs::read(&path).unwrap()).unwrap().records;
    let heard: Vec<(usize, &str, Option<&str>)> = records[before..]
        .iter()
        .filter_map(|r| match r {
            Record::Said { ply: Some(ply), outcome, about, voice, .. } if about == "move" => {
                Some((*ply, outcome.as_str(), voice.as_deref()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        heard,
        [(4, "finished", Some("espeak")), (5, "finished", Some("espeak"))],
        "espeak-ng on ALSA's null device (ALSA_CONFIG_PATH) says both moves to the end"
    );
}
