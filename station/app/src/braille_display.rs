//! The blind player's Braille display (issue 18 §5): the last move in his
//! language's piece letters, the clocks when he asks with a display key; the
//! routing keys are `[buttons]` sources `braille:N` (handled by `station`).
//! A [`Subscriber`] of durable events, so a move reaches the display only once
//! it is journaled, like speech.
//!
//! The display is a `Subscriber` of durable events: the last move in his language's piece
//! letters (or SAN) and the clocks on a display key, both from his phrasebook (`[san]`,
//! `[clock.line]`). Its routing keys are `[buttons]` sources `braille:N`, fed to the `run` loop
//! like the gamepad's (`Station::handle_braille`). `piece_letters` also gives the console's
//! `last_move.sans`. Tested in a running station against a real brltty (virtual driver) and the
//! simulated one, and through `station run` against a real brltty (`station-tests` `e2e`
//! `braille::`).

use crate::config::{BrailleNotation, BrailleSettings};
use crate::delivery::{Delivered, Subscriber};
use anyhow::Result;
use shakmaty::Color;
use station_core::record::GameRecord;
use station_core::{Event, Millis, Table};
use station_serial::braille::{BrailleDisplay, BrailleEvent};
use station_stamp::Stamped;
use station_voices::{ClockLine, ClockTimeRead, Phrasebook};
use std::rc::Rc;

/// What the station shows on the display; cheap to clone (the subscriber and
/// the station's key handling share it).
#[derive(Clone)]
pub struct BrailleOut {
    display: Rc<dyn BrailleDisplay>,
    notation: BrailleNotation,
    language: String,
}

impl BrailleOut {
    /// Shows on `display` in `language` (`[voice] language`).
    pub fn new(display: Rc<dyn BrailleDisplay>, settings: &BrailleSettings, language: &str) -> Self {
        BrailleOut { display, notation: settings.notation, language: language.to_owned() }
    }

    /// The display's key and status events.
    pub fn events(&self) -> crossbeam_channel::Receiver<Stamped<BrailleEvent>> {
        self.display.events()
    }

    /// Shows the clocks of `table` at `t`, as he reads them (left or used).
    pub fn show_clocks(&self, table: &Table, reading: ClockTimeRead, t: Millis) {
        self.display.show(&clock_line(table, reading, t, &self.language));
    }

    /// Shows move `ply` (SAN, or PDN for draughts) in the configured letters.
    pub fn show_move(&self, ply: usize, text: &str) {
        let text = match (self.notation, pdn_free(text)) {
            (BrailleNotation::Language, true) => piece_letters(text, &self.language),
            _ => text.to_owned(),
        };
        self.display.show(&move_line(ply, &text));
    }
}

/// The display follows the game's record (the durable events folded as every
/// view folds them): its last move, shown again when a take-back changes it.
pub struct BrailleMoves {
    out: BrailleOut,
    record: Option<GameRecord>,
}

impl BrailleMoves {
    /// Follows the record from `record` on (the restored game's, or none).
    pub fn new(out: BrailleOut, record: Option<GameRecord>) -> Self {
        BrailleMoves { out, record }
    }
}

/// The last move of a record as the display shows it: its ply and SAN (PDN).
pub fn last_move(record: &GameRecord) -> Option<(usize, String)> {
    record.moves.last().map(|m| (m.ply, m.pdn.as_ref().map_or_else(|| m.san.clone(), ToString::to_string)))
}

impl Subscriber for BrailleMoves {
    fn deliver(&mut self, batch: &[Delivered]) -> Result<()> {
        let before = self.record.as_ref().and_then(last_move);
        for d in batch {
            if let Event::GameStarted { game_id, fen, t_ms, .. } = &d.event {
                self.record = Some(GameRecord::new(game_id.clone(), fen.clone(), Default::default(), *t_ms));
            }
            if let Some(r) = self.record.as_mut() {
                r.apply(&d.event);
            }
        }
        let after = self.record.as_ref().and_then(last_move);
        if let Some((ply, text)) = after.filter(|a| Some(a) != before.as_ref()) {
            self.out.show_move(ply, &text);
        }
        Ok(())
    }
}

/// A chess move (letters), not a draughts move (square numbers).
fn pdn_free(text: &str) -> bool {
    !text.starts_with(|c: char| c.is_ascii_digit())
}

/// `23. e4` for White's move, `23... e5` for Black's.
pub fn move_line(ply: usize, text: &str) -> String {
    let number = ply.div_ceil(2);
    if ply % 2 == 1 { format!("{number}. {text}") } else { format!("{number}... {text}") }
}

/// SAN with the piece letters of `language` (its phrasebook's `[san]`:
/// German K D T L S, Russian Кр Ф Л С К); files, squares and castling stay
/// as they are. A language without a phrasebook keeps SAN's letters.
pub fn piece_letters(san: &str, language: &str) -> String {
    match Phrasebook::builtin(language) {
        Some(book) => book.san_letters().write(san),
        None => san.to_owned(),
    }
}

