//! Faster or slower speech without a change of pitch (issue 18): WSOLA
//! (waveform-similarity overlap-add). Frames of 30 ms are taken from the
//! input at a hop scaled by the rate and laid down at a fixed hop, each
//! shifted by up to 8 ms to where it best continues the output so far, with
//! Hann windows summing to one. Pure: unit-tested on synthetic tones.

/// Speaking rates the listener may choose, in percent of normal.
pub const MIN_RATE_PERCENT: u32 = 50;
/// The fastest speaking rate, in percent of normal.
pub const MAX_RATE_PERCENT: u32 = 250;

/// `samples` at `rate` (samples per second) made `percent` as fast: 150
/// lasts two thirds as long at the same pitch. 100 (or a clip too short to
/// stretch) is returned unchanged.
pub fn time_stretch(samples: &[f32], rate: u32, percent: u32) -> Vec<f32> {
    let percent = percent.clamp(MIN_RATE_PERCENT, MAX_RATE_PERCENT);
    let frame = (rate as usize * 30 / 1000).max(16) & !1;
    if percent == 100 || samples.len() < 2 * frame {
        return samples.to_vec();
    }
    let hop_out = frame / 2;
    let hop_in = hop_out as f64 * f64::from(percent) / 100.0;
    let search = rate as usize * 8 / 1000;
    let window: Vec<f32> = (0..frame)
        .map(|i| 0.5 - 0.5 * (2.0 * std::f32::consts::PI * i as f32 / frame as f32).cos())
        .collect();
    let frames = ((samples.len() - frame) as f64 / hop_in) as usize + 1;
    let mut out = vec![0.0f32; frames * hop_out + frame];
    // Where the previous frame would have gone on in the input: the next one
    // is chosen to look like it.
    let mut natural: Option<usize> = None;
    for k in 0..frames {
        let nominal = (k as f64 * hop_in) as usize;
        let start = match natural {
            None => nominal,
            Some(target) => best_offset(samples, target, nominal, search, frame / 2),
        };
        let start = start.min(samples.len() - frame);
        let at = k * hop_out;
        for i in 0..frame {
            out[at + i] += samples[start + i] * window[i];
        }
        natural = Some(start + hop_out);
    }
    out.truncate(((samples.len() as f64) * 100.0 / f64::from(percent)) as usize);
    out
}

/// The start near `nominal` (± `search`) whose first `len` samples are most
/// like those at `target` (cross-correlation).
fn best_offset(samples: &[f32], target: usize, nominal: usize, search: usize, len: usize) -> usize {
    if target + len > samples.len() {
        return nominal;
    }
    let reference = &samples[target..target + len];
    let lo = nominal.saturating_sub(search);
    let hi = (nominal + search).min(samples.len().saturating_sub(len));
    let mut best = (f32::MIN, nominal);
    for start in lo..=hi.max(lo) {
        if start + len > samples.len() {
            break;
        }
        let score: f32 = samples[start..start + len].iter().zip(reference).map(|(a, b)| a * b).sum();
        if score > best.0 {
            best = (score, start);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(hz: f32, rate: u32, seconds: f32) -> Vec<f32> {
        (0..(rate as f32 * seconds) as usize)
            .map(|i| (2.0 * std::f32::consts::PI * hz * i as f32 / rate as f32).sin() * 0.5)
            .collect()
    }

    /// Zero crossings per second: the pitch of a pure tone, twice its frequency.
    fn crossings_per_second(samples: &[f32], rate: u32) -> f32 {
        let body = &samples[samples.len() / 10..samples.len() * 9 / 10];
        let n = body.windows(2).filter(|w| (w[0] < 0.0) != (w[1] < 0.0)).count();
        n as f32 * rate as f32 / body.len() as f32
    }

    #[test]
    fn faster_is_shorter_at_the_same_pitch() {
        let rate = 22_050;
        let input = tone(220.0, rate, 2.0);
        for percent in [60, 80, 125, 150, 200] {
            let out = time_stretch(&input, rate, percent);
            let expected = input.len() as f32 * 100.0 / percent as f32;
            assert!(
                (out.len() as f32 - expected).abs() < 0.02 * expected,
                "{percent}%: {} vs {expected}",
                out.len()
            );
            let pitch = crossings_per_second(&out, rate);
            assert!((pitch - 440.0).abs() < 440.0 * 0.03, "{percent}%: {pitch} crossings/s, not 440");
            let level = out[out.len() / 4..out.len() * 3 / 4].iter().map(|s| s * s).sum::<f32>()
                / (out.len() / 2) as f32;
            assert!((level.sqrt() - 0.5 / 2f32.sqrt()).abs() < 0.05, "{percent}%: level {}", level.sqrt());
        }
    }

    #[test]
    fn normal_rate_and_short_clips_are_unchanged() {
        let input = tone(220.0, 16_000, 0.5);
        assert_eq!(time_stretch(&input, 16_000, 100), input);
        let short = tone(220.0, 16_000, 0.02);
        assert_eq!(time_stretch(&short, 16_000, 150), short);
        assert!(time_stretch(&[], 16_000, 150).is_empty());
    }
}
