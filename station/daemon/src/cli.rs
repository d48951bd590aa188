//! The command line.

use crate::bench::{BenchOptions, bench};
use crate::cli_values::{PaceArg, RulesArg};
use crate::config::Config;
use crate::default_games::{self, Collection};
use crate::demo::demo;
use crate::demo_draughts::demo_draughts;
use crate::demo_options::DemoOptions;
use crate::export::{ExportOptions, export};
use crate::lang_arg::builtin_language;
use crate::run::{RunOptions, run};
use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use station_app::games::{AnnounceOptions, words_of};
use station_sim::replay::{ReplayOptions, replay};
use std::path::PathBuf;

/// A demo: the station run against simulated boards and hands.
type Demo = fn(DemoOptions) -> Result<()>;

/// The demo of each game, by the name `station demo --rules` gives it (the flag accepts these names only).
const DEMOS: [(&str, Demo); 2] = [("chess", demo), ("draughts", demo_draughts)];

/// The Annex D station: a blind player's peg board, announced moves, one game on two boards.
#[derive(Parser)]
#[command(name = "station", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Said below the list of commands: where to begin.
const AFTER_HELP: &str = "Before a round: `station doctor --config FILE`. A game: `station run --config FILE`. \
     To try it without hardware: `station demo`. `station COMMAND --help` explains each command.";

/// `station hall` subcommands.
#[derive(Subcommand)]
enum HallAction {
    /// Write a broker password for each station and Mosquitto's access list (each station may
    /// publish only its own board).
    Credentials {
        /// How many boards the hall has (numbered 1 to N).
        #[arg(long, value_name = "N")]
        boards: u32,
        /// The hall's name.
        #[arg(long, value_name = "NAME")]
        hall: String,
        /// The folder the passwords and the access list are written to.
        #[arg(long, value_name = "DIR", default_value = "hall-credentials")]
        out: PathBuf,
    },
}

