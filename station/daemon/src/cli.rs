//! The command line.

use crate::bench::{BenchOptions, bench};
use crate::config::Config;
use crate::demo::demo;
use crate::demo_draughts::demo_draughts;
use crate::demo_options::DemoOptions;
use crate::export::{ExportOptions, export};
use crate::run::{RunOptions, run};
use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use station_app::games::{AnnounceOptions, words_of};
use station_sim::replay::{Pace, ReplayOptions, replay};
use std::path::PathBuf;

/// A demo: the station run against simulated boards and hands.
type Demo = fn(DemoOptions) -> Result<()>;

/// The demo of each game, by the name `station demo --rules` gives it (the flag accepts these names only).
const DEMOS: [(&str, Demo); 2] = [("chess", demo), ("draughts", demo_draughts)];

/// The Annex D station: a blind player's peg board, announced moves, one game on two boards.
#[derive(Parser)]
#[command(name = "station", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `station hall` subcommands.
#[derive(Subcommand)]
enum HallAction {
    /// Write per-station broker passwords and the Mosquitto ACL (each station writes only its own board).
    Credentials {
        /// Boards 1 to N.
        #[arg(long)]
        boards: u32,
        /// The hall's name.
        #[arg(long, value_name = "NAME")]
        hall: String,
        /// Output directory.
        #[arg(long, value_name = "DIR", default_value = "hall-credentials")]
        out: PathBuf,
    },
}

