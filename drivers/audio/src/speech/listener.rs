//! Audio → 16 kHz mono → Vosk with a grammar → transcript with word
//! confidences. Files and the microphone go through the same [`Listener`].

use std::path::Path;
use std::time::{Duration, Instant};

use super::error::SpeechError;
use super::pcm::{InputFormat, Resampler, Samples, TARGET_RATE};
use super::wav::read_wav;

/// What the recogniser heard.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Transcript {
    /// The words, space-separated, lower-case ("" when nothing was heard).
    pub text: String,
    /// Each word with its confidence (0–1).
    pub words: Vec<(String, f32)>,
    /// The lowest word confidence (the weakest word decides whether a move
    /// is confirmed); 0 when nothing was heard.
    pub confidence: f32,
    /// The recogniser's other readings, best first, the first being `text`
    /// (issue 33): each with its share of the likelihood of all it gave
    /// (0–1). Empty unless alternatives were asked for
    /// ([`Listener::set_alternatives`]) and the model gave more than one.
    pub alternatives: Vec<(String, f32)>,
}

impl Transcript {
    /// Whether nothing was heard.
    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// A recogniser for one grammar, fed samples of one input format.
pub struct Listener {
    recognizer: vosk::Recognizer,
    resampler: Resampler,
    resampled: Vec<i16>,
    phrases: usize,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("format", &self.resampler.format())
            .field("phrases", &self.phrases)
            .finish()
    }
}

/// Phrases Vosk's grammar JSON cannot carry (the crate quotes them without
/// escaping) are left out rather than breaking the whole grammar.
fn usable(phrase: &str) -> bool {
    !phrase.trim().is_empty() && !phrase.contains(['"', '\\']) && !phrase.chars().any(char::is_control)
}

impl Listener {
    /// A listener for `model` restricted to `grammar` (phrases as
    /// [`station_voices::understand::Understanding::grammar`] gives them),
    /// for samples in `input` format.
    ///
    /// # Errors
    /// [`SpeechError::Format`] for an unusable format,
    /// [`SpeechError::Recognizer`] if libvosk refuses the grammar.
    pub fn new(
        model: &vosk::Model,
        grammar: &[impl AsRef<str>],
        input: InputFormat,
    ) -> Result<Listener, SpeechError> {
        let resampler = Resampler::new(input)?;
        let phrases: Vec<&str> = grammar.iter().map(AsRef::as_ref).filter(|p| usable(p)).collect();
        if phrases.len() < grammar.len() {
            tracing::warn!(dropped = grammar.len() - phrases.len(), "grammar phrases with quotes left out");
        }
        if phrases.is_empty() {
            return Err(SpeechError::Recognizer { phrases: 0, problem: "the grammar is empty".to_owned() });
        }
        let mut recognizer = vosk::Recognizer::new_with_grammar(model, TARGET_RATE as f32, &phrases)
            .ok_or_else(|| SpeechError::Recognizer {
                phrases: phrases.len(),
                problem: "libvosk returned no recogniser".to_owned(),
            })?;
        recognizer.set_words(true);
        recognizer.set_max_alternatives(0);
        Ok(Listener { recognizer, resampler, resampled: Vec::new(), phrases: phrases.len() })
    }

    /// Asks the recogniser for up to `n` readings of each utterance (Vosk's
    /// n-best; 0, the default, for one reading with word confidences). With
    /// alternatives each word's confidence is the likelihood share of the
    /// readings that have it.
    pub fn set_alternatives(&mut self, n: u16) {
        self.recognizer.set_max_alternatives(n);
    }

    /// Feeds samples (any chunk size).
    ///
    /// # Errors
    /// [`SpeechError::Decode`] if libvosk fails on them.
    pub fn feed(&mut self, samples: Samples<'_>) -> Result<(), SpeechError> {
        self.resampled.clear();
        self.resampler.process(samples, &mut self.resampled);
        self.accept()
    }

    /// Feeds samples already at 16 kHz mono (the capture path after its
    /// detector), skipping the resampler.
    ///
    /// # Errors
    /// [`SpeechError::Decode`] if libvosk fails on them.
    pub fn feed_16k(&mut self, samples: &[i16]) -> Result<(), SpeechError> {
        self.recognizer.accept_waveform(samples).map(|_| ()).map_err(|e| SpeechError::Decode(e.to_string()))
    }

    fn accept(&mut self) -> Result<(), SpeechError> {
        if self.resampled.is_empty() {
            return Ok(());
        }
        let samples = std::mem::take(&mut self.resampled);
        let result = self.feed_16k(&samples);
        self.resampled = samples;
        result
    }

    /// The words recognised so far in this utterance (Vosk's partial
    /// result; no confidences), lower case.
    pub fn partial(&mut self) -> String {
        self.recognizer.partial_result().partial.trim().to_owned()
    }