/// `W 1:02:03 S 0:58:00 Zug 23`: his side first, then the opponent's, and the
/// moves made; the time used is marked as such. The words are the
/// phrasebook's `[clock.line]` (English's for a language without one).
pub fn clock_line(table: &Table, reading: ClockTimeRead, t: Millis, language: &str) -> String {
    let english = ClockLine::default();
    let words = Phrasebook::builtin(language).map_or(&english, |book| &book.clock().line);
    let ClockLine { white, black, moves, used } = words;
    let moves_made = table.turn().map_or(0, |(ply, _)| ply.div_ceil(2));
    let Some(clock) = table.clock() else {
        return format!("{moves} {moves_made}");
    };
    let own = table.config().blind_color;
    let mut line = String::new();
    for color in [own, !own] {
        let side = station_core::clock::Side::from(color);
        let ms = match reading {
            ClockTimeRead::Remaining => clock.remaining(side, t),
            ClockTimeRead::Used => clock.time_used(side, t),
        };
        let name = if color == Color::White { white } else { black };
        line.push_str(&format!("{name} {} ", hms(ms)));
    }
    line.push_str(&format!("{moves} {moves_made}"));
    if reading == ClockTimeRead::Used {
        line.push_str(&format!(" {used}"));
    }
    line
}

fn hms(ms: Millis) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn his_language_names_the_pieces() {
        assert_eq!(piece_letters("Nxf3+", "de"), "Sxf3+");
        assert_eq!(piece_letters("Qd8=Q", "pl"), "Hd8=H");
        assert_eq!(piece_letters("Bb5", "de"), "Lb5");
        assert_eq!(piece_letters("O-O", "de"), "O-O");
        assert_eq!(piece_letters("Rxe1#", "en"), "Rxe1#");
        assert_eq!(piece_letters("Kxe2", "ru"), "Крxe2");
        assert_eq!(piece_letters("Nxe2", "ru"), "Кxe2");
        assert_eq!(piece_letters("exd8=Q+", "es"), "exd8=D+");
        assert_eq!(piece_letters("Rxe1#", "hu"), "Bxe1#");
        assert_eq!(piece_letters("Nf3", "xx"), "Nf3");
    }

    /// The clock line in the blind player's language, from its phrasebook:
    /// German and Polish as before, Spanish, Russian and Hungarian in their
    /// own words, English for a language without a phrasebook.
    #[test]
    fn the_clock_line_is_in_his_language() {
        use station_core::input::Input;
        let cfg = station_core::table::TableConfig {
            blind_unsensed: true,
            time_control: Some("5400+30".parse().unwrap()),
            ..station_core::table::TableConfig::single(station_core::TrackerConfig::default())
        };
        let mut table = Table::new(cfg);
        table.apply(1_000, &Input::Tick).unwrap();
        for (i, mv) in ["d4", "Nf6", "c4"].into_iter().enumerate() {
            table.apply(2_000 + 1_000 * i as Millis, &Input::EnterMove { mv: mv.into() }).unwrap();
        }
        let line = |lang, reading| clock_line(&table, reading, 10_000, lang);
        let left = "1:30:00 ";
        for (lang, want) in [
            ("de", format!("W {left}S {left}Zug 2")),
            ("pl", format!("B {left}C {left}ruch 2")),
            ("en", format!("W {left}B {left}move 2")),
            ("es", format!("B {left}N {left}jugada 2")),
            ("ru", format!("Б {left}Ч {left}ход 2")),
            ("hu", format!("V {left}S {left}lépés 2")),
            ("xx", format!("W {left}B {left}move 2")),
        ] {
            assert_eq!(line(lang, ClockTimeRead::Remaining), want, "{lang}");
        }
        assert!(line("de", ClockTimeRead::Used).ends_with("Zug 2 verbraucht"));
        assert!(line("pl", ClockTimeRead::Used).ends_with("ruch 2 zużyte"));
        assert!(line("ru", ClockTimeRead::Used).ends_with("ход 2 затрачено"));
    }

    /// A draughts game's clock line counts its own moves: seven plies of the
    /// first shared game are four moves made (the table's chess record stays empty).
    #[test]
    fn the_draughts_clock_line_names_the_moves_made() {
        use station_core::draughts::Variant;
        use station_core::input::Input;
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/draughts/selfplay-international.pdn");
        let text = std::fs::read_to_string(path).expect("the shared draughts games");
        let game = &station_core::draughts::pdn::read_games(&text).unwrap()[0];
        let cfg = station_core::table::TableConfig {
            blind_unsensed: true,
            time_control: Some("4800+60".parse().unwrap()),
            ..station_core::table::TableConfig::single(station_core::TrackerConfig::default())
        };
        let mut table = Table::new(cfg).with_draughts(Variant::International);
        table.apply(1_000, &Input::Tick).unwrap();
        for (i, mv) in game.moves.iter().take(7).enumerate() {
            let mv = mv.pdn(game.variant, false);
            table.apply(2_000 + 1_000 * i as Millis, &Input::EnterMove { mv }).unwrap();
        }
        assert_eq!(table.turn().map(|(ply, _)| ply), Some(7));
        let line = clock_line(&table, ClockTimeRead::Remaining, 10_000, "de");
        assert!(line.starts_with("W ") && line.ends_with(" Zug 4"), "{line}");
        let used = clock_line(&table, ClockTimeRead::Used, 10_000, "en");
        assert!(used.ends_with(" move 4 used"), "{used}");
    }

    #[test]
    fn the_move_number_says_whose_move() {
        assert_eq!(move_line(45, "Sf3"), "23. Sf3");
        assert_eq!(move_line(46, "e5"), "23... e5");
    }

    #[test]
    fn clocks_read_hours_minutes_seconds() {
        assert_eq!(hms(3_723_999), "1:02:03");
        assert_eq!(hms(59_000), "0:00:59");
    }
}

#[cfg(test)]
mod station_tests;
