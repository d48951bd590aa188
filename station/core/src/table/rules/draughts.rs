//! International and 64-square draughts: their results, start and scans; their
//! play at the table is [`DraughtsPlay`](crate::table::draughts_play::DraughtsPlay)'s.

use super::{Rules, ScanSize, Start};
use crate::draughts::Variant;

/// International draughts, 10×10, squares 1–50.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct International;

/// The code's 64-square draughts: international rules on 8×8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Draughts64;

/// The rules of `variant`.
pub(super) fn of(variant: Variant) -> &'static dyn Rules {
    match variant {
        Variant::International => &super::INTERNATIONAL,
        Variant::Draughts64 => &super::DRAUGHTS64,
    }
}

/// The two variants differ in their board and name only: one body serves both.
macro_rules! draughts_rules {
    ($ty:ty, $variant:expr, $name:literal, $refused_64:expr) => {
        impl Rules for $ty {
            fn name(&self) -> &'static str {
                $name
            }

            fn draughts_variant(&self) -> Option<Variant> {
                Some($variant)
            }

            fn results(&self) -> &'static [&'static str] {
                &["2-0", "0-2", "1-1"]
            }

            fn start(&self) -> Start {
                // A draughts game starts from the initial position, never another.
                Start::Draughts($variant)
            }

            fn refuses_scan(&self, size: ScanSize) -> Option<&'static str> {
                (size == ScanSize::Squares64).then_some($refused_64).flatten()
            }

            fn export_format(&self) -> &'static str {
                "pdn"
            }

            fn engine_refusal(&self) -> Option<&'static str> {
                Some("an engine opponent plays chess only")
            }

            fn header_name(&self) -> Option<&'static str> {
                Some($name)
            }

            fn header_rules(&self, _fen: &str) -> &'static dyn Rules {
                of($variant)
            }
        }
    };
}

// A 10×10 game reads 13-digit scans only; the 8×8 game reads a chess board's.
draughts_rules!(
    International,
    Variant::International,
    "draughts",
    Some("16-digit chess scan while the game is international draughts")
);
draughts_rules!(Draughts64, Variant::Draughts64, "draughts64", None::<&str>);
