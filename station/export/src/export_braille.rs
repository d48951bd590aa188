//! `station export --braille [--lang LANG]`: the blind player's record in
//! Braille (D.2.7), as a Braille-ready file (BRF: ASCII Braille, 40 cells a
//! line, 25 lines a page, the page number at the right of each page's last
//! line, pages separated by form feeds), to emboss or to read on a display.
//!
//! The translation is liblouis's, through its own command-line tool
//! `lou_translate` (Debian `liblouis-bin`, tables from `liblouis-data`):
//! the same library and tables as a binding would use, without a new crate
//! or a build-time dependency on the C headers, and the station works
//! without it until a Braille export is asked for. The tables
//! ([`table_of`]) are the languages' uncontracted literary Braille, which
//! keeps capitals (the piece letters) and digits, so the moves come back
//! from a back-translation: German Basisschrift `de-g0-detailed.utb`,
//! Polish `Pl-Pl-g1.utb`, English UEB grade 1 `en-ueb-g1.ctb`, Spanish
//! `es-g1.ctb`, French `fr-bfu-comp6.utb`, Dutch `nl-NL-g0.utb`, Portuguese
//! `pt-pt-g1.utb`, Czech `cs-g1.ctb`, Hungarian `hu-hu-g1.ctb` (all in
//! Debian's liblouis-data); the display table `en-us-brf.dis` writes the
//! cells as BRF characters. The export refuses a table that does not give
//! the moves back, so a table listed here that loses them is an error, never
//! a wrong record.
//!
//! Debian's liblouis (3.24) has no table that gives the moves back for
//! Italian, Russian and Ukrainian (see [`table_for`]), nor for a language
//! added later without one listed here: such a record falls back to
//! English UEB grade 1 ([`FALLBACK`]) with the language's own piece letters
//! — the letters a–z and the digits are the same cells in these languages'
//! Braille — and the export says so on its error output. Piece letters that
//! are not Latin (Russian Кр Ф Л С К, Ukrainian Кр Ф Т С К) have no cells in
//! that table: such a record has SAN's K Q R B N, and the note says so.
//!
//! The moves are written in SAN with the language's piece letters, its
//! phrasebook's `[san]` (German K D T L S, Polish K H W G S, English
//! K Q R B N, Czech K D V S J, Hungarian K V B F H …), numbered, one move
//! number a line, and read back with the same letters.

use anyhow::{Context, Result, bail};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Position, Role};
use station_core::Game;
use station_core::pgn::SevenTags;
use station_voices::{Phrasebook, SanLetters};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Cells a line.
pub const CELLS: usize = 40;
/// Lines a page (the last one carries the page number).
pub const LINES: usize = 25;
/// The display table: dot patterns as BRF (North American ASCII Braille).
pub const DISPLAY: &str = "en-us-brf.dis";

/// The table a record falls back to where a language has none of its own
/// that gives the moves back: English UEB grade 1 (uncontracted).
pub const FALLBACK: &str = "en-ueb-g1.ctb";

/// The liblouis translation table of a language (see the module documentation).
pub fn table_of(lang: &str) -> Result<&'static str> {
    own_table(lang).map_err(|why| {
        anyhow::anyhow!(
            "no Braille table gives the moves back in language {lang:?}: {why} (tables for {})",
            braille_languages().join(", ")
        )
    })
}

/// The table a record in `lang` is written with: its own, else [`FALLBACK`]
/// with a note for the user saying why and what he gets instead.
pub fn table_for(lang: &str) -> (&'static str, Option<String>) {
    match own_table(lang) {
        Ok(table) => (table, None),
        Err(why) => {
            let book = Phrasebook::builtin(lang);
            let name = book.map_or(lang, |book| book.name());
            let letters = match book.map(Phrasebook::san_letters).filter(|l| !l.is_ascii()) {
                // The fallback has no cells for them (see `letters`).
                Some(own) => format!(
                    "SAN's piece letters K Q R B N (it has no cells for {name}'s {})",
                    [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                        .map(|role| own.letter(role).unwrap_or_default())
                        .join(" ")
                ),
                None => format!("{name}'s piece letters"),
            };
            let note = format!(
                "There is no Braille table for {name} ({lang:?}) that gives the moves back: {why}. \
                 The record is written in English Braille (UEB grade 1, {FALLBACK}) with {letters}; \
                 its letters and digits are the same cells. \
                 `--braille-table TABLE` writes it with another table."
            );
            (FALLBACK, Some(note))
        }
    }
}

/// The built-in languages with a table of their own.
pub fn braille_languages() -> Vec<&'static str> {
    station_voices::BUILTIN_LANGUAGES.into_iter().filter(|lang| own_table(lang).is_ok()).collect()
}

