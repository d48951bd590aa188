//! Reading WAV files for `station listen --wav`.

use std::path::Path;

use super::error::SpeechError;
use super::pcm::Samples;

/// Decoded samples of a WAV file, interleaved.
#[derive(Debug, Clone, PartialEq)]
pub enum WavSamples {
    /// 8- and 16-bit integer files.
    I16(Vec<i16>),
    /// 24- and 32-bit integer and float files, scaled to -1.0..=1.0.
    F32(Vec<f32>),
}

/// A WAV file's samples and format.
#[derive(Debug, Clone, PartialEq)]
pub struct WavAudio {
    /// Interleaved samples.
    pub samples: WavSamples,
    /// Frames per second.
    pub rate: u32,
    /// Channels.
    pub channels: u16,
}

impl WavAudio {
    /// The samples as a borrowed slice for the resampler or a listener.
    pub fn as_samples(&self) -> Samples<'_> {
        match &self.samples {
            WavSamples::I16(s) => Samples::I16(s),
            WavSamples::F32(s) => Samples::F32(s),
        }
    }

    /// Length in seconds.
    pub fn seconds(&self) -> f32 {
        let len = match &self.samples {
            WavSamples::I16(s) => s.len(),
            WavSamples::F32(s) => s.len(),
        };
        len as f32 / f32::from(self.channels.max(1)) / self.rate.max(1) as f32
    }
}

/// Reads a WAV file (PCM 8/16/24/32-bit or 32-bit float, any rate, any
/// number of channels).
///
/// # Errors
/// [`SpeechError::Wav`] if it cannot be read or decoded.
pub fn read_wav(path: &Path) -> Result<WavAudio, SpeechError> {
    let wav_error = |source| SpeechError::Wav { path: path.to_owned(), source };
    let reader = hound::WavReader::open(path).map_err(wav_error)?;
    let spec = reader.spec();
    let samples = match (spec.sample_format, spec.bits_per_sample) {
        (hound::SampleFormat::Int, 16) => {
            WavSamples::I16(reader.into_samples::<i16>().collect::<Result<_, _>>().map_err(wav_error)?)
        }
        (hound::SampleFormat::Int, 8) => WavSamples::I16(
            reader
                .into_samples::<i8>()
                .map(|s| s.map(|x| i16::from(x) << 8))
                .collect::<Result<_, _>>()
                .map_err(wav_error)?,
        ),
        (hound::SampleFormat::Int, bits) => {
            let scale = 1.0 / (1u64 << (bits.clamp(1, 32) - 1)) as f32;
            WavSamples::F32(
                reader
                    .into_samples::<i32>()
                    .map(|s| s.map(|x| x as f32 * scale))
                    .collect::<Result<_, _>>()
                    .map_err(wav_error)?,
            )
        }
        (hound::SampleFormat::Float, _) => {
            WavSamples::F32(reader.into_samples::<f32>().collect::<Result<_, _>>().map_err(wav_error)?)
        }
    };
    Ok(WavAudio { samples, rate: spec.sample_rate, channels: spec.channels })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_hound_writes_and_names_bad_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.wav");
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 22_050,
            bits_per_sample: 24,
            sample_format: hound::SampleFormat::Int,
        };
        let mut writer = hound::WavWriter::create(&path, spec).unwrap();
        for x in [0i32, 4_194_304, -8_388_608, 0] {
            writer.write_sample(x).unwrap();
        }
        writer.finalize().unwrap();
        let audio = read_wav(&path).unwrap();
        assert_eq!((audio.rate, audio.channels), (22_050, 2));
        assert_eq!(audio.samples, WavSamples::F32(vec![0.0, 0.5, -1.0, 0.0]));

        std::fs::write(dir.path().join("bad.wav"), b"RIFF nonsense").unwrap();
        let err = read_wav(&dir.path().join("bad.wav")).unwrap_err().to_string();
        assert!(err.contains("bad.wav"), "{err}");
        assert!(read_wav(&dir.path().join("missing.wav")).is_err());
    }
}
