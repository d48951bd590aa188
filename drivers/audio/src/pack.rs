//! Voice packs: one short clip per word, concatenated at speaking time — the
//! lowest latency and the same voice every time. Here they are loaded and
//! spoken; `station-voice-packs` builds them with espeak-ng, [`crate::Recorder`]
//! records them in a human voice.
//!
//! A pack is a folder `<packs_dir>/<lang>/` holding `manifest.toml` and mono
//! 16-bit WAV clips, trimmed of silence and loudness-normalised:
//!
//! ```toml
//! language = "de"
//! voice = "espeak-ng de"
//! sample_rate = 22050
//! gap_ms = 60
//! pause_ms = 250
//!
//! [words."letter.a"]
//! text = "Anna"
//! file = "letter.a.wav"
//! ```

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::error::AudioError;
use super::pcm::{Clip, Segment, assemble, resample};
use super::utterance::Utterance;
use super::wav::read_wav;
use station_voices::voice_pack::{TextPiece, split_text};

/// File name of a pack's manifest.
pub const MANIFEST: &str = "manifest.toml";

/// Longest run of words looked up as one phrase ("Die Stellungen auf den
/// Brettern sind verschieden" is one message clip).
const MAX_PHRASE_WORDS: usize = 8;

/// The folder of the pack for `language` under `packs_dir`.
pub fn pack_dir(packs_dir: &Path, language: &str) -> PathBuf {
    packs_dir.join(language)
}

/// The contents of `manifest.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Language code, e.g. "de".
    pub language: String,
    /// Who or what speaks ("espeak-ng de", "recorded by …").
    pub voice: String,
    /// Sample rate of every clip.
    pub sample_rate: u32,
    /// Silence between words.
    #[serde(default = "default_gap_ms")]
    pub gap_ms: u32,
    /// Silence at sentence punctuation.
    #[serde(default = "default_pause_ms")]
    pub pause_ms: u32,
    /// Pack key → clip.
    pub words: BTreeMap<String, ManifestWord>,
}

fn default_gap_ms() -> u32 {
    60
}

fn default_pause_ms() -> u32 {
    250
}

/// One clip of a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestWord {
    /// What the clip says.
    pub text: String,
    /// The WAV file, relative to the pack folder.
    pub file: String,
}

impl Manifest {
    /// A manifest without words, with the usual gap and pause.
    pub fn new(language: &str, voice: String, sample_rate: u32) -> Manifest {
        Manifest {
            language: language.to_owned(),
            voice,
            sample_rate,
            gap_ms: default_gap_ms(),
            pause_ms: default_pause_ms(),
            words: BTreeMap::new(),
        }
    }

    /// Reads `<dir>/manifest.toml`.
    ///
    /// # Errors
    /// [`AudioError::Pack`] if missing or malformed.
    pub fn load(dir: &Path) -> Result<Manifest, AudioError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| AudioError::Pack {
            path: path.clone(),
            problem: format!("cannot read manifest: {e}"),
        })?;
        toml::from_str(&text).map_err(|e| AudioError::Pack { path, problem: e.to_string() })
    }

    /// Writes `<dir>/manifest.toml`.
    ///
    /// # Errors
    /// [`AudioError::Io`] or [`AudioError::Pack`].
    pub fn save(&self, dir: &Path) -> Result<(), AudioError> {
        let path = dir.join(MANIFEST);
        let text = toml::to_string(self)
            .map_err(|e| AudioError::Pack { path: path.clone(), problem: e.to_string() })?;
        std::fs::write(&path, text).map_err(|e| AudioError::io(path, e))
    }
}

#[derive(Debug)]
struct LoadedClip {
    text_lower: String,
    samples: Vec<i16>,
}

/// A loaded voice pack: every clip in memory, found by key or by text.
#[derive(Debug)]
pub struct VoicePack {
    language: String,
    voice: String,
    rate: u32,
    gap: Duration,
    pause: Duration,
    clips: Vec<LoadedClip>,
    by_key: HashMap<String, usize>,
    by_text: HashMap<String, usize>,
    problems: Vec<String>,
}

