//! How words sound, from espeak-ng (issue 33): the phonemes the repair of
//! misheard moves compares (`espeak-ng -q -x --sep=_`).
//!
//! Two uses: `station voices phonemes` writes a phrasebook's
//! `[listening.phonemes]` table once (so no utterance waits for espeak-ng),
//! and [`EspeakPronouncer`] answers, at most once per word, for words outside
//! the phrasebooks (typed words, a loaded phrasebook without the table). A
//! missing espeak-ng is said once; the words are then compared by their
//! spelling, as `station_voices::understand` documents.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use station_voices::understand::Pronouncer;

use super::espeak_voice;

/// Why espeak-ng gave no phonemes.
#[derive(Debug, thiserror::Error)]
pub enum PhonemeError {
    /// The program could not be run.
    #[error("cannot run {program}: {source} (espeak-ng is installed by scripts/setup)")]
    Missing {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// It ran and failed, or said nothing, or hung.
    #[error("espeak-ng gave no phonemes for {word:?}: {why}")]
    Failed {
        /// The word.
        word: String,
        /// What happened.
        why: String,
    },
}

/// espeak-ng's phonemes of `word` in `lang` (its voice for the language),
/// one line as `-x --sep=_` writes it.
///
/// # Errors
/// [`PhonemeError::Missing`] without espeak-ng, [`PhonemeError::Failed`] when
/// it fails, says nothing or takes longer than 10 s.
pub fn espeak_phonemes(program: &PathBuf, lang: &str, word: &str) -> Result<String, PhonemeError> {
    let mut child = Command::new(program)
        .args(["-q", "-x", "--sep=_", "-v", espeak_voice(lang)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|source| PhonemeError::Missing { program: program.display().to_string(), source })?;
    if let Some(mut stdin) = child.stdin.take() {
        // The word on stdin, so it is never taken for an option.
        let _ = stdin.write_all(word.as_bytes());
    }
    let failed = |why: String| PhonemeError::Failed { word: word.to_owned(), why };
    let Some(mut stdout) = child.stdout.take() else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(failed("no output pipe".to_owned()));
    };
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let mut out = String::new();
        let _ = tx.send(stdout.read_to_string(&mut out).map(|_| out));
    });
    let out = match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(failed(e.to_string()));
        }
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(failed("no answer within 10 s".to_owned()));
        }
    };
    let status = child.wait().map_err(|e| failed(e.to_string()))?;
    let phonemes = out.split_whitespace().collect::<Vec<_>>().join(" ");
    if !status.success() || phonemes.is_empty() {
        return Err(failed(format!("{status}, {} bytes", out.len())));
    }
    Ok(phonemes)
}

/// A phrasebook's `[listening.phonemes]` table for `words` (lower case, one
/// word each), as TOML lines under its header.
///
/// # Errors
/// As [`espeak_phonemes`], for the first word that fails.
pub fn phoneme_table(lang: &str, words: &[String]) -> Result<String, PhonemeError> {
    let program = PathBuf::from("espeak-ng");
    let mut out = String::from("[listening.phonemes]\n");
    for word in words {
        let phonemes = espeak_phonemes(&program, lang, word)?;
        out.push_str(&format!("{} = {}\n", toml_string(word), toml_string(&phonemes)));
    }
    Ok(out)
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// espeak-ng as the station's [`Pronouncer`]: each word asked once and
/// kept; a missing espeak-ng said once (the words are then compared by
/// their spelling).
#[derive(Debug)]
pub struct EspeakPronouncer {
    program: PathBuf,
    known: Mutex<HashMap<(String, String), Option<String>>>,
    warned: AtomicBool,
}

impl Default for EspeakPronouncer {
    fn default() -> Self {
        EspeakPronouncer {
            program: PathBuf::from("espeak-ng"),
            known: Mutex::new(HashMap::new()),
            warned: AtomicBool::new(false),
        }
    }
}

impl Pronouncer for EspeakPronouncer {
    fn phonemes(&self, lang: &str, word: &str) -> Option<String> {
        let key = (lang.to_owned(), word.to_owned());
        if let Some(known) = self.known.lock().ok()?.get(&key) {
            return known.clone();
        }
        let phonemes = match espeak_phonemes(&self.program, lang, word) {
            Ok(p) => Some(p),
            Err(e @ PhonemeError::Missing { .. }) => {
                if !self.warned.swap(true, Ordering::Relaxed) {
                    tracing::warn!("{e}: words outside the phrasebook are compared by their spelling");
                }
                None
            }
            Err(e) => {
                tracing::debug!("{e}");
                None
            }
        };
        if let Ok(mut known) = self.known.lock() {
            known.insert(key, phonemes.clone());
        }
        phonemes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real espeak-ng, as the phrasebooks' tables were made.
    #[test]
    fn espeak_ng_says_how_the_listening_words_sound() {
        let program = PathBuf::from("espeak-ng");
        assert_eq!(espeak_phonemes(&program, "en", "queen").unwrap(), "k_w_'i:_n");
        assert_eq!(espeak_phonemes(&program, "pl", "dawid").unwrap(), "d_'a_v_i_t");
        let table = phoneme_table("de", &["eva".to_owned(), "acht".to_owned()]).unwrap();
        assert_eq!(table, "[listening.phonemes]\n\"eva\" = \"_!_'e:_v_A:\"\n\"acht\" = \"_!_'a_x_t\"\n");
        let p = EspeakPronouncer::default();
        assert_eq!(p.phonemes("en", "green").as_deref(), Some("g_r_'i:_n"));
        assert_eq!(p.phonemes("en", "green").as_deref(), Some("g_r_'i:_n"));
    }

    #[test]
    fn a_missing_espeak_ng_is_a_clear_error_and_spelling_after() {
        let missing = PathBuf::from("/nonexistent/espeak-ng");
        let e = espeak_phonemes(&missing, "en", "queen").unwrap_err();
        assert!(e.to_string().contains("cannot run /nonexistent/espeak-ng"), "{e}");
        let p = EspeakPronouncer { program: missing, ..EspeakPronouncer::default() };
        assert_eq!(p.phonemes("en", "queen"), None);
        assert!(p.warned.load(Ordering::Relaxed));
    }
}
