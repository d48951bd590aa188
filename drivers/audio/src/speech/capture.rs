//! The microphone: cpal capture feeding the same path as files
//! (mute gate → resample to 16 kHz mono → detector or push-to-talk →
//! [`super::Listener`]).
//!
//! The device part ([`Microphone`]) only moves samples from the sound
//! card's callback into a bounded channel; everything that decides
//! ([`Utterances`]) is pure and tested without hardware.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use crossbeam_channel::{Receiver, Sender, TrySendError};

use super::error::SpeechError;
use super::mute::{MuteFlag, MuteGate};
use super::pcm::{InputFormat, Resampler, Samples};
use super::vad::{EnergyVad, PushToTalk, VadEvent, VadSettings};

/// Why the microphone cannot be used. The station runs on without it.
#[derive(Debug, thiserror::Error)]
pub enum MicError {
    /// No input device (of that name).
    #[error("no microphone {wanted}; input devices: {available}")]
    NoDevice {
        /// What was asked for ("named \"X\"" or "at all").
        wanted: String,
        /// The devices there are, comma-separated, or "none".
        available: String,
    },
    /// The sound system could not list devices or report a format.
    #[error("the sound system failed: {0}")]
    Host(String),
    /// The stream could not be built or started.
    #[error("cannot capture from {device}: {problem}")]
    Stream {
        /// The device.
        device: String,
        /// What went wrong.
        problem: String,
    },
}

/// Names of the input devices of the default host.
///
/// # Errors
/// [`MicError::Host`].
pub fn input_devices() -> Result<Vec<String>, MicError> {
    let host = cpal::default_host();
    let devices = host.input_devices().map_err(|e| MicError::Host(e.to_string()))?;
    Ok(devices.filter_map(|d| d.name().ok()).collect())
}

/// Chunks queued between the sound card's callback and the listening
/// thread before new ones are dropped (about 5 s at 100 ms per chunk).
const QUEUE: usize = 50;

/// An open microphone. Keep it on the thread that opened it (a cpal stream
/// may not move between threads); read [`Microphone::chunks`] anywhere.
pub struct Microphone {
    _stream: cpal::Stream,
    name: String,
    format: InputFormat,
    chunks: Receiver<Vec<f32>>,
    dropped: Arc<AtomicU64>,
}

impl std::fmt::Debug for Microphone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Microphone").field("name", &self.name).field("format", &self.format).finish()
    }
}

impl Microphone {
    /// Opens the input device called `name` (exactly, or else the only one
    /// whose name contains it), or the default input device for `None`, in
    /// its default format.
    ///
    /// # Errors
    /// [`MicError::NoDevice`] naming the devices there are; [`MicError::Host`]
    /// or [`MicError::Stream`].
    pub fn open(name: Option<&str>) -> Result<Microphone, MicError> {
        let host = cpal::default_host();
        let available = || {
            let names = input_devices().unwrap_or_default();
            if names.is_empty() { "none".to_owned() } else { names.join(", ") }
        };
        let device = match name {
            None => host.default_input_device().ok_or_else(|| MicError::NoDevice {
                wanted: "at all (no default input device)".to_owned(),
                available: available(),
            })?,
            Some(wanted) => {
                let devices: Vec<cpal::Device> =
                    host.input_devices().map_err(|e| MicError::Host(e.to_string()))?.collect();
                let exact = devices.iter().position(|d| d.name().is_ok_and(|n| n == wanted));
                let partial: Vec<usize> = (0..devices.len())
                    .filter(|&i| devices[i].name().is_ok_and(|n| n.contains(wanted)))
                    .collect();
                let index = match (exact, partial.as_slice()) {
                    (Some(i), _) => i,
                    (None, [i]) => *i,
                    _ => {
                        return Err(MicError::NoDevice {
                            wanted: format!("named {wanted:?}"),
                            available: available(),
                        });
                    }
                };
                devices.into_iter().nth(index).ok_or_else(|| MicError::NoDevice {
                    wanted: format!("named {wanted:?}"),
                    available: available(),
                })?
            }
        };
        let device_name = device.name().unwrap_or_else(|_| "input device".to_owned());
        let supported = device.default_input_config().map_err(|e| MicError::Host(e.to_string()))?;
        let config = supported.config();
        let format = InputFormat { rate: config.sample_rate.0, channels: config.channels };
        let (sender, chunks) = crossbeam_channel::bounded(QUEUE);
        let dropped = Arc::new(AtomicU64::new(0));
        let stream_error = |problem: String| MicError::Stream { device: device_name.clone(), problem };
        let stream = match supported.sample_format() {
            cpal::SampleFormat::F32 => input_stream(&device, &config, &sender, &dropped, |x: f32| x),
            cpal::SampleFormat::I16 => {
                input_stream(&device, &config, &sender, &dropped, |x: i16| f32::from(x) / 32768.0)
            }
            cpal::SampleFormat::U16 => {
                input_stream(&device, &config, &sender, &dropped, |x: u16| (f32::from(x) - 32768.0) / 32768.0)
            }
            other => return Err(stream_error(format!("sample format {other} is not supported"))),
        }
        .map_err(|e| stream_error(e.to_string()))?;
        stream.play().map_err(|e| stream_error(e.to_string()))?;
        tracing::info!(device = %device_name, rate = format.rate, channels = format.channels, "microphone open");
        Ok(Microphone { _stream: stream, name: device_name, format, chunks, dropped })
    }

