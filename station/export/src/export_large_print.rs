//! `station export --large-print`: a journaled game as a PDF scoresheet for a
//! low-vision player (issue 18 §6): black on white, nothing under 20 pt, the
//! players and the event on top, one line per move number with both moves,
//! each followed by its mover's clock time where the journal knows it, the
//! draw-offer marks (=), the result, as many pages as the game needs, each
//! numbered. The text is one layer in reading order: what `pdftotext` gives
//! back is the record.
//!
//! The pages are A4, landscape only when the columns cannot fit portrait at 20 pt.

mod pdf;

use crate::journal_file::Found;
use anyhow::{Context, Result};
use pdf::{A4, Document, Font, Page, width};
use shakmaty::{Color, Position};
use station_core::clock::format_clock;
use station_core::pgn::SevenTags;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// `station export --large-print` arguments.
pub struct LargePrintOptions {
    /// Journal directory.
    pub journal_dir: PathBuf,
    /// A game id; the newest game when absent.
    pub game: Option<String>,
    /// The PDF's file: `-` for stdout; `<game id>.pdf` in the current directory when absent.
    pub output: Option<PathBuf>,
}

/// One half-move as the sheet shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetMove {
    /// SAN with its check or mate sign.
    pub san: String,
    /// The mover's remaining time once his clock was pressed (`h:mm:ss`), when known.
    pub clock: Option<String>,
    /// A draw offer was made with this move (written `(=)` after it).
    pub draw_offer: bool,
}

/// What a scoresheet holds, taken from a journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// The Seven Tag Roster's players and event.
    pub tags: SevenTags,
    /// The time control, as the station writes it, for a timed game.
    pub time_control: Option<String>,
    /// The move number of the first move.
    pub first_number: u32,
    /// The game starts with Black to move.
    pub black_first: bool,
    /// A draw offer before the first move.
    pub offer_before_first: bool,
    /// Every half-move, in order.
    pub moves: Vec<SheetMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (not finished).
    pub result: String,
    /// Why the game ended, in words ("White resigns"), when known.
    pub reason: Option<String>,
}

/// Writes the PDF of the chosen game.
pub fn export_large_print(opts: &LargePrintOptions) -> Result<()> {
    let found = &crate::export::one_game(&opts.journal_dir, opts.game.as_deref())?;
    let sheet = sheet_of(found)?;
    let document = render(&sheet);
    let bytes = document.to_bytes();
    let path = match &opts.output {
        Some(path) if path == Path::new("-") => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .context("cannot write the PDF to stdout")?;
            return Ok(());
        }
        Some(path) => path.clone(),
        None => PathBuf::from(format!("{}.pdf", found.contents.header.game_id)),
    };
    std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    let pages = document.pages.len();
    println!("large print: {} ({pages} page{})", path.display(), if pages == 1 { "" } else { "s" });
    Ok(())
}

/// The scoresheet of one journal's game: restored as the station restores it.
pub fn sheet_of(found: &Found) -> Result<Sheet> {
    let record = found.contents.record();
    let game = &crate::export::chess_game(found, &record)?;
    let offers = record.draw_offers();
    let time_control = crate::export::time_control_of(found)?;
    let time_control = time_control.as_ref();
    let clocks = record.clocks();
    let moves = game
        .sans()
        .iter()
        .enumerate()
        .map(|(i, san)| {
            let ply = i + 1;
            // The mover's time once his clock was pressed, as `[%clk]` in the PGN.
            let clock = time_control.and(clocks.get(i).copied().flatten()).map(format_clock);
            SheetMove { san: san.to_string(), clock, draw_offer: offers.contains(&ply) }
        })
        .collect();
    let result = record.result().to_owned();
    let reason = record
        .end
        .as_ref()
        .filter(|e| e.result != "*")
        .map(|e| station_core::record::reason_in_words(&e.reason, &e.result))
        .filter(|r| !r.is_empty());
    Ok(Sheet {
        tags: record.tags.clone(),
        time_control: time_control.map(time_control_in_words),
        first_number: game.start().fullmoves().get(),
        black_first: game.start().turn() == Color::Black,
        offer_before_first: offers.contains(&0),
        moves,
        result,
        reason,
    })
}