    /// Ends the utterance: the final transcript. The listener is ready for
    /// the next utterance with the same grammar.
    ///
    /// # Errors
    /// [`SpeechError::Decode`] if libvosk fails on the last samples.
    pub fn finish(&mut self) -> Result<Transcript, SpeechError> {
        self.resampled.clear();
        self.resampler.finish(&mut self.resampled);
        self.accept()?;
        let transcript = match self.recognizer.final_result() {
            vosk::CompleteResult::Single(result) => {
                let words: Vec<(String, f32)> =
                    result.result.iter().map(|w| (w.word.to_owned(), w.conf)).collect();
                Transcript {
                    text: result.text.trim().to_owned(),
                    confidence: weakest(&words),
                    words,
                    alternatives: Vec::new(),
                }
            }
            vosk::CompleteResult::Multiple(result) => {
                let readings: Vec<(String, f32)> =
                    result.alternatives.iter().map(|a| (a.text.trim().to_owned(), a.confidence)).collect();
                from_alternatives(&readings)
            }
        };
        self.recognizer.reset();
        Ok(transcript)
    }
}

/// The lowest word confidence; 0 for no words.
fn weakest(words: &[(String, f32)]) -> f32 {
    if words.is_empty() { 0.0 } else { words.iter().map(|(_, c)| *c).fold(f32::INFINITY, f32::min) }
}

/// A transcript from Vosk's readings (text, log-likelihood score), best
/// first: each reading's share of the likelihood, and each word of the best
/// its confidence as the share of the readings that have it.
fn from_alternatives(readings: &[(String, f32)]) -> Transcript {
    let Some(best) = readings.first() else { return Transcript::default() };
    let top = readings.iter().map(|(_, s)| *s).fold(f32::NEG_INFINITY, f32::max);
    let weights: Vec<f32> = readings.iter().map(|(_, s)| (s - top).exp()).collect();
    let total: f32 = weights.iter().sum();
    let alternatives: Vec<(String, f32)> =
        readings.iter().zip(&weights).map(|((text, _), w)| (text.clone(), w / total)).collect();
    let words: Vec<(String, f32)> = best
        .0
        .split_whitespace()
        .map(|word| {
            let share: f32 = alternatives
                .iter()
                .filter(|(text, _)| text.split_whitespace().any(|w| w == word))
                .map(|(_, p)| *p)
                .sum();
            (word.to_owned(), share.min(1.0))
        })
        .collect();
    let alternatives = if alternatives.len() > 1 { alternatives } else { Vec::new() };
    Transcript { text: best.0.clone(), confidence: weakest(&words), words, alternatives }
}

/// A recognised file with how long recognition took after the last sample.
#[derive(Debug, Clone, PartialEq)]
pub struct WavRecognition {
    /// What was heard.
    pub transcript: Transcript,
    /// Seconds of audio.
    pub audio_seconds: f32,
    /// Time from the end of the audio (last sample fed) to the transcript:
    /// the latency a player feels after he stops speaking.
    pub latency_after_end: Duration,
    /// Time to feed all samples (resampling and decoding while "speaking").
    pub feeding: Duration,
}

/// `station listen --wav FILE`: recognises a WAV file with `model` and
/// `grammar`, feeding it in 100 ms chunks as a microphone would.
///
/// # Errors
/// As [`read_wav`], [`Listener::new`], [`Listener::feed`].
pub fn recognise_wav(
    model: &vosk::Model,
    grammar: &[impl AsRef<str>],
    path: &Path,
) -> Result<WavRecognition, SpeechError> {
    let audio = read_wav(path)?;
    let format = InputFormat { rate: audio.rate, channels: audio.channels };
    let mut listener = Listener::new(model, grammar, format)?;
    let chunk = (audio.rate as usize / 10).max(1) * usize::from(audio.channels.max(1));
    let started = Instant::now();
    match audio.as_samples() {
        Samples::I16(s) => {
            for part in s.chunks(chunk) {
                listener.feed(Samples::I16(part))?;
            }
        }
        Samples::F32(s) => {
            for part in s.chunks(chunk) {
                listener.feed(Samples::F32(part))?;
            }
        }
    }
    let feeding = started.elapsed();
    let ended = Instant::now();
    let transcript = listener.finish()?;
    Ok(WavRecognition {
        transcript,
        audio_seconds: audio.seconds(),
        latency_after_end: ended.elapsed(),
        feeding,
    })
}

/// `station listen --model DIR --wav FILE --lang L`: loads the model (with
/// the clear missing-model message of [`super::model`]) and recognises.
///
/// # Errors
/// [`SpeechError::Model`], or as [`recognise_wav`].
pub fn recognise_wav_with_model_dir(
    model_dir: &Path,
    lang: &str,
    grammar: &[impl AsRef<str>],
    wav: &Path,
) -> Result<WavRecognition, SpeechError> {
    let model = super::model::load_model(model_dir, lang)?;
    recognise_wav(&model, grammar, wav)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_become_shares_and_word_confidences() {
        let t =
            from_alternatives(&[("springer felix drei".into(), 60.0), ("springer felix zwei".into(), 59.0)]);
        assert_eq!(t.text, "springer felix drei");
        let share = 1.0 / (1.0 + (-1.0f32).exp());
        assert!((t.alternatives[0].1 - share).abs() < 1e-4, "{t:?}");
        assert_eq!(t.words[0], ("springer".to_owned(), 1.0));
        assert!((t.confidence - share).abs() < 1e-4, "the weakest word: drei");
        // One reading: no alternatives, every word sure.
        let one = from_alternatives(&[("eva vier".into(), 50.0)]);
        assert!(one.alternatives.is_empty());
        assert_eq!(one.confidence, 1.0);
        assert_eq!(from_alternatives(&[]), Transcript::default());
    }
}
