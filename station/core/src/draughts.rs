//! Draughts: international draughts (10×10, FMJD numbering 1–50) and the
//! 64-square version (8×8, squares a1–h8, numbered 1–32 the same way) as the
//! Polish draughts federation's code, chapter I, describes them.
//!
//! Pure like the chess side: positions, legal moves as the holes they empty
//! and fill, perft, PDN, and the peg-board sensor ([`sensing`]).
//!
//! - [`board`]: variants, squares, the board geometry, positions.
//! - [`moves`]: a move, the holes it empties and fills, its intermediate squares (4.9).
//! - [`movegen`]: legal moves (men forward, captures both ways, flying kings, 4.13 majority), game end (7.2.2–7.2.3).
//! - [`perft`]: move-path enumeration counts for verifying the generator.
//! - [`draws`]: the draws of article 6 (6.1–6.4, the 64-square cases), tracked for saying on request.
//! - [`path`]: a move as written (`DraughtsPath`), read and written without the variant, the variant's squares by a typed conversion.
//! - [`pdn`]: PDN read and write (`[GameType "20"]`, `-` and `x`, full capture paths).
//! - [`sensing`]: the draughts peg-board tracker (4.9, 4.11, 4.16, 3.7).
//! - [`time_controls`]: the FMJD time controls of II.6.1.5 in the clock engine's notation.
//! - [`irregular`]: a settled board no legal move explains, named as an irregularity of 5.4.
//!
//! The sensor ([`sensing::DraughtsTracker`]) takes removals in capture order or reverse (4.11), the
//! captured man first (4.16), tells same-squares captures apart by the removals and sees new kings
//! (3.7). [`irregular`] names an unexplained board as an irregularity of 5.4 for the opponent to
//! decide on; [`draws`] (`DrawWatch`) follows 6.1–6.4 and the 64-square cases, said on request.
//! Perft is checked against published figures. Tests named after the articles are in
//! `draughts/tests.rs`.

pub mod board;
pub mod draws;
pub mod irregular;
pub mod movegen;
pub mod moves;
pub mod path;
pub mod pdn;
pub mod perft;
pub mod sensing;
pub mod time_controls;

pub use board::{Color, Position, Square, Variant, WrittenSquare};
pub use moves::Move;
pub use path::DraughtsPath;

#[cfg(test)]
mod tests;
