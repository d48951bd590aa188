//! `station understand` and `station listen`: spoken moves on text and on
//! audio files; `station voices phonemes`: how a phrasebook's listening
//! words sound.

use anyhow::{Context, Result};
use station_audio::speech::recognise_wav_with_model_dir;
use station_audio::{EspeakPronouncer, phoneme_table};
use station_voices::understand::{Understanding, legal_move, words_to_pronounce};
use station_voices::{Phrasebook, position_from_fen};
use std::path::Path;
use std::sync::Arc;

/// The understanding of `lang`, with espeak-ng for typed words outside its
/// phrasebook (compared by spelling when espeak-ng is missing, said once).
fn understanding(lang: &str) -> Result<Understanding> {
    Ok(Understanding::language(lang)?.with_pronouncer(Arc::new(EspeakPronouncer::default())))
}

/// Prints one line: `move UCI SAN`, `ask UCI…`, `command NAME`, or `reject
/// REASON`; with the board's move (`expect`), `slip UCI SAN` when the words
/// clearly name another legal move.
pub fn understand(lang: &str, fen: Option<&str>, expect: Option<&str>, text: &str) -> Result<String> {
    let understanding = understanding(lang)?;
    let pos = position_from_fen(fen.unwrap_or("startpos"))?;
    let board = expect.map(|m| legal_move(&pos, m).with_context(|| format!("--expect {m}"))).transpose()?;
    Ok(understanding.understand_expecting(&pos, text, None, board).line())
}

/// Runs the recognition path on a WAV file (any rate; resampled like the
/// microphone) with the grammar of the position, and prints what was heard,
/// then what was understood.
pub fn listen(model: &Path, wav: &Path, lang: &str, fen: Option<&str>) -> Result<Vec<String>> {
    let understanding = understanding(lang)?;
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

/// `station voices phonemes`: the `[listening.phonemes]` table of a
/// phrasebook (built in, or a file), from espeak-ng, to paste into it.
pub fn phonemes(lang: &str, file: Option<&Path>) -> Result<String> {
    let loaded;
    let book = match file {
        Some(path) => {
            loaded = Phrasebook::load(path)?;
            &loaded
        }
        None => Phrasebook::builtin(lang).with_context(|| {
            format!(
                "no phrasebook for `{lang}` ({} are built in; or --phrasebook FILE)",
                crate::lang_arg::builtin_list()
            )
        })?,
    };
    let table = phoneme_table(book.code(), &words_to_pronounce(book))?;
    Ok(format!(
        "# How the listening words sound (issue 33): espeak-ng's phonemes as\n\
         # `espeak-ng -q -x --sep=_` writes them, made by\n\
         # `station voices phonemes --lang {}`. The repair of misheard words\n\
         # compares sounds by them; a word missing here is compared by its spelling.\n{table}",
        book.code()
    ))
}
