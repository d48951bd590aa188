//! Samples into the recogniser's format: 16 kHz, mono, 16-bit.
//!
//! One code path for files and the microphone: [`Resampler`] keeps its state
//! between chunks, so a stream cut into any chunk sizes gives the same
//! output as the whole buffer at once (tested). The rate conversion is
//! rubato's ([`RateConverter`]); the channel averaging and the float/integer
//! conversions around it stay here, a line each (rubato converts rates per
//! channel, it does not mix channels).

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

/// Input frames handed to rubato per call, as a share of a second: a stream
/// waits at most 10 ms in [`RateConverter`]'s buffer before it is converted.
const CHUNKS_PER_SECOND: usize = 100;
/// Length of the windowed-sinc filter: its cut-off is well inside the output
/// Nyquist (1 kHz passes at full level, 11 kHz is cut going 48 → 16 kHz; tested)
/// at a fraction of the default 256 taps' cost.
const SINC_LEN: usize = 128;

/// A streaming band-limited rate converter for mono floats: rubato's sinc
/// resampler, fed in fixed chunks of 10 ms of input.
///
/// Downsampling needs a low-pass filter or speech above the new Nyquist
/// frequency folds back into the band the recogniser listens to; rubato's
/// filter follows the lower of the two rates. The fixed chunking makes the
/// output independent of how the input is cut (a stream fed in any chunk
/// sizes gives the same samples as the whole buffer at once), and the
/// filter's delay is dropped from the front, so the output lines up with the
/// input. One type serves the microphone (to 16 kHz) and the voice packs (any
/// rate to the pack's, [`crate::audio::pcm::resample`]).
pub struct RateConverter {
    inner: rubato::Async<f32>,
    /// Output frames per input frame.
    ratio: f64,
    /// Input frames per call into rubato.
    chunk: usize,
    /// Input not yet handed to rubato (less than one chunk).
    pending: Vec<f32>,
    /// Rubato's output of one call.
    scratch: Vec<f32>,
    /// Output frames of the filter's delay still to drop at the front.
    to_skip: usize,
    /// Input frames given since the stream began.
    given: u64,
    /// Output frames handed out since then.
    taken: u64,
}

impl std::fmt::Debug for RateConverter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateConverter")
            .field("ratio", &self.ratio)
            .field("chunk", &self.chunk)
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl RateConverter {
    /// A converter from `from` Hz to `to` Hz.
    ///
    /// # Errors
    /// [`super::SpeechError::Format`] for a zero rate or one rubato refuses.
    pub fn new(from: u32, to: u32) -> Result<RateConverter, super::SpeechError> {
        if from == 0 || to == 0 {
            return Err(super::SpeechError::Format(format!("cannot resample {from} Hz to {to} Hz")));
        }
        let ratio = f64::from(to) / f64::from(from);
        let chunk = (from as usize / CHUNKS_PER_SECOND).max(1);
        let parameters =
            rubato::SincInterpolationParameters::new(SINC_LEN, rubato::WindowFunction::BlackmanHarris2)
                .oversampling_factor(256)
                .interpolation(rubato::SincInterpolationType::Linear);
        // A fixed ratio: the relative range 1.0 allows no adjustment.
        let inner = rubato::Async::new_sinc(ratio, 1.0, &parameters, chunk, 1, rubato::FixedAsync::Input)
            .map_err(|e| super::SpeechError::Format(format!("resampling {from} Hz to {to} Hz: {e}")))?;
        let to_skip = rubato::Resampler::output_delay(&inner);
        let scratch = vec![0.0; rubato::Resampler::output_frames_max(&inner)];
        Ok(RateConverter {
            inner,
            ratio,
            chunk,
            pending: Vec::with_capacity(chunk),
            scratch,
            to_skip,
            given: 0,
            taken: 0,
        })
    }

    /// Converts `input`, appending what is ready to `out`; up to one chunk
    /// stays buffered until more input (or [`RateConverter::finish`]) comes.
    pub fn process(&mut self, mut input: &[f32], out: &mut Vec<f32>) {
        self.given += input.len() as u64;
        while !input.is_empty() {
            let take = (self.chunk - self.pending.len()).min(input.len());
            self.pending.extend_from_slice(&input[..take]);
            input = &input[take..];
            if self.pending.len() == self.chunk {
                self.run(Some(self.chunk), out);
                self.pending.clear();
            }
        }
    }

    /// Converts what is still buffered and the filter's tail, so the whole
    /// output is as long as the input at the new rate; then gets ready for a
    /// new stream.
    pub fn finish(&mut self, out: &mut Vec<f32>) {
        // As long as the input at the new rate, rounded down as before rubato.
        let expected = (self.given as f64 * self.ratio) as u64;
        if !self.pending.is_empty() {
            self.run(Some(self.pending.len()), out);
            self.pending.clear();
        }
        // Silence pushes the last input through the filter: its delay is
        // half the filter, so a bounded number of silent chunks suffices.
        let mut rounds = SINC_LEN.div_ceil(self.chunk) + 2;
        while self.taken < expected && rounds > 0 {
            self.run(Some(0), out);
            rounds -= 1;
        }
        let extra = (self.taken - expected.min(self.taken)) as usize;
        out.truncate(out.len() - extra.min(out.len()));
        rubato::Resampler::reset(&mut self.inner);
        self.pending.clear();
        self.to_skip = rubato::Resampler::output_delay(&self.inner);
        self.given = 0;
        self.taken = 0;
    }

    /// One call into rubato on `pending` (`len` real frames, zeros after).
    fn run(&mut self, len: Option<usize>, out: &mut Vec<f32>) {
        use rubato::audioadapter_buffers::direct::InterleavedSlice;
        let frames_in = self.pending.len();
        let capacity = self.scratch.len();
        let (Ok(input), Ok(mut output)) = (
            InterleavedSlice::new(&self.pending[..], 1, frames_in),
            InterleavedSlice::new_mut(&mut self.scratch[..], 1, capacity),
        ) else {
            return;
        };
        let indexing = rubato::Indexing { partial_len: len, ..rubato::Indexing::new() };
        // The buffers are sized from rubato's own figures, so it cannot refuse
        // them; should it, the chunk is lost rather than the listener.
        let Ok((_, written)) =
            rubato::Resampler::process_into_buffer(&mut self.inner, &input, &mut output, Some(&indexing))
        else {
            return;
        };
        let skip = self.to_skip.min(written);
        self.to_skip -= skip;
        out.extend_from_slice(&self.scratch[skip..written]);
        self.taken += (written - skip) as u64;
    }
}

