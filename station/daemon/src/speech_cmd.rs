//! `station understand` and `station listen`: spoken moves on text and on audio files.

use anyhow::{Context, Result};
use station_drivers::speech::recognise_wav_with_model_dir;
use station_voices::position_from_fen;
use station_voices::understand::{Understanding, understand_line};
use std::path::Path;

/// Prints one line: `move UCI SAN`, `ask UCI…`, `command NAME`, or `reject REASON`.
pub fn understand(lang: &str, fen: Option<&str>, text: &str) -> Result<String> {
    Ok(understand_line(lang, fen.unwrap_or("startpos"), text)?)
}

/// Runs the recognition path on a WAV file (any rate; resampled like the
/// microphone) with the grammar of the position, and prints what was heard,
/// then what was understood.
pub fn listen(model: &Path, wav: &Path, lang: &str, fen: Option<&str>) -> Result<Vec<String>> {
    let understanding = Understanding::language(lang)?;
    let pos = position_from_fen(fen.unwrap_or("startpos"))?;
    let grammar = understanding.grammar(&pos);
    let heard = recognise_wav_with_model_dir(model, lang, grammar.phrases(), wav)
        .with_context(|| format!("cannot recognise {}", wav.display()))?;
    let t = &heard.transcript;
    let understood = understanding.understand(&pos, &t.text, Some(t.confidence)).line();
    Ok(vec![
        format!(
            "heard \"{}\" confidence {:.2} ({:.1} s of audio, {} ms after the end)",
            t.text,
            t.confidence,
            heard.audio_seconds,
            heard.latency_after_end.as_millis()
        ),
        understood,
    ])
}
