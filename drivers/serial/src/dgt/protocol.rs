//! DGT e-board serial protocol (as published in DGT's `dgtbrd.h`): encoding and
//! decoding only, no I/O.
//!
//! Everything here is total: any byte sequence is either a [`DgtMessage`] or a
//! counted [`DgtError`], never a panic. The station-side description is in
//! `docs/dgt-protocol.md`.
//!
//! # Square numbering
//!
//! DGT numbers squares from the black side: field 0 = a8, 1 = b8 … 7 = h8,
//! 8 = a7 … 63 = h1. This module converts at the boundary to shakmaty's
//! numbering (a1 = 0, h1 = 7, a8 = 56, h8 = 63): the rank is mirrored and the
//! file kept, which is `index ^ 56` in both directions ([`square_from_dgt`],
//! [`square_to_dgt`]). Orientation of a turned board is *not* handled here;
//! see [`super::orientation`].

use shakmaty::{Board, Color, Piece, Role, Square};

use crate::drop_counters::DropReason;

/// Line speed of DGT boards (8N1, no flow control).
pub const DEFAULT_BAUD: u32 = 9600;

/// Set on the first byte of every board → host message, clear on every other byte.
pub const MESSAGE_BIT: u8 = 0x80;

/// Message ids (without [`MESSAGE_BIT`]) of the board → host messages we decode.
pub mod ids {
    /// 64 piece codes.
    pub const BOARD_DUMP: u8 = 0x06;
    /// Clock times (or a clock acknowledgement) relayed from a DGT clock.
    pub const BWTIME: u8 = 0x0d;
    /// One square changed.
    pub const FIELD_UPDATE: u8 = 0x0e;
    /// Five ASCII digits.
    pub const SERIAL_NUMBER: u8 = 0x11;
    /// Free text.
    pub const TRADEMARK: u8 = 0x12;
    /// Main and sub version.
    pub const VERSION: u8 = 0x13;
}

/// Host → board command bytes.
pub mod commands {
    /// Idle mode: cancels any update mode.
    pub const RESET: u8 = 0x40;
    /// Ask for a board dump.
    pub const SEND_BOARD: u8 = 0x42;
    /// Field updates, and clock times every second.
    pub const SEND_UPDATES: u8 = 0x43;
    /// Field updates only.
    pub const SEND_UPDATES_BOARD: u8 = 0x44;
    /// Ask for the serial number.
    pub const SEND_SERIAL_NUMBER: u8 = 0x45;
    /// Ask for the trademark text.
    pub const SEND_TRADEMARK: u8 = 0x47;
    /// Field updates, and clock times only when they change.
    pub const SEND_UPDATES_NICE: u8 = 0x4b;
    /// Ask for the firmware version.
    pub const SEND_VERSION: u8 = 0x4d;
    /// Starts a clock message: `0x2b size 0x03 cmd data… 0x00`.
    pub const CLOCK_MESSAGE: u8 = 0x2b;
}

/// Total message length (header included) of the fixed-size messages.
const LEN_BOARD_DUMP: usize = 67;
const LEN_BWTIME: usize = 10;
const LEN_FIELD_UPDATE: usize = 5;
const LEN_SERIAL_NUMBER: usize = 8;
const LEN_VERSION: usize = 5;

/// Longest message accepted, header included. The length field could say up
/// to 16383, but no message the station reads comes near this; a longer claim
/// is line noise, and refusing it keeps one lost header from swallowing seconds
/// of traffic.
pub const MAX_MESSAGE_LEN: usize = 512;

/// Longest trademark text kept (longer texts are cut, not dropped).
pub const MAX_TEXT_LEN: usize = MAX_MESSAGE_LEN - 3;

/// DGT field index (0 = a8 … 63 = h1) → standard square; `None` above 63.
pub fn square_from_dgt(index: u8) -> Option<Square> {
    (index < 64).then(|| Square::new(u32::from(index ^ 56)))
}

/// Standard square → DGT field index (0 = a8 … 63 = h1).
pub fn square_to_dgt(square: Square) -> u8 {
    // A square is below 64, so this fits and the xor mirrors the rank.
    (square as u8) ^ 56
}

const ROLE_ORDER: [Role; 6] = [Role::Pawn, Role::Rook, Role::Knight, Role::Bishop, Role::King, Role::Queen];

