//! Reading and writing mono 16-bit WAV, including espeak-ng's streamed WAV
//! whose header carries placeholder sizes.

use std::path::Path;

use super::error::AudioError;
use super::pcm::{Clip, downmix};

/// Writes `clip` as a mono 16-bit PCM WAV file.
///
/// # Errors
/// [`AudioError::Io`] or [`AudioError::Wav`] if the file cannot be written.
pub fn write_wav(path: &Path, clip: &Clip) -> Result<(), AudioError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: clip.rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let origin = path.display().to_string();
    let mut writer = hound::WavWriter::create(path, spec).map_err(|e| hound_error(&origin, e))?;
    let mut samples = writer.get_i16_writer(clip.samples.len() as u32);
    for &s in &clip.samples {
        samples.write_sample(s);
    }
    samples.flush().map_err(|e| hound_error(&origin, e))?;
    writer.finalize().map_err(|e| hound_error(&origin, e))
}

/// Reads a PCM WAV file (16-bit, 8/24/32-bit integer or float) as mono 16-bit.
///
/// # Errors
/// [`AudioError::Io`] if unreadable, [`AudioError::Wav`] if not a WAV file
/// this code decodes.
pub fn read_wav(path: &Path) -> Result<Clip, AudioError> {
    let origin = path.display().to_string();
    let mut reader = hound::WavReader::open(path).map_err(|e| hound_error(&origin, e))?;
    match decode(&mut reader, &origin)? {
        (clip, None) => Ok(clip),
        (_, Some(e)) => Err(hound_error(&origin, e)),
    }
}

/// Encodes mono 16-bit `samples` at `rate` as WAV bytes in memory.
///
/// # Errors
/// [`AudioError::Wav`] if the samples do not fit a WAV file (4 GiB).
pub fn encode_wav(samples: &[i16], rate: u32) -> Result<Vec<u8>, AudioError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut bytes = std::io::Cursor::new(Vec::with_capacity(44 + 2 * samples.len()));
    let mut writer = hound::WavWriter::new(&mut bytes, spec).map_err(|e| hound_error("WAV in memory", e))?;
    for &s in samples {
        writer.write_sample(s).map_err(|e| hound_error("WAV in memory", e))?;
    }
    writer.finalize().map_err(|e| hound_error("WAV in memory", e))?;
    Ok(bytes.into_inner())
}

/// Encodes `clip` as WAV bytes in memory.
///
/// # Errors
/// As [`encode_wav`].
pub fn wav_bytes(clip: &Clip) -> Result<Vec<u8>, AudioError> {
    encode_wav(&clip.samples, clip.rate)
}

/// Parses WAV bytes (as [`read_wav`] reads files), trusting the data that is
/// there over the sizes in the header: espeak-ng writing to a pipe cannot
/// seek back to fill them in, so its data chunk claims 0x7fff_f000 bytes and
/// the samples simply stop.
///
/// # Errors
/// [`AudioError::Wav`] if the bytes are not a WAV stream this code decodes.
pub fn parse_wav_bytes(bytes: &[u8], origin: &str) -> Result<Clip, AudioError> {
    let mut reader =
        hound::WavReader::new(std::io::Cursor::new(bytes)).map_err(|e| hound_error(origin, e))?;
    let decoded = decode(&mut reader, origin)?;
    match decoded {
        (clip, None) => Ok(clip),
        // hound reports the end of the bytes as a failed read; only there
        // (not at a bad sample inside) does the stream simply stop.
        (clip, Some(hound::Error::IoError(_))) if reader.into_inner().position() >= bytes.len() as u64 => {
            Ok(clip)
        }
        (_, Some(e)) => Err(hound_error(origin, e)),
    }
}

