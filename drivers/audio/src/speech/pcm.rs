//! Samples into the recogniser's format: 16 kHz, mono, 16-bit.
//!
//! One code path for files and the microphone: [`Resampler`] keeps its state
//! between chunks, so a stream cut into any chunk sizes gives the same
//! output as the whole buffer at once (tested).

/// The rate every Vosk model here expects.
pub const TARGET_RATE: u32 = 16_000;

/// Interleaved samples as they come from a file or a device.
#[derive(Debug, Clone, Copy)]
pub enum Samples<'a> {
    /// 16-bit integers.
    I16(&'a [i16]),
    /// Floats in -1.0..=1.0.
    F32(&'a [f32]),
}

impl Samples<'_> {
    /// Number of interleaved samples.
    pub fn len(&self) -> usize {
        match self {
            Samples::I16(s) => s.len(),
            Samples::F32(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The format of an input stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputFormat {
    /// Frames per second.
    pub rate: u32,
    /// Interleaved channels (1 mono, 2 stereo, …).
    pub channels: u16,
}

impl InputFormat {
    /// Checks that the format can be resampled.
    ///
    /// # Errors
    /// [`super::SpeechError::Format`] for a zero rate or zero channels, or a
    /// rate below 4 kHz or above 384 kHz.
    pub fn check(self) -> Result<InputFormat, super::SpeechError> {
        if self.channels == 0 {
            return Err(super::SpeechError::Format("zero channels".to_owned()));
        }
        if !(4_000..=384_000).contains(&self.rate) {
            return Err(super::SpeechError::Format(format!("sample rate {} Hz is not usable", self.rate)));
        }
        Ok(self)
    }
}

/// Averages interleaved channels into mono floats, appending to `out`.
/// A trailing partial frame is dropped.
pub fn downmix_into(samples: Samples<'_>, channels: u16, out: &mut Vec<f32>) {
    let channels = usize::from(channels.max(1));
    let scale = 1.0 / channels as f32;
    match samples {
        Samples::I16(s) => out.extend(
            s.chunks_exact(channels)
                .map(|frame| frame.iter().map(|&x| f32::from(x) / 32768.0).sum::<f32>() * scale),
        ),
        Samples::F32(s) => out
            .extend(s.chunks_exact(channels).map(|frame| {
                frame.iter().map(|x| if x.is_finite() { *x } else { 0.0 }).sum::<f32>() * scale
            })),
    }
}

fn to_i16(x: f32) -> i16 {
    // Clamped first, so the cast never saturates silently on NaN or overload.
    (x.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

/// Taps on each side of the centre of the interpolation kernel.
const HALF_TAPS: usize = 16;
/// Sub-sample phases of the precomputed kernel.
const PHASES: usize = 128;

/// A streaming band-limited resampler to 16 kHz mono (windowed sinc).
///
/// Downsampling needs a low-pass filter or speech above 8 kHz folds back
/// into the band the recogniser listens to; the kernel's cut-off follows the
/// lower of the two rates.
///
/// Hand-written on purpose: rubato's sinc resampler was tried (issue 23) and
/// holds input back in fixed blocks behind its filter delay; with push-to-talk
/// the recogniser then never got the phrase said while the button was held (the
/// end-to-end `speech::push_to_talk_…` test). This one turns every sample it is
/// given into output at once.
#[derive(Debug, Clone)]
pub struct Resampler {
    format: InputFormat,
    /// Input frames per output frame.
    step: f64,
    /// Kernel table: `PHASES + 1` rows of `2 * HALF_TAPS` taps.
    kernel: Vec<f32>,
    /// Mono input not yet fully used, starting with `HALF_TAPS` of history.
    pending: Vec<f32>,
    /// Output frames made since the stream began.
    produced: u64,
    /// Input frames dropped from the front of `pending` since then.
    discarded: u64,
    mono: Vec<f32>,
}

impl Resampler {
    /// A resampler from `format` to 16 kHz mono.
    ///
    /// # Errors
    /// As [`InputFormat::check`].
    pub fn new(format: InputFormat) -> Result<Resampler, super::SpeechError> {
        let format = format.check()?;
        let step = f64::from(format.rate) / f64::from(TARGET_RATE);
        // Cut-off relative to the input rate: the lower Nyquist, a little inside.
        let cutoff = 0.5 * (1.0 / step).min(1.0) * 0.92;
        let taps = 2 * HALF_TAPS;
        let mut kernel = Vec::with_capacity((PHASES + 1) * taps);
        for phase in 0..=PHASES {
            let frac = phase as f64 / PHASES as f64;
            let mut row: Vec<f64> = (0..taps)
                .map(|i| {
                    // Distance from the output instant to input sample i.
                    let x = i as f64 - (HALF_TAPS as f64 - 1.0) - frac;
                    let sinc = if x.abs() < 1e-9 {
                        2.0 * cutoff
                    } else {
                        (2.0 * std::f64::consts::PI * cutoff * x).sin() / (std::f64::consts::PI * x)
                    };
                    let w = x / (HALF_TAPS as f64 + 1.0);
                    let window =
                        if w.abs() >= 1.0 { 0.0 } else { 0.5 * (1.0 + (std::f64::consts::PI * w).cos()) };
                    sinc * window
                })
                .collect();
            // Unity gain at DC for every phase.
            let sum: f64 = row.iter().sum();
            if sum.abs() > 1e-12 {
                row.iter_mut().for_each(|v| *v /= sum);
            }
            kernel.extend(row.into_iter().map(|v| v as f32));
        }
        Ok(Resampler {
            format,
            step,
            kernel,
            pending: vec![0.0; HALF_TAPS],
            produced: 0,
            discarded: 0,
            mono: Vec::new(),
        })
    }

    /// The input format.
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// Resamples a chunk, appending 16 kHz mono samples to `out`.
    pub fn process(&mut self, samples: Samples<'_>, out: &mut Vec<i16>) {
        self.mono.clear();
        downmix_into(samples, self.format.channels, &mut self.mono);
        let mono = std::mem::take(&mut self.mono);
        self.process_mono(&mono, out);
        self.mono = mono;
    }

    /// Resamples mono floats, appending to `out`.
    pub fn process_mono(&mut self, mono: &[f32], out: &mut Vec<i16>) {
        if self.format.rate == TARGET_RATE {
            out.extend(mono.iter().map(|&x| to_i16(x)));
            return;
        }
        self.pending.extend_from_slice(mono);
        let taps = 2 * HALF_TAPS;
        loop {
            // The output instant in input frames, computed afresh from the
            // frame count so chunk boundaries cannot accumulate rounding.
            let instant = self.produced as f64 * self.step;
            let whole = instant.floor();
            let Some(base) = (whole as u64 + HALF_TAPS as u64).checked_sub(self.discarded) else { break };
            let start = base as usize + 1 - HALF_TAPS;
            if start + taps > self.pending.len() {
                break;
            }
            let phase = (((instant - whole) * PHASES as f64).round() as usize).min(PHASES);
            let row = &self.kernel[phase * taps..(phase + 1) * taps];
            let window = &self.pending[start..start + taps];
            let y: f32 = row.iter().zip(window).map(|(k, x)| k * x).sum();
            out.push(to_i16(y));
            self.produced += 1;
        }
        // Keep only what later outputs still need.
        let next = (self.produced as f64 * self.step).floor() as u64 + HALF_TAPS as u64;
        let keep_from = (next.saturating_sub(self.discarded) as usize + 1).saturating_sub(HALF_TAPS);
        let keep_from = keep_from.min(self.pending.len());
        if keep_from > 0 {
            self.pending.drain(..keep_from);
            self.discarded += keep_from as u64;
        }
    }

    /// Flushes the last samples (the kernel's look-ahead) at the end of a
    /// stream and gets ready for a new one.
    pub fn finish(&mut self, out: &mut Vec<i16>) {
        if self.format.rate != TARGET_RATE {
            let tail = vec![0.0; HALF_TAPS];
            self.process_mono(&tail, out);
        }
        self.pending.clear();
        self.pending.resize(HALF_TAPS, 0.0);
        self.produced = 0;
        self.discarded = 0;
    }
}

/// Resamples a whole buffer of interleaved samples to 16 kHz mono i16 —
/// the same code the microphone path runs chunk by chunk.
///
/// # Errors
/// As [`InputFormat::check`].
pub fn resample_to_16k_mono(
    samples: Samples<'_>,
    rate: u32,
    channels: u16,
) -> Result<Vec<i16>, super::SpeechError> {
    let mut resampler = Resampler::new(InputFormat { rate, channels })?;
    let frames = samples.len() / usize::from(channels.max(1));
    let mut out = Vec::with_capacity(frames * TARGET_RATE as usize / rate.max(1) as usize + 64);
    resampler.process(samples, &mut out);
    resampler.finish(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(rate: u32, freq: f32, seconds: f32, channels: u16) -> Vec<f32> {
        let frames = (rate as f32 * seconds) as usize;
        (0..frames)
            .flat_map(|i| {
                let v = 0.5 * (2.0 * std::f32::consts::PI * freq * i as f32 / rate as f32).sin();
                std::iter::repeat_n(v, usize::from(channels))
            })
            .collect()
    }

    fn rms(s: &[i16]) -> f32 {
        (s.iter().map(|&x| f32::from(x).powi(2)).sum::<f32>() / s.len().max(1) as f32).sqrt()
    }

    #[test]
    fn length_follows_the_rate() {
        for rate in [8_000, 16_000, 22_050, 44_100, 48_000] {
            let input = sine(rate, 440.0, 1.0, 2);
            let out = resample_to_16k_mono(Samples::F32(&input), rate, 2).unwrap();
            assert!((out.len() as i64 - 16_000).abs() <= 2, "{rate}: {}", out.len());
        }
    }

    #[test]
    fn speech_band_passes_and_aliases_are_cut() {
        // 1 kHz passes at full level; 11 kHz (above the new Nyquist) is removed.
        let pass = resample_to_16k_mono(Samples::F32(&sine(48_000, 1_000.0, 0.5, 1)), 48_000, 1).unwrap();
        let stop = resample_to_16k_mono(Samples::F32(&sine(48_000, 11_000.0, 0.5, 1)), 48_000, 1).unwrap();
        let full = 0.5 * 32767.0 / 2f32.sqrt();
        assert!((rms(&pass[200..7800]) / full - 1.0).abs() < 0.05, "{}", rms(&pass));
        assert!(rms(&stop[200..7800]) / full < 0.05, "{}", rms(&stop));
    }

    #[test]
    fn chunked_equals_whole() {
        let input: Vec<i16> = sine(22_050, 300.0, 0.3, 2).iter().map(|&x| to_i16(x)).collect();
        let whole = resample_to_16k_mono(Samples::I16(&input), 22_050, 2).unwrap();
        let mut r = Resampler::new(InputFormat { rate: 22_050, channels: 2 }).unwrap();
        let mut chunked = Vec::new();
        for chunk in input.chunks(2 * 37) {
            r.process(Samples::I16(chunk), &mut chunked);
        }
        r.finish(&mut chunked);
        assert_eq!(whole.len(), chunked.len());
        let differing = whole.iter().zip(&chunked).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 0, "{differing} samples differ");
    }

    #[test]
    fn bad_formats_and_values_do_not_panic() {
        assert!(resample_to_16k_mono(Samples::I16(&[1, 2, 3]), 0, 1).is_err());
        assert!(resample_to_16k_mono(Samples::I16(&[1, 2, 3]), 16_000, 0).is_err());
        let odd = resample_to_16k_mono(Samples::F32(&[f32::NAN, f32::INFINITY, 5.0]), 44_100, 2).unwrap();
        assert!(odd.iter().all(|&x| x != i16::MIN));
        assert!(resample_to_16k_mono(Samples::I16(&[]), 48_000, 2).unwrap().iter().all(|&x| x == 0));
    }
}