/// DGT piece code → piece: 0 empty, 1–6 white P R N B K Q, 7–12 black in the
/// same order. An error for 13 and above (the "magic pieces" 13–15 some
/// boards know are not chess pieces).
pub fn piece_from_code(code: u8) -> Result<Option<Piece>, InvalidPieceCode> {
    match code {
        0 => Ok(None),
        1..=6 => Ok(Some(Piece { color: Color::White, role: ROLE_ORDER[usize::from(code - 1)] })),
        7..=12 => Ok(Some(Piece { color: Color::Black, role: ROLE_ORDER[usize::from(code - 7)] })),
        _ => Err(InvalidPieceCode(code)),
    }
}

/// A piece code as a board's sensors report it: the "magic pieces" 13–15
/// (`dgtbrd.h`: special pieces some boards use for settings) stand on no
/// square a game knows and read as empty, as DGT's own clients read them;
/// 16 and above are line noise.
pub fn sensed_piece(code: u8) -> Result<Option<Piece>, InvalidPieceCode> {
    match code {
        13..=15 => Ok(None),
        _ => piece_from_code(code),
    }
}

/// A piece code that is not a chess piece (13 and above).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("piece code {0} is not a chess piece")]
pub struct InvalidPieceCode(pub u8);

/// Piece → DGT piece code (see [`piece_from_code`]).
pub fn piece_to_code(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else { return 0 };
    let index = match piece.role {
        Role::Pawn => 0,
        Role::Rook => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::King => 4,
        Role::Queen => 5,
    };
    match piece.color {
        Color::White => 1 + index,
        Color::Black => 7 + index,
    }
}

/// One side of a clock reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SideTime {
    /// Hours, 0–9.
    pub hours: u8,
    /// Minutes, 0–59.
    pub minutes: u8,
    /// Seconds, 0–59.
    pub seconds: u8,
    /// Flag fallen and the clock blocked at zero (bit 4).
    pub flag_blocked: bool,
    /// Time-per-move indicator (Fischer/Bronstein) shown (bit 5).
    pub time_per_move: bool,
    /// Flag fallen and shown, clock possibly still running (bit 6).
    pub flag_shown: bool,
}

impl SideTime {
    /// A plain reading without flags; hours above 9 are clamped to 9:59:59.
    pub fn from_secs(total: u32) -> SideTime {
        let total = total.min(9 * 3600 + 59 * 60 + 59);
        SideTime {
            hours: (total / 3600) as u8,
            minutes: (total / 60 % 60) as u8,
            seconds: (total % 60) as u8,
            ..SideTime::default()
        }
    }

    /// The time shown, in seconds.
    pub fn total_secs(&self) -> u32 {
        u32::from(self.hours) * 3600 + u32::from(self.minutes) * 60 + u32::from(self.seconds)
    }

    fn decode(bytes: [u8; 3]) -> Option<SideTime> {
        let hours = bytes[0] & 0x0f;
        if hours > 9 {
            return None;
        }
        Some(SideTime {
            hours,
            minutes: from_bcd(bytes[1]).filter(|&m| m < 60)?,
            seconds: from_bcd(bytes[2]).filter(|&s| s < 60)?,
            flag_blocked: bytes[0] & 0x10 != 0,
            time_per_move: bytes[0] & 0x20 != 0,
            flag_shown: bytes[0] & 0x40 != 0,
        })
    }

    /// Out-of-range fields are clamped so the bytes always decode again.
    fn encode(&self) -> [u8; 3] {
        let flags = u8::from(self.flag_blocked) << 4
            | u8::from(self.time_per_move) << 5
            | u8::from(self.flag_shown) << 6;
        [self.hours.min(9) | flags, to_bcd(self.minutes.min(59)), to_bcd(self.seconds.min(59))]
    }
}

fn from_bcd(b: u8) -> Option<u8> {
    let (tens, units) = (b >> 4, b & 0x0f);
    (tens <= 9 && units <= 9).then_some(tens * 10 + units)
}

fn to_bcd(v: u8) -> u8 {
    (v / 10) << 4 | (v % 10)
}

