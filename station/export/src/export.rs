//! `station export --pgn`: the record of journaled games as PGN.
//!
//! [`select`] is how every format finds its games: which journals an export reads, and what it did
//! not find said apart (no folder, no journal in it, no such game: then the games there are named);
//! a folder a running station holds is said once, in a plain sentence.

use crate::journal_file::{Found, JournalDir};
use anyhow::{Context, Result, bail};
use station_core::notation::{Notation, scoresheet};
use std::path::{Path, PathBuf};

/// `station export` arguments.
pub struct ExportOptions {
    /// Journal directory.
    pub journal_dir: PathBuf,
    /// A game id; the newest game when absent.
    pub game: Option<String>,
    /// Every game, oldest first.
    pub all: bool,
    /// Output file; stdout when absent.
    pub output: Option<PathBuf>,
    /// A scoresheet in this notation besides the PGN (or alone).
    pub notation: Option<Notation>,
    /// Write the PGN.
    pub pgn: bool,
}

/// Every format `station export` writes, as its flags: named when none is given.
pub const FORMATS: &str =
    "--pgn, --pdn, --notation san|pl|iccf|lan|fan, --braille, --large-print or --audio DIR";

/// The folder an export reads without `--journal-dir`: `./journal` (where
/// `station run` writes), or `./journal-practice` (where `station practice`
/// writes) when only that one is there.
pub fn default_journal_dir() -> PathBuf {
    PathBuf::from(default_journal_dir_in(Path::new(".")))
}

/// [`default_journal_dir`]'s choice in the folder `cwd`.
fn default_journal_dir_in(cwd: &Path) -> &'static str {
    use station_app::config::{DEFAULT_JOURNAL_DIR, PRACTICE_JOURNAL_DIR};
    if !cwd.join(DEFAULT_JOURNAL_DIR).is_dir() && cwd.join(PRACTICE_JOURNAL_DIR).is_dir() {
        PRACTICE_JOURNAL_DIR
    } else {
        DEFAULT_JOURNAL_DIR
    }
}

/// The journals an export reads: every one (`all`), the game `game`, or the
/// newest. What it did not find is said apart: a folder that is not there,
/// one without a game journal, and one without the asked game (naming the
/// games it holds). Never creates the folder.
pub fn select(journal_dir: &Path, game: Option<&str>, all: bool) -> Result<Vec<Found>> {
    if !journal_dir.is_dir() {
        bail!(
            "no journal folder {}: it does not exist (give the station's --journal-dir)",
            journal_dir.display()
        );
    }
    if let Some(holder) = station_app::journal_lock::holder(journal_dir) {
        tell_once(format!(
            "station: a station ({holder}) is running on {}: its current game may still grow",
            journal_dir.display()
        ));
    }
    let listing = JournalDir::open(journal_dir)?.list()?;
    for d in &listing.damaged {
        tell_once(format!(
            "station: {} is damaged and was left out (it stays on disk as it is): {}",
            d.path.display(),
            d.error
        ));
    }
    let mut found = listing.found;
    if found.is_empty() {
        bail!("{} holds no game journal (no *.jsonl file a station wrote)", journal_dir.display());
    }
    if all {
        return Ok(found);
    }
    match game {
        Some(id) => {
            if !found.iter().any(|f| f.contents.header.game_id == id) {
                let ids: Vec<&str> = found.iter().map(|f| f.contents.header.game_id.as_str()).collect();
                bail!("no game `{id}` in {}; the games there: {}", journal_dir.display(), ids.join(", "));
            }
            found.retain(|f| f.contents.header.game_id == id);
            Ok(found)
        }
        None => Ok(found.pop().into_iter().collect()),
    }
}

/// The one game an export of a single game reads: `game`, or the newest.
pub fn one_game(journal_dir: &Path, game: Option<&str>) -> Result<Found> {
    select(journal_dir, game, false)?.pop().context("no game journal")
}

/// Says `sentence` on stderr, once per process: an export selects its games
/// more than once (the command line checks first), and a log line with a
/// time stamp and colours is not what a user reading an export wants.
fn tell_once(sentence: String) {
    static TOLD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut told = TOLD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !told.contains(&sentence) {
        eprintln!("{sentence}");
        told.push(sentence);
    }
}

/// Writes the PGN (with `pgn`), and the scoresheet in `notation` beside it
/// or alone.
pub fn export(opts: &ExportOptions) -> Result<()> {
    let chosen = select(&opts.journal_dir, opts.game.as_deref(), opts.all)?;
    let mut text = String::new();
    let mut sheets = String::new();
    for found in &chosen {
        if opts.pgn {
            text.push_str(&pgn_of(found)?);
        }
        if let Some(notation) = opts.notation {
            sheets.push_str(&scoresheet_of(found, notation)?);
            sheets.push('\n');
        }
    }
    match &opts.output {
        Some(path) if !opts.pgn => {
            // The scoresheet alone goes to the file named.
            std::fs::write(path, sheets).with_context(|| format!("cannot write {}", path.display()))
        }
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
            if let Some(notation) = opts.notation {
                let sheet_path = scoresheet_path(path, notation);
                std::fs::write(&sheet_path, sheets)
                    .with_context(|| format!("cannot write {}", sheet_path.display()))?;
            }
            Ok(())
        }
        None => {
            print!("{text}{sheets}");
            Ok(())
        }
    }
}

