//! Every line of `--help` is written for the people who run the station
//! (issue 34 §10): every command and every flag says what it is for, in their
//! words, never the code's.

use super::Cli;
use clap::{CommandFactory, Parser};

/// Words of the code where a user's word exists (matched as whole words,
/// any case), each with the word to use instead.
const CODE_WORDS: [(&str, &str); 11] = [
    ("issue", "what the command does, not where it was asked for"),
    ("module", "the command"),
    ("modules", "the commands"),
    ("inference", "reading the moves"),
    ("ply", "move or half-move"),
    ("plies", "moves or half-moves"),
    ("daemon", "the station"),
    ("wiring", "what it starts"),
    ("stdout", "standard output"),
    ("crate", "the station"),
    ("struct", "what it holds"),
];

/// Each text a command shows, named by where it appears.
fn texts(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String)>) {
    let mut push = |what: String, text: Option<&clap::builder::StyledStr>| {
        if let Some(text) = text {
            out.push((what, text.to_string()));
        }
    };
    push(format!("{path}: about"), cmd.get_about());
    push(format!("{path}: long about"), cmd.get_long_about());
    push(format!("{path}: after help"), cmd.get_after_help());
    for arg in cmd.get_arguments() {
        let name = format!(
            "{path} {}",
            arg.get_long().map_or_else(|| arg.get_id().to_string(), |l| format!("--{l}"))
        );
        push(format!("{name}: help"), arg.get_help());
        push(format!("{name}: long help"), arg.get_long_help());
        for value in arg.get_possible_values() {
            push(format!("{name} {}: help", value.get_name()), value.get_help());
        }
    }
    // The rendered page too: what clap adds around the texts.
    out.push((format!("{path}: page"), cmd.clone().render_long_help().to_string()));
    for sub in cmd.get_subcommands() {
        texts(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

/// Whether `text` has `word` as a whole word, in any case.
fn has_word(text: &str, word: &str) -> bool {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).any(|w| w == word)
}

#[test]
fn every_help_line_is_in_the_users_words() {
    let mut cmd = Cli::command();
    cmd.build();
    let mut all = Vec::new();
    texts(&cmd, "station", &mut all);
    assert!(all.len() > 100, "the whole tree was walked: {} texts", all.len());
    let mut wrong = Vec::new();
    for (place, text) in &all {
        for (word, instead) in CODE_WORDS {
            // The line it stands on, not the whole page.
            if let Some(line) = text.lines().find(|l| has_word(l, word)) {
                wrong.push(format!("{place}: `{word}` (say: {instead}) in {:?}", line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "help in the code's words:\n{}", wrong.join("\n"));
}

#[test]
fn every_command_and_every_flag_says_what_it_is_for() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        let blank = |s: Option<&clap::builder::StyledStr>| s.is_none_or(|s| s.to_string().trim().is_empty());
        if blank(cmd.get_about()) {
            missing.push(format!("{path}: no description"));
        }
        for arg in cmd.get_arguments() {
            if blank(arg.get_help()) && blank(arg.get_long_help()) {
                missing.push(format!("{path} {}: no help", arg.get_id()));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }
    let mut cmd = Cli::command();
    cmd.build();
    let mut missing = Vec::new();
    walk(&cmd, "station", &mut missing);
    assert!(missing.is_empty(), "help missing:\n{}", missing.join("\n"));
}

#[test]
fn the_code_words_are_found_where_they_stand() {
    // The check itself: a word inside another word is not the word.
    assert!(has_word("into the inference engine", "inference"));
    assert!(has_word("(issue 26)", "issue"));
    assert!(has_word("a WAV per Ply", "ply"));
    assert!(!has_word("reply", "ply") && !has_word("apply", "ply") && !has_word("issues?", "issue"));
}

/// Issue 34 §10: the large print and the Braille record name the same flag for
/// their file, and the older name stays (flags are contracts).
#[test]
fn large_print_and_braille_write_to_the_same_flag_and_the_old_name_stays() {
    use super::Command;
    for format in ["--large-print", "--braille"] {
        for flag in ["--output", "--out", "-o"] {
            let cli = Cli::try_parse_from(["station", "export", format, flag, "game.out"])
                .unwrap_or_else(|e| panic!("{format} {flag}: {e}"));
            let Command::Export { output, .. } = cli.command else { panic!("not export") };
            assert_eq!(output.as_deref(), Some(std::path::Path::new("game.out")), "{format} {flag}");
        }
    }
    let mut cmd = Cli::command();
    cmd.build();
    let export = cmd.find_subcommand("export").unwrap();
    let help =
        |id: &str| export.get_arguments().find(|a| a.get_id() == id).unwrap().get_help().unwrap().to_string();
    assert!(help("large_print").contains("`--output FILE`"), "{}", help("large_print"));
    assert!(help("braille").contains("`--output FILE`"), "{}", help("braille"));
}

/// Issue 34 §9, §11: the commands whose output is their report log errors
/// only, so a wrong audio device is the doctor's one line, not three log lines besides.
#[test]
fn report_commands_log_errors_only() {
    for (args, level) in [
        (&["station", "doctor"][..], "error"),
        (&["station", "export", "--pgn"], "error"),
        (&["station", "devices"], "error"),
        (&["station", "run", "--config", "x.toml"], "warn"),
    ] {
        assert_eq!(Cli::try_parse_from(args).unwrap().default_log_level(), level, "{args:?}");
    }
}