impl VoicePack {
    /// Loads the pack in `dir`. Clips that are missing or fail to decode are
    /// left out and listed in [`VoicePack::problems`]: utterances needing
    /// them fall back to the next voice, the rest still use the pack.
    ///
    /// # Errors
    /// [`AudioError::Pack`] if the manifest is missing or malformed, or no
    /// clip at all could be loaded.
    pub fn load(dir: &Path) -> Result<VoicePack, AudioError> {
        let manifest = Manifest::load(dir)?;
        let rate = manifest.sample_rate;
        if rate == 0 {
            return Err(AudioError::Pack { path: dir.to_owned(), problem: "sample_rate is 0".to_owned() });
        }
        let mut pack = VoicePack {
            language: manifest.language.clone(),
            voice: manifest.voice.clone(),
            rate,
            gap: Duration::from_millis(u64::from(manifest.gap_ms)),
            pause: Duration::from_millis(u64::from(manifest.pause_ms)),
            clips: Vec::new(),
            by_key: HashMap::new(),
            by_text: HashMap::new(),
            problems: Vec::new(),
        };
        let mut by_file: HashMap<&str, usize> = HashMap::new();
        for (key, word) in &manifest.words {
            let index = match by_file.get(word.file.as_str()) {
                Some(&i) => i,
                None => match read_wav(&dir.join(&word.file)) {
                    Ok(clip) => {
                        let samples = if clip.rate == rate {
                            clip.samples
                        } else {
                            resample(&clip.samples, clip.rate, rate)
                        };
                        pack.clips.push(LoadedClip { text_lower: word.text.to_lowercase(), samples });
                        by_file.insert(&word.file, pack.clips.len() - 1);
                        pack.clips.len() - 1
                    }
                    Err(e) => {
                        tracing::warn!(pack = %dir.display(), %key, error = %e, "voice pack clip unusable");
                        pack.problems.push(format!("{key}: {e}"));
                        continue;
                    }
                },
            };
            pack.by_key.insert(key.clone(), index);
            pack.by_text.entry(word.text.to_lowercase()).or_insert(index);
        }
        if pack.clips.is_empty() {
            return Err(AudioError::Pack { path: dir.to_owned(), problem: "no usable clip".to_owned() });
        }
        Ok(pack)
    }

    /// Loads `<packs_dir>/<language>/`.
    ///
    /// # Errors
    /// As [`VoicePack::load`].
    pub fn load_language(packs_dir: &Path, language: &str) -> Result<VoicePack, AudioError> {
        VoicePack::load(&pack_dir(packs_dir, language))
    }

    /// Language code.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// Who speaks.
    pub fn voice(&self) -> &str {
        &self.voice
    }

    /// Sample rate of the clips.
    pub fn sample_rate(&self) -> u32 {
        self.rate
    }

    /// Number of keys with a usable clip.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether no clip is usable (never true for a loaded pack).
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Clips that could not be loaded, as "key: reason".
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Whether the pack can say `utterance` entirely.
    pub fn covers(&self, utterance: &Utterance) -> bool {
        self.segments(utterance).is_ok()
    }

    /// The clips and gaps that say `utterance`.
    ///
    /// # Errors
    /// [`AudioError::MissingWord`] naming the first word without a clip.
    pub fn segments(&self, utterance: &Utterance) -> Result<Vec<Segment<'_>>, AudioError> {
        let mut out = Vec::with_capacity(utterance.word_count() * 2);
        if !utterance.words().is_empty() {
            for word in utterance.words() {
                let lower = word.text.to_lowercase();
                // The key must also say the same text: a wording whose letters
                // come from another language must not get this pack's letter.
                let index = word
                    .key
                    .and_then(|k| self.by_key.get(k).copied())
                    .filter(|&i| self.clips[i].text_lower == lower)
                    .or_else(|| self.by_text.get(&lower).copied())
                    .ok_or_else(|| self.missing(&word.text))?;
                self.push_word(&mut out, index);
            }
            return Ok(out);
        }
        let pieces = split_text(utterance.as_str());
        let mut i = 0;
        while i < pieces.len() {
            match &pieces[i] {
                TextPiece::Pause => {
                    if let Some(Segment::Gap(_)) = out.last() {
                        out.pop();
                    }
                    if !out.is_empty() {
                        out.push(Segment::Gap(self.pause));
                    }
                    i += 1;
                }
                TextPiece::Word(first) => {
                    let run = pieces[i..]
                        .iter()
                        .take(MAX_PHRASE_WORDS)
                        .take_while(|p| matches!(p, TextPiece::Word(_)))
                        .count();
                    let found = (1..=run).rev().find_map(|n| {
                        let phrase = pieces[i..i + n]
                            .iter()
                            .filter_map(|p| if let TextPiece::Word(w) = p { Some(w.as_str()) } else { None })
                            .collect::<Vec<_>>()
                            .join(" ");
                        self.by_text.get(&phrase).map(|&index| (n, index))
                    });
                    let (n, index) = found.ok_or_else(|| self.missing(first))?;
                    self.push_word(&mut out, index);
                    i += n;
                }
            }
        }
        if let Some(Segment::Gap(_)) = out.last() {
            out.pop();
        }
        Ok(out)
    }

    /// Says `utterance` into one clip at the pack's rate.
    ///
    /// # Errors
    /// As [`VoicePack::segments`].
    pub fn render(&self, utterance: &Utterance, volume: f32) -> Result<Clip, AudioError> {
        let segments = self.segments(utterance)?;
        Ok(Clip::new(self.rate, assemble(&segments, self.rate, volume)))
    }

    fn push_word<'a>(&'a self, out: &mut Vec<Segment<'a>>, index: usize) {
        if matches!(out.last(), Some(Segment::Clip(_))) {
            out.push(Segment::Gap(self.gap));
        }
        out.push(Segment::Clip(&self.clips[index].samples));
    }

    fn missing(&self, word: &str) -> AudioError {
        AudioError::MissingWord { language: self.language.clone(), word: word.to_owned() }
    }
}