/// `station models` subcommands.
#[derive(Subcommand)]
enum ModelsAction {
    /// Unpack a Vosk model archive (.zip, .tar.gz) where the config looks for the language's
    /// model, check it as `station doctor` does, and say which words it lacks.
    Install {
        /// The language the model is for.
        #[arg(long, value_name = "de|pl|en")]
        lang: String,
        /// The configuration naming the model folder (`[speech] models`); the default
        /// folder /var/lib/annexd/vosk/<model> when absent.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The downloaded archive, e.g. vosk-model-small-de-0.15.zip.
        archive: PathBuf,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Run the daemon: read the board, decide moves, journal them, stream events.
    Run {
        /// The TOML configuration.
        #[arg(long)]
        config: PathBuf,
        /// Write one JSON event per line to this file (appended), or `-` for stdout.
        #[arg(long, value_name = "PATH|-")]
        events: Option<String>,
        /// Where the per-game journals live (overrides `[journal] dir`; default ./journal).
        #[arg(long, value_name = "DIR")]
        journal_dir: Option<PathBuf>,
        /// Console and mirror address (overrides `[console] listen`; default 127.0.0.1:8040).
        #[arg(long, value_name = "ADDR:PORT")]
        listen: Option<String>,
        /// Operator token (overrides `[console] token`; generated and printed when absent).
        #[arg(long)]
        token: Option<String>,
    },
    /// Practise against an engine on the peg board (no config file needed; issue 26).
    Practice(crate::practice_cmd::PracticeOptions),
    /// Replay PGN games through simulated hands into the inference engine and print one summary line.
    Replay {
        /// PGN file(s).
        #[arg(long, required_unless_present = "pdn", num_args = 1..)]
        pgn: Vec<PathBuf>,
        /// Draughts games (PDN) instead, on the draughts peg-board sensor.
        #[arg(long, conflicts_with_all = ["pgn", "clock"], num_args = 1..)]
        pdn: Vec<PathBuf>,
        /// Add hand and sensor noise, deterministic from this seed.
        #[arg(long, value_name = "SEED")]
        noise: Option<u64>,
        /// Replay at most N games.
        #[arg(long, value_name = "N")]
        games: Option<usize>,
        /// Settle time in ms.
        #[arg(long, default_value_t = 300)]
        settle_ms: u64,
        /// Also run the clock engine over the games' `[%clk]` comments and `TimeControl`.
        #[arg(long)]
        clock: bool,
        /// How quickly the hands follow each other: `normal` (the board rests between moves)
        /// or `fast` (the next move starts 50–200 ms after the last placement, seeded).
        #[arg(long, value_enum, default_value_t = Pace::Normal)]
        pace: Pace,
        /// Move every hand step by a seeded amount within ±MS and now and then
        /// deliver a few scans together late, as a loaded serial line does.
        #[arg(long, value_name = "MS", conflicts_with = "pdn")]
        jitter: Option<u64>,
    },
    /// Play a famous game on a simulated peg board through the real serial path and print every move.
    Demo {
        /// Time factor: 1 is human pace, 10 is ten times faster.
        #[arg(long, default_value_t = 5.0)]
        speed: f64,
        /// Noise seed for the simulated hands (no noise when absent).
        #[arg(long, value_name = "SEED")]
        noise: Option<u64>,
        /// Journal directory (a temporary one by default).
        #[arg(long, value_name = "DIR")]
        journal_dir: Option<PathBuf>,
        /// Also write the event stream to this file, or `-` for stdout.
        #[arg(long, value_name = "PATH|-")]
        events: Option<String>,
        /// Language of the announcements.
        #[arg(long, value_parser = ["de", "pl", "en"], default_value = "de")]
        lang: String,
        /// The sighted player's board: `none` (an ordinary board) or `dgt` (a simulated DGT e-board).
        #[arg(long, value_parser = ["none", "dgt"], default_value = "none")]
        mirror: String,
        /// Console and mirror address.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8040")]
        listen: String,
        /// Operator token (generated when absent).
        #[arg(long)]
        token: Option<String>,
        /// The game: chess (default) or draughts (two simulated 10×10 peg boards).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(DEMOS.map(|(name, _)| name)), default_value = "chess")]
        rules: String,
        /// Show the game on a simulated Braille display (a simulated brltty on a
        /// Unix socket, through the real BrlAPI client) and print what it shows.
        #[arg(long)]
        braille: bool,
        /// A practice game: the simulated hands play White with a weakest-level
        /// engine's moves, Stockfish answers as Black, the hands execute its answers.
        #[arg(long)]
        practice: bool,
    },
    /// Measure the inference engine on real games and print the figures.
    Bench {
        /// PGN file(s).
        #[arg(long, required = true, num_args = 1..)]
        pgn: Vec<PathBuf>,
        /// At most N games.
        #[arg(long, value_name = "N")]
        games: Option<usize>,
        /// Noise seed.
        #[arg(long, value_name = "SEED")]
        noise: Option<u64>,
        /// Move every hand step by a seeded amount within ±MS, a few scans now
        /// and then delivered together late (as `replay --jitter`).
        #[arg(long, value_name = "MS")]
        jitter: Option<u64>,
    },
    /// Print how the station words moves (one line per move) or a clock reading.
    Announce {
        /// Sentence language: de, pl or en.
        #[arg(long, default_value = "de")]
        lang: String,
        /// Letter names from another language (Annex D: the arbiter may decide).
        #[arg(long, value_name = "LANG")]
        letters: Option<String>,
        /// Rank words from another language.
        #[arg(long, value_name = "LANG")]
        ranks: Option<String>,
        /// Name pawns ("Bauer Eva vier").
        #[arg(long)]
        name_pawns: bool,
        /// Long form: from-square and to-square always.
        #[arg(long)]
        long: bool,
        /// Read moves as ICCF numbers digit by digit ("fünf zwei fünf vier").
        #[arg(long)]
        iccf: bool,
        /// Start position (standard when absent).
        #[arg(long)]
        fen: Option<String>,
        /// Remaining times for a clock reading.
        #[arg(long, value_name = "WHITE_MS,BLACK_MS")]
        clock: Option<String>,
        /// Moves made, for the clock reading.
        #[arg(long, value_name = "N")]
        moves: Option<u32>,
        /// Whose earphone the clock reading is for.
        #[arg(long, value_parser = ["white", "black"], default_value = "white")]
        side: String,
        /// Render the wording to this WAV file through the voice (pack, else espeak-ng).
        #[arg(long, value_name = "FILE")]
        wav: Option<PathBuf>,
        /// Voice packs folder for --wav.
        #[arg(long, value_name = "DIR", default_value = ".deps/voices")]
        packs: PathBuf,
        /// Moves in SAN or UCI, played one after another.
        #[arg(value_name = "MOVE")]
        moves_to_word: Vec<String>,
        /// Draughts moves instead (`32-28`, `28x17`, `28x17x6`; `c3-d4` on 8×8), said by their squares.
        #[arg(long, value_enum)]
        rules: Option<crate::config::GameRules>,
    },
    /// Voice packs: one clip per word, for the lowest latency and the same voice every time.
    Voices {
        #[command(subcommand)]
        action: VoicesAction,
    },
    /// List audio output devices and gamepads (names for the config).
    Devices,
    /// The pre-round check: config, boards, clock, audio, speech models word by word, buttons,
    /// Braille, hall, journal folder; one line each (ok, warn, fail); exit 1 when anything failed.
    Doctor {
        /// The TOML configuration.
        #[arg(long, default_value = "/etc/annexd/station.toml")]
        config: PathBuf,
        /// The journal folder to check (overrides `[journal] dir`, as for `run`).
        #[arg(long, value_name = "DIR")]
        journal_dir: Option<PathBuf>,
    },
    /// Speech models: install a downloaded Vosk model where the config looks for it.
    Models {
        #[command(subcommand)]
        action: ModelsAction,
    },
    /// The tournament hall view: every board of a hall from its MQTT broker, served as `/hall`, `/hall.pgn`, `/api/hall`.
    #[command(args_conflicts_with_subcommands = true)]
    Hall {
        #[command(subcommand)]
        action: Option<HallAction>,
        /// The broker: mqtt://HOST:PORT.
        #[arg(long, value_name = "URL")]
        broker: Option<String>,
        /// The hall's name.
        #[arg(long, value_name = "NAME")]
        hall: Option<String>,
        /// Where to serve the hall view.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8050")]
        listen: String,
        /// A file holding the hall view's broker login `USER:PASSWORD`.
        #[arg(long, value_name = "FILE")]
        credentials: Option<PathBuf>,
        /// The arbiter's token for acknowledging alerts (generated and printed when absent).
        #[arg(long)]
        token: Option<String>,
        /// The broker's CA certificate (PEM) for mqtts://.
        #[arg(long, value_name = "FILE")]
        ca_file: Option<PathBuf>,
    },
    /// Understand a spoken phrase given as text: prints `move UCI SAN`, `ask UCI…`, `command NAME` or `reject REASON`.
    Understand {
        /// de, pl or en.
        #[arg(long, default_value = "de")]
        lang: String,
        /// The position (standard start when absent).
        #[arg(long)]
        fen: Option<String>,
        /// What was said.
        #[arg(num_args = 1.., required = true)]
        text: Vec<String>,
    },
    /// Run speech recognition on a WAV file with a Vosk model, then understand it.
    Listen {
        /// The Vosk model folder.
        #[arg(long, value_name = "DIR")]
        model: std::path::PathBuf,
        /// The recording (any rate, mono or stereo).
        #[arg(long, value_name = "FILE")]
        wav: std::path::PathBuf,
        /// de, pl or en.
        #[arg(long, default_value = "de")]
        lang: String,
        /// The position (standard start when absent).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Export journaled games.
    Export {
        /// Write PGN (Seven Tag Roster).
        #[arg(long)]
        pgn: bool,
        /// Write a large-print PDF scoresheet instead (20 pt and more, black on
        /// white, clock times where known); `--out FILE` (`-` for stdout), by
        /// default `<game id>.pdf` in the current directory.
        #[arg(long, conflicts_with_all = ["pgn", "all", "notation", "braille", "audio", "pdn"])]
        large_print: bool,
        /// Write the record in Braille instead (BRF: 40 cells a line, page
        /// numbers) through liblouis, to `--output` or stdout.
        #[arg(long, conflicts_with_all = ["pgn", "all", "notation"])]
        braille: bool,
        /// The Braille record's language (its piece letters and liblouis
        /// table); German when absent.
        #[arg(long, value_name = "LANG", value_parser = ["de", "pl", "en"], requires = "braille")]
        lang: Option<String>,
        /// Another liblouis table (a name in liblouis's table path, or a file)
        /// instead of the language's.
        #[arg(long, value_name = "TABLE", requires = "braille")]
        braille_table: Option<String>,
        /// Write the kept sound of the game's spoken moves (D.2.7, `[speech]
        /// keep_audio`) to this folder: a WAV per ply and `index.tsv`.
        #[arg(long, value_name = "DIR", conflicts_with = "all")]
        audio: Option<PathBuf>,
        /// Write PDN (`[GameType "20"]`): a draughts game's record.
        #[arg(long, conflicts_with_all = ["pgn", "notation"])]
        pdn: bool,
        /// Journal directory.
        #[arg(long, value_name = "DIR", default_value = "journal")]
        journal_dir: PathBuf,
        /// Which game (its id); the newest when absent.
        #[arg(long, value_name = "ID")]
        game: Option<String>,
        /// Every game in the directory.
        #[arg(long, conflicts_with = "game")]
        all: bool,
        /// Write to this file instead of stdout.
        #[arg(long, short, value_name = "FILE", visible_alias = "out")]
        output: Option<PathBuf>,
        /// Also write a scoresheet (move numbers, draw-offer marks, result) in
        /// this notation (ICCF Appendix A): san, pl, iccf, lan or fan. With
        /// `--output FILE` it goes to FILE's name with `.<notation>.txt`; on
        /// stdout it follows the PGN.
        #[arg(long, value_name = "NOTATION", value_parser = ["san", "pl", "iccf", "lan", "fan"])]
        notation: Option<String>,
    },
}

#[derive(Subcommand)]
enum VoicesAction {
    /// Render a pack with espeak-ng.
    Build {
        /// de, pl or en.
        #[arg(long)]
        lang: String,
        /// Packs folder (the pack goes to OUT/LANG).
        #[arg(long, default_value = ".deps/voices")]
        out: PathBuf,
    },
    /// Record a human pack word by word with the microphone.
    Record {
        /// de, pl or en.
        #[arg(long)]
        lang: String,
        /// Packs folder.
        #[arg(long, default_value = ".deps/voices")]
        out: PathBuf,
        /// Input device (default input when absent).
        #[arg(long)]
        input: Option<String>,
        /// Who speaks (written into the pack's manifest).
        #[arg(long, default_value = "a helper")]
        speaker: String,
    },
}

/// Runs the chosen command.
pub fn dispatch(cli: Cli) -> Result<()> {
    if let Command::Export {
        pgn, large_print, braille, audio, pdn, notation, journal_dir, game, all, ..
    } = &cli.command
    {
        if !(*pgn || *large_print || *braille || *pdn || audio.is_some() || notation.is_some()) {
            anyhow::bail!("station export: choose what to write: {}", crate::export::FORMATS);
        }
        // What is not there is said the same way for every format (issue 22 §8).
        crate::export::select(journal_dir, game.as_deref(), *all)?;
    }
    match cli.command {
        Command::Run { config, events, journal_dir, listen, token } => {
            run(RunOptions { config, events, journal_dir, listen, token })
        }
        Command::Practice(opts) => crate::practice_cmd::practice(opts),
        Command::Replay { pdn, pace, settle_ms, noise, games, .. } if !pdn.is_empty() => {
            let sensor = station_core::draughts::sensing::SensorConfig { settle_ms, ..Default::default() };
            // One `--pace` for both games: normal is the draughts hands' thinking pace.
            let pace = match pace {
                Pace::Normal => station_sim::replay_pdn::Pace::Human,
                Pace::Fast => station_sim::replay_pdn::Pace::Fast,
            };
            let opts = station_sim::replay_pdn::PdnReplayOptions { pdn, noise, games, sensor, pace };
            println!("{}", station_sim::replay_pdn::replay_pdn(&opts)?.summary_line());
            Ok(())
        }
        Command::Replay { pgn, noise, games, settle_ms, clock, pace, jitter, .. } => {
            let mut tracker = Config::default().tracker();
            tracker.settle_ms = settle_ms;
            let report = replay(&ReplayOptions { pgn: pgn.clone(), noise, games, tracker, pace, jitter })?;
            if clock {
                let loaded = station_sim::replay::load_games(&pgn, games)?;
                let clocks: Vec<_> = loaded.iter().map(station_core::clock_replay::replay_clock).collect();
                let mismatches: usize = clocks.iter().map(|r| r.mismatches).sum();
                let adjustments: usize = clocks.iter().map(|r| r.adjustments).sum();
                println!(
                    "{} clock_mismatches {mismatches} clock_adjustments {adjustments}",
                    report.summary_line()
                );
            } else {
                println!("{}", report.summary_line());
            }
            Ok(())
        }
        Command::Demo {
            speed,
            noise,
            journal_dir,
            events,
            lang,
            mirror,
            listen,
            token,
            rules,
            braille,
            practice,
        } => {
            let opts = DemoOptions {
                speed,
                noise,
                journal_dir,
                events,
                lang,
                mirror_dgt: mirror == "dgt",
                listen,
                token,
                braille,
                practice,
            };
            if opts.practice {
                return crate::demo_practice::demo_practice(opts);
            }
            // The demo of the game `--rules` names (its value parser lists these).
            let (_, run) = DEMOS
                .iter()
                .find(|(name, _)| *name == rules)
                .with_context(|| format!("no demo of the game `{rules}`"))?;
            run(opts)
        }
        Command::Bench { pgn, games, noise, jitter } => bench(&BenchOptions { pgn, games, noise, jitter }),
        Command::Announce {
            lang,
            letters,
            ranks,
            name_pawns,
            long,
            iccf,
            fen,
            clock,
            moves,
            side,
            wav,
            packs,
            moves_to_word,
            rules,
        } => {
            let move_reading =
                if iccf { station_voices::MoveReading::Iccf } else { station_voices::MoveReading::Letters };
            let voice = station_voices::VoiceSettings {
                language: lang,
                letters,
                ranks,
                name_pawns,
                long_form: long,
                move_reading,
                ..Default::default()
            };
            let opts = AnnounceOptions {
                voice,
                fen,
                moves: moves_to_word,
                clock,
                moves_made: moves,
                side_black: side == "black",
            };
            let lines = words_of(rules.unwrap_or_default().rules()).announce(&opts)?;
            for line in &lines {
                println!("{line}");
            }
            if let Some(path) = wav {
                crate::announce::render(&lines, &opts.voice.language, &packs, &path)?;
            }
            Ok(())
        }
        Command::Voices { action: VoicesAction::Build { lang, out } } => {
            crate::voices_cmd::build(&lang, &out)
        }
        Command::Voices { action: VoicesAction::Record { lang, out, input, speaker } } => {
            crate::voices_cmd::record(&lang, &out, input.as_deref(), &speaker)
        }
        Command::Devices => crate::voices_cmd::devices(),
        Command::Doctor { config, journal_dir } => {
            crate::doctor::doctor(&crate::doctor::DoctorOptions { config, journal_dir })
        }
        Command::Models { action: ModelsAction::Install { lang, config, archive } } => {
            crate::models_cmd::install(&lang, config.as_deref(), &archive)
        }
        Command::Hall { action: Some(HallAction::Credentials { boards, hall, out }), .. } => {
            crate::hall::credentials::write(&hall, boards, &out)
        }
        Command::Hall { action: None, broker, hall, listen, credentials, token, ca_file } => {
            let broker = broker.ok_or_else(|| anyhow::anyhow!("--broker URL is required"))?;
            let hall = hall.ok_or_else(|| anyhow::anyhow!("--hall NAME is required"))?;
            crate::hall::server::hall(crate::hall::server::HallOptions {
                broker,
                hall,
                listen,
                credentials,
                token,
                ca_file,
            })
        }
        Command::Understand { lang, fen, text } => {
            println!("{}", crate::speech_cmd::understand(&lang, fen.as_deref(), &text.join(" "))?);
            Ok(())
        }
        Command::Listen { model, wav, lang, fen } => {
            for line in crate::speech_cmd::listen(&model, &wav, &lang, fen.as_deref())? {
                println!("{line}");
            }
            Ok(())
        }
        Command::Export { large_print: true, journal_dir, game, output, .. } => {
            crate::export_large_print::export_large_print(&crate::export_large_print::LargePrintOptions {
                journal_dir,
                game,
                output,
            })
        }
        Command::Export { pdn: true, journal_dir, game, all, output, .. } => {
            crate::export_pdn::export_pdn(&journal_dir, game.as_deref(), all, output.as_ref())
        }
        Command::Export {
            pgn,
            journal_dir,
            game,
            all,
            output,
            notation,
            audio,
            braille,
            lang,
            braille_table,
            large_print: _,
            pdn: _,
        } => {
            if braille {
                let brf = crate::export_braille::export_braille(
                    &journal_dir,
                    game.as_deref(),
                    lang.as_deref().unwrap_or("de"),
                    braille_table.as_deref(),
                )?;
                match &output {
                    Some(path) => std::fs::write(path, brf)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
                    None => print!("{brf}"),
                }
                if audio.is_none() {
                    return Ok(());
                }
            }
            if let Some(dir) = audio {
                let n = crate::export_audio::export_audio(&journal_dir, game.as_deref(), &dir)?;
                // Stdout is the PGN's when both go there.
                if pgn && output.is_none() {
                    eprintln!("audio_exported {n}");
                } else {
                    println!("audio_exported {n}");
                }
                if !pgn {
                    return Ok(());
                }
            }
            let notation = notation.map(|n| n.parse()).transpose().map_err(anyhow::Error::msg)?;
            export(&ExportOptions { journal_dir, game, all, output, notation, pgn })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export_args(args: &[&str], dir: &std::path::Path) -> Result<()> {
        let mut argv = vec!["station", "export", "--journal-dir"];
        let dir = dir.display().to_string();
        argv.push(&dir);
        argv.extend_from_slice(args);
        dispatch(Cli::try_parse_from(argv).map_err(|e| anyhow::anyhow!("{e}"))?)
    }

    /// Issue 22 §8: `--notation` alone is a format; none at all names every one.
    #[test]
    fn export_names_every_format_and_takes_a_notation_alone() {
        let dir = std::env::temp_dir().join(format!("cli-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let none = export_args(&[], &dir).unwrap_err().to_string();
        for flag in ["--pgn", "--pdn", "--notation", "--braille", "--large-print", "--audio"] {
            assert!(none.contains(flag), "{flag} named in: {none}");
        }
        let alone = export_args(&["--notation", "pl"], &dir).unwrap_err().to_string();
        assert!(alone.starts_with("no journal folder"), "parsed, then the folder is missing: {alone}");
        assert!(!alone.contains("required"), "{alone}");
    }
}
