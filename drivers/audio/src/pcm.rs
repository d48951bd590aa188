//! Pure signal work on mono 16-bit speech: measuring, trimming, normalising,
//! resampling and joining clips. No I/O, so all of it is unit-tested.

use std::time::Duration;

/// Mono 16-bit audio at a sample rate: one word's clip or a whole utterance.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Clip {
    /// Samples per second.
    pub rate: u32,
    /// Mono samples.
    pub samples: Vec<i16>,
}

impl Clip {
    /// A clip from samples at `rate`.
    pub fn new(rate: u32, samples: Vec<i16>) -> Self {
        Self { rate, samples }
    }

    /// How long it plays.
    pub fn duration(&self) -> Duration {
        duration_of(self.samples.len(), self.rate)
    }

    /// Root-mean-square level, 0.0 (silence) to 1.0 (full scale).
    pub fn rms(&self) -> f32 {
        rms(&self.samples)
    }
}

/// How long `len` samples last at `rate`.
pub fn duration_of(len: usize, rate: u32) -> Duration {
    if rate == 0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(len as f64 / f64::from(rate))
}

/// Number of samples in `duration` at `rate`.
pub fn samples_in(duration: Duration, rate: u32) -> usize {
    (duration.as_secs_f64() * f64::from(rate)).round() as usize
}

/// Root-mean-square level of samples, 0.0 to 1.0 of full scale.
pub fn rms(samples: &[i16]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    ((sum / samples.len() as f64).sqrt() / 32768.0) as f32
}

/// Largest absolute sample, 0.0 to 1.0 of full scale.
pub fn peak(samples: &[i16]) -> f32 {
    samples.iter().map(|&s| i32::from(s).unsigned_abs()).max().map_or(0.0, |p| p as f32 / 32768.0)
}

/// Settings for [`trim_silence`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrimSettings {
    /// A window counts as sound when its RMS exceeds this (fraction of full
    /// scale); 0.02 is about -34 dBFS, above room noise of a headset microphone.
    pub threshold: f32,
    /// Window length: long enough that a single click does not count as speech.
    pub window: Duration,
    /// Kept before the first and after the last loud window, so soft
    /// consonants ("f", "s") at the word edges survive.
    pub margin: Duration,
}

impl Default for TrimSettings {
    fn default() -> Self {
        Self { threshold: 0.02, window: Duration::from_millis(10), margin: Duration::from_millis(15) }
    }
}

/// The part of `samples` between the first and last window louder than the
/// threshold, widened by the margin; empty if nothing is loud.
pub fn trim_silence<'a>(samples: &'a [i16], rate: u32, settings: &TrimSettings) -> &'a [i16] {
    let window = samples_in(settings.window, rate).max(1);
    let loud = |chunk: &[i16]| rms(chunk) > settings.threshold;
    let chunks = samples.len().div_ceil(window);
    let first = (0..chunks).find(|&i| loud(&samples[i * window..((i + 1) * window).min(samples.len())]));
    let Some(first) = first else {
        return &samples[..0];
    };
    let last = (first..chunks)
        .rev()
        .find(|&i| loud(&samples[i * window..((i + 1) * window).min(samples.len())]))
        .unwrap_or(first);
    let margin = samples_in(settings.margin, rate);
    let start = (first * window).saturating_sub(margin);
    let end = ((last + 1) * window + margin).min(samples.len());
    &samples[start..end]
}

/// Settings for [`normalise`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoudnessSettings {
    /// Target RMS (fraction of full scale); 0.1 is -20 dBFS, loud enough for
    /// an earphone without clipping typical speech peaks.
    pub target_rms: f32,
    /// Peak ceiling: the gain is reduced so no sample exceeds it.
    pub max_peak: f32,
}

impl Default for LoudnessSettings {
    fn default() -> Self {
        Self { target_rms: 0.1, max_peak: 0.89 }
    }
}

/// Scales `samples` towards the target loudness without exceeding the peak
/// ceiling; returns the gain applied (1.0 for silence, which is left alone).
pub fn normalise(samples: &mut [i16], settings: &LoudnessSettings) -> f32 {
    let level = rms(samples);
    let top = peak(samples);
    if level <= 0.0 || top <= 0.0 {
        return 1.0;
    }
    let gain = (settings.target_rms / level).min(settings.max_peak / top);
    for s in samples.iter_mut() {
        *s = (f32::from(*s) * gain).round().clamp(-32768.0, 32767.0) as i16;
    }
    gain
}

/// Ramps the first and last `fade` in and out, so a trimmed clip does not
/// start or end with a click.
pub fn fade_edges(samples: &mut [i16], rate: u32, fade: Duration) {
    let n = samples_in(fade, rate).min(samples.len() / 2);
    if n == 0 {
        return;
    }
    let len = samples.len();
    for i in 0..n {
        let g = i as f32 / n as f32;
        samples[i] = (f32::from(samples[i]) * g) as i16;
        samples[len - 1 - i] = (f32::from(samples[len - 1 - i]) * g) as i16;
    }
}

/// Trims silence, fades the edges and normalises: what every pack clip goes
/// through, whether rendered or recorded.
pub fn prepare_clip(clip: &Clip, trim: &TrimSettings, loudness: &LoudnessSettings) -> Clip {
    let mut samples = trim_silence(&clip.samples, clip.rate, trim).to_vec();
    fade_edges(&mut samples, clip.rate, Duration::from_millis(5));
    normalise(&mut samples, loudness);
    Clip::new(clip.rate, samples)
}

