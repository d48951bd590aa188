//! The configuration's checks: every key, every error message with its line.

use super::*;

#[test]
fn the_opponent_section_is_checked() {
    let c = parse("[opponent]\nelo = 1600\n").unwrap();
    let o = c.opponent.unwrap();
    assert_eq!((o.engine.as_str(), o.elo, o.move_time_ms), (DEFAULT_ENGINE, Some(1600), None));
    let err = parse("[opponent]\nelo = 1600\nmove_time_ms = 0\n").unwrap_err().to_string();
    assert!(err.contains("opponent.move_time_ms") && err.contains("line 3"), "{err}");
    let err = parse("[boards.mirror]\ndriver = \"sim\"\n[opponent]\n").unwrap_err().to_string();
    assert!(err.contains("the engine is the sighted side"), "{err}");
    assert!(parse("[opponent]\nlevel = 3\n").is_err(), "unknown keys are errors");
    for rules in ["draughts", "draughts64"] {
        let err = parse(&format!("[game]\nrules = \"{rules}\"\n[opponent]\n")).unwrap_err().to_string();
        assert!(err.contains("plays chess only"), "{rules}: {err}");
    }
}

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("station.toml"))
}

#[test]
fn the_minimal_config_of_the_issue_parses() {
    let c = parse(
        "[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/ttyUSB0\"\nbaud = 115200\nflipped = false\n[game]\nsettle_ms = 300\n",
    )
    .unwrap();
    let b = c.boards.blind.unwrap();
    assert_eq!(b.driver, DriverKind::Pegboard);
    assert_eq!(b.port.unwrap(), Path::new("/dev/ttyUSB0"));
    assert_eq!(c.game.settle_ms, 300);
    assert_eq!(c.game.debounce_ms, 40);
}

#[test]
fn a_misspelt_key_names_file_line_and_key() {
    let err = parse("[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/x\"\n[game]\nsettle = 300\n")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("station.toml: line 5"), "{err}");
    assert!(err.contains("settle"), "{err}");
}

#[test]
fn game_rules_chess_by_default_draughts_by_name_and_a_wrong_one_named() {
    assert_eq!(parse("").unwrap().game.rules, GameRules::Chess);
    assert_eq!(parse("[game]\nrules = \"draughts\"\n").unwrap().game.rules, GameRules::Draughts);
    assert_eq!(parse("[game]\nrules = \"draughts64\"\n").unwrap().game.rules, GameRules::Draughts64);
    let err = parse("[game]\nrules = \"checkers\"\n").unwrap_err().to_string();
    assert!(err.contains("line 2") && err.contains("checkers"), "{err}");
    // Each name is the core's rules of that name (none falls back to chess).
    let names: Vec<_> = [GameRules::Chess, GameRules::Draughts, GameRules::Draughts64]
        .into_iter()
        .map(|r| r.rules().name())
        .collect();
    assert_eq!(names, ["chess", "draughts", "draughts64"]);
}

