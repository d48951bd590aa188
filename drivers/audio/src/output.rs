//! Output devices through cpal, with a rodio mixer in front so clips of any
//! rate play on any device, and a tracked source that reports the moment
//! its first sample is handed to the device and the moment it ends or is cut.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SizedSample};
use crossbeam_channel::{Receiver, Sender};
use rodio::Source;
use rodio::mixer::{Mixer, MixerSource};

use super::error::AudioError;

/// An output device as `station devices` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputDeviceInfo {
    /// Name to put in the config (`device = "…"`).
    pub name: String,
    /// Whether it is the host's default output.
    pub is_default: bool,
}

/// The output devices of the default host (ALSA on Linux).
///
/// # Errors
/// [`AudioError::Device`] if the host cannot enumerate devices.
pub fn list_output_devices() -> Result<Vec<OutputDeviceInfo>, AudioError> {
    let host = cpal::default_host();
    let default_name = host.default_output_device().and_then(|d| d.name().ok());
    let devices = host
        .output_devices()
        .map_err(|e| AudioError::Device { device: "(all)".to_owned(), problem: e.to_string() })?;
    let mut out: Vec<OutputDeviceInfo> = devices
        .filter_map(|d| d.name().ok())
        .map(|name| OutputDeviceInfo { is_default: Some(&name) == default_name.as_ref(), name })
        .collect();
    if let Some(name) = default_name
        && !out.iter().any(|d| d.name == name)
    {
        out.insert(0, OutputDeviceInfo { name, is_default: true });
    }
    Ok(out)
}

/// Finds a device by name: exact first, then a case-insensitive substring
/// (so "USB" finds "sysdefault:CARD=USB"); `None` or "default" is the default.
pub(crate) fn find_output_device(name: Option<&str>) -> Result<cpal::Device, AudioError> {
    let host = cpal::default_host();
    let name = match name {
        None | Some("") | Some("default") => {
            return host.default_output_device().ok_or(AudioError::NoDefaultDevice);
        }
        Some(name) => name,
    };
    let devices: Vec<cpal::Device> = host
        .output_devices()
        .map_err(|e| AudioError::Device { device: name.to_owned(), problem: e.to_string() })?
        .collect();
    let lower = name.to_lowercase();
    let named = |d: &cpal::Device| d.name().ok();
    let exact = devices.iter().position(|d| named(d).as_deref() == Some(name));
    let partial = || devices.iter().position(|d| named(d).is_some_and(|n| n.to_lowercase().contains(&lower)));
    exact
        .or_else(partial)
        .and_then(|i| devices.into_iter().nth(i))
        .ok_or_else(|| AudioError::NoSuchDevice(name.to_owned()))
}

/// What a playing clip reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signal {
    /// The first sample was pulled by the device callback.
    First(Instant),
    /// The clip ended (`cut`: because it was stopped).
    Done {
        /// Stopped before its end.
        cut: bool,
    },
}

/// Samples that report their first pull and their end. Stopping is a flag
/// checked on every sample, so a pre-empting message cuts in within one
/// device buffer.
struct Tracked {
    samples: Vec<f32>,
    pos: usize,
    rate: u32,
    stop: Arc<AtomicBool>,
    signals: Sender<Signal>,
    finished: bool,
}

impl Tracked {
    fn finish(&mut self, cut: bool) {
        if !self.finished {
            self.finished = true;
            let _ = self.signals.try_send(Signal::Done { cut });
        }
    }
}

impl Iterator for Tracked {
    type Item = f32;

    fn next(&mut self) -> Option<f32> {
        if self.finished {
            return None;
        }
        if self.stop.load(Ordering::Relaxed) {
            self.finish(true);
            return None;
        }
        let Some(&sample) = self.samples.get(self.pos) else {
            self.finish(false);
            return None;
        };
        if self.pos == 0 {
            let _ = self.signals.try_send(Signal::First(Instant::now()));
        }
        self.pos += 1;
        Some(sample)
    }
}

impl Source for Tracked {
    fn current_span_len(&self) -> Option<usize> {
        None
    }

    fn channels(&self) -> u16 {
        1
    }

    fn sample_rate(&self) -> u32 {
        self.rate
    }

    fn total_duration(&self) -> Option<Duration> {
        None
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        // Dropped unfinished (mixer gone): whoever waits must not wait forever.
        self.finish(true);
    }
}

/// Keeps a device that does not pace itself (ALSA's null and file plugins
/// take samples as fast as they are given) at real time, so speech lasts as
/// long as it would on a sound card and an idle stream does not spin a core.
/// On a real device the callback never runs more than a buffer ahead, so
/// this never sleeps there.
struct Pacer {
    rate: f64,
    lead: Duration,
    start: Option<Instant>,
    frames: u64,
}

