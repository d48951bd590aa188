//! `station doctor` (issue 24) as the arbiter runs it: the shipped simulated
//! config is all `ok`; a wrong port, a port held by another process, a
//! journal folder locked by a running station, a clock without a lever and
//! the Korean model configured for German are each named on a line of their
//! own with what to do, and the exit code is 1.

use serialport::SerialPort;
use station_tests::{
    Kill, korean_model, scratch, station_bin, station_run, wait_for, workspace, write_config,
};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn doctor(config: &Path, journal: Option<&Path>) -> Output {
    let mut cmd = Command::new(station_bin());
    cmd.arg("doctor").arg("--config").arg(config);
    if let Some(j) = journal {
        cmd.arg("--journal-dir").arg(j);
    }
    let alsa = workspace().join(".deps/alsa/null.conf");
    if alsa.exists() && std::env::var_os("ALSA_CONFIG_PATH").is_none() {
        cmd.env("ALSA_CONFIG_PATH", alsa);
    }
    cmd.current_dir(workspace()).output().unwrap()
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

/// The one line about `item`.
fn line<'a>(lines: &'a [String], item: &str) -> &'a str {
    let found: Vec<&String> = lines.iter().filter(|l| l[6..].starts_with(item)).collect();
    assert_eq!(found.len(), 1, "one line about {item}: {lines:#?}");
    found[0]
}

#[test]
fn the_simulated_config_is_ready() {
    let out = doctor(&workspace().join("config/sim.toml"), Some(&scratch("doctor-sim").join("journal")));
    let lines = lines(&out);
    assert_eq!(out.status.code(), Some(0), "{lines:#?}\n{}", String::from_utf8_lossy(&out.stderr));
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("ok "), "{l}");
    }
    assert!(line(&lines, "board blind").contains("start position"));
    assert!(line(&lines, "clock").contains("5400+30"));
    assert!(lines.last().unwrap().starts_with("doctor: ") && lines.last().unwrap().contains(" 0 fail"));
}

#[test]
fn every_problem_is_named_on_its_own_line_with_what_to_do() {
    let dir = scratch("doctor-problems");
    // A port held by another process.
    let (_master, slave) = serialport::TTYPort::pair().unwrap();
    let held = slave.name().unwrap();
    let holder = Kill::spawn(Command::new("sleep").arg("60").stdin(std::fs::File::open(&held).unwrap()));
    // A journal folder a running station holds.
    let journal = dir.join("journal");
    let running_config = dir.join("running.toml");
    std::fs::write(
        &running_config,
        "[boards.blind]\ndriver = \"none\"\n[console]\nlisten = \"127.0.0.1:0\"\n",
    )
    .unwrap();
    let station = Kill::spawn(station_run(&running_config, &journal, None).stdout(Stdio::null()));
    let station_pid = station.id();
    wait_for(Duration::from_secs(30), "the running station's lock", || {
        let text = std::fs::read_to_string(journal.join("station.lock")).ok()?;
        (text.trim() == station_pid.to_string()).then_some(())
    });
    let korean = korean_model();
    let config = write_config(
        &dir,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/ttyUSB77\"\n\n\
             [boards.mirror]\ndriver = \"pegboard\"\nport = \"{held}\"\n\n\
             [buttons]\nclock = []\n\n\
             [clock]\ntime_control = \"5400+30\"\n\n\
             [speech]\nenabled = true\n[speech.models]\nde = \"{}\"\n",
            korean.display()
        ),
    );
    let out = doctor(&config, Some(&journal));
    let holder_pid = holder.id();
    drop(station);
    drop(holder);
    let lines = lines(&out);
    assert_eq!(out.status.code(), Some(1), "{lines:#?}");

    let wrong = line(&lines, "board blind");
    assert!(
        wrong.starts_with("fail") && wrong.contains("/dev/ttyUSB77") && wrong.contains("cable"),
        "{wrong}"
    );
    let busy = line(&lines, "board mirror");
    // The test itself holds the pty's other handle too: every holder is named.
    assert!(busy.starts_with("fail") && busy.contains("in use by"), "{busy}");
    assert!(busy.contains(&format!("process {holder_pid} (sleep)")), "{busy}");
    let locked = line(&lines, "journal");
    assert!(locked.starts_with("fail") && locked.contains(&format!("process {station_pid}")), "{locked}");
    let clock = line(&lines, "clock");
    assert!(clock.starts_with("warn") && clock.contains("nothing can press the clock"), "{clock}");
    let model = line(&lines, "speech model de");
    assert!(model.starts_with("fail") && model.contains("cannot hear"), "{model}");
    assert!(model.contains("hector") && model.contains("vosk-model-small-de-0.15"), "{model}");
    assert!(lines.last().unwrap().contains("fail"));
}