/// A DGT clock reading relayed by the board (`BWTIME`, 0x8d).
///
/// Sides are named as seen from the front of the clock; `dgtbrd.h` sends the
/// right display first. Turning the board does not swap them: the clock is a
/// separate device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BwTime {
    /// Right display (data bytes 0–2).
    pub right: SideTime,
    /// Left display (data bytes 3–5).
    pub left: SideTime,
    /// The clock is running (status bit 0).
    pub running: bool,
    /// The lever is high on the right side (status bit 1).
    pub lever_right_high: bool,
    /// Low battery is shown (status bit 2).
    pub battery_low: bool,
    /// The right player is to move (status bit 3).
    pub right_to_move: bool,
    /// The left player is to move (status bit 4).
    pub left_to_move: bool,
    /// No clock is connected; the times mean nothing (status bit 5).
    pub no_clock: bool,
}

impl BwTime {
    /// All seven data bytes zero: no clock reading at all. DGT's clients
    /// ignore such frames (a board sends them while a clock is being
    /// attached or switched); taken as times they would read 0:00 on both sides.
    pub fn is_empty(&self) -> bool {
        *self == BwTime::default()
    }

    fn decode(data: &[u8; 7]) -> Option<BwTime> {
        let right = SideTime::decode([data[0], data[1], data[2]])?;
        let left = SideTime::decode([data[3], data[4], data[5]])?;
        let status = data[6];
        Some(BwTime {
            right,
            left,
            running: status & 0x01 != 0,
            lever_right_high: status & 0x02 != 0,
            battery_low: status & 0x04 != 0,
            right_to_move: status & 0x08 != 0,
            left_to_move: status & 0x10 != 0,
            no_clock: status & 0x20 != 0,
        })
    }

    fn encode(&self) -> [u8; 7] {
        let [r0, r1, r2] = self.right.encode();
        let [l0, l1, l2] = self.left.encode();
        let status = u8::from(self.running)
            | u8::from(self.lever_right_high) << 1
            | u8::from(self.battery_low) << 2
            | u8::from(self.right_to_move) << 3
            | u8::from(self.left_to_move) << 4
            | u8::from(self.no_clock) << 5;
        [r0, r1, r2, l0, l1, l2, status]
    }
}

/// A DGT 3000 acknowledgement, sent in a `BWTIME` frame whose first or fourth
/// data byte has 0x0a in its low nibble (an hour value no clock shows).
///
/// `ack0` is 0x10 for success (0x40: error, e.g. SetNRun outside mode 23);
/// `ack1` is the acknowledged clock command, or with its top bit set an
/// unsolicited report (0x88 = button, `ack3` says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockAck {
    /// Status: 0x10 ok, 0x40 error.
    pub ack0: u8,
    /// The command acknowledged, or 0x80 | report kind.
    pub ack1: u8,
    /// Extra data (e.g. version).
    pub ack2: u8,
    /// Extra data (e.g. button).
    pub ack3: u8,
}

/// `ack1` of the unsolicited report "the clock is not in mode 23" (SetNRun refused).
pub const ACK_NOT_IN_MODE_23: u8 = 0x90;
/// `ack0` of a successful acknowledgement.
pub const ACK_OK: u8 = 0x10;

/// Which clock is attached, from its answer to the version query (0x09).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockModel {
    /// Main version 1: the DGT XL (six 7-segment digits, no text display).
    DgtXl,
    /// Main version 2: the DGT 3000 (shows text, command 0x0c).
    Dgt3000,
    /// Another main version: treated like an XL (no text display).
    Other(u8),
}

impl ClockModel {
    /// The model from the version byte's main version (its high nibble).
    pub fn from_main(main: u8) -> ClockModel {
        match main {
            1 => ClockModel::DgtXl,
            2 => ClockModel::Dgt3000,
            other => ClockModel::Other(other),
        }
    }

    /// The main version this model answers with.
    pub fn main(self) -> u8 {
        match self {
            ClockModel::DgtXl => 1,
            ClockModel::Dgt3000 => 2,
            ClockModel::Other(main) => main,
        }
    }

    /// Only the DGT 3000 shows text (clock command 0x0c).
    pub fn shows_text(self) -> bool {
        self == ClockModel::Dgt3000
    }
}

impl ClockAck {
    /// The clock did what was asked (`ack0` is 0x10).
    pub fn is_ok(&self) -> bool {
        self.ack0 == ACK_OK
    }

    /// The clock command this acknowledges; `None` for an unsolicited report (top bit set).
    pub fn command(&self) -> Option<u8> {
        (self.ack1 & 0x80 == 0).then_some(self.ack1)
    }

