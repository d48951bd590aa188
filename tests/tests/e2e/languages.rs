//! Issue 36's acceptance through the real binary, in every built-in
//! language: `station announce --lang L` words Nf3, O-O, O-O-O, exd5, Qxf7#
//! and b8=Q+ with the language's chess words, `station understand --lang L`
//! reads each announcement back as the same move, a clock reading speaks the
//! minutes in the language, and `--wav` renders audible speech.

use station_tests::{scratch, station_bin};
use std::process::Command;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Both sides free to castle either way.
const CASTLING: &str = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";
/// After 1. e4 d5.
const SCANDINAVIAN: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
/// After 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6.
const SCHOLAR: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
const PROMOTION: &str = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";

/// (position, SAN, UCI): the moves the issue names.
const MOVES: [(&str, &str, &str); 6] = [
    (START, "Nf3", "g1f3"),
    (CASTLING, "O-O", "e1g1"),
    (CASTLING, "O-O-O", "e1c1"),
    (SCANDINAVIAN, "exd5", "e4d5"),
    (SCHOLAR, "Qxf7#", "h5f7"),
    (PROMOTION, "b8=Q+", "b7b8q"),
];

fn station(args: &[&str]) -> String {
    let out = Command::new(station_bin()).args(args).output().unwrap();
    assert!(out.status.success(), "station {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The mean absolute sample of a 16-bit WAV file, and its length in samples.
fn loudness(path: &std::path::Path) -> (f64, usize) {
    let mut wav = hound::WavReader::open(path).unwrap();
    let samples: Vec<i16> = wav.samples::<i16>().map(Result::unwrap).collect();
    let sum: f64 = samples.iter().map(|s| f64::from(*s).abs()).sum();
    (sum / samples.len().max(1) as f64, samples.len())
}

#[test]
fn every_language_announces_understands_clocks_and_voices_the_issues_moves() {
    let dir = scratch("languages");
    let english: Vec<String> =
        MOVES.iter().map(|(fen, san, _)| station(&["announce", "--lang", "en", "--fen", fen, san])).collect();
    for lang in station_voices::BUILTIN_LANGUAGES {
        let book = station_voices::Phrasebook::builtin(lang).unwrap();
        for ((fen, san, uci), in_english) in MOVES.iter().zip(&english) {
            let said = station(&["announce", "--lang", lang, "--fen", fen, san]);
            assert!(!said.is_empty() && !said.contains(san), "{lang} {san}: {said:?}");
            if lang != "en" {
                assert_ne!(&said, in_english, "{lang} {san} is worded in English");
            }
            let heard = station(&["understand", "--lang", lang, "--fen", fen, &said]);
            assert!(
                heard.starts_with(&format!("move {uci} ")),
                "{lang} {san}: {said:?} understood as {heard:?}"
            );
        }
        // The language's own words for the pieces and for castling.
        let queen = book.piece(shakmaty::Role::Queen).say().to_lowercase();
        let promoted = station(&["announce", "--lang", lang, "--fen", PROMOTION, "b8=Q+"]).to_lowercase();
        assert!(promoted.contains(&queen), "{lang}: {promoted:?} without {queen:?}");
        let castled = station(&["announce", "--lang", lang, "--fen", CASTLING, "O-O"]).to_lowercase();
        let short = book.words().short_castling.say().to_lowercase();
        assert!(castled.contains(&short), "{lang}: {castled:?} without {short:?}");

        // Five minutes and four minutes left, twenty moves made.
        let clock = station(&["announce", "--lang", lang, "--clock", "300000,240000", "--moves", "20"]);
        let minutes = book.clock().minute.form(station_voices::PluralForm::Other).to_lowercase();
        assert!(clock.to_lowercase().contains(&minutes), "{lang}: {clock:?} without {minutes:?}");
        assert!(!clock.chars().any(|c| c.is_ascii_digit()), "{lang}: {clock:?}");

        let wav = dir.join(format!("{lang}.wav"));
        let packs = dir.join("no-packs");
        station(&[
            "announce",
            "--lang",
            lang,
            "--fen",
            SCHOLAR,
            "Qxf7#",
            "--wav",
            wav.to_str().unwrap(),
            "--packs",
            packs.to_str().unwrap(),
        ]);
        let (mean, samples) = loudness(&wav);
        assert!(samples > 8_000 && mean > 100.0, "{lang}: {samples} samples, mean {mean:.0}: silent");
    }
}
