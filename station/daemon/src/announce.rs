//! `station announce --wav`: the words of moves (put into words by the
//! game's [`station_app::games::GameWords`]) rendered to a sound file.

use anyhow::{Context, Result};

/// Renders the lines to a WAV file: the voice pack of `lang` when it covers
/// them, espeak-ng otherwise.
pub fn render(lines: &[String], lang: &str, packs: &std::path::Path, path: &std::path::Path) -> Result<()> {
    use station_audio::{RenderVoice, Utterance, VoicePack, render_wav};
    let pack = VoicePack::load_language(packs, lang).ok();
    let utterance = Utterance::text(lines.join(". "));
    let kind = render_wav(&utterance, &RenderVoice::new(pack.as_ref(), lang), path)
        .with_context(|| format!("cannot render {}", path.display()))?;
    eprintln!("rendered {} with {kind:?}", path.display());
    Ok(())
}