    /// The clock reports it is not in mode 23, where alone it takes SetNRun.
    pub fn not_in_mode_23(&self) -> bool {
        self.ack1 == ACK_NOT_IN_MODE_23
    }

    /// The answer to the version query: main and sub version (`ack2`'s nibbles).
    pub fn version(&self) -> Option<(u8, u8)> {
        (self.is_ok() && self.ack1 == clock_ids::VERSION).then_some((self.ack2 >> 4, self.ack2 & 0x0f))
    }

    /// A successful acknowledgement of clock command `command`.
    pub fn ok(command: u8) -> ClockAck {
        ClockAck { ack0: ACK_OK, ack1: command, ack2: 0, ack3: 0 }
    }

    fn is_ack(data: &[u8; 7]) -> bool {
        data[0] & 0x0f == 0x0a || data[3] & 0x0f == 0x0a
    }

    fn decode(data: &[u8; 7]) -> ClockAck {
        // dgtbrd.h: the top bits of the four ack bytes travel in bits 4/5 of data bytes 0 and 3.
        ClockAck {
            ack0: (data[1] & 0x7f) | ((data[3] << 3) & 0x80),
            ack1: (data[2] & 0x7f) | ((data[3] << 2) & 0x80),
            ack2: (data[4] & 0x7f) | ((data[0] << 3) & 0x80),
            ack3: (data[5] & 0x7f) | ((data[0] << 2) & 0x80),
        }
    }

    fn encode(&self) -> [u8; 7] {
        let d3 = 0x0a | ((self.ack0 & 0x80) >> 3) | ((self.ack1 & 0x80) >> 2);
        let d0 = 0x0a | ((self.ack2 & 0x80) >> 3) | ((self.ack3 & 0x80) >> 2);
        [d0, self.ack0 & 0x7f, self.ack1 & 0x7f, d3, self.ack2 & 0x7f, self.ack3 & 0x7f, 0]
    }
}

/// A message sent by the board to the station, squares in standard numbering
/// (a1 = 0) as the board's sensors see them (a turned board is not corrected here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DgtMessage {
    /// Full board (0x86): every square's piece.
    BoardDump(Board),
    /// One square changed (0x8e): `piece` is what stands there now.
    FieldUpdate {
        /// The square.
        square: Square,
        /// The new content, `None` when the square became empty.
        piece: Option<Piece>,
    },
    /// Firmware version (0x93).
    Version {
        /// Main version.
        major: u8,
        /// Sub version.
        minor: u8,
    },
    /// Serial number (0x91), five ASCII characters.
    SerialNumber(String),
    /// Trademark text (0x92).
    Trademark(String),
    /// A clock reading relayed from a DGT clock (0x8d).
    ClockTime(BwTime),
    /// A DGT 3000 acknowledgement (0x8d with the ack marker).
    ClockAck(ClockAck),
}

/// Why received bytes were dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum DgtError {
    /// Data bytes (top bit clear) outside any message; reported once per run.
    #[error("bytes outside a message")]
    Garbage,
    /// A length field outside 3..=512, or wrong for a known message id.
    #[error("implausible message length")]
    BadLength,
    /// A new message started before the current one was complete.
    #[error("truncated message")]
    Truncated,
    /// A well-framed message with an id the station does not use (skipped).
    #[error("unknown message id")]
    UnknownId,
    /// A known message with invalid content (piece code above 12, bad clock digits, field above 63).
    #[error("malformed message")]
    Malformed,
}

/// Per-reason counts of dropped input.
pub type DropCounters = crate::drop_counters::DropCounters<DgtError>;

impl DropReason for DgtError {
    fn counter(self) -> usize {
        // Each reason its own counter: the variant's index.
        self as usize
    }
}

/// The length a known id must have; `None` for unknown ids and for the
/// variable-length trademark.
fn fixed_len(id: u8) -> Option<usize> {
    match id {
        ids::BOARD_DUMP => Some(LEN_BOARD_DUMP),
        ids::BWTIME => Some(LEN_BWTIME),
        ids::FIELD_UPDATE => Some(LEN_FIELD_UPDATE),
        ids::SERIAL_NUMBER => Some(LEN_SERIAL_NUMBER),
        ids::VERSION => Some(LEN_VERSION),
        _ => None,
    }
}