/// A time control as a player reads it: "90 min + 30 s per move", "40 moves
/// in 90 min + 30 s per move, then 30 min + 30 s per move".
pub fn time_control_in_words(tc: &station_core::clock::TimeControl) -> String {
    use station_core::clock::Bonus;
    let periods = tc.periods();
    let words: Vec<String> = periods
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut time = duration_in_words(p.time_ms);
            match p.bonus {
                Bonus::None => {}
                Bonus::Increment(ms) => time.push_str(&format!(" + {} per move", duration_in_words(ms))),
                Bonus::SimpleDelay(ms) => {
                    time.push_str(&format!(", {} delay per move", duration_in_words(ms)))
                }
                Bonus::Bronstein(ms) => {
                    time.push_str(&format!(", {} Bronstein delay per move", duration_in_words(ms)))
                }
            }
            match p.moves {
                // The last period with a move count repeats.
                Some(n) if i + 1 == periods.len() => {
                    format!("{n} moves in {time}, again for every {n} moves")
                }
                Some(n) => format!("{n} moves in {time}"),
                None if i > 0 => format!("{time} for the rest of the game"),
                None => time,
            }
        })
        .collect();
    words.join(", then ")
}

/// "90 min", "30 s", "1 min 30 s", "2 h 5 min" (whole hours above two hours
/// read better than a count of minutes; 90 min stays 90 min, as players say it).
fn duration_in_words(ms: station_core::Millis) -> String {
    let seconds = ms / 1000;
    let (minutes, s) = (seconds / 60, seconds % 60);
    let mut parts = Vec::new();
    if minutes >= 120 && minutes % 60 == 0 {
        parts.push(format!("{} h", minutes / 60));
    } else if minutes > 0 {
        parts.push(format!("{minutes} min"));
    }
    if s > 0 || parts.is_empty() {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}

/// Page margin, points.
const MARGIN: f32 = 48.0;
/// No text is smaller.
const MIN_SIZE: f32 = 20.0;
/// The move lines' sizes tried, largest first, until the columns fit the page.
const MOVE_SIZES: [f32; 4] = [26.0, 24.0, 22.0, MIN_SIZE];
/// The players' names.
const NAME_SIZE: f32 = 28.0;
/// Line height as a multiple of the font size.
const LEADING: f32 = 1.4;

/// One line of the move table: a move number with White's and Black's cells.
struct Row {
    number: String,
    white: String,
    white_clock: String,
    black: String,
    black_clock: String,
}

fn cell(mv: &SheetMove) -> (String, String) {
    let text = if mv.draw_offer { format!("{} (=)", mv.san) } else { mv.san.clone() };
    (text, mv.clock.clone().unwrap_or_default())
}

fn rows_of(sheet: &Sheet) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut number = sheet.first_number;
    let mut moves = sheet.moves.iter();
    if sheet.black_first
        && let Some(black) = moves.next()
    {
        let (black, black_clock) = cell(black);
        rows.push(Row {
            number: format!("{number}."),
            white: "...".into(),
            white_clock: String::new(),
            black,
            black_clock,
        });
        number += 1;
    }
    while let Some(white) = moves.next() {
        let (white, white_clock) = cell(white);
        let (black, black_clock) = moves.next().map(cell).unwrap_or_default();
        rows.push(Row { number: format!("{number}."), white, white_clock, black, black_clock });
        number += 1;
    }
    rows
}

/// Where the table's columns start (the number column ends at `number_right`).
struct Columns {
    size: f32,
    number_right: f32,
    white: f32,
    white_clock: f32,
    black: f32,
    black_clock: f32,
    right: f32,
}

const HEADINGS: [&str; 5] = ["Move", "White", "Clock", "Black", "Clock"];

/// The columns at `size` starting at `left`, sized to the widest entry of each.
fn columns(rows: &[Row], size: f32, left: f32, timed: bool) -> Columns {
    let widest = |font: Font, heading: &str, cells: &mut dyn Iterator<Item = &String>| {
        cells.map(|c| width(font, size, c)).fold(width(Font::Bold, size, heading), f32::max)
    };
    let number = widest(Font::Bold, HEADINGS[0], &mut rows.iter().map(|r| &r.number));
    let moves = widest(Font::Bold, HEADINGS[1], &mut rows.iter().flat_map(|r| [&r.white, &r.black]));
    let clocks = if timed {
        widest(Font::Regular, HEADINGS[2], &mut rows.iter().flat_map(|r| [&r.white_clock, &r.black_clock]))
    } else {
        0.0
    };
    let gap = size * 0.6;
    let number_right = left + number;
    let white = number_right + gap;
    let white_clock = white + moves + gap;
    let black = if timed { white_clock + clocks + 1.2 * gap } else { white_clock + 0.5 * gap };
    let black_clock = black + moves + gap;
    let right = if timed { black_clock + clocks } else { black + moves };
    Columns { size, number_right, white, white_clock, black, black_clock, right }
}

