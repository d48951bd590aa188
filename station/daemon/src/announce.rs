//! `station announce`: how the station words moves and clock readings.

use anyhow::{Context, Result, bail};
use shakmaty::Position;
use station_core::notation::read_exactly;
use station_voices::{VoiceSettings, Wording, position_from_fen};

/// `station announce` arguments.
pub struct AnnounceOptions {
    /// Wording settings (language, letters, ranks, pawns, long form).
    pub voice: VoiceSettings,
    /// Start position (standard when absent).
    pub fen: Option<String>,
    /// Moves in any notation the core reads (SAN, Polish, ICCF, long,
    /// figurine, UCI), played one after another.
    pub moves: Vec<String>,
    /// `WHITE_MS,BLACK_MS` for a clock reading.
    pub clock: Option<String>,
    /// Moves made, for the clock reading.
    pub moves_made: Option<u32>,
    /// Whose earphone the clock reading is for (white by default).
    pub side_black: bool,
}

/// Prints one line per move, or the clock reading.
pub fn announce(opts: &AnnounceOptions) -> Result<Vec<String>> {
    let wording = Wording::new(&opts.voice)?;
    let mut lines = Vec::new();
    if let Some(clock) = &opts.clock {
        let (white, black) = parse_clock(clock)?;
        let moves = opts.moves_made.context("--clock needs --moves N (the number of moves made)")?;
        let (own, opponent) = if opts.side_black { (black, white) } else { (white, black) };
        lines.push(wording.clock_report(own, opponent, moves));
    }
    let mut pos = position_from_fen(opts.fen.as_deref().unwrap_or("startpos"))?;
    for text in &opts.moves {
        let mv = read_exactly(&pos, text)
            .map_err(|why| anyhow::anyhow!("`{text}` is not a legal move here: {why}"))?;
        lines.push(wording.word_move(&pos, &mv)?.to_string());
        pos.play_unchecked(mv);
    }
    if lines.is_empty() {
        bail!("nothing to announce: give moves, or --clock WHITE_MS,BLACK_MS --moves N");
    }
    Ok(lines)
}

/// Renders the lines to a WAV file: the voice pack of `lang` when it covers
/// them, espeak-ng otherwise.
pub fn render(lines: &[String], lang: &str, packs: &std::path::Path, path: &std::path::Path) -> Result<()> {
    use station_drivers::audio::{RenderVoice, Utterance, VoicePack, render_wav};
    let pack = VoicePack::load_language(packs, lang).ok();
    let utterance = Utterance::text(lines.join(". "));
    let kind = render_wav(&utterance, &RenderVoice::new(pack.as_ref(), lang), path)
        .with_context(|| format!("cannot render {}", path.display()))?;
    eprintln!("rendered {} with {kind:?}", path.display());
    Ok(())
}

fn parse_clock(text: &str) -> Result<(u64, u64)> {
    let (w, b) = text.split_once(',').context("--clock takes WHITE_MS,BLACK_MS")?;
    let ms =
        |s: &str| s.trim().parse::<u64>().with_context(|| format!("`{s}` is not a number of milliseconds"));
    Ok((ms(w)?, ms(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(lang: &str, moves: &[&str]) -> AnnounceOptions {
        AnnounceOptions {
            voice: VoiceSettings::language(lang),
            fen: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            clock: None,
            moves_made: None,
            side_black: false,
        }
    }

    #[test]
    fn moves_are_played_in_sequence_in_san_or_uci() {
        let lines = announce(&opts("de", &["e4", "e7e5", "Nf3"])).unwrap();
        assert_eq!(lines, ["Eva vier", "Eva fünf", "Springer Felix drei"]);
        let lines = announce(&opts("pl", &["g1f3"])).unwrap();
        assert_eq!(lines, ["skoczek Feliks trzy"]);
        assert!(announce(&opts("de", &["e5"])).is_err());
    }

    #[test]
    fn the_clock_reading_is_from_the_chosen_side() {
        let mut o = opts("de", &[]);
        o.clock = Some("4320000,3480000".into());
        o.moves_made = Some(22);
        assert_eq!(
            announce(&o).unwrap(),
            ["Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."]
        );
        o.side_black = true;
        assert!(announce(&o).unwrap()[0].starts_with("Sie: achtundfünfzig Minuten."));
        o.moves_made = None;
        assert!(announce(&o).is_err());
    }
}
