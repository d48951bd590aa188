//! The Annex D station's pure rules core.
//!
//! Everything here is deterministic and free of I/O, threads and clocks:
//! time arrives as an input ([`Millis`]), devices arrive as plain values
//! (occupancy bitboards, button numbers), and decisions leave as [`Event`]s.
//! The daemon wires devices, the journal file and the event stream around it.
//!
//! Map of the modules:
//! - [`occupancy`]: what a move does to the holes of a peg board, board orientation.
//! - [`diff`]: square-level differences between the sensed board and a position.
//! - [`draughts`]: international and 64-square draughts: rules, perft, PDN, the peg-board sensor.
//! - [`game`]: one game's record (positions, moves, SAN) as executed on a board.
//! - [`inference`]: the board tracker — touches, settled moves, ambiguity, mismatches.
//! - [`table`]: one game on the boards — waiting for the initial position, playing, the agreed record.
//! - [`event`]: the event vocabulary shared by the event stream, journal and console.
//! - [`journal`]: journal records (the file itself is written by the daemon) and restoring from them.
//! - [`pgn`]: PGN export and import.
//! - [`record`]: the game record folded once from the events: what every view of a game reads.
//! - [`notation`]: ICCF Appendix A notations (SAN, Polish, ICCF numeric, long, figurine): written and read.
//! - [`correction`]: the steps that put a board right.
//! - [`two_boards`]: one game on two boards, the D.2.9 discrepancy procedure.
//! - [`discrepancy`]: the D.2.9 vocabulary (kinds, board fixes, clock proposals) shared by `two_boards` and `event`.
//! - [`draws`]: Article 9 from the record: repetitions, moves without a pawn move or capture, draw claims.
//! - [`role`]: which board (the blind player's or the sighted player's).
//! - [`rules`]: the game a table plays (chess, international or 64-square draughts): one trait, three rules.
//! - [`input`]: every input a table consumes, as the daemon feeds it and the journal records it.
//! - [`clock`]: the chess clock.
//! - [`piece_tracking`]: the tracker for boards that sense pieces (DGT).
//! - [`tracker`]: one trait for the peg board's, the piece board's and the draughts board's trackers.
//! - [`setup`]: the start position as the blind player sets it up (ICCF Appendix B, Chess960).
//! - [`clock_replay`]: the clock engine checked against the `[%clk]` comments of real games.
//!
//! The one entry point is [`Table::apply`]: the app feeds it every input at its arrival time,
//! and the journal's restore makes the same calls, which is why a restored game is the same game.

pub mod clock;
pub mod clock_replay;
pub mod correction;
pub mod diff;
pub mod discrepancy;
pub mod draughts;
pub mod draws;
pub mod event;
pub mod game;
pub mod inference;
pub mod input;
pub mod journal;
pub mod notation;
pub mod occupancy;
pub mod pgn;
pub mod piece_tracking;
pub mod record;
pub mod role;
pub mod setup;
pub mod table;
pub mod tracker;
/// The game a table plays (lives beside the table it dispatches for).
pub use table::rules;
pub mod two_boards;

/// Milliseconds on the station's time line (the daemon uses Unix time in ms;
/// simulations start at zero). The core never reads a clock: every time is an input.
pub type Millis = u64;

pub use event::{BoardRole, Event, PieceFix};
pub use game::Game;
pub use inference::{BoardTracker, TrackerConfig};
pub use table::{Table, TableConfig};
