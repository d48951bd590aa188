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
    let reader = hound::WavReader::open(path).map_err(|e| hound_error(&origin, e))?;
    let spec = reader.spec();
    let interleaved: Vec<i16> = match (spec.sample_format, spec.bits_per_sample) {
        (hound::SampleFormat::Int, 16) => reader.into_samples::<i16>().collect::<Result<_, _>>(),
        (hound::SampleFormat::Int, bits) if bits <= 32 => {
            let shift = i32::from(bits) - 16;
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| if shift >= 0 { (v >> shift) as i16 } else { (v << -shift) as i16 }))
                .collect()
        }
        (hound::SampleFormat::Float, 32) => {
            reader.into_samples::<f32>().map(|s| s.map(|v| (v.clamp(-1.0, 1.0) * 32767.0) as i16)).collect()
        }
        (format, bits) => return Err(AudioError::wav(origin, format!("unsupported {bits}-bit {format:?}"))),
    }
    .map_err(|e| hound_error(&origin, e))?;
    Ok(Clip::new(spec.sample_rate, downmix(&interleaved, spec.channels)))
}

/// Encodes `clip` as WAV bytes in memory.
pub fn wav_bytes(clip: &Clip) -> Vec<u8> {
    let data_len = (clip.samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&clip.rate.to_le_bytes());
    out.extend_from_slice(&(clip.rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in &clip.samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// Parses 16-bit PCM WAV bytes, trusting the data that is there over the
/// sizes in the header: espeak-ng writing to a pipe cannot seek back to fill
/// them in, so they read 0x7fff_ffff.
///
/// # Errors
/// [`AudioError::Wav`] if the bytes are not 16-bit PCM WAV.
pub fn parse_wav_bytes(bytes: &[u8], origin: &str) -> Result<Clip, AudioError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(AudioError::wav(origin, "not a RIFF/WAVE stream"));
    }
    let mut pos = 12;
    let mut format: Option<(u16, u16, u32, u16)> = None;
    while pos + 8 <= bytes.len() {
        let id = &bytes[pos..pos + 4];
        let len =
            u32::from_le_bytes([bytes[pos + 4], bytes[pos + 5], bytes[pos + 6], bytes[pos + 7]]) as usize;
        let body = pos + 8;
        if id == b"fmt " {
            let f = bytes.get(body..body + 16).ok_or_else(|| AudioError::wav(origin, "short fmt chunk"))?;
            format = Some((
                u16::from_le_bytes([f[0], f[1]]),
                u16::from_le_bytes([f[2], f[3]]),
                u32::from_le_bytes([f[4], f[5], f[6], f[7]]),
                u16::from_le_bytes([f[14], f[15]]),
            ));
        } else if id == b"data" {
            let (tag, channels, rate, bits) =
                format.ok_or_else(|| AudioError::wav(origin, "data before fmt"))?;
            if tag != 1 || bits != 16 || channels == 0 || rate == 0 {
                return Err(AudioError::wav(origin, format!("not 16-bit PCM (format {tag}, {bits} bits)")));
            }
            let end = body.saturating_add(len).min(bytes.len());
            let interleaved: Vec<i16> =
                bytes[body..end].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
            return Ok(Clip::new(rate, downmix(&interleaved, channels)));
        }
        pos = body.saturating_add(len + (len & 1));
    }
    Err(AudioError::wav(origin, "no data chunk"))
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

    #[test]
    fn bytes_round_trip_and_streamed_sizes() {
        let clip = Clip::new(22_050, vec![0, 1000, -1000, 32767]);
        let mut bytes = wav_bytes(&clip);
        assert_eq!(parse_wav_bytes(&bytes, "t").unwrap_or_default(), clip);
        // espeak-ng --stdout: placeholder sizes.
        bytes[4..8].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        bytes[40..44].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        assert_eq!(parse_wav_bytes(&bytes, "t").unwrap_or_default(), clip);
        assert!(parse_wav_bytes(b"junk", "t").is_err());
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