/// `game.pgn` → `game.pl.txt`.
pub fn scoresheet_path(pgn: &std::path::Path, notation: Notation) -> PathBuf {
    let ext = match notation {
        Notation::San => "san",
        Notation::Pl => "pl",
        Notation::Iccf => "iccf",
        Notation::Lan => "lan",
        Notation::Fan => "fan",
    };
    pgn.with_extension(format!("{ext}.txt"))
}

/// One journal's game as a scoresheet in `notation`: the players, the moves
/// numbered, the draw-offer marks (=) and the result.
pub fn scoresheet_of(found: &Found, notation: Notation) -> Result<String> {
    let record = found.contents.record();
    let game = chess_game(found, &record)?;
    let tags = &record.tags;
    Ok(format!(
        "{} - {}, {} {}\n{}",
        tags.white,
        tags.black,
        tags.event,
        tags.date,
        scoresheet(&game, notation, &record.draw_offers(), record.result())
    ))
}

/// One journal's game as PGN, written from its record: unfinished games end in `*`.
pub fn pgn_of(found: &Found) -> Result<String> {
    let record = found.contents.record();
    chess_game(found, &record)?;
    let time_control = time_control_of(found)?;
    record.pgn(time_control.as_ref()).context("the record's moves are not legal from its start")
}

/// The chess game of a journal's record, or why there is none.
pub fn chess_game(found: &Found, record: &station_core::record::GameRecord) -> Result<station_core::Game> {
    let rules = station_core::rules::from_fen(&record.start_fen);
    if rules.export_format() != "pgn" {
        bail!("{} is a draughts game: export it with --{}", found.path.display(), rules.export_format());
    }
    record
        .chess_game()
        .with_context(|| format!("{}: the record's moves are not legal from its start", found.path.display()))
}

