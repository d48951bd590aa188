//! What the ALSA tests share: ALSA reads its configuration once per process
//! (from `ALSA_CONFIG_PATH`), so each scenario runs in a child process (the
//! test binary re-run with the test itself selected; there the folder it was
//! handed tells it to play its scenario) with its own configuration.

#![allow(dead_code)]

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `dir/asound.conf`, whose default device hands what it plays (as
/// S16_LE, 22050 Hz, mono through a `plug`) to the raw file `raw`, as a
/// sound card would; returns the configuration's path.
pub fn file_output_config(dir: &Path, raw: &Path) -> io::Result<PathBuf> {
    let config = dir.join("asound.conf");
    std::fs::write(
        &config,
        format!(
            "pcm.!default {{ type plug; slave {{ pcm \"capture\"; format S16_LE; rate 22050; channels 1 }} }}\n\
             pcm.capture {{ type file; slave.pcm {{ type null }}; file \"{}\"; format \"raw\" }}\n",
            raw.display()
        ),
    )?;
    Ok(config)
}

/// Runs the test `name` of this binary alone in a child process with the
/// ALSA configuration `config` and `env` set; whether it passed (its one
/// test), and its output (stdout, then stderr).
pub fn run_child(name: &str, config: &Path, env: (&str, &Path)) -> io::Result<(bool, String)> {
    let out = Command::new(std::env::current_exe()?)
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env("ALSA_CONFIG_PATH", config)
        .env(env.0, env.1)
        .output()?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    Ok((out.status.success() && text.contains("1 passed"), text))
}

/// The folder the test handed its child process in the variable `env`: set
/// in the child, which plays the test's scenario; none in the test itself.
pub fn child_dir(env: &str) -> Option<PathBuf> {
    std::env::var_os(env).map(PathBuf::from)
}
