//! Sound in and out: the announcements spoken in each listener's ear (this
//! module) and offline speech recognition ([`speech`], Vosk). The one driver
//! crate that uses libvosk, cpal, rodio and speech-dispatcher.
//!
//! * Voices, best first: a **voice pack** ([`pack`]: one clip per word,
//!   built with espeak-ng by `station-voice-packs` or recorded by [`Recorder`]),
//!   **espeak-ng** rendering whole texts, **speech-dispatcher** (the screen
//!   reader's voice, [`VoiceKind::Tts`]), and **text**, which always works.
//! * Two listeners ([`Listeners`]): the blind player's earphone and a public
//!   speaker, each a [`Speaker`] with its own device, language and queue.
//! * [`Speaker::say`] never blocks: urgent messages pre-empt, a newer move
//!   replaces a stale one (a move decided with the one before it follows it:
//!   [`Speaker::say_following_move`]), and the queue is bounded.
//! * [`render_wav`] writes an utterance to a file; [`list_output_devices`]
//!   names the devices for the config.
//! * [`phonemes`]: how words sound, from espeak-ng, for the repair of
//!   misheard moves (a phrasebook's `[listening.phonemes]` once; words outside
//!   it on demand, [`EspeakPronouncer`]).
//!
//! No failure here stops a game: a missing device, pack or clip becomes a
//! warning (log, [`SpeakerStatus`], [`SpeakerEvent::Warning`]) and the next
//! voice takes over.
//!
//! Each `Speaker` tells how each utterance ended (`endings`: finished; estimated for
//! speech-dispatcher, which reports no end; cut; dropped). `cut` serves the listener's
//! `silence` (queued moves kept); `set_rate` changes the speaking rate, which `stretch` applies
//! to pack speech at the same pitch. The speakers hold the microphone's mute flag while they
//! talk.

mod bench;
mod error;
mod espeak;
pub mod microphone;
mod output;
pub mod pack;
pub mod pcm;
pub mod phonemes;
mod queue;
mod record;
mod render;
mod settings;
mod speaker;
pub mod speech;
pub mod stretch;
mod tts_voice;
mod utterance;
pub mod wav;

pub use bench::{LatencyReport, bench_move_to_sound, bench_wording};
pub use error::AudioError;
pub use espeak::{Espeak, espeak_voice};
pub use output::{OutputDeviceInfo, list_output_devices};
pub use pack::{Manifest, VoicePack, pack_dir};
pub use pcm::Clip;
pub use phonemes::{EspeakPronouncer, PhonemeError, espeak_phonemes, phoneme_table};
pub use record::{MIN_WORD, Recorder, TakeProblem, capture, process_take};
pub use render::{RenderVoice, render_clip, render_wav};
pub use settings::{AudioSettings, ListenerSettings, VoiceKind};
pub use speaker::{Ended, Ending, Listeners, Speaker, SpeakerEvent, SpeakerStatus};
pub use station_voices::voice_pack::{PACK_NUMBERS_UP_TO, PackWord, message_key, pack_words, word_key};
pub use utterance::{Priority, Utterance, UtteranceWord};
