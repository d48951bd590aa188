//! The UCI protocol, pure: the lines an engine writes, read; the lines the
//! station writes, formatted. Nothing here touches a process.

use std::fmt::Write as _;

/// One option an engine offers (`option name … type spin default … min … max …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name (`UCI_Elo`, `Skill Level`).
    pub name: String,
    /// `spin`, `check`, `string`, `button`, `combo`.
    pub kind: String,
    /// The lower bound of a `spin`.
    pub min: Option<i64>,
    /// The upper bound of a `spin`.
    pub max: Option<i64>,
}

/// A score of a position from the side to move, as the engine gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, a mate counted as a large score that is nearer the nearer the mate.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n.min(1000),
            Score::Mate(n) => -100_000 + (-n).min(1000),
        }
    }
}

/// A line an engine wrote, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …`.
    Name(String),
    /// `option name …`.
    Option(EngineOption),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info … score …` (only the score is kept).
    Info {
        /// The score, when the line has one.
        score: Option<Score>,
    },
    /// `bestmove M [ponder P]`: the move as written (not yet checked).
    BestMove(String),
    /// Anything else: UCI says an unknown line is ignored.
    Other,
}

/// The longest line read from an engine; a longer one is cut (garbage).
pub const MAX_LINE: usize = 4096;

/// Reads one line an engine wrote.
pub fn parse_line(line: &str) -> EngineLine {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("id") => match words.next() {
            Some("name") => EngineLine::Name(words.collect::<Vec<_>>().join(" ")),
            _ => EngineLine::Other,
        },
        Some("option") => parse_option(line).map_or(EngineLine::Other, EngineLine::Option),
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("info") => EngineLine::Info { score: parse_score(words) },
        Some("bestmove") => EngineLine::BestMove(words.next().unwrap_or("").to_string()),
        _ => EngineLine::Other,
    }
}

fn parse_score<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<Score> {
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let value: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(Score::Cp(value)),
                "mate" => Some(Score::Mate(value)),
                _ => None,
            };
        }
    }
    None
}

/// `option name NAME type KIND [default D] [min A] [max B] …`: the name may hold spaces.
fn parse_option(line: &str) -> Option<EngineOption> {
    let rest = line.strip_prefix("option")?.trim_start().strip_prefix("name")?;
    let (name, rest) = rest.split_once(" type ")?;
    let mut words = rest.split_whitespace();
    let kind = words.next()?.to_string();
    let (mut min, mut max) = (None, None);
    while let Some(w) = words.next() {
        match w {
            "min" => min = words.next().and_then(|v| v.parse().ok()),
            "max" => max = words.next().and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
    Some(EngineOption { name: name.trim().to_string(), kind, min, max })
}

/// The position command: `position startpos|fen FEN [moves …]`.
pub fn position_command(fen: Option<&str>, moves: &[String]) -> String {
    let mut s = match fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            let _ = write!(s, " {m}");
        }
    }
    s
}

/// How long the engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// `go movetime MS`.
    MoveTime(u64),
    /// `go wtime … btime … winc … binc …`: the game's clock.
    Clock {
        /// White's time left.
        wtime: u64,
        /// Black's time left.
        btime: u64,
        /// White's increment.
        winc: u64,
        /// Black's increment.
        binc: u64,
    },
}

impl SearchLimit {
    /// The `go` command.
    pub fn go_command(&self) -> String {
        match self {
            SearchLimit::MoveTime(ms) => format!("go movetime {ms}"),
            SearchLimit::Clock { wtime, btime, winc, binc } => {
                format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}")
            }
        }
    }

    /// How long an engine that is alive may take before it is told to stop:
    /// the move time, or a generous share of its own clock (an engine spends a
    /// small part of it on one move).
    pub fn patience_ms(&self, white_to_move: bool) -> u64 {
        match *self {
            SearchLimit::MoveTime(ms) => ms + 2000,
            SearchLimit::Clock { wtime, btime, winc, binc } => {
                let (own, inc) = if white_to_move { (wtime, winc) } else { (btime, binc) };
                (own / 8 + inc).min(own.max(1000)) + 3000
            }
        }
    }
}

/// The strength the engine is asked to play at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Strength {
    /// A rating (`UCI_Elo` where the engine has it and the rating is in its
    /// range, else a `Skill Level` for it); `None`: full strength.
    pub elo: Option<u32>,
}

/// The rating range `Skill Level` 0–20 is spread over where an engine has no
/// `UCI_Elo` (or the rating is below its range): 0 plays like a beginner.
const SKILL_ELO: (i64, i64) = (600, 2800);

/// The `setoption` lines that set `strength` on an engine with `options`.
pub fn strength_commands(options: &[EngineOption], strength: Strength) -> Vec<String> {
    let find = |name: &str| options.iter().find(|o| o.name.eq_ignore_ascii_case(name));
    let limit = find("UCI_LimitStrength");
    let elo_opt = find("UCI_Elo");
    let skill = find("Skill Level");
    let mut out = Vec::new();
    let Some(elo) = strength.elo.map(i64::from) else {
        if let Some(l) = limit {
            out.push(format!("setoption name {} value false", l.name));
        }
        if let Some(s) = skill {
            out.push(format!("setoption name {} value {}", s.name, s.max.unwrap_or(20)));
        }
        return out;
    };
    if let (Some(l), Some(e)) = (limit, elo_opt)
        && e.min.is_none_or(|min| elo >= min)
    {
        let value = elo.min(e.max.unwrap_or(elo));
        out.push(format!("setoption name {} value true", l.name));
        out.push(format!("setoption name {} value {value}", e.name));
        if let Some(s) = skill {
            out.push(format!("setoption name {} value {}", s.name, s.max.unwrap_or(20)));
        }
        return out;
    }
    if let Some(s) = skill {
        let (lo, hi) = (s.min.unwrap_or(0), s.max.unwrap_or(20));
        let share =
            (elo.clamp(SKILL_ELO.0, SKILL_ELO.1) - SKILL_ELO.0) as f64 / (SKILL_ELO.1 - SKILL_ELO.0) as f64;
        let level = lo + ((hi - lo) as f64 * share).round() as i64;
        if let Some(l) = limit {
            out.push(format!("setoption name {} value false", l.name));
        }
        out.push(format!("setoption name {} value {level}", s.name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const STOCKFISH_OPTIONS: &str = "option name Skill Level type spin default 20 min 0 max 20
option name UCI_LimitStrength type check default false
option name UCI_Elo type spin default 1350 min 1350 max 2850
option name Debug Log File type string default ";

    fn options() -> Vec<EngineOption> {
        STOCKFISH_OPTIONS
            .lines()
            .filter_map(|l| match parse_line(l) {
                EngineLine::Option(o) => Some(o),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn options_are_read_with_names_that_hold_spaces() {
        let o = options();
        assert_eq!(o.len(), 4);
        assert_eq!(
            o[0],
            EngineOption { name: "Skill Level".into(), kind: "spin".into(), min: Some(0), max: Some(20) }
        );
        assert_eq!(o[3].name, "Debug Log File");
    }

    #[test]
    fn a_rating_in_range_limits_strength_by_elo() {
        let lines = strength_commands(&options(), Strength { elo: Some(1800) });
        assert_eq!(
            lines,
            [
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value 1800",
                "setoption name Skill Level value 20"
            ]
        );
    }

    #[test]
    fn a_rating_below_the_range_becomes_a_skill_level() {
        let lines = strength_commands(&options(), Strength { elo: Some(600) });
        assert_eq!(
            lines,
            ["setoption name UCI_LimitStrength value false", "setoption name Skill Level value 0"]
        );
        let lines = strength_commands(&options(), Strength { elo: Some(1000) });
        assert_eq!(lines[1], "setoption name Skill Level value 4");
    }

    #[test]
    fn full_strength_and_an_engine_without_options() {
        let lines = strength_commands(&options(), Strength { elo: None });
        assert_eq!(
            lines,
            ["setoption name UCI_LimitStrength value false", "setoption name Skill Level value 20"]
        );
        assert!(strength_commands(&[], Strength { elo: Some(1500) }).is_empty());
    }

    #[test]
    fn engine_lines() {
        assert_eq!(parse_line("id name Stockfish 15.1"), EngineLine::Name("Stockfish 15.1".into()));
        assert_eq!(parse_line("bestmove e2e4 ponder e7e5"), EngineLine::BestMove("e2e4".into()));
        assert_eq!(parse_line("bestmove"), EngineLine::BestMove(String::new()));
        assert_eq!(
            parse_line("info depth 10 seldepth 12 multipv 1 score cp -34 nodes 100 pv e2e4"),
            EngineLine::Info { score: Some(Score::Cp(-34)) }
        );
        assert_eq!(
            parse_line("info depth 3 score mate -2 pv"),
            EngineLine::Info { score: Some(Score::Mate(-2)) }
        );
        assert_eq!(parse_line("\u{1}\u{2}zzz"), EngineLine::Other);
        assert_eq!(parse_line(""), EngineLine::Other);
        assert!(Score::Mate(1).centipawns() > Score::Mate(3).centipawns());
        assert!(Score::Mate(-1).centipawns() < Score::Cp(-2000).centipawns());
    }

    #[test]
    fn commands() {
        assert_eq!(position_command(None, &[]), "position startpos");
        assert_eq!(
            position_command(Some("8/8/8/8/8/8/8/K6k w - - 0 1"), &["a1a2".into()]),
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"
        );
        assert_eq!(SearchLimit::MoveTime(500).go_command(), "go movetime 500");
        let clock = SearchLimit::Clock { wtime: 60_000, btime: 50_000, winc: 1000, binc: 2000 };
        assert_eq!(clock.go_command(), "go wtime 60000 btime 50000 winc 1000 binc 2000");
        assert_eq!(clock.patience_ms(false), 50_000 / 8 + 2000 + 3000);
    }
}
