//! Recording a voice pack word by word with a microphone
//! (`station voices record --lang pl`): the CLI prompts, [`Recorder::capture`]
//! records, [`Recorder::process`] trims and normalises, [`Recorder::play`]
//! plays back, [`Recorder::keep`] stores the clip in the pack.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use station_voices::Phrasebook;

use super::error::AudioError;
use super::output::{Output, Signal};
use super::pack::{Manifest, ManifestWord, pack_dir};
use super::pcm::{Clip, LoudnessSettings, TrimSettings, downmix, duration_of, peak, prepare_clip, resample};
use super::wav::write_wav;
use station_voices::voice_pack::{PackWord, pack_words};

/// Shortest take accepted after trimming: anything shorter is a click or a cough.
pub const MIN_WORD: Duration = Duration::from_millis(120);

/// What is wrong with a take, so the CLI can ask for another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakeProblem {
    /// Nothing above the silence threshold.
    Silent,
    /// Shorter than [`MIN_WORD`] after trimming.
    TooShort(Duration),
    /// The raw take hit full scale: distorted, record further from the mic.
    Clipped,
}

impl std::fmt::Display for TakeProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TakeProblem::Silent => f.write_str("nothing heard"),
            TakeProblem::TooShort(d) => write!(f, "too short ({} ms)", d.as_millis()),
            TakeProblem::Clipped => f.write_str("too loud (clipped)"),
        }
    }
}

/// Trims, normalises and resamples a raw take to the pack's rate.
///
/// # Errors
/// The [`TakeProblem`] that makes the take unusable.
pub fn process_take(
    raw: &Clip,
    pack_rate: u32,
    trim: &TrimSettings,
    loudness: &LoudnessSettings,
) -> Result<Clip, TakeProblem> {
    if peak(&raw.samples) >= 0.999 {
        return Err(TakeProblem::Clipped);
    }
    let prepared = prepare_clip(raw, trim, loudness);
    if prepared.samples.is_empty() {
        return Err(TakeProblem::Silent);
    }
    if prepared.duration() < MIN_WORD {
        return Err(TakeProblem::TooShort(prepared.duration()));
    }
    Ok(Clip::new(pack_rate, resample(&prepared.samples, prepared.rate, pack_rate)))
}

/// A pack being recorded: resumes an existing manifest.
#[derive(Debug)]
pub struct Recorder {
    dir: PathBuf,
    manifest: Manifest,
    words: Vec<PackWord>,
    /// Silence trimming for takes.
    pub trim: TrimSettings,
    /// Loudness for takes.
    pub loudness: LoudnessSettings,
}

impl Recorder {
    /// Opens (or starts) the pack `<packs_dir>/<language>/` for recording
    /// `book`'s words by `speaker`.
    ///
    /// # Errors
    /// [`AudioError::Io`] if the folder cannot be created.
    pub fn new(
        language: &str,
        book: &Phrasebook,
        packs_dir: &Path,
        speaker: &str,
    ) -> Result<Recorder, AudioError> {
        let dir = pack_dir(packs_dir, language);
        std::fs::create_dir_all(&dir).map_err(|e| AudioError::io(&dir, e))?;
        let manifest = Manifest::load(&dir)
            .unwrap_or_else(|_| Manifest::new(language, format!("recorded by {speaker}"), 22_050));
        Ok(Recorder {
            dir,
            manifest,
            words: pack_words(book),
            trim: TrimSettings::default(),
            loudness: LoudnessSettings::default(),
        })
    }

    /// Every word the pack should hold.
    pub fn words(&self) -> &[PackWord] {
        &self.words
    }

    /// Words not recorded yet.
    pub fn missing(&self) -> impl Iterator<Item = &PackWord> {
        self.words.iter().filter(|w| !self.manifest.words.contains_key(&w.key))
    }

    /// Trims, normalises and resamples a raw take.
    ///
    /// # Errors
    /// The [`TakeProblem`] that makes the take unusable.
    pub fn process(&self, raw: &Clip) -> Result<Clip, TakeProblem> {
        process_take(raw, self.manifest.sample_rate, &self.trim, &self.loudness)
    }

    /// Records from the default (or named) input for up to `max`, or until
    /// `stop` is set (the CLI sets it on Enter).
    ///
    /// # Errors
    /// [`AudioError::NoInputDevice`] or [`AudioError::Recording`].
    pub fn capture(&self, input: Option<&str>, max: Duration, stop: &AtomicBool) -> Result<Clip, AudioError> {
        capture(input, max, stop)
    }

    /// Plays a clip back on `device` and waits for its end (bounded).
    ///
    /// # Errors
    /// [`AudioError::Device`] if the device cannot be opened.
    pub fn play(&self, clip: &Clip, device: Option<&str>) -> Result<(), AudioError> {
        let output = Output::open(device, true)?;
        let samples = clip.samples.iter().map(|&s| f32::from(s) / 32768.0).collect();
        let signals = output.play(samples, clip.rate, Arc::new(AtomicBool::new(false)));
        let until = Instant::now() + clip.duration() + Duration::from_secs(2);
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            if let Ok(Signal::Done { .. }) = signals.recv_timeout(left) {
                break;
            }
        }
        Ok(())
    }

    /// Stores a processed clip for `word` and saves the manifest, so an
    /// interrupted session keeps what was recorded.
    ///
    /// # Errors
    /// [`AudioError::Io`] or [`AudioError::Wav`].
    pub fn keep(&mut self, word: &PackWord, clip: &Clip) -> Result<(), AudioError> {
        let file = format!("{}.wav", word.key);
        write_wav(&self.dir.join(&file), clip)?;
        self.manifest.words.insert(word.key.clone(), ManifestWord { text: word.text.clone(), file });
        self.manifest.save(&self.dir)
    }
}