    /// The device's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format of the chunks.
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// Interleaved float chunks as the sound card delivers them.
    pub fn chunks(&self) -> &Receiver<Vec<f32>> {
        &self.chunks
    }

    /// Chunks dropped because the listening thread fell behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// Runs in the sound card's callback: never blocks, drops and counts when full.
/// A stream of the device's samples of type `T`, each made an `f32` in
/// -1..1 by `to_f32`, handed on in chunks as the sound card delivers them.
fn input_stream<T: cpal::SizedSample + 'static>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    sender: &Sender<Vec<f32>>,
    dropped: &Arc<AtomicU64>,
    to_f32: fn(T) -> f32,
) -> Result<cpal::Stream, cpal::BuildStreamError> {
    let (sender, dropped) = (sender.clone(), dropped.clone());
    device.build_input_stream(
        config,
        move |data: &[T], _: &cpal::InputCallbackInfo| {
            send(&sender, &dropped, data.iter().map(|&x| to_f32(x)).collect());
        },
        |e: cpal::StreamError| tracing::warn!(error = %e, "microphone stream error"),
        None,
    )
}

fn send(sender: &Sender<Vec<f32>>, dropped: &AtomicU64, chunk: Vec<f32>) {
    if let Err(TrySendError::Full(_)) = sender.try_send(chunk) {
        dropped.fetch_add(1, Ordering::Relaxed);
    }
}

/// How the capture path decides what is speech.
#[derive(Debug, Clone)]
pub struct CaptureSettings {
    /// The energy detector (used when there is no push-to-talk button).
    pub vad: VadSettings,
    /// Keep dropping this long after the station stops speaking (echo), ms.
    pub mute_release_ms: u32,
    /// A button that overrides the detector while held, if any.
    pub push_to_talk: Option<PushToTalk>,
}

impl Default for CaptureSettings {
    fn default() -> Self {
        Self { vad: VadSettings::default(), mute_release_ms: 300, push_to_talk: None }
    }
}

/// The pure capture path: raw chunks in, 16 kHz utterance events out.
#[derive(Debug)]
pub struct Utterances {
    gate: MuteGate,
    resampler: Resampler,
    vad: EnergyVad,
    push_to_talk: Option<PushToTalk>,
    talking: bool,
    resampled: Vec<i16>,
}

impl Utterances {
    /// A path for input in `format`; `mute` is the flag the audio output
    /// sets while the station speaks.
    ///
    /// # Errors
    /// [`SpeechError::Format`] for an unusable format.
    pub fn new(
        format: InputFormat,
        mute: MuteFlag,
        settings: CaptureSettings,
    ) -> Result<Utterances, SpeechError> {
        let release = (u64::from(format.rate)
            * u64::from(format.channels)
            * u64::from(settings.mute_release_ms)
            / 1000) as usize;
        Ok(Utterances {
            gate: MuteGate::new(mute, release),
            resampler: Resampler::new(format)?,
            vad: EnergyVad::new(settings.vad),
            push_to_talk: settings.push_to_talk,
            talking: false,
            resampled: Vec::new(),
        })
    }