fn is_known(id: u8) -> bool {
    fixed_len(id).is_some() || id == ids::TRADEMARK
}

/// Decodes the data bytes of a complete, correctly framed message.
fn decode(id: u8, data: &[u8]) -> Result<DgtMessage, DgtError> {
    match id {
        ids::BOARD_DUMP => {
            let mut board = Board::empty();
            for (index, &code) in data.iter().enumerate() {
                let piece = sensed_piece(code).map_err(|_| DgtError::Malformed)?;
                let square = square_from_dgt(index as u8).ok_or(DgtError::BadLength)?;
                if let Some(piece) = piece {
                    board.set_piece_at(square, piece);
                }
            }
            Ok(DgtMessage::BoardDump(board))
        }
        ids::FIELD_UPDATE => {
            let [index, code] = data else { return Err(DgtError::BadLength) };
            let square = square_from_dgt(*index).ok_or(DgtError::Malformed)?;
            let piece = sensed_piece(*code).map_err(|_| DgtError::Malformed)?;
            Ok(DgtMessage::FieldUpdate { square, piece })
        }
        ids::VERSION => {
            let [major, minor] = data else { return Err(DgtError::BadLength) };
            Ok(DgtMessage::Version { major: *major, minor: *minor })
        }
        ids::SERIAL_NUMBER => Ok(DgtMessage::SerialNumber(ascii(data))),
        ids::TRADEMARK => Ok(DgtMessage::Trademark(ascii(data))),
        ids::BWTIME => {
            let data: &[u8; 7] = data.try_into().map_err(|_| DgtError::BadLength)?;
            if ClockAck::is_ack(data) {
                Ok(DgtMessage::ClockAck(ClockAck::decode(data)))
            } else {
                BwTime::decode(data).map(DgtMessage::ClockTime).ok_or(DgtError::Malformed)
            }
        }
        _ => Err(DgtError::UnknownId),
    }
}

/// Data bytes are 7-bit, so every byte is an ASCII character.
fn ascii(data: &[u8]) -> String {
    data.iter().map(|&b| char::from(b & 0x7f)).collect()
}

impl DgtMessage {
    /// The message as a board sends it, header included.
    ///
    /// Text is cut to [`MAX_TEXT_LEN`] and characters outside 7-bit ASCII
    /// become `?`; a serial number is padded or cut to five characters. Clock
    /// fields out of range are clamped.
    pub fn encode(&self) -> Vec<u8> {
        let (id, data): (u8, Vec<u8>) = match self {
            DgtMessage::BoardDump(board) => {
                let data = (0..64u8)
                    .map(|index| {
                        let square = Square::new(u32::from(index ^ 56));
                        piece_to_code(board.piece_at(square))
                    })
                    .collect();
                (ids::BOARD_DUMP, data)
            }
            DgtMessage::FieldUpdate { square, piece } => {
                (ids::FIELD_UPDATE, vec![square_to_dgt(*square), piece_to_code(*piece)])
            }
            DgtMessage::Version { major, minor } => (ids::VERSION, vec![major & 0x7f, minor & 0x7f]),
            DgtMessage::SerialNumber(text) => {
                let mut data = text_bytes(text, 5);
                data.resize(5, b'0');
                (ids::SERIAL_NUMBER, data)
            }
            DgtMessage::Trademark(text) => (ids::TRADEMARK, text_bytes(text, MAX_TEXT_LEN)),
            DgtMessage::ClockTime(time) => (ids::BWTIME, time.encode().to_vec()),
            DgtMessage::ClockAck(ack) => (ids::BWTIME, ack.encode().to_vec()),
        };
        frame(id, &data)
    }
}

fn text_bytes(text: &str, max: usize) -> Vec<u8> {
    text.chars().map(|c| if c.is_ascii() { c as u8 } else { b'?' }).take(max).collect()
}

