//! `station practice`: a game against an engine on his peg board without a
//! config file (issue 26). The flags become a config (or override one given
//! with `--config`), checked like any other, and `station run` runs it.

use crate::config::{Config, DEFAULT_ENGINE, OpponentSettings, PRACTICE_JOURNAL_DIR};
use crate::run::{RunOptions, run_config};
use anyhow::Result;
use std::path::PathBuf;

/// `station practice` arguments (each flag documented for `--help`).
#[derive(clap::Args, Debug)]
pub struct PracticeOptions {
    /// A config file for the boards and the audio; the flags below override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The chess engine program, one that speaks UCI (default /usr/games/stockfish; `sim`
    /// for a simulated one).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<String>,
    /// The engine's playing strength as a rating, e.g. 1500 (full strength when absent).
    #[arg(long, value_name = "N")]
    pub elo: Option<u32>,
    /// The colour the blind player plays.
    #[arg(long, value_parser = ["white", "black"])]
    pub color: Option<String>,
    /// The language the station speaks to him.
    #[arg(long, value_parser = crate::lang_arg::builtin_language())]
    pub lang: Option<String>,
    /// The serial port of his peg board (default /dev/annexd-pegboard).
    #[arg(long, value_name = "PATH")]
    pub port: Option<PathBuf>,
    /// How long the engine thinks about each move, in milliseconds (default: by the game's
    /// clock, else 1000).
    #[arg(long, value_name = "MS")]
    pub move_time_ms: Option<u64>,
    /// The folder where the practice games are kept (default ./journal-practice, unless the
    /// config's `[journal] dir` names one); `station export` reads ./journal-practice too.
    #[arg(long, value_name = "DIR")]
    pub journal_dir: Option<PathBuf>,
    /// Also write every event as one JSON line to this file, or `-` for standard output.
    #[arg(long, value_name = "PATH|-")]
    pub events: Option<String>,
    /// The address of the console, mirror and player pages (default 127.0.0.1:8040).
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// The operator's password for the console (made and printed when absent).
    #[arg(long)]
    pub token: Option<String>,
}

/// The config a practice game runs with.
pub fn practice_config(opts: &PracticeOptions) -> Result<Config> {
    let quote = |s: &str| toml::Value::String(s.to_owned()).to_string();
    let origin = opts.config.clone().unwrap_or_else(|| PathBuf::from("station practice"));
    let mut config = match &opts.config {
        Some(path) => Config::load(path)?,
        None => {
            let port = opts.port.clone().unwrap_or_else(|| PathBuf::from("/dev/annexd-pegboard"));
            let text =
                format!("[boards.blind]\ndriver = \"pegboard\"\nport = {}\n", quote(&port.to_string_lossy()));
            Config::parse(&text, &origin)?
        }
    };
    // Practice games have a folder of their own, with or without a config,
    // unless the config names one ([journal] dir) or --journal-dir does.
    if config.journal.dir.is_none() {
        config.journal.dir = Some(PathBuf::from(PRACTICE_JOURNAL_DIR));
    }
    let mut opponent = config.opponent.clone().unwrap_or_else(|| OpponentSettings::new(DEFAULT_ENGINE));
    if let Some(engine) = &opts.engine {
        opponent.engine.clone_from(engine);
    }
    if opts.elo.is_some() {
        opponent.elo = opts.elo;
    }
    if opts.move_time_ms.is_some() {
        opponent.move_time_ms = opts.move_time_ms;
    }
    if let Some(port) = &opts.port
        && let Some(b) = config.boards.blind.as_mut()
    {
        b.port = Some(port.clone());
    }
    config.opponent = Some(opponent);
    if let Some(lang) = &opts.lang {
        config.voice.language.clone_from(lang);
        config.audio.private.language.clone_from(lang);
    }
    // The flags are checked like the file's keys.
    // `--color` is read as the `[game] blind_color` key is, by the same reader.
    let color = opts.color.clone().unwrap_or_else(|| config.game.blind_color.to_string());
    let text = config_check_text(&config, &color);
    config.game.blind_color = Config::parse(&text, &origin)?.game.blind_color;
    Ok(config)
}