/// A streaming band-limited resampler to 16 kHz mono ([`RateConverter`]
/// after a downmix), or a plain conversion when the input is at 16 kHz.
#[derive(Debug)]
pub struct Resampler {
    format: InputFormat,
    /// `None` when the input is at 16 kHz already.
    converter: Option<RateConverter>,
    mono: Vec<f32>,
    converted: Vec<f32>,
}

impl Resampler {
    /// A resampler from `format` to 16 kHz mono.
    ///
    /// # Errors
    /// As [`InputFormat::check`].
    pub fn new(format: InputFormat) -> Result<Resampler, super::SpeechError> {
        let format = format.check()?;
        let converter = if format.rate == TARGET_RATE {
            None
        } else {
            Some(RateConverter::new(format.rate, TARGET_RATE)?)
        };
        Ok(Resampler { format, converter, mono: Vec::new(), converted: Vec::new() })
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
        match &mut self.converter {
            None => out.extend(mono.iter().map(|&x| to_i16(x))),
            Some(converter) => {
                self.converted.clear();
                converter.process(mono, &mut self.converted);
                out.extend(self.converted.iter().map(|&x| to_i16(x)));
            }
        }
    }

    /// Flushes the last samples (the buffered input and the filter's tail)
    /// at the end of a stream and gets ready for a new one.
    pub fn finish(&mut self, out: &mut Vec<i16>) {
        if let Some(converter) = &mut self.converter {
            self.converted.clear();
            converter.finish(&mut self.converted);
            out.extend(self.converted.iter().map(|&x| to_i16(x)));
        }
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

    /// Frequency of a tone from its upward zero crossings.
    fn frequency(s: &[i16], rate: u32) -> f32 {
        let ups: Vec<usize> =
            s.windows(2).enumerate().filter(|(_, w)| w[0] < 0 && w[1] >= 0).map(|(i, _)| i).collect();
        let (Some(first), Some(last)) = (ups.first(), ups.last()) else { return 0.0 };
        (ups.len() - 1) as f32 * rate as f32 / (last - first) as f32
    }

    #[test]
    fn a_resampled_sine_keeps_its_frequency() {
        for (rate, freq) in [(48_000, 440.0), (44_100, 1_000.0), (22_050, 3_000.0), (8_000, 700.0)] {
            let out = resample_to_16k_mono(Samples::F32(&sine(rate, freq, 1.0, 1)), rate, 1).unwrap();
            let heard = frequency(&out[500..15_500], TARGET_RATE);
            assert!((heard - freq).abs() < freq * 0.002, "{rate} Hz: {freq} Hz became {heard} Hz");
        }
    }

    #[test]
    fn the_filter_delay_is_taken_off() {
        // A click half-way through a second stays half-way through.
        for rate in [44_100, 48_000, 22_050] {
            let mut input = vec![0i16; rate as usize];
            input[rate as usize / 2] = 30_000;
            let out = resample_to_16k_mono(Samples::I16(&input), rate, 1).unwrap();
            let peak = out.iter().enumerate().max_by_key(|(_, x)| x.unsigned_abs()).map(|(i, _)| i).unwrap();
            assert!((peak as i64 - 8_000).abs() <= 2, "{rate} Hz: click at {peak}");
        }
    }

    #[test]
    fn a_stream_restarts_clean_after_finish() {
        let input: Vec<i16> = sine(44_100, 500.0, 0.2, 1).iter().map(|&x| to_i16(x)).collect();
        let mut r = Resampler::new(InputFormat { rate: 44_100, channels: 1 }).unwrap();
        let mut first = Vec::new();
        r.process(Samples::I16(&input), &mut first);
        r.finish(&mut first);
        let mut second = Vec::new();
        r.process(Samples::I16(&input), &mut second);
        r.finish(&mut second);
        assert_eq!(first, second);
        assert_eq!(first.len(), 3_200);
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