/// Frames `data` (each byte must be below 0x80) as message `id`.
pub fn frame(id: u8, data: &[u8]) -> Vec<u8> {
    let len = data.len() + 3;
    let mut bytes = Vec::with_capacity(len);
    bytes.push(id | MESSAGE_BIT);
    bytes.push(((len >> 7) & 0x7f) as u8);
    bytes.push((len & 0x7f) as u8);
    bytes.extend(data.iter().map(|b| b & 0x7f));
    bytes
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadState {
    /// Between messages; `garbage` = inside a run of stray data bytes.
    Idle { garbage: bool },
    /// Got the id byte and `got` (0 or 1) length bytes.
    Header { id: u8, high: u8, got: u8 },
    /// Reading `len - 3` data bytes; `skip` for unknown ids (not stored).
    Body { id: u8, len: usize, skip: bool },
}

/// Incremental decoder: feed it whatever chunks the serial port returns.
///
/// Resynchronises on every byte with the top bit set (only message starts have
/// it). Results do not depend on how the input is chunked. Never buffers more
/// than [`MAX_MESSAGE_LEN`] bytes.
#[derive(Debug, Clone)]
pub struct DgtReader {
    state: ReadState,
    data: Vec<u8>,
}

impl Default for DgtReader {
    fn default() -> Self {
        Self::new()
    }
}

impl DgtReader {
    /// A reader between messages.
    pub fn new() -> Self {
        DgtReader { state: ReadState::Idle { garbage: false }, data: Vec::with_capacity(MAX_MESSAGE_LEN) }
    }

    /// Forgets any partial message, e.g. after reconnecting.
    pub fn reset(&mut self) {
        self.state = ReadState::Idle { garbage: false };
        self.data.clear();
    }

    /// Consumes `bytes`, appending one result per completed (or dropped) message to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Result<DgtMessage, DgtError>>) {
        for &b in bytes {
            self.push_byte(b, out);
        }
    }

    fn push_byte(&mut self, b: u8, out: &mut Vec<Result<DgtMessage, DgtError>>) {
        if b & MESSAGE_BIT != 0 {
            // A message start always wins: whatever was in progress is lost.
            if !matches!(self.state, ReadState::Idle { .. }) {
                out.push(Err(DgtError::Truncated));
            }
            self.data.clear();
            self.state = ReadState::Header { id: b & !MESSAGE_BIT, high: 0, got: 0 };
            return;
        }
        self.state = match self.state {
            ReadState::Idle { garbage } => {
                if !garbage {
                    out.push(Err(DgtError::Garbage));
                }
                ReadState::Idle { garbage: true }
            }
            ReadState::Header { id, got: 0, .. } => ReadState::Header { id, high: b, got: 1 },
            ReadState::Header { id, high, .. } => {
                let len = usize::from(high) << 7 | usize::from(b);
                let plausible =
                    (3..=MAX_MESSAGE_LEN).contains(&len) && fixed_len(id).is_none_or(|fixed| fixed == len);
                if !plausible {
                    // The data bytes that follow are skipped as one garbage run.
                    out.push(Err(DgtError::BadLength));
                    ReadState::Idle { garbage: true }
                } else if len == 3 {
                    self.finish(id, !is_known(id), out);
                    ReadState::Idle { garbage: false }
                } else {
                    ReadState::Body { id, len, skip: !is_known(id) }
                }
            }
            ReadState::Body { id, len, skip: true } => {
                // Unknown ids are counted, not stored: `len` counts down instead.
                if len - 1 == 3 {
                    self.finish(id, true, out);
                    ReadState::Idle { garbage: false }
                } else {
                    ReadState::Body { id, len: len - 1, skip: true }
                }
            }
            ReadState::Body { id, len, skip: false } => {
                self.data.push(b);
                if self.data.len() + 3 >= len {
                    self.finish(id, false, out);
                    ReadState::Idle { garbage: false }
                } else {
                    ReadState::Body { id, len, skip: false }
                }
            }
        };
    }

    fn finish(&mut self, id: u8, skipped: bool, out: &mut Vec<Result<DgtMessage, DgtError>>) {
        let result = if skipped { Err(DgtError::UnknownId) } else { decode(id, &self.data) };
        self.data.clear();
        out.push(result);
    }
}