/// The overridden keys again as TOML, so the usual checks see them.
fn config_check_text(config: &Config, blind_color: &str) -> String {
    let o = config.opponent.as_ref();
    let mut text = String::new();
    if let Some(o) = o {
        text.push_str(&format!("[opponent]\nengine = {}\n", toml::Value::String(o.engine.clone())));
        if let Some(elo) = o.elo {
            text.push_str(&format!("elo = {elo}\n"));
        }
        if let Some(ms) = o.move_time_ms {
            text.push_str(&format!("move_time_ms = {ms}\n"));
        }
    }
    text.push_str(&format!(
        "[game]\nblind_color = {}\n[voice]\nlanguage = {}\n",
        toml::Value::String(blind_color.to_owned()),
        toml::Value::String(config.voice.language.clone())
    ));
    text
}

/// Runs the practice game until SIGINT or SIGTERM.
pub fn practice(opts: PracticeOptions) -> Result<()> {
    let config = practice_config(&opts)?;
    let o = config.opponent.as_ref().map(|o| (o.engine.clone(), o.elo));
    if let Some((engine, elo)) = o {
        let level = elo.map_or_else(|| "full strength".to_owned(), |e| format!("Elo {e}"));
        println!(
            "practice: {engine} ({level}) plays {}",
            if config.blind_color() == shakmaty::Color::White { "black" } else { "white" }
        );
    }
    let journals = opts.journal_dir.clone().or_else(|| config.journal.dir.clone()).unwrap_or_default();
    println!(
        "journal: {} (the game as PGN: station export --pgn --journal-dir {})",
        journals.display(),
        journals.display()
    );
    run_config(
        config,
        RunOptions {
            config: opts.config.unwrap_or_else(|| PathBuf::from("station practice")),
            events: opts.events,
            journal_dir: opts.journal_dir,
            listen: opts.listen,
            token: opts.token,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> PracticeOptions {
        PracticeOptions {
            config: None,
            engine: None,
            elo: None,
            color: None,
            lang: None,
            port: None,
            move_time_ms: None,
            journal_dir: None,
            events: None,
            listen: None,
            token: None,
        }
    }

    #[test]
    fn without_a_config_the_flags_make_one() {
        let c = practice_config(&PracticeOptions {
            elo: Some(1400),
            color: Some("black".into()),
            lang: Some("pl".into()),
            ..opts()
        })
        .unwrap();
        let o = c.opponent.unwrap();
        assert_eq!((o.engine.as_str(), o.elo), (DEFAULT_ENGINE, Some(1400)));
        assert_eq!(c.game.blind_color, shakmaty::Color::Black);
        assert_eq!(c.voice.language, "pl");
        assert_eq!(c.boards.blind.unwrap().port, Some(PathBuf::from("/dev/annexd-pegboard")));
    }

    /// Issue 34 §8: with or without `--config`, practice games go to
    /// ./journal-practice unless the config or `--journal-dir` names a folder.
    #[test]
    fn practice_journals_have_their_own_folder_with_or_without_a_config() {
        let dir = std::env::temp_dir().join(format!("practice-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("plain.toml");
        std::fs::write(&plain, "[boards.blind]\ndriver = \"none\"\n").unwrap();
        let named = dir.join("named.toml");
        std::fs::write(&named, "[boards.blind]\ndriver = \"none\"\n[journal]\ndir = \"/srv/games\"\n")
            .unwrap();
        let folder = |config: Option<PathBuf>| {
            practice_config(&PracticeOptions { config, ..opts() }).unwrap().journal.dir
        };
        assert_eq!(folder(None), Some(PathBuf::from("journal-practice")));
        assert_eq!(folder(Some(plain)), Some(PathBuf::from("journal-practice")));
        assert_eq!(folder(Some(named)), Some(PathBuf::from("/srv/games")));
        // A config that is not there is said to be missing, like `station run`'s.
        let err = practice_config(&PracticeOptions { config: Some(dir.join("nope.toml")), ..opts() })
            .unwrap_err()
            .to_string();
        assert!(err.contains("nope.toml: the file is missing"), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn bad_flags_are_named_like_config_keys() {
        let err = practice_config(&PracticeOptions { elo: Some(5), ..opts() }).unwrap_err().to_string();
        assert!(err.contains("opponent.elo"), "{err}");
        let err = practice_config(&PracticeOptions { color: Some("red".into()), ..opts() })
            .unwrap_err()
            .to_string();
        assert!(err.contains("game.blind_color"), "{err}");
    }
}
