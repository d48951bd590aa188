//! One pack from one phrasebook: the words rendered in parallel espeak-ng
//! processes, the clips written into a temporary folder that replaces the
//! pack only when complete.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use station_audio::pack::{Manifest, ManifestWord, pack_dir};
use station_audio::pcm::{Clip, LoudnessSettings, TrimSettings, prepare_clip, resample};
use station_audio::wav::write_wav;
use station_audio::{AudioError, Espeak, espeak_voice};
use station_voices::Phrasebook;
use station_voices::voice_pack::{PackWord, pack_words};

use crate::overrides::Overrides;

/// How to build a pack.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// espeak-ng invocation.
    pub espeak: Espeak,
    /// espeak-ng voice; `None` picks it from the language.
    pub voice: Option<String>,
    /// Extra pronunciation overrides, applied over the built-in ones.
    pub overrides: Overrides,
    /// Build only these keys (tests, quick previews); `None` builds all.
    pub only: Option<Vec<String>>,
    /// espeak-ng processes run at once.
    pub jobs: usize,
    /// Silence trimming.
    pub trim: TrimSettings,
    /// Loudness normalisation.
    pub loudness: LoudnessSettings,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            espeak: Espeak::default(),
            voice: None,
            overrides: Overrides::default(),
            only: None,
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()).min(4),
            trim: TrimSettings::default(),
            loudness: LoudnessSettings::default(),
        }
    }
}

/// What a build produced.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// The pack folder.
    pub dir: PathBuf,
    /// Keys in the manifest.
    pub words: usize,
    /// Clip files written (fewer than words when texts repeat).
    pub clips: usize,
    /// Words that could not be rendered, with the reason.
    pub failed: Vec<(String, String)>,
    /// How long the build took.
    pub elapsed: Duration,
}

/// Builds the pack for `language` from `book` into `<packs_dir>/<language>/`
/// with espeak-ng: every word rendered (with pronunciation overrides),
/// trimmed and normalised. The pack is assembled in a temporary folder and
/// moved into place at the end, so a failed build leaves the old pack intact.
///
/// # Errors
/// [`AudioError::Io`] for file-system failures, [`AudioError::Espeak`] if no
/// word could be rendered at all.
pub fn build_pack(
    language: &str,
    book: &Phrasebook,
    packs_dir: &Path,
    options: &BuildOptions,
) -> Result<BuildReport, AudioError> {
    let started = Instant::now();
    let voice = options.voice.clone().unwrap_or_else(|| espeak_voice(language).to_owned());
    let mut overrides = Overrides::builtin(language);
    overrides.extend(&options.overrides);
    let words: Vec<PackWord> = pack_words(book)
        .into_iter()
        .filter(|w| options.only.as_ref().is_none_or(|only| only.contains(&w.key)))
        .collect();

    // One clip per distinct text; the first key names the file.
    let mut texts: Vec<(String, String)> = Vec::new(); // (file stem, text)
    let mut file_of: Vec<usize> = Vec::with_capacity(words.len());
    for w in &words {
        let lower = w.text.to_lowercase();
        let index = match texts.iter().position(|(_, t)| t.to_lowercase() == lower) {
            Some(i) => i,
            None => {
                texts.push((w.key.clone(), w.text.clone()));
                texts.len() - 1
            }
        };
        file_of.push(index);
    }

    let final_dir = pack_dir(packs_dir, language);
    let tmp_dir = packs_dir.join(format!(".{language}.building-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp_dir);
    std::fs::create_dir_all(&tmp_dir).map_err(|e| io_error(&tmp_dir, e))?;

    let rendered = render_all(&texts, &voice, &overrides, options);
    let rate = rendered.iter().find_map(|r| r.as_ref().ok().map(|c| c.rate)).unwrap_or(22_050);
    let mut failed = Vec::new();
    let mut written = vec![false; texts.len()];
    for (i, result) in rendered.iter().enumerate() {
        let (stem, text) = &texts[i];
        match result {
            Ok(clip) => {
                let clip = if clip.rate == rate {
                    clip.clone()
                } else {
                    Clip::new(rate, resample(&clip.samples, clip.rate, rate))
                };
                write_wav(&tmp_dir.join(format!("{stem}.wav")), &clip)?;
                written[i] = true;
            }
            Err(e) => {
                tracing::warn!(%language, word = %text, error = %e, "pack word not rendered");
                failed.push((text.clone(), e.to_string()));
            }
        }
    }
    if !written.iter().any(|&w| w) && !texts.is_empty() {
        let _ = std::fs::remove_dir_all(&tmp_dir);
        let reason = failed.first().map_or_else(String::new, |(_, e)| e.clone());
        return Err(AudioError::Espeak(format!("no word of {language:?} could be rendered: {reason}")));
    }
    let mut manifest = Manifest::new(language, format!("espeak-ng {voice}"), rate);
    for (w, &index) in words.iter().zip(&file_of) {
        if written[index] {
            let file = format!("{}.wav", texts[index].0);
            manifest.words.insert(w.key.clone(), ManifestWord { text: w.text.clone(), file });
        }
    }
    manifest.save(&tmp_dir)?;
    replace_dir(&tmp_dir, &final_dir)?;
    let report = BuildReport {
        dir: final_dir,
        words: manifest.words.len(),
        clips: written.iter().filter(|&&w| w).count(),
        failed,
        elapsed: started.elapsed(),
    };
    tracing::info!(%language, words = report.words, clips = report.clips, elapsed = ?report.elapsed, "voice pack built");
    Ok(report)
}

fn render_all(
    texts: &[(String, String)],
    voice: &str,
    overrides: &Overrides,
    options: &BuildOptions,
) -> Vec<Result<Clip, AudioError>> {
    let jobs = options.jobs.max(1);
    let chunk = texts.len().div_ceil(jobs).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = texts
            .chunks(chunk)
            .map(|part| {
                let len = part.len();
                let handle = scope.spawn(move || {
                    part.iter()
                        .map(|(_, text)| {
                            let raw = options.espeak.render(voice, &overrides.apply(text))?;
                            let clip = prepare_clip(&raw, &options.trim, &options.loudness);
                            if clip.samples.is_empty() {
                                return Err(AudioError::Espeak(format!("{text:?} rendered as silence")));
                            }
                            Ok(clip)
                        })
                        .collect::<Vec<_>>()
                });
                (len, handle)
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(len, h)| {
                h.join().unwrap_or_else(|_| {
                    (0..len).map(|_| Err(AudioError::Espeak("render thread failed".to_owned()))).collect()
                })
            })
            .collect()
    })
}

/// Moves `from` to `to`, replacing whatever was there.
fn replace_dir(from: &Path, to: &Path) -> Result<(), AudioError> {
    if to.exists() {
        let old = to.with_extension(format!("old-{}", std::process::id()));
        std::fs::rename(to, &old).map_err(|e| io_error(to, e))?;
        std::fs::rename(from, to).map_err(|e| io_error(to, e))?;
        let _ = std::fs::remove_dir_all(&old);
    } else {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
        }
        std::fs::rename(from, to).map_err(|e| io_error(to, e))?;
    }
    Ok(())
}

fn io_error(path: impl Into<PathBuf>, source: std::io::Error) -> AudioError {
    AudioError::Io { path: path.into(), source }
}