#[test]
fn the_korean_model_installs_from_its_archive_and_its_missing_words_are_said() {
    let korean = korean_model();
    let dir = scratch("models-install");
    // Packed as a user downloads one: a zip with the model's own folder inside.
    let packed = dir.join("pack/vosk-model-small-ko-0.22");
    std::fs::create_dir_all(dir.join("pack")).unwrap();
    std::os::unix::fs::symlink(&korean, &packed).unwrap();
    let archive = dir.join("vosk-model-small-ko-0.22.zip");
    let zipped = Command::new("zip")
        .args(["-q", "-0", "-r"])
        .arg(&archive)
        .arg("vosk-model-small-ko-0.22")
        .current_dir(dir.join("pack"))
        .status()
        .expect("zip (scripts/setup installs it)");
    assert!(zipped.success());
    let target = dir.join("models/vosk-de");
    let config = write_config(&dir, &format!("[speech.models]\nde = \"{}\"\n", target.display()));
    let out = Command::new(station_bin())
        .args(["models", "install", "--lang", "de", "--config"])
        .arg(&config)
        .arg(&archive)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(target.join("am").is_dir() && target.join("graph").is_dir(), "placed where the config looks");
    assert!(
        stdout.contains("cannot hear") && stdout.contains("felix") && stdout.contains("hector"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("installed: {}", target.display())), "{stdout}");
}

/// Issue 34 §9, §12: the advice is about what the arbiter has in front of
/// him. A config file that is not there is said to be missing; a port that is
/// not there is told with the serial ports that are (which `station devices`
/// lists too); a wrong audio device is a line of its own naming the outputs
/// there are; the default buttons of a board that is not sensed are not his
/// mistake; an unknown voice language is named on its own key's line.
#[test]
fn the_advice_is_about_what_the_arbiter_has_in_front_of_him() {
    let dir = scratch("doctor-advice");
    let missing = doctor(&dir.join("nowhere.toml"), None);
    assert_eq!(missing.status.code(), Some(1));
    let said = lines(&missing);
    let config_line = line(&said, "config");
    assert!(config_line.starts_with("fail") && config_line.contains("the file is missing"), "{config_line}");
    assert!(!config_line.contains("key"), "{config_line}");

    let config = write_config(
        &dir,
        "[boards.blind]\ndriver = \"none\"\n\n\
         [boards.mirror]\ndriver = \"pegboard\"\nport = \"/dev/ttyUSB77\"\n\n\
         [audio.private]\ndevice = \"No Such Headset\"\n",
    );
    let out = doctor(&config, Some(&dir.join("journal")));
    let said = lines(&out);
    let port = line(&said, "board mirror");
    assert!(port.starts_with("fail") && port.contains("/dev/ttyUSB77 is not there"), "{port}");
    assert!(!port.contains("station devices"), "{port}");
    assert!(port.contains("no serial port is plugged in") || port.contains("plugged in now: "), "{port}");
    let audio = line(&said, "audio private");
    assert!(audio.contains("there is no audio output named \"No Such Headset\""), "{audio}");
    assert!(audio.contains("set [audio.private] device to one of the outputs there are: "), "{audio}");
    assert!(
        !audio.contains("pack voice") && !audio.contains("speech-dispatcher"),
        "one thing per line: {audio}"
    );
    let buttons = line(&said, "buttons");
    assert!(buttons.starts_with("ok") && !buttons.contains("not configured"), "{buttons}");

    // `station devices` lists the serial ports the advice speaks of.
    let devices = Command::new(station_bin()).arg("devices").output().unwrap();
    let devices = String::from_utf8_lossy(&devices.stdout);
    assert!(devices.starts_with("serial ports (a board's `port`):\n"), "{devices}");

    let config = write_config(&dir, "[voice]\n# his language\nlanguage = \"tlh\"\n");
    let out = doctor(&config, None);
    let said = lines(&out);
    let config_line = line(&said, "config");
    assert!(config_line.contains("line 3, key `voice.language`"), "{config_line}");
    assert!(config_line.contains("`tlh` is not a language the station speaks"), "{config_line}");
}