/// Decodes the samples as mono 16-bit, up to the first that cannot be read
/// (returned beside the clip, for the caller to judge).
fn decode<R: std::io::Read>(
    reader: &mut hound::WavReader<R>,
    origin: &str,
) -> Result<(Clip, Option<hound::Error>), AudioError> {
    let spec = reader.spec();
    if spec.sample_rate == 0 {
        return Err(AudioError::wav(origin, "sample rate 0 Hz"));
    }
    let shift = i32::from(spec.bits_per_sample) - 16;
    let samples: Box<dyn Iterator<Item = hound::Result<i16>> + '_> =
        match (spec.sample_format, spec.bits_per_sample) {
            (hound::SampleFormat::Int, 16) => Box::new(reader.samples::<i16>()),
            (hound::SampleFormat::Int, bits) if bits <= 32 => {
                Box::new(reader.samples::<i32>().map(move |s| {
                    s.map(|v| if shift >= 0 { (v >> shift) as i16 } else { (v << -shift) as i16 })
                }))
            }
            (hound::SampleFormat::Float, 32) => {
                Box::new(reader.samples::<f32>().map(|s| s.map(|v| (v.clamp(-1.0, 1.0) * 32767.0) as i16)))
            }
            (format, bits) => {
                return Err(AudioError::wav(origin, format!("unsupported {bits}-bit {format:?}")));
            }
        };
    let mut interleaved = Vec::new();
    let mut failed = None;
    for sample in samples {
        match sample {
            Ok(s) => interleaved.push(s),
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    Ok((Clip::new(spec.sample_rate, downmix(&interleaved, spec.channels)), failed))
}

fn hound_error(origin: &str, e: hound::Error) -> AudioError {
    match e {
        hound::Error::IoError(source) => AudioError::io(origin, source),
        other => AudioError::wav(origin, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// espeak-ng's `--stdout` header: the sizes it cannot fill in.
    fn streamed(bytes: &mut [u8]) {
        bytes[4..8].copy_from_slice(&0x7fff_f024u32.to_le_bytes());
        bytes[40..44].copy_from_slice(&0x7fff_f000u32.to_le_bytes());
    }

    #[test]
    fn bytes_round_trip_and_streamed_sizes() -> Result<(), AudioError> {
        let clip = Clip::new(22_050, vec![0, 1000, -1000, 32767]);
        let mut bytes = wav_bytes(&clip)?;
        assert_eq!(bytes.len(), 44 + 2 * clip.samples.len());
        assert_eq!(parse_wav_bytes(&bytes, "t")?, clip);
        streamed(&mut bytes);
        assert_eq!(parse_wav_bytes(&bytes, "t")?, clip);
        // A file that ends early is damaged; a stream that ends is done.
        let dir = tempfile::tempdir().map_err(|e| AudioError::io("temp", e))?;
        std::fs::write(dir.path().join("s.wav"), &bytes).map_err(|e| AudioError::io("temp", e))?;
        assert!(read_wav(&dir.path().join("s.wav")).is_err());
        assert!(parse_wav_bytes(b"junk", "t").is_err());
        Ok(())
    }

    #[test]
    fn real_espeak_output_parses() {
        let out = std::process::Command::new("espeak-ng")
            .args(["-v", "en", "--stdout", "e4"])
            .output()
            .unwrap_or_else(|e| panic!("espeak-ng does not run ({e}): scripts/setup installs it"));
        let clip = parse_wav_bytes(&out.stdout, "espeak-ng").map_err(|e| e.to_string()).unwrap();
        assert!(clip.rate > 0 && clip.duration().as_millis() > 100, "{:?} {}", clip.rate, clip.samples.len());
    }

    #[test]
    fn hostile_bytes_give_errors_never_panics() -> Result<(), AudioError> {
        let clip = Clip::new(16_000, (0..400).map(|i| (i * 50) as i16).collect());
        let good = wav_bytes(&clip)?;
        // Every header byte set to values that break sizes, counts and formats,
        // and every truncation of the header.
        for at in 0..44 {
            for value in [0u8, 1, 3, 0x7f, 0x80, 0xfe, 0xff] {
                let mut bad = good.clone();
                bad[at] = value;
                let _ = parse_wav_bytes(&bad, "t");
                streamed(&mut bad);
                let _ = parse_wav_bytes(&bad, "t");
            }
            assert!(parse_wav_bytes(&good[..at], "t").is_err(), "{at} bytes");
        }
        let mut zero_rate = good.clone();
        zero_rate[24..32].fill(0);
        assert!(parse_wav_bytes(&zero_rate, "t").is_err());
        Ok(())
    }

    #[test]
    fn file_round_trip() -> Result<(), AudioError> {
        let dir = std::env::temp_dir().join(format!("wav-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| AudioError::io(&dir, e))?;
        let path = dir.join("a.wav");
        let clip = Clip::new(16_000, (0..1000).map(|i| (i * 30) as i16).collect());
        write_wav(&path, &clip)?;
        assert_eq!(read_wav(&path)?, clip);
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    }
}
