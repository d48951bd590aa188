//! What telling a change costs (issue 22 §6): a take-back of three plies
//! (with its steps, an illegal move found late) worded in the three languages
//! as the mirror's line is made once per batch, and making the three
//! languages' wordings (`cargo bench -p station-app --bench told`). Each
//! figure is a line `figure<TAB>name<TAB>value<TAB>unit` on stdout.

use shakmaty::Color;
use station_app::told::{Change, Told, Viewer, word};
use station_core::TrackerConfig;
use station_core::input::Input;
use station_core::table::{Table, TableConfig};
use station_voices::{BUILTIN_LANGUAGES, VoiceSettings, Wording};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The mirror's viewer: the sighted player, Black.
const MIRROR: Viewer = Viewer { color: Color::Black, blind: false };

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

/// The changes told after `input`, the table's events folded one batch at a time.
fn apply(table: &mut Table, told: &mut Told, t: &mut u64, input: Input) -> Result<Vec<Change>> {
    *t += 1000;
    let events = table.apply(*t, &input).map_err(|e| format!("{input:?}: {e}"))?;
    let mut changes = Vec::new();
    for e in &events {
        changes.extend(told.observe(e, table));
    }
    changes.extend(told.flush());
    Ok(changes)
}

fn main() -> Result<()> {
    // A table with no sensed board and a clock: the arbiter enters every move.
    let cfg = TableConfig {
        blind_unsensed: true,
        time_control: Some("5400+30".parse()?),
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut table = Table::new(cfg);
    let mut told = Told::new();
    let mut t = 1000;
    apply(&mut table, &mut told, &mut t, Input::Tick)?;
    for m in ["e4", "e5", "Nf3", "Nc6"] {
        apply(&mut table, &mut told, &mut t, Input::EnterMove { mv: m.into() })?;
    }
    let changes = apply(&mut table, &mut told, &mut t, Input::IllegalMove { ply: 2 })?;
    if changes.is_empty() {
        return Err("the illegal move found late told nothing".into());
    }
    let words: Vec<Wording> = BUILTIN_LANGUAGES
        .iter()
        .map(|l| Wording::new(&VoiceSettings::language(l)))
        .collect::<std::result::Result<_, _>>()?;
    let n = 10_000;
    let start = std::time::Instant::now();
    let mut chars = 0;
    for _ in 0..n {
        for w in &words {
            chars += changes.iter().map(|c| word(c, w, MIRROR).len()).sum::<usize>();
        }
    }
    let each = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    eprintln!("{n} mirror lines (take-back and time, de+pl+en): {each:.1} µs each ({chars} chars)");
    figure("a take-back's mirror line in de+pl+en (10,000 times)", each, "µs");
    let start = std::time::Instant::now();
    for _ in 0..n {
        for l in BUILTIN_LANGUAGES {
            std::hint::black_box(Wording::new(&VoiceSettings::language(l))?);
        }
    }
    let each = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    eprintln!("Wording::new for three languages: {each:.1} µs");
    figure("Wording::new for de+pl+en (10,000 times)", each, "µs");
    Ok(())
}
