//! `station voices build|record` and `station devices`: voice packs and audio devices.

use anyhow::{Context, Result, bail};
use station_audio::{Recorder, list_output_devices};
use station_voice_packs::{BuildOptions, build_pack};
use station_voices::Phrasebook;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn phrasebook(lang: &str) -> Result<&'static Phrasebook> {
    Phrasebook::builtin(lang).with_context(|| {
        format!("no phrasebook for `{lang}` ({} are built in)", crate::lang_arg::builtin_list())
    })
}

/// Renders a voice pack with espeak-ng.
pub fn build(lang: &str, out: &Path) -> Result<()> {
    let report = build_pack(lang, phrasebook(lang)?, out, &BuildOptions::default())?;
    println!(
        "voice pack {lang}: {} words, {} clips in {} ({:.1} s)",
        report.words,
        report.clips,
        report.dir.display(),
        report.elapsed.as_secs_f64()
    );
    for (word, why) in &report.failed {
        println!("  not rendered: {word}: {why}");
    }
    if !report.failed.is_empty() && report.clips == 0 {
        bail!("no clip could be rendered");
    }
    Ok(())
}

/// Records a human voice pack word by word at the terminal.
pub fn record(lang: &str, out: &Path, input: Option<&str>, speaker: &str) -> Result<()> {
    let mut recorder = Recorder::new(lang, phrasebook(lang)?, out, speaker)?;
    let words: Vec<_> = recorder.missing().cloned().collect();
    println!("{} words to record for `{lang}` into {}", words.len(), out.display());
    println!("For each word: Enter starts, Enter stops; then [k]eep, [r]edo, [p]lay, [s]kip or [q]uit.");
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut ask = |prompt: &str| -> Option<String> {
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        lines.next().and_then(|l| l.ok())
    };
    'words: for word in &words {
        loop {
            ask(&format!("say «{}» — Enter to start ", word.text)).context("input ended")?;
            let stop = Arc::new(AtomicBool::new(false));
            let flag = Arc::clone(&stop);
            let input = input.map(str::to_owned);
            let take = std::thread::spawn(move || {
                station_audio::capture(input.as_deref(), Duration::from_secs(10), &flag)
            });
            ask("recording… Enter to stop ").context("input ended")?;
            stop.store(true, Ordering::Relaxed);
            let raw = take.join().map_err(|_| anyhow::anyhow!("the recording thread failed"))??;
            let clip = match recorder.process(&raw) {
                Ok(clip) => clip,
                Err(problem) => {
                    println!("  {problem}; again");
                    continue;
                }
            };
            loop {
                match ask("[k]eep [r]edo [p]lay [s]kip [q]uit: ").context("input ended")?.trim() {
                    "k" | "" => {
                        recorder.keep(word, &clip)?;
                        continue 'words;
                    }
                    "p" => recorder.play(&clip, None)?,
                    "r" => break,
                    "s" => continue 'words,
                    "q" => break 'words,
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// Lists the serial ports (for a board's `port`), audio output devices (for
/// `[audio.private] device`) and gamepads.
pub fn devices() -> Result<()> {
    println!("serial ports (a board's `port`):");
    let ports = crate::doctor::serial_ports();
    if ports.is_empty() {
        println!("  (none plugged in)");
    }
    for port in ports {
        println!("  {}", port.display());
    }
    println!("audio outputs:");
    match list_output_devices() {
        Ok(list) if list.is_empty() => println!("  (none)"),
        Ok(list) => {
            for d in list {
                println!("  {}{}", d.name, if d.is_default { "  (default)" } else { "" });
            }
        }
        Err(e) => println!("  unavailable: {e}"),
    }
    println!("gamepads:");
    match station_gamepad::list_gamepads() {
        Ok(list) if list.is_empty() => println!("  (none)"),
        Ok(list) => {
            for g in list {
                println!("  {g}");
            }
        }
        Err(e) => println!("  unavailable: {e}"),
    }
    Ok(())
}