/// Averages interleaved channels to mono.
pub fn downmix(interleaved: &[i16], channels: u16) -> Vec<i16> {
    let channels = usize::from(channels.max(1));
    interleaved
        .chunks(channels)
        .map(|frame| {
            let sum: i32 = frame.iter().map(|&s| i32::from(s)).sum();
            (sum / frame.len() as i32) as i16
        })
        .collect()
}

/// Linear-interpolation resampling; good enough for speech, which has
/// little energy near the Nyquist frequency of either rate.
pub fn resample(samples: &[i16], from: u32, to: u32) -> Vec<i16> {
    if from == to || from == 0 || to == 0 || samples.is_empty() {
        return samples.to_vec();
    }
    let out_len = (samples.len() as u64 * u64::from(to) / u64::from(from)) as usize;
    let step = f64::from(from) / f64::from(to);
    (0..out_len)
        .map(|i| {
            let pos = i as f64 * step;
            let idx = pos as usize;
            let frac = pos - idx as f64;
            let a = f64::from(samples[idx.min(samples.len() - 1)]);
            let b = f64::from(samples[(idx + 1).min(samples.len() - 1)]);
            (a + (b - a) * frac).round() as i16
        })
        .collect()
}

/// One piece of an utterance being assembled.
#[derive(Debug, Clone, Copy)]
pub enum Segment<'a> {
    /// A word's samples.
    Clip(&'a [i16]),
    /// Silence of this length.
    Gap(Duration),
}

/// Joins clips and gaps into one sample buffer at `rate`, scaled by `volume`.
pub fn assemble(segments: &[Segment<'_>], rate: u32, volume: f32) -> Vec<i16> {
    let len: usize = segments
        .iter()
        .map(|s| match s {
            Segment::Clip(c) => c.len(),
            Segment::Gap(d) => samples_in(*d, rate),
        })
        .sum();
    let mut out = Vec::with_capacity(len);
    for segment in segments {
        match segment {
            Segment::Clip(c) if (volume - 1.0).abs() < f32::EPSILON => out.extend_from_slice(c),
            Segment::Clip(c) => {
                out.extend(c.iter().map(|&s| (f32::from(s) * volume).clamp(-32768.0, 32767.0) as i16));
            }
            Segment::Gap(d) => out.resize(out.len() + samples_in(*d, rate), 0),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(rate: u32, ms: u64, amp: f32) -> Vec<i16> {
        let n = samples_in(Duration::from_millis(ms), rate);
        (0..n)
            .map(|i| ((i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * amp * 32767.0) as i16)
            .collect()
    }

    #[test]
    fn trim_keeps_sound_and_margin() {
        let rate = 16_000;
        let mut s = vec![0i16; 1600]; // 100 ms silence
        s.extend(tone(rate, 200, 0.5));
        s.extend(vec![3i16; 3200]); // 200 ms near-silence
        let trimmed = trim_silence(&s, rate, &TrimSettings::default());
        let ms = duration_of(trimmed.len(), rate).as_millis();
        assert!((200..=250).contains(&ms), "{ms} ms");
    }

    #[test]
    fn trim_of_silence_is_empty() {
        assert!(trim_silence(&[0i16; 1000], 16_000, &TrimSettings::default()).is_empty());
        assert!(trim_silence(&[], 16_000, &TrimSettings::default()).is_empty());
    }

    #[test]
    fn normalise_reaches_target_or_peak() {
        let mut s = tone(16_000, 100, 0.01);
        let gain = normalise(&mut s, &LoudnessSettings::default());
        assert!(gain > 1.0);
        assert!((rms(&s) - 0.1).abs() < 0.01, "{}", rms(&s));
        let mut loud = tone(16_000, 100, 0.99);
        normalise(&mut loud, &LoudnessSettings::default());
        assert!(peak(&loud) <= 0.9);
        let mut silent = vec![0i16; 10];
        assert_eq!(normalise(&mut silent, &LoudnessSettings::default()), 1.0);
    }

    #[test]
    fn resample_changes_length_proportionally() {
        let s = tone(48_000, 100, 0.5);
        let r = resample(&s, 48_000, 22_050);
        assert_eq!(r.len(), s.len() * 22_050 / 48_000);
        assert!((rms(&r) - rms(&s)).abs() < 0.02);
    }

    #[test]
    fn assemble_adds_gaps_and_volume() {
        let a = [1000i16; 10];
        let out = assemble(
            &[Segment::Clip(&a), Segment::Gap(Duration::from_millis(1)), Segment::Clip(&a)],
            10_000,
            0.5,
        );
        assert_eq!(out.len(), 30);
        assert_eq!(out[0], 500);
        assert_eq!(out[15], 0);
    }

    #[test]
    fn downmix_averages() {
        assert_eq!(downmix(&[100, 300, -100, 100], 2), vec![200, 0]);
    }

    #[test]
    fn fade_silences_edges() {
        let mut s = vec![1000i16; 100];
        fade_edges(&mut s, 10_000, Duration::from_millis(2));
        assert_eq!(s[0], 0);
        assert_eq!(s[99], 0);
        assert_eq!(s[50], 1000);
    }
}