/// A language's own table, or why there is none.
fn own_table(lang: &str) -> std::result::Result<&'static str, &'static str> {
    Ok(match lang {
        "de" => "de-g0-detailed.utb",
        "pl" => "Pl-Pl-g1.utb",
        "en" => "en-ueb-g1.ctb",
        "es" => "es-g1.ctb",
        "fr" => "fr-bfu-comp6.utb",
        "nl" => "nl-NL-g0.utb",
        "pt" => "pt-pt-g1.utb",
        "cs" => "cs-g1.ctb",
        "hu" => "hu-hu-g1.ctb",
        "it" => {
            return Err(
                "liblouis has only Italian computer Braille (it-it-comp6.utb), which reads the letters after a digit back as digits (\"e4 c5\" as \"54 35\")",
            );
        }
        "ru" | "uk" => {
            return Err(
                "liblouis's Cyrillic tables read the files' Latin letters back as Cyrillic (\"c5\" as \"ц5\", \"b8\" as \"б8\")",
            );
        }
        _ => return Err("none is known to this station for the language"),
    })
}

/// The piece letters a record in `lang` is written with through `louis`:
/// its phrasebook's (`[san]`: German K D T L S, Czech K D V S J), SAN's
/// K Q R B N for a language without one, and SAN's too where the table is
/// the English [`FALLBACK`] and the language's letters are not Latin
/// (Russian Кр Ф Л С К): that table has no cells for them.
fn letters(lang: &str, louis: &Louis) -> SanLetters {
    let own = Phrasebook::builtin(lang).map_or_else(SanLetters::english, |book| book.san_letters().clone());
    if louis.table == FALLBACK && !own.is_ascii() { SanLetters::english() } else { own }
}

/// liblouis through `lou_translate` with one table list.
pub struct Louis {
    tables: String,
    /// The translation table (without the display table).
    table: String,
}

impl Louis {
    /// The BRF display table with `table` (a name in liblouis's table path or a file).
    pub fn new(table: &str) -> Louis {
        Louis { tables: format!("{DISPLAY},{table}"), table: table.to_owned() }
    }

    /// Translates `lines` forward (print to BRF) or backward; one line out per line in.
    pub fn translate(&self, lines: &[String], backward: bool) -> Result<Vec<String>> {
        let direction = if backward { "--backward" } else { "--forward" };
        let mut child = Command::new("lou_translate")
            .args([direction, &self.tables])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("liblouis's lou_translate cannot be run: install the Debian packages liblouis-bin and liblouis-data")?;
        // lou_translate reads backslash escapes in its input: a backslash
        // cell of BRF (the French digit 8) is doubled to stay itself.
        let input = lines.iter().map(|l| l.replace('\\', "\\\\")).collect::<Vec<_>>().join("\n") + "\n";
        let mut stdin = child.stdin.take().context("lou_translate's input")?;
        // Written from another thread: a long text must not fill both pipes.
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let out = child.wait_with_output().context("lou_translate did not finish")?;
        let _ = writer.join();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // lou_translate exits with 0 on a table it cannot compile; its stderr says so.
        if !out.status.success() || stderr.contains("could not be compiled") {
            bail!(
                "the Braille table {:?} cannot be used by liblouis: {} (tables: /usr/share/liblouis/tables, Debian liblouis-data)",
                self.tables,
                stderr.trim().replace('\n', "; ")
            );
        }
        let text = String::from_utf8(out.stdout).context("lou_translate wrote no UTF-8")?;
        let got: Vec<String> = text.lines().map(str::to_owned).collect();
        if got.len() != lines.len() {
            bail!("lou_translate gave {} lines for {}: {}", got.len(), lines.len(), stderr.trim());
        }
        Ok(got)
    }
}