/// The time control the journal's game was played with, if it had a clock.
pub fn time_control_of(found: &Found) -> Result<Option<station_core::clock::TimeControl>> {
    // The header's reader parsed it already: a bad one is refused with the header.
    Ok(found.contents.header.config.time_control.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Bitboard, Square};
    use station_core::BoardRole;
    use station_core::Game;
    use station_core::journal::{Header, Input, Record, decode};
    use station_core::pgn::read_games;

    #[test]
    fn a_timed_game_exports_its_clock_after_every_move() {
        let start = Game::default().occupancy();
        let mut header = Header::peg_board_alone("game-1", 1_000, start);
        header.config.time_control = Some("300+2".parse().unwrap());
        header.config.clock_auto_press = true;
        // The journal as the daemon writes it: every input, then the events the table decided.
        let cfg = header.config.clone();
        let mut table = station_core::Table::resume(
            cfg,
            "game-1".into(),
            Game::default(),
            station_core::role::ByBoard::new(start, Bitboard::EMPTY),
            None,
            1_000,
        );
        let mut lines = vec![Record::Header(Box::new(header)).encode()];
        let mut seq = 0;
        let mut push = |t_ms: u64, input: Input| {
            seq += 1;
            lines.push(Record::Input { seq, t_ms, input: input.clone() }.encode());
            for event in table.apply(t_ms, &input).unwrap() {
                seq += 1;
                lines.push(Record::Event { seq, event }.encode());
            }
        };
        let scan = |occ: Bitboard| Input::scan(BoardRole::Blind, occ);
        let e4 = start.without(Square::E2).with(Square::E4);
        push(11_000, scan(start.without(Square::E2)));
        push(11_100, scan(e4));
        push(11_400, Input::Tick);
        let e5 = e4.without(Square::E7).with(Square::E5);
        push(21_000, scan(e4.without(Square::E7)));
        push(21_100, scan(e5));
        push(21_400, Input::Tick);
        let text = lines.join("\n") + "\n";
        let found = Found { path: "game-1.jsonl".into(), contents: decode(&text).unwrap() };
        let pgn = pgn_of(&found).unwrap();
        assert!(pgn.contains("[TimeControl \"300+2\"]"), "{pgn}");
        // White thought 10.4 s (1.0 → 11.4) and got 2 s back: 4:51.6 → 0:04:51.
        assert!(pgn.contains("e4 {[%clk 0:04:51]}"), "{pgn}");
        // Black's clock ran from White's press (11.4 s) to his own (21.4 s): 4:52.
        assert!(pgn.contains("e5 {[%clk 0:04:52]}"), "{pgn}");
        let back = read_games(pgn.as_bytes());
        assert_eq!(back[0].clocks, [Some(291), Some(292)]);

        // A draw offer after 1...e5 (journaled as an input): marked in the PGN and
        // in the scoresheet of every notation.
        seq += 1;
        let input = Input::DrawOffer { side: station_core::clock::Side::Black };
        let mut text = text + &Record::Input { seq, t_ms: 22_000, input: input.clone() }.encode() + "\n";
        for event in table.apply(22_000, &input).unwrap() {
            seq += 1;
            text.push_str(&(Record::Event { seq, event }.encode() + "\n"));
        }
        let found = Found { path: "game-1.jsonl".into(), contents: decode(&text).unwrap() };
        assert!(pgn_of(&found).unwrap().contains("e5 {[%clk 0:04:52]} {(=)}"));
        let sheet = |n: Notation| scoresheet_of(&found, n).unwrap().lines().nth(1).unwrap().to_owned();
        assert_eq!(sheet(Notation::San), "1. e4 e5 (=)");
        assert_eq!(sheet(Notation::Iccf), "1. 5254 5755 (=)");
        assert_eq!(sheet(Notation::Lan), "1. e2-e4 e7-e5 (=)");
        assert_eq!(scoresheet_of(&found, Notation::Pl).unwrap().lines().last(), Some("*"));
        // `--notation pl` alone (issue 22 §8): the scoresheet is the file, no PGN.
        let dir = std::env::temp_dir().join(format!("export-sheet-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("game-1.jsonl"), &text).unwrap();
        let out = dir.join("sheet.txt");
        let opts = ExportOptions {
            journal_dir: dir.clone(),
            game: None,
            all: false,
            output: Some(out.clone()),
            notation: Some(Notation::Pl),
            pgn: false,
        };
        export(&opts).unwrap();
        let sheet = std::fs::read_to_string(&out).unwrap();
        assert!(sheet.contains("\n1. e4 e5 (=)\n") && !sheet.contains("[Event"), "{sheet}");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            scoresheet_path(std::path::Path::new("out/game.pgn"), Notation::Pl),
            std::path::Path::new("out/game.pl.txt")
        );
    }

    /// Issue 34 §8: without `--journal-dir` an export reads ./journal, or
    /// ./journal-practice when only that one is there.
    #[test]
    fn without_a_folder_named_the_practice_folder_is_read_when_it_is_the_only_one() {
        let cwd = std::env::temp_dir().join(format!("export-default-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&cwd);
        std::fs::create_dir_all(&cwd).unwrap();
        assert_eq!(default_journal_dir_in(&cwd), "journal", "neither: the station's folder is named");
        std::fs::create_dir(cwd.join("journal-practice")).unwrap();
        assert_eq!(default_journal_dir_in(&cwd), "journal-practice");
        std::fs::create_dir(cwd.join("journal")).unwrap();
        assert_eq!(default_journal_dir_in(&cwd), "journal", "both: the station's");
        let _ = std::fs::remove_dir_all(&cwd);
    }

    /// `station export` (issue 22 §8): a missing folder, an empty one and one
    /// without the asked game are three messages, the last naming the games.
    #[test]
    fn what_an_export_did_not_find_is_said_apart() {
        let dir = std::env::temp_dir().join(format!("export-select-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let err =
            |game: Option<&str>| select(&dir, game, false).err().map(|e| e.to_string()).unwrap_or_default();
        let missing = err(None);
        assert!(missing.starts_with("no journal folder") && missing.contains("does not exist"), "{missing}");
        assert!(!dir.exists(), "looking did not create the folder");
        std::fs::create_dir_all(&dir).unwrap();
        let empty = err(None);
        assert!(empty.contains("holds no game journal"), "{empty}");
        let game = |id: &str, t: u64| {
            let mut header = Header::peg_board_alone(id, t, Game::default().occupancy());
            header.config.clock_auto_press = true;
            std::fs::write(dir.join(format!("{id}.jsonl")), Record::Header(Box::new(header)).encode() + "\n")
                .unwrap();
        };
        game("game-a", 1_000);
        game("game-b", 2_000);
        let absent = err(Some("game-z"));
        assert!(absent.starts_with("no game `game-z` in"), "{absent}");
        assert!(absent.ends_with("the games there: game-a, game-b"), "{absent}");
        let newest = select(&dir, None, false).unwrap();
        assert_eq!(newest.iter().map(|f| f.contents.header.game_id.as_str()).collect::<Vec<_>>(), ["game-b"]);
        assert_eq!(select(&dir, Some("game-a"), false).unwrap().len(), 1);
        assert_eq!(select(&dir, None, true).unwrap().len(), 2);
        // Two games started in the same millisecond: the second (`-2`) is the newest.
        game("game-3000", 3_000);
        game("game-3000-2", 3_000);
        let newest = select(&dir, None, false).unwrap();
        assert_eq!(newest[0].contents.header.game_id, "game-3000-2");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