/// `station models` subcommands.
#[derive(Subcommand)]
enum ModelsAction {
    /// Unpack a downloaded Vosk model (.zip or .tar.gz) where the config looks for the
    /// language's model, check it as `station doctor` does, and say which words it lacks.
    Install {
        /// The language the model is for.
        #[arg(long, value_name = "LANG", value_parser = builtin_language())]
        lang: String,
        /// The station's config file, which names the model's folder (`[speech] models`);
        /// without it, /var/lib/annexd/vosk/<model>.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// The downloaded model, e.g. vosk-model-small-de-0.15.zip.
        #[arg(value_name = "ARCHIVE")]
        archive: PathBuf,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Run the station for a game: read the boards, announce every move, keep the clock and
    /// each game's journal, and serve the console, mirror and player pages.
    Run {
        /// The station's config file (config/station.toml describes every setting).
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// Also write every event as one JSON line to this file (added to its end), or `-`
        /// for standard output.
        #[arg(long, value_name = "PATH|-")]
        events: Option<String>,
        /// The folder where each game's journal is kept (instead of the config's
        /// `[journal] dir`; default ./journal).
        #[arg(long, value_name = "DIR")]
        journal_dir: Option<PathBuf>,
        /// The address of the console, mirror and player pages (instead of the config's
        /// `[console] listen`; default 127.0.0.1:8040).
        #[arg(long, value_name = "ADDR:PORT")]
        listen: Option<String>,
        /// The operator's password for the console (instead of the config's
        /// `[console] token`; when neither gives one, one is made and printed).
        #[arg(long)]
        token: Option<String>,
    },
    /// Practise against a chess engine on the peg board: the station says the engine's moves
    /// and checks that he makes them on his board. No config file needed.
    Practice(crate::practice_cmd::PracticeOptions),
    /// Play recorded games with simulated hands on a simulated peg board and check that the
    /// station reads every move; prints one summary line.
    Replay {
        /// The games to play, as PGN files; in a clone of the station's repository its
        /// games (tests/data/pgn/games, with `--clock` tests/data/pgn/clock) when none are given.
        #[arg(long, value_name = "FILE", num_args = 0..)]
        pgn: Vec<PathBuf>,
        /// Draughts games instead, as PDN files, on a simulated 10×10 peg board; the
        /// repository's (tests/data/draughts) when `--pdn` names none.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["pgn", "clock"], num_args = 0..)]
        pdn: Option<Vec<PathBuf>>,
        /// Let the hands and sensors slip as real ones do; the same number gives the same slips.
        #[arg(long, value_name = "SEED")]
        noise: Option<u64>,
        /// Play at most N games.
        #[arg(long, value_name = "N")]
        games: Option<usize>,
        /// How long a board must stand still before a move is taken, in milliseconds.
        #[arg(long, value_name = "MS", default_value_t = 300)]
        settle_ms: u64,
        /// Also check the clock against the games' recorded clock times (`[%clk]`) and
        /// time control.
        #[arg(long)]
        clock: bool,
        /// How quickly the hands follow each other: `normal` (the board rests between moves)
        /// or `fast` (the next move begins 50–200 ms after the last piece was put down).
        #[arg(long, value_enum, default_value_t = PaceArg::Normal, hide_possible_values = true)]
        pace: PaceArg,
        /// Move every hand step by a seeded amount within ±MS and now and then
        /// deliver a few scans together late, as a loaded serial line does.
        #[arg(long, value_name = "MS", conflicts_with = "pdn")]
        jitter: Option<u64>,
    },
    /// Watch a famous game played by simulated hands on a simulated peg board, every move
    /// printed and said; the console, mirror and player pages are served meanwhile.
    Demo {
        /// How fast the hands play: 1 is a person's pace, 10 is ten times faster.
        #[arg(long, value_name = "FACTOR", default_value_t = 5.0)]
        speed: f64,
        /// Let the simulated hands slip as real ones do; the same number gives the same slips
        /// (no slips when absent).
        #[arg(long, value_name = "SEED")]
        noise: Option<u64>,
        /// The folder for the game's journal (a temporary one when absent).
        #[arg(long, value_name = "DIR")]
        journal_dir: Option<PathBuf>,
        /// Also write every event as one JSON line to this file, or `-` for standard output.
        #[arg(long, value_name = "PATH|-")]
        events: Option<String>,
        /// The language the moves are announced in.
        #[arg(long, value_parser = builtin_language(), default_value = "de")]
        lang: String,
        /// The sighted player's board: `none` (an ordinary board) or `dgt` (a simulated DGT
        /// e-board, with one move set up wrongly and then put right).
        #[arg(long, value_parser = ["none", "dgt"], default_value = "none")]
        mirror: String,
        /// The address of the console, mirror and player pages.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8040")]
        listen: String,
        /// The operator's password for the console (made and printed when absent).
        #[arg(long)]
        token: Option<String>,
        /// The game: chess, or draughts on two simulated 10×10 peg boards.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(DEMOS.map(|(name, _)| name)), default_value = "chess")]
        rules: String,
        /// Also show the game on a simulated Braille display and print what it shows.
        #[arg(long)]
        braille: bool,
        /// A practice game instead: the simulated hands play White at a beginner's level,
        /// Stockfish answers as Black and the hands make its moves on the peg board.
        #[arg(long)]
        practice: bool,
    },
    /// Measure how quickly and how surely the station reads the moves of real games, and
    /// print the figures.
    Bench {
        /// The games, as PGN files; in a clone of the station's repository its games
        /// (tests/data/pgn/games) when none are given.
        #[arg(long, value_name = "FILE", num_args = 0..)]
        pgn: Vec<PathBuf>,
        /// Use at most N games.
        #[arg(long, value_name = "N")]
        games: Option<usize>,
        /// Let the hands and sensors slip as real ones do; the same number gives the same slips.
        #[arg(long, value_name = "SEED")]
        noise: Option<u64>,
        /// Move every hand step by a seeded amount within ±MS, a few scans now
        /// and then delivered together late (as `replay --jitter`).
        #[arg(long, value_name = "MS")]
        jitter: Option<u64>,
    },
    /// Print how the station announces moves (one line per move) or a clock reading.
    Announce {
        /// The language of the sentences.
        #[arg(long, value_parser = builtin_language(), default_value = "de")]
        lang: String,
        /// Say the files' letters in another language (Annex D: the arbiter may decide).
        #[arg(long, value_name = "LANG", value_parser = builtin_language())]
        letters: Option<String>,
        /// Say the ranks' numbers in another language.
        #[arg(long, value_name = "LANG", value_parser = builtin_language())]
        ranks: Option<String>,
        /// Name the pawns ("Bauer Eva vier").
        #[arg(long)]
        name_pawns: bool,
        /// Always say both the square a piece leaves and the square it goes to.
        #[arg(long)]
        long: bool,
        /// Say moves as ICCF numbers, digit by digit ("fünf zwei fünf vier").
        #[arg(long)]
        iccf: bool,
        /// The position before the moves, as FEN (the start position when absent).
        #[arg(long)]
        fen: Option<String>,
        /// The remaining times for a clock reading, White's and Black's, in milliseconds.
        #[arg(long, value_name = "WHITE_MS,BLACK_MS")]
        clock: Option<String>,
        /// The number of moves made, for the clock reading.
        #[arg(long, value_name = "N")]
        moves: Option<u32>,
        /// Whose earphone the clock reading is for.
        #[arg(long, value_parser = ["white", "black"], default_value = "white")]
        side: String,
        /// Also speak the announcement into this WAV file, with the voice pack (else espeak-ng).
        #[arg(long, value_name = "FILE")]
        wav: Option<PathBuf>,
        /// The voice packs folder, for --wav.
        #[arg(long, value_name = "DIR", default_value = ".deps/voices")]
        packs: PathBuf,
        /// The moves (such as Nf3 or g1f3), played one after another.
        #[arg(value_name = "MOVE")]
        moves_to_word: Vec<String>,
        /// Announce draughts moves instead, said by their squares: `draughts` (10×10: 32-28,
        /// 28x17, 28x17x6) or `draughts64` (8×8: c3-d4); `chess` is the default.
        #[arg(long, value_enum, hide_possible_values = true)]
        rules: Option<RulesArg>,
    },
    /// Voice packs: every word recorded once, so the station answers at once and always in the
    /// same voice.
    Voices {
        #[command(subcommand)]
        action: VoicesAction,
    },
    /// List the serial ports, audio outputs and gamepads there are, by the names the config uses.
    Devices,
    /// The pre-round check: config, boards, clock, audio, speech recognition word by word,
    /// buttons, Braille, hall and journal folder; one line each (ok, warn, fail) with what to
    /// do. Ends with an error when anything would stop the game.
    Doctor {
        /// The station's config file.
        #[arg(long, value_name = "FILE", default_value = "/etc/annexd/station.toml")]
        config: PathBuf,
        /// The journal folder to check (instead of the config's `[journal] dir`, as for
        /// `station run`).
        #[arg(long, value_name = "DIR")]
        journal_dir: Option<PathBuf>,
    },
    /// Speech recognition models: install a downloaded Vosk model where the config looks for it.
    Models {
        #[command(subcommand)]
        action: ModelsAction,
    },
    /// The tournament hall view: every board of a hall, from its MQTT broker, on one page
    /// (`/hall`; the games as `/hall.pgn`).
    #[command(args_conflicts_with_subcommands = true)]
    Hall {
        #[command(subcommand)]
        action: Option<HallAction>,
        /// The broker: mqtt://HOST:PORT (mqtts:// with TLS).
        #[arg(long, value_name = "URL")]
        broker: Option<String>,
        /// The hall's name.
        #[arg(long, value_name = "NAME")]
        hall: Option<String>,
        /// The address to serve the hall view on.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8050")]
        listen: String,
        /// A file holding the hall view's broker login, `USER:PASSWORD`.
        #[arg(long, value_name = "FILE")]
        credentials: Option<PathBuf>,
        /// The arbiter's password for acknowledging alerts (made and printed when absent).
        #[arg(long)]
        token: Option<String>,
        /// The broker's CA certificate (PEM), for mqtts://.
        #[arg(long, value_name = "FILE")]
        ca_file: Option<PathBuf>,
    },
    /// Show how the station understands a spoken phrase, given as text. Prints one line: `move`
    /// and the move, `ask` and the moves it would ask about, `command` and its name, or
    /// `reject` and why; with `--expect`, `slip` and the move when the words clearly name
    /// another move than the one his board shows.
    Understand {
        /// The language spoken.
        #[arg(long, value_parser = builtin_language(), default_value = "de")]
        lang: String,
        /// The position, as FEN (the start position when absent).
        #[arg(long)]
        fen: Option<String>,
        /// The move his board shows (as UCI, e2e4, or SAN, e4): the words are checked against it first.
        #[arg(long, value_name = "UCI")]
        expect: Option<String>,
        /// What was said.
        #[arg(value_name = "TEXT", num_args = 1.., required = true)]
        text: Vec<String>,
    },
    /// Recognise the speech in a WAV recording with a Vosk model, then show how the station
    /// understands it.
    Listen {
        /// The Vosk model's folder.
        #[arg(long, value_name = "DIR")]
        model: std::path::PathBuf,
        /// The recording (any sample rate, mono or stereo).
        #[arg(long, value_name = "FILE")]
        wav: std::path::PathBuf,
        /// The language spoken.
        #[arg(long, value_parser = builtin_language(), default_value = "de")]
        lang: String,
        /// The position, as FEN (the start position when absent).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Write journaled games as PGN, a scoresheet, large print, Braille, PDN or the recorded
    /// sound of their spoken moves.
    Export {
        /// Write the game as PGN.
        #[arg(long)]
        pgn: bool,
        /// Write a large-print scoresheet as PDF instead (20 pt and larger, black on white,
        /// clock times where known), to `--output FILE` (`-` for standard output); without
        /// it, to <game id>.pdf in the current folder.
        #[arg(long, conflicts_with_all = ["pgn", "all", "notation", "braille", "audio", "pdn"])]
        large_print: bool,
        /// Write the game in Braille instead (BRF: 40 cells a line, numbered pages, through
        /// liblouis), to `--output FILE`; without it, to standard output.
        #[arg(long, conflicts_with_all = ["pgn", "all", "notation"])]
        braille: bool,
        /// The language of the Braille record (its piece letters and liblouis table); German
        /// when absent.
        #[arg(long, value_name = "LANG", value_parser = builtin_language(), requires = "braille")]
        lang: Option<String>,
        /// Another liblouis table (its name, or a file) instead of the language's.
        #[arg(long, value_name = "TABLE", requires = "braille")]
        braille_table: Option<String>,
        /// Write the recorded sound of the game's spoken moves (D.2.7, `[speech] keep_audio`)
        /// into this folder: a WAV file for each move said, and `index.tsv`.
        #[arg(long, value_name = "DIR", conflicts_with = "all")]
        audio: Option<PathBuf>,
        /// Write a draughts game as PDN (`[GameType "20"]`).
        #[arg(long, conflicts_with_all = ["pgn", "notation"])]
        pdn: bool,
        /// The journal folder (default ./journal, or ./journal-practice, where `station
        /// practice` keeps its games, when only that one is there).
        #[arg(long, value_name = "DIR", default_value_os_t = crate::export::default_journal_dir(), hide_default_value = true)]
        journal_dir: PathBuf,
        /// Which game, by its id (the newest when absent).
        #[arg(long, value_name = "ID")]
        game: Option<String>,
        /// Every game in the folder.
        #[arg(long, conflicts_with = "game")]
        all: bool,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE", visible_alias = "out")]
        output: Option<PathBuf>,
        /// Also write a scoresheet (move numbers, draw-offer marks, result) in this notation
        /// (ICCF Appendix A): san, pl, iccf, lan or fan. With `--output FILE` it goes to FILE's
        /// name with `.<notation>.txt`; on standard output it follows the PGN.
        #[arg(long, value_name = "NOTATION", value_parser = ["san", "pl", "iccf", "lan", "fan"])]
        notation: Option<String>,
    },
}

#[derive(Subcommand)]
enum VoicesAction {
    /// Make a voice pack with the espeak-ng voice.
    Build {
        /// The pack's language.
        #[arg(long)]
        lang: String,
        /// The voice packs folder (the pack goes into OUT/LANG).
        #[arg(long, value_name = "OUT", default_value = ".deps/voices")]
        out: PathBuf,
    },
    /// Record a voice pack word by word in a person's voice, through the microphone.
    Record {
        /// The pack's language.
        #[arg(long)]
        lang: String,
        /// The voice packs folder.
        #[arg(long, value_name = "DIR", default_value = ".deps/voices")]
        out: PathBuf,
        /// The microphone to record with (the default input when absent).
        #[arg(long, value_name = "DEVICE")]
        input: Option<String>,
        /// Who speaks (kept in the pack's description).
        #[arg(long, value_name = "NAME", default_value = "a helper")]
        speaker: String,
    },
    /// Print how each word the station listens for sounds (a phrasebook's `[listening.phonemes]`
    /// table), from the espeak-ng voice.
    Phonemes {
        /// The language: one the station has a phrasebook for, or the language of the phrasebook file given.
        #[arg(long)]
        lang: String,
        /// A phrasebook file instead of the station's own for the language.
        #[arg(long, value_name = "FILE")]
        phrasebook: Option<PathBuf>,
    },
}

impl Cli {
    /// The log level when `STATION_LOG` does not set one: a command whose
    /// output is its report (the pre-round check, an export, the device list)
    /// logs errors only, so its lines are not interleaved with log lines that
    /// say the same thing again; the others log warnings.
    pub fn default_log_level(&self) -> &'static str {
        match self.command {
            Command::Doctor { .. } | Command::Export { .. } | Command::Devices | Command::Models { .. } => {
                "error"
            }
            _ => "warn",
        }
    }
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
        Command::Replay { pdn: Some(pdn), pace, settle_ms, noise, games, .. } => {
            let pdn = default_games::or_default(pdn, Collection::Draughts)?;
            let sensor = station_core::draughts::sensing::SensorConfig { settle_ms, ..Default::default() };
            // One `--pace` for both games: normal is the draughts hands' thinking pace.
            let pace = match pace {
                PaceArg::Normal => station_sim::replay_pdn::Pace::Human,
                PaceArg::Fast => station_sim::replay_pdn::Pace::Fast,
            };
            let opts = station_sim::replay_pdn::PdnReplayOptions { pdn, noise, games, sensor, pace };
            println!("{}", station_sim::replay_pdn::replay_pdn(&opts)?.summary_line());
            Ok(())
        }
        Command::Replay { pgn, noise, games, settle_ms, clock, pace, jitter, .. } => {
            let pgn =
                default_games::or_default(pgn, if clock { Collection::Clock } else { Collection::Chess })?;
            let mut tracker = Config::default().tracker();
            tracker.settle_ms = settle_ms;
            let report = replay(&ReplayOptions {
                pgn: pgn.clone(),
                noise,
                games,
                tracker,
                pace: pace.into(),
                jitter,
            })?;
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
        Command::Bench { pgn, games, noise, jitter } => bench(&BenchOptions {
            pgn: default_games::or_default(pgn, Collection::Chess)?,
            games,
            noise,
            jitter,
        }),
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
            let lines = words_of(crate::config::GameRules::from(rules.unwrap_or_default()).rules())
                .announce(&opts)?;
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
        Command::Voices { action: VoicesAction::Phonemes { lang, phrasebook } } => {
            print!("{}", crate::speech_cmd::phonemes(&lang, phrasebook.as_deref())?);
            Ok(())
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
        Command::Understand { lang, fen, expect, text } => {
            println!(
                "{}",
                crate::speech_cmd::understand(&lang, fen.as_deref(), expect.as_deref(), &text.join(" "))?
            );
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
                let lang = lang.as_deref().unwrap_or("de");
                // A language without a Braille table of its own is written
                // with the fallback table, and he is told so.
                if braille_table.is_none()
                    && let (_, Some(note)) = crate::export_braille::table_for(lang)
                {
                    eprintln!("{note}");
                }
                let brf = crate::export_braille::export_braille(
                    &journal_dir,
                    game.as_deref(),
                    lang,
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

#[cfg(test)]
mod help_tests;
