//! Chess's words: moves by piece and square in the blind player's spelling,
//! the draw facts of Art. 9.2/9.3, the console's last move as the record's SAN.

use super::{AnnounceOptions, GameWords, Said};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use shakmaty::Position;
use station_core::Game;
use station_core::event::PlayedMove;
use station_core::notation::read_exactly;
use station_core::record::{GameRecord, RecordedMove};
use station_core::table::Table;
use station_voices::{Wording, position_from_fen};

/// The words of chess.
#[derive(Debug)]
pub struct ChessWords;

impl GameWords for ChessWords {
    fn draw_facts_text(&self, wording: &Wording, table: &Table) -> Option<String> {
        table.draw_facts().map(|facts| crate::draw_facts::draw_facts_text(wording, &facts))
    }

    fn last_move(&self, _: &Table, _: Option<&GameRecord>, chess: Option<Value>) -> Option<Value> {
        chess
    }

    fn move_at(
        &self,
        wording: &Wording,
        before: Option<&shakmaty::Chess>,
        mv: &PlayedMove,
    ) -> Option<String> {
        Some(word_event_move(wording, before?, mv).map(|(_, words)| words).unwrap_or_default())
    }

    fn said(&self, _: &Table, game: Option<&Game>, _: &RecordedMove, ply: usize) -> Option<Said> {
        let g = game?;
        Some(Said::Chess {
            before: g.position_at(ply.checked_sub(1)?)?.clone(),
            mv: *g.moves().get(ply - 1)?,
        })
    }

    fn announce(&self, opts: &AnnounceOptions) -> Result<Vec<String>> {
        announce_chess(opts)
    }
}

/// A chess move in `w`'s words, in the position `before` it.
pub(super) fn said_words(w: &Wording, before: &shakmaty::Chess, mv: &shakmaty::Move) -> String {
    w.word_move(before, mv).map(|a| a.to_string()).unwrap_or_default()
}

/// One line per move, or the clock reading.
fn announce_chess(opts: &AnnounceOptions) -> Result<Vec<String>> {
    let wording = Wording::new(&opts.voice)?;
    let mut lines = Vec::new();
    if let Some(clock) = &opts.clock {
        let (white, black) = parse_clock(clock)?;
        let moves = opts.moves_made.context("--clock needs --moves N (the number of moves made)")?;
        let (own, opponent) = if opts.side_black { (black, white) } else { (white, black) };
        lines.push(wording.clock_report(own, opponent, moves));
    }
    let mut pos = position_from_fen(opts.fen.as_deref().unwrap_or("startpos"))?;
    for text in &opts.moves {
        let mv = read_exactly(&pos, text)
            .map_err(|why| anyhow::anyhow!("`{text}` is not a legal move here: {why}"))?;
        lines.push(wording.word_move(&pos, &mv)?.to_string());
        pos.play_unchecked(mv);
    }
    if lines.is_empty() {
        bail!("nothing to announce: give moves, or --clock WHITE_MS,BLACK_MS --moves N");
    }
    Ok(lines)
}

/// A move of the event stream, made in `pos`, in a listener's words: the
/// utterance and its text.
pub(crate) fn word_event_move(
    wording: &Wording,
    pos: &shakmaty::Chess,
    mv: &PlayedMove,
) -> Option<(station_audio::Utterance, String)> {
    let mv = mv.to_move(pos)?;
    let a = wording.word_move(pos, &mv).ok()?;
    Some((station_audio::Utterance::from_announcement(&a), a.to_string()))
}

fn parse_clock(text: &str) -> Result<(u64, u64)> {
    let (w, b) = text.split_once(',').context("--clock takes WHITE_MS,BLACK_MS")?;
    let ms =
        |s: &str| s.trim().parse::<u64>().with_context(|| format!("`{s}` is not a number of milliseconds"));
    Ok((ms(w)?, ms(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use station_voices::VoiceSettings;

    fn opts(lang: &str, moves: &[&str]) -> AnnounceOptions {
        AnnounceOptions {
            voice: VoiceSettings::language(lang),
            fen: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            clock: None,
            moves_made: None,
            side_black: false,
        }
    }

    #[test]
    fn moves_are_played_in_sequence_in_san_or_uci() {
        let lines = announce_chess(&opts("de", &["e4", "e7e5", "Nf3"])).unwrap();
        assert_eq!(lines, ["Eva vier", "Eva fünf", "Springer Felix drei"]);
        let lines = announce_chess(&opts("pl", &["g1f3"])).unwrap();
        assert_eq!(lines, ["skoczek Feliks trzy"]);
        assert!(announce_chess(&opts("de", &["e5"])).is_err());
    }

    #[test]
    fn the_clock_reading_is_from_the_chosen_side() {
        let mut o = opts("de", &[]);
        o.clock = Some("4320000,3480000".into());
        o.moves_made = Some(22);
        assert_eq!(
            announce_chess(&o).unwrap(),
            ["Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."]
        );
        o.side_black = true;
        assert!(announce_chess(&o).unwrap()[0].starts_with("Sie: achtundfünfzig Minuten."));
        o.moves_made = None;
        assert!(announce_chess(&o).is_err());
    }
}
