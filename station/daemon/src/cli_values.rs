//! The command line's choices that stand for library types: the clap derives
//! live here, at the binary's edge, so the libraries know no clap.

use crate::config::GameRules;
use station_sim::replay::Pace;

/// `station replay --pace`: how quickly the simulated hands follow each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PaceArg {
    /// Every move after some thought, longer than the settle time (the board rests between moves).
    #[default]
    Normal,
    /// The next move starts 50–200 ms after the last placement (seeded): moves are decided on evidence.
    Fast,
}

impl From<PaceArg> for Pace {
    fn from(pace: PaceArg) -> Pace {
        match pace {
            PaceArg::Normal => Pace::Normal,
            PaceArg::Fast => Pace::Fast,
        }
    }
}

/// `station announce --rules`: which game's moves are worded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesArg {
    /// Chess (FIDE Laws, Annex D).
    #[default]
    Chess,
    /// International draughts, 10×10.
    Draughts,
    /// The code's 64-square draughts, 8×8.
    Draughts64,
}

impl From<RulesArg> for GameRules {
    fn from(rules: RulesArg) -> GameRules {
        match rules {
            RulesArg::Chess => GameRules::Chess,
            RulesArg::Draughts => GameRules::Draughts,
            RulesArg::Draughts64 => GameRules::Draughts64,
        }
    }
}