/// The print lines of the record: players, event and date, a blank line,
/// a line per move number, the result.
fn print_lines(game: &Game, tags: &SevenTags, result: &str, letters: &SanLetters) -> Vec<String> {
    let mut lines =
        vec![format!("{} - {}", tags.white, tags.black), format!("{}, {}", tags.event, tags.date)];
    lines.push(String::new());
    let start = game.start();
    let mut number = start.fullmoves().get();
    let mut line = String::new();
    for (ply, san) in game.sans().iter().enumerate() {
        let white = (ply % 2 == 0) == (start.turn() == Color::White);
        if white || ply == 0 {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line = if white { format!("{number}.") } else { format!("{number}...") };
        }
        line.push(' ');
        line.push_str(&letters.write(&san.to_string()));
        if !white {
            number += 1;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.push(result.to_owned());
    lines
}

/// Breaks a Braille line at spaces into lines of at most [`CELLS`] cells;
/// continuation lines are indented two cells.
fn wrap(line: &str, out: &mut Vec<String>) {
    let mut current = String::new();
    for word in line.split(' ') {
        let needed = current.chars().count() + usize::from(!current.is_empty()) + word.chars().count();
        if needed > CELLS && !current.is_empty() {
            out.push(std::mem::take(&mut current));
            current.push_str("  ");
        } else if !current.is_empty() && !current.ends_with("  ") {
            current.push(' ');
        }
        // A word longer than a line (none in a record) is cut.
        let mut rest: Vec<char> = word.chars().collect();
        while current.chars().count() + rest.len() > CELLS {
            let room = CELLS - current.chars().count();
            current.extend(rest.drain(..room));
            out.push(std::mem::take(&mut current));
            current.push_str("  ");
        }
        current.extend(rest);
    }
    out.push(current);
}

/// The game as BRF through `louis`.
pub fn brf(game: &Game, tags: &SevenTags, result: &str, lang: &str, louis: &Louis) -> Result<String> {
    let braille = louis.translate(&print_lines(game, tags, result, &letters(lang, louis)), false)?;
    let mut lines = Vec::new();
    for line in &braille {
        let mut wrapped = Vec::new();
        wrap(line.trim_end(), &mut wrapped);
        lines.extend(wrapped);
    }
    let body = LINES - 1;
    let pages = lines.len().div_ceil(body).max(1);
    let numbers = louis.translate(&(1..=pages).map(|n| n.to_string()).collect::<Vec<_>>(), false)?;
    let mut out = String::new();
    for (page, number) in numbers.iter().enumerate() {
        let chunk = lines.iter().skip(page * body).take(body);
        let used = chunk.clone().count();
        for line in chunk {
            out.push_str(line);
            out.push('\n');
        }
        for _ in used..body {
            out.push('\n');
        }
        out.push_str(&format!("{number:>CELLS$}\n"));
        out.push('\x0c');
    }
    Ok(out)
}

/// The moves back from a BRF record (back-translated by `louis`), as UCI,
/// checked move by move from `start`.
pub fn moves_from_brf(text: &str, lang: &str, start: &Chess, louis: &Louis) -> Result<Vec<String>> {
    // Each page's body: its last line is the page number.
    let body: Vec<String> = text
        .split('\x0c')
        .filter(|page| !page.is_empty())
        .flat_map(|page| page.lines().take(LINES - 1))
        .map(|l| l.trim_end().to_owned())
        .collect();
    let print = louis.translate(&body, true)?;
    let letters = letters(lang, louis);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    // The header ends at the first blank line; then the move lines and the result.
    let header_end = print.iter().position(|l| l.trim().is_empty()).unwrap_or(0);
    // The last line is the result, which some tables give back changed ("1-j").
    let moves_end = print.iter().rposition(|l| !l.trim().is_empty()).unwrap_or(0);
    let move_lines = print.iter().take(moves_end).skip(header_end);
    for token in move_lines.flat_map(|l| l.split_whitespace()) {
        // A move number ("12." or "12..."; Spanish Braille gives "12'").
        if token.starts_with(|c: char| c.is_ascii_digit()) && !token.contains(|c: char| c.is_alphabetic()) {
            continue;
        }
        // Check and mate signs do not change the move; the German and Polish
        // tables give the promotion sign back as "(", the Dutch one castling as "O-o".
        let token = token.replace('(', "=").replace(['+', '#', '!'], "");
        let castling = token.contains('-') && token.chars().all(|c| matches!(c, 'o' | 'O' | '-'));
        let token = if castling { token.to_uppercase() } else { token };
        let san = letters.read(&token);
        let mv =
            san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()).with_context(|| {
                format!("{token:?} (read as {san:?}) is no move after {} moves", moves.len())
            })?;
        moves.push(mv.to_uci(shakmaty::CastlingMode::Standard).to_string());
        pos.play_unchecked(mv);
    }
    Ok(moves)
}

/// `station export --braille`: game `game` (the newest when `None`) of the
/// journal directory as BRF in `lang`, with `table` instead of the
/// language's when given (the language's own, else [`FALLBACK`]).
pub fn export_braille(
    journal_dir: &Path,
    game: Option<&str>,
    lang: &str,
    table: Option<&str>,
) -> Result<String> {
    let table = match table {
        Some(t) => t.to_owned(),
        // The fallback's note is the caller's to tell (see `table_for`).
        None => table_for(lang).0.to_owned(),
    };
    let found = &crate::export::one_game(journal_dir, game)?;
    let kept = found.contents.record();
    let game = crate::export::chess_game(found, &kept)?;
    let record = &game;
    let louis = Louis::new(&table);
    let text = brf(record, &kept.tags, kept.result(), lang, &louis)?;
    // The file must give the moves back (D.2.9 compares records): a table
    // that loses the piece letters' capitals or the digits is refused.
    let want: Vec<String> = record.moves().iter().map(|m| record.uci(*m)).collect();
    let back = moves_from_brf(&text, lang, record.start(), &louis)
        .with_context(|| format!("the Braille table {table:?} does not give the moves back"))?;
    if back != want {
        bail!(
            "the Braille table {table:?} does not give the moves back: {} of {} read",
            back.len(),
            want.len()
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn louis_here() -> bool {
        let here = Command::new("lou_translate").arg("--version").output().is_ok();
        if !here {
            eprintln!("!!!!! liblouis-bin is missing: run scripts/setup !!!!!");
        }
        here
    }

    /// A long real game from the shared data.
    fn real_game() -> (Game, SevenTags) {
        let path = shared("pgn/games/Fischer.pgn");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let games = station_core::pgn::read_games(&bytes);
        let g = games
            .into_iter()
            .filter(|g| g.error.is_none() && g.game.start() == &Chess::default())
            .max_by_key(|g| g.game.ply())
            .expect("a game");
        let tags = SevenTags {
            white: g.tags.get("White").cloned().unwrap_or_default(),
            black: g.tags.get("Black").cloned().unwrap_or_default(),
            event: g.tags.get("Event").cloned().unwrap_or_default(),
            date: g.tags.get("Date").cloned().unwrap_or_default(),
            ..SevenTags::default()
        };
        (g.game, tags)
    }

    fn shared(rel: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(rel)
    }

    #[test]
    fn a_real_game_in_braille_gives_its_moves_back_in_each_language() {
        if !louis_here() {
            panic!("liblouis-bin is needed for the Braille record");
        }
        let (game, tags) = real_game();
        let want: Vec<String> = game.moves().iter().map(|m| game.uci(*m)).collect();
        assert!(want.len() > 60, "a long game: {} plies", want.len());
        // The languages with a table of their own, and those that fall back.
        assert_eq!(braille_languages(), ["cs", "de", "en", "es", "fr", "hu", "nl", "pl", "pt"]);
        for lang in station_voices::BUILTIN_LANGUAGES {
            let (table, note) = table_for(lang);
            assert_eq!(note.is_some(), !braille_languages().contains(&lang), "{lang}");
            let louis = Louis::new(table);
            let text = brf(&game, &tags, "1-0", lang, &louis).unwrap();
            let pages: Vec<&str> = text.split('\x0c').filter(|p| !p.is_empty()).collect();
            assert!(pages.len() >= 2, "{lang}: {} pages", pages.len());
            for (n, page) in pages.iter().enumerate() {
                let lines: Vec<&str> = page.lines().collect();
                assert_eq!(lines.len(), LINES, "{lang} page {}", n + 1);
                assert!(
                    lines.iter().all(|l| l.chars().count() <= CELLS),
                    "{lang}: a line over {CELLS} cells"
                );
                // BRF: ASCII Braille only; the page number at the right of the last line.
                assert!(page.chars().all(|c| c == '\n' || (' '..='~').contains(&c)), "{lang}: not BRF");
                let number = louis.translate(&[(n + 1).to_string()], false).unwrap().remove(0);
                assert_eq!(lines[LINES - 1].trim_start(), number, "{lang} page {}", n + 1);
                assert_eq!(lines[LINES - 1].chars().count(), CELLS);
            }
            assert_eq!(moves_from_brf(&text, lang, &Chess::default(), &louis).unwrap(), want, "{lang}");
        }
    }

    #[test]
    fn an_unreadable_table_is_a_clear_error() {
        if !louis_here() {
            panic!("liblouis-bin is needed for the Braille record");
        }
        let dir = std::env::temp_dir().join(format!("braille-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.utb");
        std::fs::write(&bad, "this is no liblouis table\n").unwrap();
        let (game, tags) = real_game();
        for table in [bad.display().to_string(), "no-such-table.utb".to_owned()] {
            let err = brf(&game, &tags, "*", "de", &Louis::new(&table)).unwrap_err().to_string();
            assert!(err.contains("cannot be used by liblouis") && err.contains(&table), "{err}");
        }
        // The piece letters are the phrasebooks' (Czech jezdec, Hungarian huszár);
        // Russian's are not Latin: SAN's in the English fallback, its own elsewhere.
        let written =
            |lang: &str, table: &str| letters(lang, &Louis::new(table)).write("Kxe2 Qd1 Rf1 Bb5 Nf3");
        assert_eq!(written("cs", "cs-g1.ctb"), "Kxe2 Dd1 Vf1 Sb5 Jf3");
        assert_eq!(written("hu", "hu-hu-g1.ctb"), "Kxe2 Vd1 Bf1 Fb5 Hf3");
        assert_eq!(written("de", "de-g0-detailed.utb"), "Kxe2 Dd1 Tf1 Lb5 Sf3");
        assert_eq!(written("ru", FALLBACK), "Kxe2 Qd1 Rf1 Bb5 Nf3");
        assert_eq!(written("ru", "ru-litbrl.ctb"), "Крxe2 Фd1 Лf1 Сb5 Кf3");
        assert_eq!(written("xx", "de-g0-detailed.utb"), "Kxe2 Qd1 Rf1 Bb5 Nf3");
        assert!(table_of("ru").unwrap_err().to_string().contains("cs, de, en, es"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Italian, Russian and Ukrainian have no table of their own: their
    /// records are English UEB grade 1, Italian with its own piece letters,
    /// and the note names the language and says why.
    #[test]
    fn a_language_without_its_own_table_falls_back_and_says_so() {
        assert_eq!(letters("it", &Louis::new(FALLBACK)).write("Bb5 Nf3"), "Ab5 Cf3");
        for (lang, name, why, written) in [
            ("it", "italiano", "it-it-comp6.utb", "italiano's piece letters"),
            ("ru", "русский", "Cyrillic", "K Q R B N (it has no cells for русский's Кр Ф Л С К)"),
            ("uk", "українська", "Cyrillic", "K Q R B N (it has no cells for українська's Кр Ф Т С К)"),
        ] {
            let (table, note) = table_for(lang);
            assert_eq!(table, FALLBACK);
            let note = note.unwrap();
            assert!(note.contains(name) && note.contains(why) && note.contains(FALLBACK), "{note}");
            assert!(note.contains(written), "{note}");
            assert!(note.contains("--braille-table"), "{note}");
        }
        let (_, note) = table_for("xx");
        assert!(note.unwrap().contains("none is known"));
        assert_eq!(table_for("fr"), ("fr-bfu-comp6.utb", None));
    }
}
