//! How one move's thinking time is charged to a player's clock under each bonus.
//!
//! The whole clock reduces to these three rules, kept apart so that the engine,
//! the flag prediction and the replay agree on them.

use super::Bonus;
use crate::Millis;

/// Main time consumed while the player has been thinking `used` ms on this move.
///
/// Only the simple delay differs: its first `delay` ms of each move are free
/// (Article 6.2(b)); the Bronstein delay counts down the whole time and gives
/// some back at the press.
pub(crate) fn charged(bonus: Bonus, used: Millis) -> Millis {
    match bonus {
        Bonus::SimpleDelay(delay) => used.saturating_sub(delay),
        Bonus::None | Bonus::Increment(_) | Bonus::Bronstein(_) => used,
    }
}

/// Time put on the clock when the player completes a move that took `used` ms.
pub(crate) fn earned(bonus: Bonus, used: Millis) -> Millis {
    match bonus {
        Bonus::Increment(increment) => increment,
        Bonus::Bronstein(delay) => used.min(delay),
        Bonus::None | Bonus::SimpleDelay(_) => 0,
    }
}

/// Thinking time after which a clock showing `remaining` ms reaches zero.
pub(crate) fn time_to_flag(bonus: Bonus, remaining: Millis) -> Millis {
    match bonus {
        Bonus::SimpleDelay(delay) => remaining.saturating_add(delay),
        Bonus::None | Bonus::Increment(_) | Bonus::Bronstein(_) => remaining,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bonus_charges_and_pays_its_own_way() {
        assert_eq!((charged(Bonus::None, 7_000), earned(Bonus::None, 7_000)), (7_000, 0));
        assert_eq!(
            (charged(Bonus::Increment(2_000), 7_000), earned(Bonus::Increment(2_000), 7_000)),
            (7_000, 2_000)
        );
        assert_eq!(
            (charged(Bonus::SimpleDelay(5_000), 3_000), earned(Bonus::SimpleDelay(5_000), 3_000)),
            (0, 0)
        );
        assert_eq!(charged(Bonus::SimpleDelay(5_000), 7_000), 2_000);
        assert_eq!(
            (charged(Bonus::Bronstein(5_000), 3_000), earned(Bonus::Bronstein(5_000), 3_000)),
            (3_000, 3_000)
        );
        assert_eq!(earned(Bonus::Bronstein(5_000), 7_000), 5_000);
        assert_eq!(time_to_flag(Bonus::SimpleDelay(5_000), 10_000), 15_000);
        assert_eq!(time_to_flag(Bonus::Bronstein(5_000), 10_000), 10_000);
    }
}
