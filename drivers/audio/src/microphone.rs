//! The listening thread's sound source: the microphone (cpal capture,
//! [`crate::speech::Microphone`]) or its simulated twin, a WAV file delivered
//! as a sound card would deliver it (the tests' `[speech] input_wav`). It only
//! moves samples; the app's listening thread turns them into words.

use crate::speech::{InputFormat, Microphone, WavAudio, WavSamples};
use crossbeam_channel::RecvTimeoutError;
use std::time::{Duration, Instant};

/// What a source gave.
pub enum Next {
    /// Sound.
    Chunk(Chunk),
    /// Nothing for 100 ms.
    Idle,
    /// The capture stream is gone.
    Gone,
}

/// A chunk of interleaved samples, as the source delivers them.
pub enum Chunk {
    /// Float samples (a sound card).
    F32(Vec<f32>),
    /// 16-bit samples (a WAV file).
    I16(Vec<i16>),
}

/// Where the listening thread's sound comes from.
pub enum SoundInput {
    /// The microphone (cpal capture).
    Mic(Microphone),
    /// Its simulated twin: a WAV file (tests, `[speech] input_wav`).
    Wav(WavPlayer),
}

impl SoundInput {
    /// The rate and channels of its samples.
    pub fn format(&self) -> InputFormat {
        match self {
            SoundInput::Mic(m) => m.format(),
            SoundInput::Wav(w) => InputFormat { rate: w.audio.rate, channels: w.audio.channels },
        }
    }

    /// Its name, for what is told about it.
    pub fn name(&self) -> String {
        match self {
            SoundInput::Mic(m) => m.name().to_owned(),
            SoundInput::Wav(w) => format!("test input {}", w.name),
        }
    }

    /// When the last sample of the last chunk was recorded, where the source
    /// knows it (the twin); `None` for the microphone, whose chunks count as
    /// recorded when they arrive.
    pub fn recorded(&self) -> Option<Instant> {
        match self {
            SoundInput::Mic(_) => None,
            SoundInput::Wav(w) => Some(w.recorded()),
        }
    }

    /// The next chunk, waiting at most 100 ms for it.
    pub fn next_chunk(&mut self) -> Next {
        match self {
            SoundInput::Mic(m) => match m.chunks().recv_timeout(Duration::from_millis(100)) {
                Ok(chunk) => Next::Chunk(Chunk::F32(chunk)),
                Err(RecvTimeoutError::Timeout) => Next::Idle,
                Err(RecvTimeoutError::Disconnected) => Next::Gone,
            },
            SoundInput::Wav(w) => Next::Chunk(w.next_chunk()),
        }
    }
}

/// How often a sound card hands over what it recorded: cpal's ALSA backend
/// (the microphone's, [`Microphone::open`] with the default buffer size) asks
/// for 25 ms periods in a 100 ms buffer. The twin keeps the same pace, so the
/// wait for the audio after the end of speech is what the station meets.
pub const PERIOD: Duration = Duration::from_millis(25);

/// A WAV file delivered as a sound card would: a [`PERIOD`] of audio once it
/// is recorded, in real time, then silence for ever.
pub struct WavPlayer {
    audio: WavAudio,
    name: String,
    started: Instant,
    chunks: u32,
}

impl WavPlayer {
    /// Plays `audio` from now on; `name` names it (its file).
    pub fn new(audio: WavAudio, name: String) -> WavPlayer {
        WavPlayer { audio, name, started: Instant::now(), chunks: 0 }
    }

    /// When the last sample of the chunk last handed over was recorded (the
    /// start of the playing before the first).
    pub fn recorded(&self) -> Instant {
        self.started + PERIOD * self.chunks
    }

    /// The next period, when a sound card would deliver it: once recorded.
    /// Its bounds are counted from the start in samples, so the pace stays
    /// exact whatever the rate.
    pub fn next_chunk(&mut self) -> Chunk {
        let due = self.started + PERIOD * (self.chunks + 1);
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        let channels = usize::from(self.audio.channels.max(1));
        let frames_until = |chunks: u32| {
            (u128::from(chunks) * PERIOD.as_micros() * u128::from(self.audio.rate) / 1_000_000) as usize
        };
        let (from, to) = (frames_until(self.chunks) * channels, frames_until(self.chunks + 1) * channels);
        self.chunks += 1;
        let len = to - from;
        match &self.audio.samples {
            WavSamples::I16(s) => {
                let mut chunk: Vec<i16> = s.get(from..to.min(s.len())).unwrap_or_default().to_vec();
                chunk.resize(len, 0);
                Chunk::I16(chunk)
            }
            WavSamples::F32(s) => {
                let mut chunk: Vec<f32> = s.get(from..to.min(s.len())).unwrap_or_default().to_vec();
                chunk.resize(len, 0.0);
                Chunk::F32(chunk)
            }
        }
    }
}