/// Records mono 16-bit audio from an input device.
///
/// # Errors
/// [`AudioError::NoInputDevice`] or [`AudioError::Recording`].
pub fn capture(input: Option<&str>, max: Duration, stop: &AtomicBool) -> Result<Clip, AudioError> {
    let host = cpal::default_host();
    let device = match input {
        None | Some("default") => host.default_input_device().ok_or(AudioError::NoInputDevice)?,
        Some(name) => host
            .input_devices()
            .map_err(|e| AudioError::Recording(e.to_string()))?
            .find(|d| d.name().is_ok_and(|n| n.contains(name)))
            .ok_or(AudioError::NoInputDevice)?,
    };
    let supported = device.default_input_config().map_err(|e| AudioError::Recording(e.to_string()))?;
    let format = supported.sample_format();
    let config: cpal::StreamConfig = supported.into();
    let channels = config.channels.max(1);
    let rate = config.sample_rate.0;
    let buffer: Arc<Mutex<Vec<i16>>> = Arc::new(Mutex::new(Vec::new()));
    let limit =
        (duration_of(1, rate).as_secs_f64().recip() * max.as_secs_f64()) as usize * usize::from(channels);
    let err = |e: cpal::StreamError| tracing::warn!(error = %e, "recording stream error");
    let sink = buffer.clone();
    let push = move |data: &mut dyn Iterator<Item = i16>| {
        let mut buf = sink.lock().unwrap_or_else(PoisonError::into_inner);
        let room = limit.saturating_sub(buf.len());
        buf.extend(data.take(room));
    };
    let stream = match format {
        cpal::SampleFormat::I16 => device.build_input_stream::<i16, _, _>(
            &config,
            move |d, _| push(&mut d.iter().copied()),
            err,
            None,
        ),
        cpal::SampleFormat::F32 => device.build_input_stream::<f32, _, _>(
            &config,
            move |d, _| push(&mut d.iter().map(|&s| (s.clamp(-1.0, 1.0) * 32767.0) as i16)),
            err,
            None,
        ),
        cpal::SampleFormat::I32 => device.build_input_stream::<i32, _, _>(
            &config,
            move |d, _| push(&mut d.iter().map(|&s| (s >> 16) as i16)),
            err,
            None,
        ),
        other => return Err(AudioError::Recording(format!("unsupported input format {other:?}"))),
    }
    .map_err(|e| AudioError::Recording(e.to_string()))?;
    stream.play().map_err(|e| AudioError::Recording(e.to_string()))?;
    let until = Instant::now() + max;
    while Instant::now() < until && !stop.load(Ordering::Relaxed) {
        if buffer.lock().unwrap_or_else(PoisonError::into_inner).len() >= limit {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(stream);
    let interleaved = std::mem::take(&mut *buffer.lock().unwrap_or_else(PoisonError::into_inner));
    Ok(Clip::new(rate, downmix(&interleaved, channels)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speechlike(rate: u32, ms: u64) -> Vec<i16> {
        let n = (u64::from(rate) * ms / 1000) as usize;
        (0..n).map(|i| ((i as f32 * 0.07).sin() * 8000.0) as i16).collect()
    }

    #[test]
    fn take_is_trimmed_normalised_and_resampled() {
        let mut raw = vec![0i16; 4800];
        raw.extend(speechlike(48_000, 400));
        raw.extend(vec![0i16; 9600]);
        let clip = process_take(
            &Clip::new(48_000, raw),
            22_050,
            &TrimSettings::default(),
            &LoudnessSettings::default(),
        );
        let Ok(clip) = clip else {
            panic!("rejected: {clip:?}");
        };
        assert_eq!(clip.rate, 22_050);
        let ms = clip.duration().as_millis();
        assert!((400..=450).contains(&ms), "{ms}");
        assert!((clip.rms() - 0.1).abs() < 0.02);
    }

    #[test]
    fn bad_takes_are_named() {
        let t = TrimSettings::default();
        let l = LoudnessSettings::default();
        assert_eq!(
            process_take(&Clip::new(16_000, vec![0; 16_000]), 22_050, &t, &l),
            Err(TakeProblem::Silent)
        );
        let short = speechlike(16_000, 50);
        assert!(matches!(
            process_take(&Clip::new(16_000, short), 22_050, &t, &l),
            Err(TakeProblem::TooShort(_))
        ));
        assert_eq!(
            process_take(&Clip::new(16_000, vec![32767; 100]), 22_050, &t, &l),
            Err(TakeProblem::Clipped)
        );
    }
}