/// A clock sub-command (inside `0x2b size 0x03 cmd data… 0x00`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockCommand {
    /// SetNRun (0x0a): set both times and the run mode. Taken only in the
    /// clock's mode 23; carries no increment or delay.
    SetAndRun {
        /// Left display time.
        left: SideTime,
        /// Right display time.
        right: SideTime,
        /// Which side counts down.
        run: ClockRun,
        /// "Toggle on lever" (run-mode bit 0x08): a lever press switches the
        /// running side. Without it the clock ignores its lever.
        lever: bool,
    },
    /// Ask the clock for its version (0x09): the answer tells a DGT 3000 from a DGT XL.
    Version,
    /// Show eight ASCII characters on a DGT 3000 (0x0c), optionally with a beep.
    Display {
        /// Up to 8 characters (padded with spaces, cut beyond 8).
        text: String,
        /// Beep when showing it.
        beep: bool,
    },
    /// Beep for `units` × 64 ms (0x0b).
    Beep {
        /// Duration in 64 ms units (0–127).
        units: u8,
    },
    /// Back to showing the times (0x03).
    EndDisplay,
}

impl ClockCommand {
    /// The command byte, as the clock names it in its acknowledgement (`ack1`).
    pub fn id(&self) -> u8 {
        match self {
            ClockCommand::SetAndRun { .. } => clock_ids::SET_N_RUN,
            ClockCommand::Version => clock_ids::VERSION,
            ClockCommand::Display { .. } => clock_ids::ASCII,
            ClockCommand::Beep { .. } => clock_ids::BEEP,
            ClockCommand::EndDisplay => clock_ids::END_DISPLAY,
        }
    }
}

/// The "toggle on lever" bit of SetNRun's run-mode byte.
pub const LEVER_BIT: u8 = 0x08;

/// Run mode of a SetNRun command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockRun {
    /// Both stopped.
    Paused,
    /// The left side counts down.
    LeftRunning,
    /// The right side counts down.
    RightRunning,
}

mod clock_ids {
    pub const START: u8 = 0x03;
    pub const END: u8 = 0x00;
    pub const END_DISPLAY: u8 = 0x03;
    pub const VERSION: u8 = 0x09;
    pub const SET_N_RUN: u8 = 0x0a;
    pub const BEEP: u8 = 0x0b;
    pub const ASCII: u8 = 0x0c;
}

impl ClockRun {
    fn code(self) -> u8 {
        match self {
            ClockRun::LeftRunning => 0x01,
            ClockRun::RightRunning => 0x02,
            ClockRun::Paused => 0x04,
        }
    }

    fn from_code(code: u8) -> Option<ClockRun> {
        // Bit 3 ("toggle on lever") is read separately.
        match code & 0x07 {
            0x01 => Some(ClockRun::LeftRunning),
            0x02 => Some(ClockRun::RightRunning),
            0x04 | 0x00 => Some(ClockRun::Paused),
            _ => None,
        }
    }
}

/// A command from the station to the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostCommand {
    /// 0x40: idle mode.
    Reset,
    /// 0x42: send a board dump.
    SendBoard,
    /// 0x43: field updates plus clock times every second.
    SendUpdates,
    /// 0x44: field updates only.
    SendUpdatesBoard,
    /// 0x4b: field updates plus clock times when they change.
    SendUpdatesNice,
    /// 0x45: send the serial number.
    SendSerialNumber,
    /// 0x47: send the trademark.
    SendTrademark,
    /// 0x4d: send the version.
    SendVersion,
    /// 0x2b: a command for the attached clock.
    Clock(ClockCommand),
}

impl HostCommand {
    /// The bytes sent on the wire.
    ///
    /// Clock layout: `0x2b, n, 0x03, cmd, data…, 0x00` where `n` counts the
    /// bytes after itself (`data.len() + 3`). SetNRun data: left hours,
    /// minutes, seconds, right hours, minutes, seconds (all binary), run mode
    /// (0x01 left runs, 0x02 right runs, 0x04 paused).
    pub fn encode(&self) -> Vec<u8> {
        let single = match self {
            HostCommand::Reset => commands::RESET,
            HostCommand::SendBoard => commands::SEND_BOARD,
            HostCommand::SendUpdates => commands::SEND_UPDATES,
            HostCommand::SendUpdatesBoard => commands::SEND_UPDATES_BOARD,
            HostCommand::SendUpdatesNice => commands::SEND_UPDATES_NICE,
            HostCommand::SendSerialNumber => commands::SEND_SERIAL_NUMBER,
            HostCommand::SendTrademark => commands::SEND_TRADEMARK,
            HostCommand::SendVersion => commands::SEND_VERSION,
            HostCommand::Clock(clock) => return encode_clock(clock),
        };
        vec![single]
    }
}