#[test]
fn a_wrong_type_names_the_line() {
    let err = parse("[game]\nsettle_ms = \"soon\"\n").unwrap_err().to_string();
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn values_that_do_not_fit_together_name_the_key() {
    let err = parse("[game]\nsettle_ms = 100\ndebounce_ms = 200\n").unwrap_err().to_string();
    assert!(err.contains("game.debounce_ms"), "{err}");
    let err = parse("[boards.blind]\ndriver = \"pegboard\"\n").unwrap_err().to_string();
    assert!(err.contains("boards.blind.port"), "{err}");
    let err = parse("[game]\npromotion = \"king\"\n").unwrap_err().to_string();
    assert!(err.contains("game.promotion"), "{err}");
    let err = parse("[boards.blind]\ndriver = \"teleport\"\n").unwrap_err().to_string();
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn every_semantic_error_names_its_line() {
    for (text, key, line) in [
        ("[game]\nsettle_ms = 100\ndebounce_ms = 200\n", "game.debounce_ms", 3),
        ("# a comment\n[game]\nsettle_ms = 0\n", "game.settle_ms", 3),
        ("[game]\npromotion = \"king\"\n", "game.promotion", 2),
        ("[game]\nstart_fen = \"8/8\"\n", "game.start_fen", 2),
        ("\n\n[game]\nblind_color = \"green\"\n", "game.blind_color", 4),
        ("[clock]\ntime_control = \"soon\"\n", "clock.time_control", 2),
        ("[clock]\nsource = \"dgt\"\ntime_control = \"300+2\"\n", "clock.source", 2),
        ("[clock]\ndgt_silent_ms = 1\n", "clock.dgt_silent_ms", 2),
        ("[buttons]\n\nconfirm = [\"elbow:1\"]\n", "buttons.confirm", 3),
        ("[console]\nlisten = \"nowhere\"\n", "console.listen", 2),
        ("[boards.blind]\ndriver = \"pegboard\"\n", "boards.blind.port", 1),
        ("[boards.blind]\nport = \"/dev/x\"\nbaud = 0\n", "boards.blind.baud", 3),
        ("[boards.mirror]\ndriver = \"sim\"\nspeed = -1.0\n", "boards.mirror.speed", 3),
        ("[boards.mirror]\ndriver = \"sim\"\ngame = 0\n", "boards.mirror.game", 3),
        ("[boards.blind]\ndriver = \"dgt\"\nport = \"/dev/x\"\n", "boards.blind.driver", 2),
        ("[voice]\nlanguage = \"xx\"\n", "voice.language", 2),
        ("[voice]\nlanguage = \"de\"\n\nletters = \"klingon\"\n", "voice.letters", 4),
        ("[voice]\nranks = \"xx\"\n", "voice.ranks", 2),
        ("[console]\nlisten = \"127.0.0.1:8040\"\ntoken = \"   \"\n", "console.token", 3),
        ("[console]\ntoken = \"\"\n", "console.token", 2),
        ("[audio.private]\nvolume = nan\n", "audio.private.volume", 2),
        ("[audio.public]\nenabled = true\nvolume = inf\n", "audio.public.volume", 3),
        ("[audio.private]\nvolume = -inf\n", "audio.private.volume", 2),
        ("[tags]\nevent = \"Open\\n[Result \\\"1-0\\\"]\"\n", "tags.event", 2),
        ("[tags]\nwhite = \"\"\"\nMüller\nHans\"\"\"\n", "tags.white", 2),
        ("[buttons]\ntime = [\"braille:256\"]\n", "buttons.time", 2),
        ("[braille]\nenabled = true\nhost = \"display.local:1\"\n", "braille.host", 3),
    ] {
        let err = parse(text).err().unwrap_or_else(|| panic!("{key} accepted:\n{text}")).to_string();
        assert!(err.contains(&format!("`{key}`")), "{key}: {err}");
        assert!(err.starts_with(&format!("station.toml: line {line}, key")), "{key}: {err}");
    }
    // A check that needs another key names the line of the key it is about.
    let err =
        parse("[boards.mirror]\ndriver = \"dgt\"\nport = \"/x\"\n[clock]\nsource = \"dgt\"\n").unwrap_err();
    assert!(err.to_string().contains("line 5, key `clock.source`"), "{err}");
}

#[test]
fn braille_routing_keys_are_buttons_and_the_host_names_a_local_socket() {
    let c =
        parse("[buttons]\ntime = [\"blind:1\", \"braille:3\"]\n[braille]\nenabled = true\nhost = \":2\"\n")
            .unwrap();
    assert_eq!(c.buttons.action_of("braille:3"), Some(Action::Time));
    assert_eq!(c.braille.socket_path(), Some(PathBuf::from("/var/lib/BrlAPI/2")));
    let c = parse("[braille]\nsocket = \"/run/brl.sock\"\nnotation = \"san\"\n").unwrap();
    assert_eq!(c.braille.socket_path(), Some(PathBuf::from("/run/brl.sock")));
    assert_eq!(c.braille.notation, BrailleNotation::San);
    let err = parse("[buttons]\nclock = [\"braille:3\"]\ntime = [\"braille:3\"]\n").unwrap_err();
    assert!(err.to_string().contains("already the `clock` button"), "{err}");
}

#[test]
fn volumes_and_tags_within_bounds_are_accepted() {
    let c = parse("[audio.private]\nvolume = 0.5\n[tags]\nwhite = \"Müller, Hans\"\n").unwrap();
    assert_eq!(c.audio.private.volume, 0.5);
    assert_eq!(c.seven_tags("2026.01.01".into()).white, "Müller, Hans");
    let mut c = Config::default();
    c.tags.event = Some("Open\n[Result \"1-0\"]".into());
    assert_eq!(c.seven_tags("?".into()).event, "Open [Result \"1-0\"]", "one line");
}

#[test]
fn practice_requests_have_buttons_too() {
    let c =
        parse("[buttons]\npractice_hint = [\"blind:5\"]\npractice_take_back = [\"gamepad:West\"]\n").unwrap();
    assert_eq!(c.buttons.action_of("blind:5"), Some(Action::PracticeHint));
    assert_eq!(c.buttons.action_of("gamepad:West"), Some(Action::PracticeTakeBack));
    let err =
        parse("[buttons]\npractice_hint = [\"blind:5\"]\ntime = [\"blind:5\"]\n").unwrap_err().to_string();
    assert!(err.contains("blind:5"), "{err}");
}

#[test]
fn a_button_has_one_action() {
    let err = parse("[buttons]\npush_to_talk = [\"blind:1\"]\n").unwrap_err().to_string();
    assert!(err.contains("buttons.push_to_talk") && err.contains("`time`"), "{err}");
    let err = parse("[buttons]\nconfirm = [\"gamepad:South\", \"gamepad:South\"]\n").unwrap_err().to_string();
    assert!(err.contains("buttons.confirm"), "{err}");
    let ok = parse("[buttons]\ntime = [\"blind:4\"]\npush_to_talk = [\"blind:1\"]\n").unwrap();
    assert_eq!(ok.buttons.action_of("blind:1"), Some(Action::PushToTalk));
}

#[test]
fn the_dgt_clock_needs_the_dgt_board_and_a_time_control() {
    let dgt = "[boards.mirror]\ndriver = \"dgt\"\nport = \"/dev/x\"\n";
    let err = parse("[clock]\nsource = \"dgt\"\ntime_control = \"300+2\"\n").unwrap_err().to_string();
    assert!(err.contains("clock.source"), "{err}");
    let err = parse(&format!("{dgt}[clock]\nsource = \"dgt\"\n")).unwrap_err().to_string();
    assert!(err.contains("clock.source"), "{err}");
    let err = parse("[clock]\nsource = \"sundial\"\n").unwrap_err().to_string();
    assert!(err.contains("line 2"), "{err}");
    let c =
        parse(&format!("{dgt}[clock]\nsource = \"dgt\"\ntime_control = \"300+2\"\ndgt_white = \"right\"\n"))
            .unwrap();
    assert_eq!(
        (c.clock.source, c.clock.dgt_white, c.clock.dgt_silent_ms),
        (ClockSource::Dgt, DgtDisplay::Right, 3000)
    );
    assert_eq!(parse("").unwrap().clock.source, ClockSource::Station);
}

#[test]
fn speech_input_keys_and_the_board_without_sensors() {
    let c = parse(
        "[boards.blind]\ndriver = \"none\"\n[voice]\nlanguage = \"pl\"\n[speech]\nenabled = true\nmode = \"push_to_talk\"\nmodels = { pl = \"/m/pl\" }\ninput_device = \"USB\"\n",
    )
    .unwrap();
    assert!(c.blind_unsensed());
    assert_eq!(c.speech.mode, ListenMode::PushToTalk);
    assert!(c.speech.microphone);
    let lang = c.speech.model_language(&c.voice);
    assert_eq!(lang, "pl");
    assert_eq!(c.speech.model_dir(lang), Path::new("/m/pl"));
    assert!(c.speech.model_dir("de").ends_with("vosk-model-small-de-0.15"));
    // Speech off: a board without sensors is still no board to wait for
    // (the assistant enters his moves).
    assert!(parse("[boards.blind]\ndriver = \"none\"\n").unwrap().blind_unsensed());
    let err = parse("[speech]\nmode = \"always\"\n").unwrap_err().to_string();
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn typed_values_take_every_spelling_accepted_before() {
    for (written, role) in [
        ("queen", Role::Queen),
        ("Q", Role::Queen),
        ("rook", Role::Rook),
        ("R", Role::Rook),
        ("Bishop", Role::Bishop),
        ("b", Role::Bishop),
        ("KNIGHT", Role::Knight),
        ("n", Role::Knight),
    ] {
        let c = parse(&format!("[game]\npromotion = \"{written}\"\n")).unwrap();
        assert_eq!((c.game.promotion, c.tracker().promotion), (role, role), "{written}");
    }
    for (written, color) in [("white", Color::White), ("black", Color::Black)] {
        let c = parse(&format!("[game]\nblind_color = \"{written}\"\n")).unwrap();
        assert_eq!((c.game.blind_color, c.blind_color()), (color, color), "{written}");
    }
    for written in ["5400+30", "40/7200:20/3600:900+30", "5400d30", "5400b30", "4800+60"] {
        let c = parse(&format!("[clock]\ntime_control = \"{written}\"\n")).unwrap();
        let read = written.parse::<TimeControl>().unwrap();
        assert_eq!(c.clock.time_control.as_ref(), Some(&read), "{written}");
        assert_eq!(c.time_control().map(|tc| tc.to_string()).as_deref(), Some(written));
    }
    for written in ["127.0.0.1:8040", "0.0.0.0:80", "[::1]:9000"] {
        let c = parse(&format!("[console]\nlisten = \"{written}\"\n")).unwrap();
        assert_eq!(c.console.listen, written.parse::<SocketAddr>().unwrap(), "{written}");
    }
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let c = parse(&format!("[game]\nstart_fen = \"{fen}\"\n")).unwrap();
    assert_eq!(
        c.game.start_fen.map(|g| g.start_fen()),
        Some(station_core::Game::from_fen(fen).unwrap().start_fen())
    );
}

#[test]
fn a_refused_value_names_its_key_and_says_why() {
    for (text, key, why) in [
        ("[game]\nblind_color = \"purple\"\n", "game.blind_color", "`purple` is not white or black"),
        ("[game]\nblind_color = \"White\"\n", "game.blind_color", "`White` is not white or black"),
        ("[game]\npromotion = \"king\"\n", "game.promotion", "`king` is not queen, rook, bishop or knight"),
        ("[clock]\ntime_control = \"?\"\n", "clock.time_control", "has no clock"),
        ("[console]\nlisten = \"8040\"\n", "console.listen", "`8040` is not ADDRESS:PORT"),
        ("[speech]\nmove_confidence = 1.5\n", "speech.move_confidence", "1.5 is outside 0..=1"),
        ("[speech]\nsure_confidence = nan\n", "speech.sure_confidence", "is outside 0..=1"),
        ("[speech]\ndecide_quiet_ms = 601\n", "speech.decide_quiet_ms", "601 is outside 0..=600"),
        ("[opponent]\nelo = 99\n", "opponent.elo", "99 is outside 100..=4000"),
        ("[opponent]\nengine = \" \"\n", "opponent.engine", "names no program"),
        ("[opponent]\nhint_time_ms = 5\n", "opponent.hint_time_ms", "5 is outside 10..=60000"),
        ("[opponent]\nelo_step = 0\n", "opponent.elo_step", "0 is outside 1..=1000"),
        ("[game]\nsettle_ms = 10001\n", "game.settle_ms", "10001 is outside 1..=10000"),
        ("[game]\nrules = \"checkers\"\n", "game.rules", "checkers"),
        ("[game]\nsettle = 300\n", "game.settle", "unknown field `settle`"),
        ("[game]\nsettle_ms = \"soon\"\n", "game.settle_ms", "invalid type"),
        // The same keys written as dotted keys and inline tables.
        ("game.blind_color = \"purple\"\n", "game.blind_color", "`purple` is not white or black"),
        ("game = { promotion = \"king\" }\n", "game.promotion", "is not queen"),
        ("[speech]\nmodels = { de = 3 }\n", "speech.models.de", "invalid type"),
        ("[buttons]\ntime = [\"blind:1\", \"blind:16\"]\n", "buttons.time", "`blind:16` is not blind:N"),
    ] {
        let err = parse(text).err().unwrap_or_else(|| panic!("{key} accepted:\n{text}")).to_string();
        assert!(err.contains(&format!("key `{key}`: ")), "{key}: {err}");
        assert!(err.contains(why), "{key}: {err}");
    }
}

#[test]
fn a_syntax_error_has_no_key_but_its_line_and_column() {
    let err = parse("[game]\nsettle_ms = = 3\n").unwrap_err().to_string();
    assert!(err.starts_with("station.toml: line 2, column"), "{err}");
}

/// What a config without the key gets: the values `config/station.toml`
/// and the README document.
#[test]
fn the_defaults_are_the_documented_values() {
    let c = parse("[boards.blind]\nport = \"/dev/x\"\n[opponent]\n").unwrap();
    let g = &c.game;
    assert_eq!((g.settle_ms, g.debounce_ms, g.grace_ms), (300, 40, 30_000));
    assert_eq!((g.promotion, g.blind_color, g.rules), (Role::Queen, Color::White, GameRules::Chess));
    assert!(g.start_fen.is_none());
    let b = c.boards.blind.as_ref().unwrap();
    assert_eq!(
        (b.driver, b.baud, b.flipped, b.game, b.speed, b.lever),
        (DriverKind::Pegboard, 115_200, false, 1, 1.0, false)
    );
    let k = &c.clock;
    assert!(k.time_control.is_none() && k.auto_start && !k.auto_press);
    assert_eq!((k.source, k.dgt_white, k.dgt_silent_ms), (ClockSource::Station, DgtDisplay::Left, 3000));
    assert_eq!(c.console.listen, SocketAddr::from(([127, 0, 0, 1], 8040)));
    assert_eq!((c.console.mirror_language.as_str(), c.console.allow_remote), ("de", false));
    assert_eq!((c.braille.host.as_str(), c.braille.key_file.as_path()), (":0", Path::new("/etc/brlapi.key")));
    let o = c.opponent.as_ref().unwrap();
    assert_eq!(o, &OpponentSettings::new(DEFAULT_ENGINE));
    assert_eq!((o.hint_time_ms, o.elo_step, o.seed), (500, 100, 0));
    let s = &c.speech;
    assert!(!s.enabled && s.microphone && s.decide_early && !s.keep_audio);
    assert_eq!((s.decide_quiet_ms, s.keep_audio_max_mb), (50, 64));
    assert_eq!(s.move_confidence, station_voices::understand::DEFAULT_MIN_CONFIDENCE);
    assert_eq!(s.command_confidence, station_voices::understand::DEFAULT_COMMAND_CONFIDENCE);
    assert_eq!(s.sure_confidence, station_voices::understand::DEFAULT_SURE_CONFIDENCE);
    let buttons = &c.buttons;
    assert_eq!(
        (buttons.clock.as_slice(), buttons.time.as_slice()),
        (&["blind:0".to_owned()][..], &["blind:1".to_owned()][..])
    );
    assert_eq!(buttons.repeat_last_move, ["blind:2"]);
    assert!(buttons.confirm.is_empty() && buttons.practice_review.is_empty());
    // The Default impls are the same defaults serde fills in.
    assert_eq!(format!("{:?}", Config::default()), format!("{:?}", parse("").unwrap()));
    assert_eq!(format!("{:?}", BoardConfig::default()), format!("{b:?}").replace("Some(\"/dev/x\")", "None"));
}

mod shipped_configs {
    use super::super::*;

    /// The shipped config files: the default, minimal and sim ones.
    fn shipped() -> Vec<(PathBuf, String)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "toml"))
            .map(|path| {
                let text = std::fs::read_to_string(&path).unwrap();
                (path, text)
            })
            .collect();
        files.sort();
        files
    }

    /// Each typed key of each shipped file holds what the string the file
    /// writes meant to the old string-checking parse (an absent key: the old default).
    #[test]
    fn every_shipped_config_reads_its_typed_keys_as_written() {
        let files = shipped();
        assert!(files.len() >= 3, "config/ holds the default, minimal and sim configs");
        for (path, text) in files {
            let config = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
            let raw: toml::Table = toml::from_str(&text).unwrap();
            let string = |table: &str, key: &str| {
                raw.get(table).and_then(|t| t.get(key)).and_then(|v| v.as_str()).map(str::to_owned)
            };
            let name = path.display();
            let color = string("game", "blind_color").unwrap_or_else(|| "white".into());
            assert_eq!(config.blind_color().to_string(), color, "{name}");
            let promotion = string("game", "promotion").unwrap_or_else(|| "queen".into());
            assert_eq!(
                Some(config.game.promotion),
                Role::from_char(promotion.to_ascii_lowercase().chars().next().unwrap()),
                "{name}"
            );
            assert_eq!(
                config.time_control().map(|tc| tc.to_string()),
                string("clock", "time_control"),
                "{name}"
            );
            let listen = string("console", "listen").unwrap_or_else(|| "127.0.0.1:8040".into());
            assert_eq!(config.console.listen.to_string(), listen, "{name}");
            let tags = &config.tags;
            for (key, value) in [("event", &tags.event), ("site", &tags.site), ("white", &tags.white)] {
                assert_eq!(value, &string("tags", key), "{name}: tags.{key}");
            }
        }
    }

    /// The values the shipped files set, read back through the typed config.
    #[test]
    fn the_shipped_configs_hold_their_values() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
        let station = Config::load(&dir.join("station.toml")).unwrap();
        assert_eq!((station.game.blind_color, station.game.promotion), (Color::White, Role::Queen));
        assert_eq!(station.console.listen, SocketAddr::from(([127, 0, 0, 1], 8040)));
        assert_eq!(station.tags.site.as_deref(), Some("Warszawa POL"));
        assert!(station.time_control().is_none());
        let sim = Config::load(&dir.join("sim.toml")).unwrap();
        assert_eq!(sim.time_control(), Some("5400+30".parse().unwrap()));
        assert_eq!(sim.buttons.clock, ["blind:0", "mirror:0"]);
        assert_eq!(
            sim.boards.mirror.as_ref().map(|m| (m.driver, m.speed, m.lever)),
            Some((DriverKind::Sim, 2.0, true))
        );
        let minimal = Config::load(&dir.join("minimal.toml")).unwrap();
        assert_eq!(
            minimal.boards.blind.as_ref().map(|b| b.port.clone()),
            Some(Some(PathBuf::from("/dev/ttyUSB0")))
        );
        assert_eq!(format!("{:?}", minimal.game), format!("{:?}", GameSettings::default()));
    }

    #[test]
    fn every_config_file_in_the_repository_loads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
                seen += 1;
            }
        }
        assert!(seen >= 3, "config/ holds the default, minimal and sim configs");
    }

    /// `config/station.toml` documents the defaults: what it sets for the
    /// game, clock, buttons, voice and audio is what a config without them gets.
    #[test]
    fn the_documented_config_holds_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/station.toml");
        let documented = Config::load(&path).unwrap();
        let defaults = Config::parse("", Path::new("empty.toml")).unwrap();
        let shown = |c: &Config| {
            let mut game = c.game.clone();
            game.start_fen = None;
            let mut clock = c.clock.clone();
            clock.time_control = None;
            format!("{game:?}\n{clock:?}\n{:?}\n{:?}\n{:?}\n{:?}", c.buttons, c.voice, c.audio, c.braille)
        };
        assert_eq!(shown(&documented), shown(&defaults));
    }
}

/// Issue 34 §12: a token of spaces is refused saying why; an unknown voice
/// language is named on its own key's line, with the languages there are.
#[test]
fn a_blank_token_and_an_unknown_language_are_refused_in_words() {
    let err = parse("[console]\ntoken = \"   \"\n").unwrap_err().to_string();
    assert!(err.contains("line 2, key `console.token`") && err.contains("only spaces"), "{err}");
    assert!(parse("[console]\ntoken = \" s3cret \"\n").is_ok(), "a token with spaces around it is a token");
    let err = parse("# the blind player's language\n[voice]\nlanguage = \"tlh\"\n").unwrap_err().to_string();
    assert!(err.contains("line 3, key `voice.language`"), "{err}");
    assert!(err.contains("`tlh` is not a language the station speaks ("), "{err}");
    for lang in station_voices::BUILTIN_LANGUAGES {
        assert!(err.contains(lang), "the languages there are, {lang} among them: {err}");
    }
}
