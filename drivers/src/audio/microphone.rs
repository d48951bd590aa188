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

/// A WAV file delivered as a sound card would: 100 ms chunks at their real
/// time, then silence for ever.
pub struct WavPlayer {
    audio: WavAudio,
    name: String,
    at: usize,
    started: Instant,
    chunks: u32,
}

impl WavPlayer {
    /// Plays `audio` from now on; `name` names it (its file).
    pub fn new(audio: WavAudio, name: String) -> WavPlayer {
        WavPlayer { audio, name, at: 0, started: Instant::now(), chunks: 0 }
    }

    /// The next 100 ms, when a sound card would deliver it: once recorded.
    pub fn next_chunk(&mut self) -> Chunk {
        let due = self.started + Duration::from_millis(100) * (self.chunks + 1);
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        self.chunks += 1;
        let len = (self.audio.rate as usize / 10).max(1) * usize::from(self.audio.channels.max(1));
        let (from, to) = (self.at, self.at + len);
        self.at = to;
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
