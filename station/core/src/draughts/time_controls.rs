//! The FMJD time controls of the code (chapter II, 6.1.5) in the clock
//! engine's notation ([`crate::clock`]): the clock needs nothing new for
//! draughts, only these names.

use crate::clock::TimeControl;

/// A named time control of II.6.1.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FmjdTimeControl {
    /// 6.1.5.1: 1 h 20 min plus 1 min a move.
    Basic,
    /// 6.1.5.2: 90 min for the first 45 moves, then 30 min to the end with a
    /// 30 s Fischer bonus from move 46.
    Preferred,
    /// 6.1.5.3.1: 2 h for the first 50 moves, then 1 h for every 25 moves.
    Classical,
    /// 6.1.5.4.2 (PZWarc): 60 min plus 30 s a move.
    Shortened,
}

impl FmjdTimeControl {
    /// The control in the station's (PGN `TimeControl`) notation.
    pub fn notation(self) -> &'static str {
        match self {
            FmjdTimeControl::Basic => "4800+60",
            FmjdTimeControl::Preferred => "45/5400:1800+30",
            FmjdTimeControl::Classical => "50/7200:25/3600",
            FmjdTimeControl::Shortened => "3600+30",
        }
    }

    /// The control for the clock engine.
    pub fn time_control(self) -> TimeControl {
        // The notations above are constants, each parsed in the tests: no input reaches this.
        self.notation().parse().expect("the FMJD notations are valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Bonus;

    #[test]
    fn fmjd_time_controls_ii_6_1_5() {
        let all = [
            FmjdTimeControl::Basic,
            FmjdTimeControl::Preferred,
            FmjdTimeControl::Classical,
            FmjdTimeControl::Shortened,
        ];
        for tc in all {
            assert!(tc.notation().parse::<TimeControl>().is_ok(), "{tc:?}");
        }
        let basic = FmjdTimeControl::Basic.time_control();
        assert_eq!(basic.initial_ms(), 80 * 60_000);
        assert_eq!(basic.bonus_of_move(1), Bonus::Increment(60_000));
        // 6.1.5.2: no bonus in the first 45 moves, 30 s from move 46.
        let preferred = FmjdTimeControl::Preferred.time_control();
        assert_eq!(preferred.initial_ms(), 90 * 60_000);
        assert_eq!(preferred.bonus_of_move(45), Bonus::None);
        assert_eq!(preferred.bonus_of_move(46), Bonus::Increment(30_000));
        assert_eq!(preferred.period(1).time_ms, 30 * 60_000);
        let classical = FmjdTimeControl::Classical.time_control();
        assert_eq!(classical.initial_ms(), 2 * 3_600_000);
    }
}
