//! Where speech starts and ends: a simple energy-based voice activity
//! detector on 16 kHz mono frames, and push-to-talk.
//!
//! Pure: it sees samples and counts them; time is the sample count.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Samples per analysis frame: 20 ms at 16 kHz.
pub const FRAME: usize = 320;

/// Settings of the energy detector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VadSettings {
    /// A frame louder than this (RMS in dBFS) is speech.
    pub threshold_db: f32,
    /// Speech must last this many frames to count (drops clicks).
    pub min_speech_frames: usize,
    /// Speech ends after this many quiet frames (pauses between words).
    pub hangover_frames: usize,
    /// Frames kept from before the start, so soft onsets are not cut.
    pub pre_roll_frames: usize,
}

impl Default for VadSettings {
    /// -40 dBFS, 60 ms minimum, 600 ms hangover, 200 ms pre-roll.
    fn default() -> Self {
        Self { threshold_db: -40.0, min_speech_frames: 3, hangover_frames: 30, pre_roll_frames: 10 }
    }
}

/// What a frame meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VadEvent {
    /// Nothing to pass on.
    Silence,
    /// Speech began: these samples (pre-roll plus the frames so far) go to
    /// the recogniser.
    Start(Vec<i16>),
    /// More speech (or a pause inside it): pass the frame on.
    Speech(Vec<i16>),
    /// The utterance is over: finish the recogniser.
    End,
}

/// RMS level of samples in dBFS (-120 for silence).
pub fn level_db(samples: &[i16]) -> f32 {
    if samples.is_empty() {
        return -120.0;
    }
    let mean = samples.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>() / samples.len() as f64;
    let rms = mean.sqrt() / 32768.0;
    if rms <= 1e-6 { -120.0 } else { (20.0 * rms.log10()) as f32 }
}

/// The energy detector's state.
#[derive(Debug, Clone)]
pub struct EnergyVad {
    settings: VadSettings,
    buffer: Vec<i16>,
    recent: std::collections::VecDeque<Vec<i16>>,
    loud_run: usize,
    quiet_run: usize,
    speaking: bool,
}

impl EnergyVad {
    /// A detector with these settings.
    pub fn new(settings: VadSettings) -> EnergyVad {
        EnergyVad {
            settings,
            buffer: Vec::with_capacity(FRAME),
            recent: std::collections::VecDeque::new(),
            loud_run: 0,
            quiet_run: 0,
            speaking: false,
        }
    }

    /// Whether an utterance is in progress.
    pub fn speaking(&self) -> bool {
        self.speaking
    }

    /// Samples received but not yet judged: the start of the next frame.
    /// Events end this many samples before the last one pushed.
    pub fn held_back(&self) -> &[i16] {
        &self.buffer
    }

    /// Forgets everything (after muting, or when push-to-talk is released).
    pub fn reset(&mut self) {
        self.buffer.clear();
        self.recent.clear();
        self.loud_run = 0;
        self.quiet_run = 0;
        self.speaking = false;
    }

    /// Feeds 16 kHz mono samples; calls `on_event` for every complete frame
    /// that is not silence.
    pub fn push(&mut self, samples: &[i16], mut on_event: impl FnMut(VadEvent)) {
        for &s in samples {
            self.buffer.push(s);
            if self.buffer.len() == FRAME {
                let frame = std::mem::replace(&mut self.buffer, Vec::with_capacity(FRAME));
                let event = self.frame(frame);
                if event != VadEvent::Silence {
                    on_event(event);
                }
            }
        }
    }

    fn frame(&mut self, frame: Vec<i16>) -> VadEvent {
        let loud = level_db(&frame) >= self.settings.threshold_db;
        if self.speaking {
            self.quiet_run = if loud { 0 } else { self.quiet_run + 1 };
            if self.quiet_run >= self.settings.hangover_frames {
                self.reset();
                return VadEvent::End;
            }
            return VadEvent::Speech(frame);
        }
        self.loud_run = if loud { self.loud_run + 1 } else { 0 };
        self.recent.push_back(frame);
        let keep = self.settings.pre_roll_frames + self.settings.min_speech_frames;
        while self.recent.len() > keep {
            self.recent.pop_front();
        }
        if self.loud_run >= self.settings.min_speech_frames.max(1) {
            self.speaking = true;
            self.quiet_run = 0;
            self.loud_run = 0;
            return VadEvent::Start(self.recent.drain(..).flatten().collect());
        }
        VadEvent::Silence
    }
}

/// A push-to-talk button shared with the input device (gamepad, key):
/// while held, everything is speech; the release ends the utterance.
#[derive(Debug, Clone, Default)]
pub struct PushToTalk(Arc<AtomicBool>);

impl PushToTalk {
    /// A released button.
    pub fn new() -> PushToTalk {
        PushToTalk::default()
    }

    /// Press (`true`) or release (`false`).
    pub fn set(&self, pressed: bool) {
        self.0.store(pressed, Ordering::Release);
    }

    /// Whether it is held.
    pub fn pressed(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(frames: usize, amplitude: f32) -> Vec<i16> {
        (0..frames * FRAME).map(|i| ((i as f32 * 0.3).sin() * amplitude * 32767.0) as i16).collect()
    }

    fn events(vad: &mut EnergyVad, samples: &[i16]) -> Vec<VadEvent> {
        let mut out = Vec::new();
        vad.push(samples, |e| out.push(e));
        out
    }

    #[test]
    fn an_utterance_starts_with_pre_roll_and_ends_after_the_hangover() {
        let mut vad = EnergyVad::new(VadSettings::default());
        assert!(events(&mut vad, &tone(50, 0.0)).is_empty());
        let speech = events(&mut vad, &tone(20, 0.3));
        let VadEvent::Start(first) = &speech[0] else { panic!("{:?}", speech[0]) };
        assert_eq!(first.len(), (10 + 3) * FRAME);
        assert_eq!(speech.len(), 1 + 17);
        assert!(vad.held_back().is_empty());
        let tail = events(&mut vad, &tone(40, 0.0));
        assert_eq!(tail.last(), Some(&VadEvent::End));
        assert_eq!(tail.len(), 30);
        assert!(!vad.speaking());
        // The start of a frame waits for the rest of it.
        vad.push(&tone(1, 0.3)[..100], |_| {});
        assert_eq!(vad.held_back().len(), 100);
    }

    #[test]
    fn a_click_is_not_speech() {
        let mut vad = EnergyVad::new(VadSettings::default());
        let mut samples = tone(2, 0.5);
        samples.extend(tone(20, 0.0));
        assert!(events(&mut vad, &samples).is_empty());
        assert_eq!(level_db(&[]), -120.0);
        assert!((level_db(&[16384; 100]) + 6.02).abs() < 0.1);
    }

    #[test]
    fn push_to_talk_is_shared() {
        let button = PushToTalk::new();
        let device_side = button.clone();
        device_side.set(true);
        assert!(button.pressed());
    }
}
