//! A draughts game's record as PDN text: the live game's `/game.pgn`
//! (`station::pipeline`), the hall's boards and `station export --pdn`
//! (station-export) all write it this one way.

/// A draughts game's record as PDN; none for a chess game.
pub fn pdn_of_record(record: &station_core::record::GameRecord) -> Option<String> {
    let variant = station_core::table::draughts_play::fen_variant(&record.start_fen)?;
    let result = record.result();
    let tags = &record.tags;
    let mut out = String::new();
    out.push_str(&format!("[GameType \"{}\"]\n", variant.game_type()));
    for (k, v) in tags.named() {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    }
    out.push_str(&format!("[Result \"{result}\"]\n\n"));
    let words =
        record.moves.iter().enumerate().map(|(i, m)| {
            if i % 2 == 0 { format!("{}. {}", i / 2 + 1, m.played) } else { m.played.to_string() }
        });
    out.push_str(&station_core::draughts::pdn::movetext_with_result(words, result));
    out.push('\n');
    Some(out)
}