fn encode_clock(command: &ClockCommand) -> Vec<u8> {
    let (cmd, data): (u8, Vec<u8>) = match command {
        ClockCommand::SetAndRun { left, right, run, lever } => {
            let side = |t: &SideTime| [t.hours.min(9), t.minutes.min(59), t.seconds.min(59)];
            let mut data = Vec::with_capacity(7);
            data.extend(side(left));
            data.extend(side(right));
            data.push(run.code() | if *lever { LEVER_BIT } else { 0 });
            (clock_ids::SET_N_RUN, data)
        }
        ClockCommand::Version => (clock_ids::VERSION, Vec::new()),
        ClockCommand::Display { text, beep } => {
            let mut data = text_bytes(text, 8);
            data.resize(8, b' ');
            data.push(u8::from(*beep));
            (clock_ids::ASCII, data)
        }
        ClockCommand::Beep { units } => (clock_ids::BEEP, vec![units & 0x7f]),
        ClockCommand::EndDisplay => (clock_ids::END_DISPLAY, Vec::new()),
    };
    let mut bytes = Vec::with_capacity(data.len() + 5);
    bytes.extend([commands::CLOCK_MESSAGE, (data.len() + 3) as u8, clock_ids::START, cmd]);
    bytes.extend(data);
    bytes.push(clock_ids::END);
    bytes
}

fn decode_clock(body: &[u8]) -> Option<ClockCommand> {
    let [clock_ids::START, cmd, data @ .., clock_ids::END] = body else { return None };
    let time = |b: &[u8]| {
        (b[0] <= 9 && b[1] < 60 && b[2] < 60).then(|| SideTime {
            hours: b[0],
            minutes: b[1],
            seconds: b[2],
            ..SideTime::default()
        })
    };
    match (*cmd, data) {
        (clock_ids::SET_N_RUN, [l @ .., run]) if l.len() == 6 => Some(ClockCommand::SetAndRun {
            left: time(&l[..3])?,
            right: time(&l[3..])?,
            run: ClockRun::from_code(*run)?,
            lever: run & LEVER_BIT != 0,
        }),
        (clock_ids::VERSION, []) => Some(ClockCommand::Version),
        (clock_ids::ASCII, [text @ .., beep]) if text.len() == 8 => Some(ClockCommand::Display {
            text: text.iter().map(|&b| char::from(b & 0x7f)).collect(),
            beep: *beep != 0,
        }),
        (clock_ids::BEEP, [units]) => Some(ClockCommand::Beep { units: *units }),
        (clock_ids::END_DISPLAY, []) => Some(ClockCommand::EndDisplay),
        _ => None,
    }
}

/// Incremental decoder of host commands, as a board (the emulator) reads them.
/// Unknown single bytes and malformed clock messages yield `None` entries.
#[derive(Debug, Clone, Default)]
pub struct HostCommandReader {
    clock: Option<(Option<u8>, Vec<u8>)>,
}

impl HostCommandReader {
    /// A reader between commands.
    pub fn new() -> Self {
        Self::default()
    }

    /// Consumes `bytes`, appending each complete command (or `None` for an unknown one).
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Option<HostCommand>>) {
        for &b in bytes {
            match self.clock.take() {
                Some((None, body)) => self.clock = Some((Some(b), body)),
                Some((Some(size), mut body)) => {
                    body.push(b);
                    if body.len() >= usize::from(size) {
                        out.push(decode_clock(&body).map(HostCommand::Clock));
                    } else {
                        self.clock = Some((Some(size), body));
                    }
                }
                None => out.push(match b {
                    commands::CLOCK_MESSAGE => {
                        self.clock = Some((None, Vec::new()));
                        continue;
                    }
                    commands::RESET => Some(HostCommand::Reset),
                    commands::SEND_BOARD => Some(HostCommand::SendBoard),
                    commands::SEND_UPDATES => Some(HostCommand::SendUpdates),
                    commands::SEND_UPDATES_BOARD => Some(HostCommand::SendUpdatesBoard),
                    commands::SEND_UPDATES_NICE => Some(HostCommand::SendUpdatesNice),
                    commands::SEND_SERIAL_NUMBER => Some(HostCommand::SendSerialNumber),
                    commands::SEND_TRADEMARK => Some(HostCommand::SendTrademark),
                    commands::SEND_VERSION => Some(HostCommand::SendVersion),
                    _ => None,
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests;