/// Lines of `text` no wider than `max` (a word longer than a line is cut).
fn wrap(text: &str, font: Font, size: f32, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
        if width(font, size, &candidate) <= max {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for c in word.chars() {
            line.push(c);
            if width(font, size, &line) > max && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::replace(&mut line, c.to_string()));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A tag's value, or nothing for the PGN's unknown (`?`, `????.??.??`).
fn known(value: &str) -> Option<&str> {
    let value = value.trim();
    (!value.is_empty() && !value.chars().all(|c| c == '?' || c == '.')).then_some(value)
}

/// Pages filled from the top, a new one (with the continuation heading) when full.
struct Flow {
    size: (f32, f32),
    pages: Vec<Page>,
    y: f32,
}

impl Flow {
    fn new(size: (f32, f32)) -> Self {
        Flow { size, pages: vec![Page::new(size)], y: size.1 - MARGIN }
    }

    fn left(&self) -> f32 {
        MARGIN
    }

    fn text_width(&self) -> f32 {
        self.size.0 - 2.0 * MARGIN
    }

    /// Room left above the footer.
    fn room(&self) -> f32 {
        self.y - (MARGIN + 2.0 * MIN_SIZE)
    }

    fn page(&mut self) -> &mut Page {
        self.pages.last_mut().expect("a flow has a page")
    }

    fn new_page(&mut self) {
        self.pages.push(Page::new(self.size));
        self.y = self.size.1 - MARGIN;
    }

    /// A wrapped paragraph.
    fn paragraph(&mut self, font: Font, size: f32, text: &str) {
        for line in wrap(text, font, size, self.text_width()) {
            if self.room() < size * LEADING {
                self.new_page();
            }
            self.y -= size * LEADING;
            let x = self.left();
            let y = self.y;
            self.page().text(font, size, x, y, &line);
        }
    }

    /// The table's headings and a rule beneath them.
    fn headings(&mut self, cols: &Columns, timed: bool) {
        self.y -= cols.size * LEADING;
        let (size, y) = (cols.size, self.y);
        let number_x = cols.number_right - width(Font::Bold, size, HEADINGS[0]);
        let left = self.left();
        let page = self.page();
        page.text(Font::Bold, size, number_x, y, HEADINGS[0]);
        page.text(Font::Bold, size, cols.white, y, HEADINGS[1]);
        // Left to right: the text layer's order is the reading order.
        if timed {
            page.text(Font::Bold, size, cols.white_clock, y, HEADINGS[2]);
        }
        page.text(Font::Bold, size, cols.black, y, HEADINGS[3]);
        if timed {
            page.text(Font::Bold, size, cols.black_clock, y, HEADINGS[4]);
        }
        page.rule(left, cols.right, y - size * 0.35, 2.0);
        self.y -= size * 0.3;
    }
}

/// The sheet laid out on A4 pages (landscape only if the columns cannot fit portrait at 20 pt).
pub fn render(sheet: &Sheet) -> Document {
    let rows = rows_of(sheet);
    let timed = sheet.moves.iter().any(|m| m.clock.is_some());
    let portrait_width = A4.0 - 2.0 * MARGIN;
    let fitting = MOVE_SIZES
        .iter()
        .map(|&size| columns(&rows, size, MARGIN, timed))
        .find(|c| c.right - MARGIN <= portrait_width);
    let (page_size, cols) = match fitting {
        Some(cols) => (A4, cols),
        None => ((A4.1, A4.0), columns(&rows, MIN_SIZE, MARGIN, timed)),
    };
    let mut flow = Flow::new(page_size);
    let tags = &sheet.tags;
    let name = |value: &str| known(value).unwrap_or("?").to_owned();
    flow.paragraph(Font::Bold, NAME_SIZE, &format!("White: {}", name(&tags.white)));
    flow.paragraph(Font::Bold, NAME_SIZE, &format!("Black: {}", name(&tags.black)));
    let event: Vec<&str> = [&tags.event, &tags.site].into_iter().filter_map(|v| known(v)).collect();
    if !event.is_empty() {
        flow.paragraph(Font::Regular, MIN_SIZE, &event.join(", "));
    }
    let mut when: Vec<String> = Vec::new();
    if let Some(date) = known(&tags.date) {
        when.push(date.to_owned());
    }
    if let Some(round) = known(&tags.round) {
        when.push(format!("round {round}"));
    }
    if let Some(tc) = &sheet.time_control {
        when.push(format!("time control: {tc}"));
    }
    if !when.is_empty() {
        flow.paragraph(Font::Regular, MIN_SIZE, &when.join(", "));
    }
    if sheet.offer_before_first {
        flow.paragraph(Font::Regular, MIN_SIZE, "(=) a draw offer before the first move");
    }
    flow.y -= MIN_SIZE * 0.5;
    flow.headings(&cols, timed);
    let step = cols.size * LEADING;
    let result_size = cols.size.max(24.0);
    for (i, row) in rows.iter().enumerate() {
        // The last move keeps the result company on its page.
        let needed = if i + 1 == rows.len() { step + cols.size * 0.5 + result_size * LEADING } else { step };
        if flow.room() < needed {
            flow.new_page();
            let continued = format!("{} - {}, continued", name(&tags.white), name(&tags.black));
            flow.paragraph(Font::Regular, MIN_SIZE, &continued);
            flow.headings(&cols, timed);
        }
        flow.y -= step;
        let (size, y) = (cols.size, flow.y);
        let number_x = cols.number_right - width(Font::Bold, size, &row.number);
        let page = flow.page();
        page.text(Font::Bold, size, number_x, y, &row.number);
        page.text(Font::Bold, size, cols.white, y, &row.white);
        if !row.white_clock.is_empty() {
            page.text(Font::Regular, size, cols.white_clock, y, &row.white_clock);
        }
        if !row.black.is_empty() {
            page.text(Font::Bold, size, cols.black, y, &row.black);
        }
        if !row.black_clock.is_empty() {
            page.text(Font::Regular, size, cols.black_clock, y, &row.black_clock);
        }
    }
    flow.y -= cols.size * 0.5;
    let result = match (&sheet.reason, sheet.result.as_str()) {
        (_, "*") => "Result: * (not finished)".to_owned(),
        (Some(reason), result) => format!("Result: {result} ({reason})"),
        (None, result) => format!("Result: {result}"),
    };
    flow.paragraph(Font::Bold, result_size, &result);
    let total = flow.pages.len();
    let (page_width, _) = page_size;
    for (i, page) in flow.pages.iter_mut().enumerate() {
        let footer = format!("Page {} of {total}", i + 1);
        let x = (page_width - width(Font::Regular, MIN_SIZE, &footer)) / 2.0;
        page.text(Font::Regular, MIN_SIZE, x, MARGIN, &footer);
    }
    let title = format!("{} - {}, scoresheet", name(&tags.white), name(&tags.black));
    Document { pages: flow.pages, title, lang: "en".into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(plies: usize) -> Sheet {
        let sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"];
        Sheet {
            tags: SevenTags {
                white: "Wróbel, Łukasz".into(),
                black: "Müller".into(),
                ..SevenTags::default()
            },
            time_control: Some("90 min + 30 s per move".into()),
            first_number: 1,
            black_first: false,
            offer_before_first: false,
            moves: (0..plies)
                .map(|i| SheetMove {
                    san: sans[i % sans.len()].into(),
                    clock: (i % 7 != 3).then(|| format_clock(5_400_000 - 1_000 * i as u64)),
                    draw_offer: i == 4,
                })
                .collect(),
            result: "1/2-1/2".into(),
            reason: Some("Draw by agreement".into()),
        }
    }

    /// Every text drawn: (font size, text), in the order of the content streams.
    fn texts(doc: &Document) -> Vec<(f32, String)> {
        let bytes = doc.to_bytes();
        let text = String::from_utf8_lossy(&bytes);
        text.lines()
            .filter_map(|l| {
                let rest = l.strip_prefix("BT /F")?;
                let size: f32 = rest.split_whitespace().nth(1)?.parse().ok()?;
                let start = rest.find(" Td (")? + 5;
                let end = rest.rfind(") Tj")?;
                Some((size, rest[start..end].replace("\\(", "(").replace("\\)", ")")))
            })
            .collect()
    }

    #[test]
    fn a_long_game_takes_several_numbered_pages_and_nothing_is_under_20_points() {
        let doc = render(&sheet(160));
        assert!(doc.pages.len() >= 3, "{} pages", doc.pages.len());
        let all = texts(&doc);
        assert!(all.iter().all(|(size, _)| *size >= MIN_SIZE), "{all:?}");
        let total = doc.pages.len();
        for page in 1..=total {
            assert!(all.iter().any(|(_, t)| *t == format!("Page {page} of {total}")), "page {page}");
        }
        // Every move number once, from 1 to 80, and the result at the end.
        let numbers: Vec<&str> =
            all.iter().filter(|(_, t)| t.ends_with('.') && t.len() <= 4).map(|(_, t)| t.as_str()).collect();
        let expected: Vec<String> = (1..=80).map(|n| format!("{n}.")).collect();
        assert_eq!(numbers, expected);
        assert!(all.iter().any(|(_, t)| t == "Result: 1/2-1/2 (Draw by agreement)"), "{all:?}");
        assert!(all.iter().any(|(_, t)| t.ends_with("time control: 90 min + 30 s per move")), "{all:?}");
        assert!(all.iter().any(|(_, t)| t == "Bb5 (=)"), "the draw-offer mark after its move");
        assert!(all.iter().any(|(_, t)| t == "1:30:00"), "White's first clock time");
    }

    #[test]
    fn the_columns_fit_a_portrait_page_at_the_largest_size_that_fits() {
        let mut s = sheet(20);
        s.moves[1].san = "exd8=Q+".into();
        s.moves[1].draw_offer = true;
        s.moves[1].clock = Some("10:00:00".into());
        let rows = rows_of(&s);
        let cols = MOVE_SIZES
            .iter()
            .map(|&size| columns(&rows, size, MARGIN, true))
            .find(|c| c.right <= A4.0 - MARGIN);
        let cols = cols.expect("a size fits portrait");
        assert!(cols.size >= MIN_SIZE);
        assert!(
            cols.white < cols.white_clock && cols.white_clock < cols.black && cols.black < cols.black_clock
        );
        // An untimed game has no clock column and larger type.
        let untimed: Vec<SheetMove> =
            s.moves.iter().map(|m| SheetMove { clock: None, ..m.clone() }).collect();
        let rows = rows_of(&Sheet { moves: untimed, ..s });
        assert!(columns(&rows, 26.0, MARGIN, false).right <= A4.0 - MARGIN);
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_starts_with_an_ellipsis() {
        let mut s = sheet(3);
        s.black_first = true;
        s.first_number = 12;
        let rows = rows_of(&s);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].number.as_str(), rows[0].white.as_str(), rows[0].black.as_str()),
            ("12.", "...", "e4")
        );
        assert_eq!(
            (rows[1].number.as_str(), rows[1].white.as_str(), rows[1].black.as_str()),
            ("13.", "e5", "Nf3")
        );
    }

    /// Issue 34 §11: the time control in the words a player reads, not in seconds.
    #[test]
    fn time_controls_are_written_as_players_read_them() {
        let words = |tc: &str| time_control_in_words(&tc.parse().unwrap());
        assert_eq!(words("5400+30"), "90 min + 30 s per move");
        assert_eq!(words("300+2"), "5 min + 2 s per move");
        assert_eq!(words("900"), "15 min");
        assert_eq!(words("90+5"), "1 min 30 s + 5 s per move");
        assert_eq!(words("5400d30"), "90 min, 30 s delay per move");
        assert_eq!(words("40/7200:3600"), "40 moves in 2 h, then 60 min for the rest of the game");
        assert_eq!(
            words("40/5400+30:1800+30"),
            "40 moves in 90 min + 30 s per move, then 30 min + 30 s per move for the rest of the game"
        );
        assert_eq!(words("40/7200"), "40 moves in 2 h, again for every 40 moves");
    }

    #[test]
    fn long_names_wrap_and_unknown_tags_are_left_out() {
        let lines =
            wrap("Wolfgang Amadeus Theophilus Mozart-Hinterhuber von Salzburg", Font::Bold, 28.0, 300.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| width(Font::Bold, 28.0, l) <= 300.0), "{lines:?}");
        assert_eq!(known("????.??.??"), None);
        assert_eq!(known("?"), None);
        assert_eq!(known("2024.05.01"), Some("2024.05.01"));
    }
}