    /// Feeds raw interleaved samples; `on_event` gets the start, the 16 kHz
    /// speech and the end of each utterance. While muted nothing passes and
    /// an utterance in progress ends.
    pub fn push(&mut self, samples: Samples<'_>, mut on_event: impl FnMut(VadEvent)) {
        let (kept, dropped) = match samples {
            Samples::I16(s) => {
                let (k, d) = self.gate.pass(s);
                (Samples::I16(k), d)
            }
            Samples::F32(s) => {
                let (k, d) = self.gate.pass(s);
                (Samples::F32(k), d)
            }
        };
        if dropped {
            self.interrupt(&mut on_event);
        }
        if kept.is_empty() {
            return;
        }
        self.resampled.clear();
        self.resampler.process(kept, &mut self.resampled);
        match &self.push_to_talk {
            Some(button) => {
                let pressed = button.pressed();
                match (self.talking, pressed) {
                    (false, true) => on_event(VadEvent::Start(self.resampled.clone())),
                    (true, true) => on_event(VadEvent::Speech(self.resampled.clone())),
                    (true, false) => on_event(VadEvent::End),
                    (false, false) => {}
                }
                self.talking = pressed;
            }
            None => self.vad.push(&self.resampled, &mut on_event),
        }
    }

    /// 16 kHz samples pushed but not yet passed on as events (the detector's
    /// unfinished frame): the last event's audio ends this much before the
    /// last sample pushed. The resampler's own look-ahead (16 input samples,
    /// under a millisecond) is not counted.
    pub fn held_back(&self) -> &[i16] {
        match &self.push_to_talk {
            Some(_) => &[],
            None => self.vad.held_back(),
        }
    }

    /// Ends an utterance in progress (the station started speaking).
    fn interrupt(&mut self, on_event: &mut impl FnMut(VadEvent)) {
        if self.talking || self.vad.speaking() {
            on_event(VadEvent::End);
        }
        self.talking = false;
        self.vad.reset();
        let mut discard = Vec::new();
        self.resampler.finish(&mut discard);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::vad::FRAME;

    #[test]
    fn a_missing_device_is_a_clear_error() {
        let err = Microphone::open(Some("no-such-microphone-0xdead")).unwrap_err().to_string();
        assert!(
            err.contains("no-such-microphone-0xdead") || err.contains("sound system"),
            "unclear error: {err}"
        );
    }

    fn loud(frames: usize, rate: u32) -> Vec<f32> {
        let n = frames * FRAME * rate as usize / 16_000;
        (0..n).map(|i| 0.3 * (i as f32 * 0.2).sin()).collect()
    }

    fn run(u: &mut Utterances, samples: &[f32]) -> Vec<&'static str> {
        let mut out = Vec::new();
        for chunk in samples.chunks(4410) {
            u.push(Samples::F32(chunk), |e| {
                out.push(match e {
                    VadEvent::Start(_) => "start",
                    VadEvent::Speech(_) => "speech",
                    VadEvent::End => "end",
                    VadEvent::Silence => "silence",
                });
            });
        }
        out.dedup();
        out
    }

    #[test]
    fn speech_through_the_detector_and_nothing_while_the_station_speaks() {
        let mute = MuteFlag::new();
        let format = InputFormat { rate: 44_100, channels: 1 };
        let mut u = Utterances::new(format, mute.clone(), CaptureSettings::default()).unwrap();
        let mut audio = vec![0.0; 44_100 / 2];
        audio.extend(loud(40, 44_100));
        audio.extend(vec![0.0; 44_100]);
        assert_eq!(run(&mut u, &audio), ["start", "speech", "end"]);
        let _speaking = mute.mute();
        assert!(run(&mut u, &audio).is_empty());
    }

    #[test]
    fn the_station_speaking_ends_an_utterance_and_push_to_talk_overrides() {
        let mute = MuteFlag::new();
        let button = PushToTalk::new();
        let settings = CaptureSettings { push_to_talk: Some(button.clone()), ..CaptureSettings::default() };
        let mut u =
            Utterances::new(InputFormat { rate: 16_000, channels: 2 }, mute.clone(), settings).unwrap();
        let quiet = vec![0.0f32; 8820];
        assert!(run(&mut u, &quiet).is_empty());
        button.set(true);
        assert_eq!(run(&mut u, &quiet), ["start", "speech"]);
        mute.set(true);
        assert_eq!(run(&mut u, &quiet), ["end"]);
        mute.set(false);
        button.set(false);
        assert!(run(&mut u, &vec![0.0; 32_000]).is_empty());
    }
}