impl Pacer {
    fn before_fill(&mut self, frames: usize) {
        let now = Instant::now();
        let start = *self.start.get_or_insert(now);
        let due = Duration::from_secs_f64(self.frames as f64 / self.rate);
        let elapsed = now.saturating_duration_since(start);
        if due > elapsed + self.lead {
            std::thread::sleep((due - elapsed - self.lead).min(Duration::from_millis(100)));
        } else if elapsed > due + self.lead {
            // Behind (a stall, or a device that pulls in large bursts): re-anchor
            // rather than rushing to catch up.
            self.start = now.checked_sub(due);
        }
        self.frames += frames as u64;
    }
}

/// An open output stream: speak into it by [`Output::play`].
pub(crate) struct Output {
    name: String,
    mixer: Mixer,
    failed: Arc<AtomicBool>,
    _stream: cpal::Stream,
}

impl Output {
    /// Opens the named device (or the default) and starts its stream.
    /// `pace` keeps non-pacing devices at real time (see [`Pacer`]).
    pub fn open(device: Option<&str>, pace: bool) -> Result<Output, AudioError> {
        let dev = find_output_device(device)?;
        let name = dev.name().unwrap_or_else(|_| device.unwrap_or("default").to_owned());
        let err = |problem: String| AudioError::Device { device: name.clone(), problem };
        let supported = dev.default_output_config().map_err(|e| err(e.to_string()))?;
        let format = supported.sample_format();
        let mut config: cpal::StreamConfig = supported.into();
        let failed = Arc::new(AtomicBool::new(false));
        // Short buffers keep the move-to-sound latency low; devices that refuse
        // a fixed size get their default.
        let frames = (config.sample_rate.0 / 100).max(64);
        config.buffer_size = cpal::BufferSize::Fixed(frames);
        let (stream, mixer) = match build_stream(&dev, &config, format, pace, failed.clone()) {
            Ok(built) => built,
            Err(e) => {
                tracing::debug!(device = %name, error = %e, "fixed buffer refused; using the default");
                config.buffer_size = cpal::BufferSize::Default;
                build_stream(&dev, &config, format, pace, failed.clone()).map_err(err)?
            }
        };
        stream.play().map_err(|e| err(e.to_string()))?;
        tracing::info!(device = %name, rate = config.sample_rate.0, channels = config.channels, ?format, "audio output open");
        Ok(Output { name, mixer, failed, _stream: stream })
    }

    /// The device's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the device reported an error (unplugged, xrun it could not recover).
    pub fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Starts playing mono samples; signals arrive on the returned receiver.
    pub fn play(&self, samples: Vec<f32>, rate: u32, stop: Arc<AtomicBool>) -> Receiver<Signal> {
        let (tx, rx) = crossbeam_channel::bounded(4);
        self.mixer.add(Tracked { samples, pos: 0, rate: rate.max(1), stop, signals: tx, finished: false });
        rx
    }
}

fn build_stream(
    dev: &cpal::Device,
    config: &cpal::StreamConfig,
    format: cpal::SampleFormat,
    pace: bool,
    failed: Arc<AtomicBool>,
) -> Result<(cpal::Stream, Mixer), String> {
    let (mixer, source) = rodio::mixer::mixer(config.channels.max(1), config.sample_rate.0.max(1));
    let pacer = pace.then(|| Pacer {
        rate: f64::from(config.sample_rate.0.max(1)),
        // Far enough ahead that a real device with a large buffer (PipeWire's
        // ALSA plugin) never waits on us; a new clip is still pulled within
        // one callback, so the lead adds no latency.
        lead: Duration::from_millis(150),
        start: None,
        frames: 0,
    });
    let channels = usize::from(config.channels.max(1));
    let stream = match format {
        cpal::SampleFormat::F32 => typed_stream::<f32>(dev, config, source, pacer, channels, failed),
        cpal::SampleFormat::I16 => typed_stream::<i16>(dev, config, source, pacer, channels, failed),
        cpal::SampleFormat::U16 => typed_stream::<u16>(dev, config, source, pacer, channels, failed),
        cpal::SampleFormat::I32 => typed_stream::<i32>(dev, config, source, pacer, channels, failed),
        cpal::SampleFormat::U8 => typed_stream::<u8>(dev, config, source, pacer, channels, failed),
        cpal::SampleFormat::F64 => typed_stream::<f64>(dev, config, source, pacer, channels, failed),
        other => return Err(format!("unsupported sample format {other:?}")),
    }?;
    Ok((stream, mixer))
}

fn typed_stream<T>(
    dev: &cpal::Device,
    config: &cpal::StreamConfig,
    mut source: MixerSource,
    mut pacer: Option<Pacer>,
    channels: usize,
    failed: Arc<AtomicBool>,
) -> Result<cpal::Stream, String>
where
    T: SizedSample + FromSample<f32>,
{
    dev.build_output_stream::<T, _, _>(
        config,
        move |data: &mut [T], _| {
            if let Some(pacer) = pacer.as_mut() {
                pacer.before_fill(data.len() / channels);
            }
            for out in data.iter_mut() {
                *out = T::from_sample(source.next().unwrap_or(0.0));
            }
        },
        move |e| {
            tracing::warn!(error = %e, "audio output stream error");
            failed.store(true, Ordering::Relaxed);
        },
        None,
    )
    .map_err(|e| e.to_string())
}
