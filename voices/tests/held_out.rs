//! Issue 33: the outside measure. 680 misheard English phrases made with the
//! mishearings lichess learned from its players (`data/lichess`, see its
//! README), understood without a board: how many the station recovers (makes
//! the move meant, or asks back with it among the choices) against how many
//! lichess's own matching rule proposes; and never a move the words do not
//! literally name.
//!
//! Figures: `cargo test --release -p station-voices --test held_out -- --nocapture`.

mod common;

#[path = "held_out/lichess.rs"]
mod lichess;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};
use station_voices::position_from_fen;
use station_voices::understand::Understood;

/// How many of the 680 lichess's matcher proposes the move meant for (the
/// issue's figure).
const LICHESS_PROPOSES: usize = 555;

struct Row {
    pos: Chess,
    meant: Move,
    heard: String,
}

fn rows() -> Vec<Row> {
    include_str!("data/lichess/held-out-en.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let pos = position_from_fen(cols[0]).unwrap();
            let meant = cols[1].parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            Row { pos, meant, heard: cols[3].to_owned() }
        })
        .collect()
}

#[test]
fn lichess_mishearings_are_recovered_more_often_than_lichess_proposes_them() {
    let rows = rows();
    assert_eq!(rows.len(), 680);
    let u = common::understanding("en");
    let book = station_voices::Phrasebook::builtin("en").unwrap();
    let lila = lichess::Lichess::new(include_str!("data/lichess/learned-subs-en.tsv"));
    let (mut made, mut asked_among, mut asked_alone, mut other, mut rejected) = (0, 0, 0, 0, 0);
    let (mut lila_shown, mut lila_said) = (0, 0);
    let mut wrong = Vec::new();
    for row in &rows {
        let uci = row.meant.to_uci(CastlingMode::Standard).to_string();
        match u.understand(&row.pos, &row.heard, None) {
            Understood::Move { mv, .. } if mv == row.meant => made += 1,
            Understood::Move { mv, .. } => {
                if !common::names_literally(book, &row.heard, &mv) {
                    wrong.push(format!("{:?} meant {uci}: made {mv}", row.heard));
                }
                other += 1;
            }
            Understood::Ask { candidates, .. } if candidates == [row.meant] => asked_alone += 1,
            Understood::Ask { candidates, .. } if candidates.contains(&row.meant) => asked_among += 1,
            Understood::Ask { .. } => other += 1,
            _ => rejected += 1,
        }
        let offer = lila.offer(&row.pos, &row.heard);
        let want = lichess::lichess_uci(&row.meant);
        let is_meant = |o: &String| *o == want || (row.meant.promotion().is_some() && *o == want[..4]);
        if offer.shown.iter().any(is_meant) {
            lila_shown += 1;
        }
        if offer.preferred && offer.shown.first().is_some_and(is_meant) {
            lila_said += 1;
        }
    }
    let recovered = made + asked_alone + asked_among;
    eprintln!(
        "held-out (680 lichess mishearings, no board, typed): recovered {recovered} \
         (made {made}, asked alone {asked_alone}, asked among choices {asked_among}), \
         other moves made or asked {other}, rejected {rejected}, wrong moves not literally named {}; \
         lichess's matching rule: the move meant among its arrows {lila_shown}, \
         said back as its preferred move {lila_said} (the issue's figure: 555)",
        wrong.len()
    );
    assert!(wrong.is_empty(), "moves the words do not name:\n{}", wrong.join("\n"));
    assert!(
        recovered > LICHESS_PROPOSES && recovered > lila_shown,
        "recovered {recovered}: not more than lichess's {LICHESS_PROPOSES} (here {lila_shown})"
    );
}

/// For the record (no pass mark): the same phrases said with his board
/// showing the move meant, heard as unsure as misheard transcripts are.
#[test]
fn lichess_mishearings_with_the_boards_move_known() {
    let u = common::understanding("en");
    let mut tally = std::collections::BTreeMap::new();
    for row in rows() {
        let line = u.understand_expecting(&row.pos, &row.heard, Some(0.82), Some(row.meant)).line();
        let word = line.split(' ').next().unwrap_or_default().to_owned();
        let word = if word == "move"
            && !line.starts_with(&format!("move {}", row.meant.to_uci(CastlingMode::Standard)))
        {
            "other move".to_owned()
        } else {
            word
        };
        *tally.entry(word).or_insert(0usize) += 1;
    }
    eprintln!("held-out with the board's move known, heard at 0.82: {tally:?}");
    assert_eq!(tally.get("other move"), None, "{tally:?}");
}
