//! Peg-board serial protocol, version 1: parsing and formatting only, no I/O.
//!
//! The wire format is described for board makers in `docs/pegboard-protocol.md`;
//! this module is its executable reference. Everything here is total: any byte
//! sequence is either a [`BoardMessage`] or a counted [`LineError`], never a panic.

use std::fmt::Write as _;

use shakmaty::Bitboard;

use crate::drop_counters::DropReason;

/// Longest accepted line content in bytes, not counting `\r` and the final `\n`.
pub const MAX_LINE_LEN: usize = 128;

/// Default line speed of the board (8N1, no flow control).
pub const DEFAULT_BAUD: u32 = 115_200;

/// Number of buttons a board may report (`K 0` .. `K 15`).
pub const BUTTON_COUNT: u8 = 16;

/// A message sent by the peg board to the station.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardMessage {
    /// Full occupancy scan: bit n set = a peg in square n (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
    Scan(Bitboard),
    /// A button changed state.
    Button {
        /// Button number, 0–15.
        index: u8,
        /// `true` when pressed, `false` when released.
        pressed: bool,
    },
    /// A 10×10 draughts board's scan (`S` with exactly 13 hex digits): bit n−1 set
    /// when FMJD square n (1–50) holds a piece; bits 50 and 51 are refused.
    Scan50(u64),
    /// Identity / firmware string of the board (printable ASCII, possibly empty).
    Identity(String),
    /// A fault the board detected on its side (printable ASCII, possibly empty).
    Fault(String),
}

/// Why a received line was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum LineError {
    /// The line had more than [`MAX_LINE_LEN`] bytes before its `\n`.
    #[error("line longer than {MAX_LINE_LEN} bytes")]
    TooLong,
    /// The `*HH` checksum did not match or was not two hex digits.
    #[error("bad checksum")]
    BadChecksum,
    /// The message type (the token before the first space) is not one we know.
    #[error("unknown message type")]
    UnknownType,
    /// A known message type with a malformed body, or a control character in the line.
    #[error("malformed message")]
    Malformed,
    /// A 13-digit (draughts) scan with a bit set beyond square 50.
    #[error("draughts scan names a square beyond 50")]
    BeyondSquare50,
    /// The line contained a byte outside 7-bit ASCII.
    #[error("non-ASCII byte in line")]
    NotAscii,
}

/// A command sent by the station to the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StationCommand {
    /// `?` — send a scan now.
    RequestScan,
    /// `I?` — send the identity line.
    RequestIdentity,
}

impl StationCommand {
    /// The command as sent on the wire, including the trailing `\n`.
    pub fn to_line(self) -> &'static str {
        match self {
            StationCommand::RequestScan => "?\n",
            StationCommand::RequestIdentity => "I?\n",
        }
    }

    /// Parses a command line as a board would (`\r` and a trailing `\n` ignored).
    pub fn parse_line(line: &[u8]) -> Option<StationCommand> {
        let mut clean = line.iter().copied().filter(|&b| b != b'\r' && b != b'\n');
        match (clean.next(), clean.next(), clean.next()) {
            (Some(b'?'), None, None) => Some(StationCommand::RequestScan),
            (Some(b'I'), Some(b'?'), None) => Some(StationCommand::RequestIdentity),
            _ => None,
        }
    }
}

/// Per-reason counts of dropped lines.
pub type DropCounters = crate::drop_counters::DropCounters<LineError>;

impl DropReason for LineError {
    fn counter(self) -> usize {
        match self {
            // A draughts scan naming a square beyond 50 is a malformed scan.
            LineError::BeyondSquare50 => LineError::Malformed as usize,
            // The others each their own counter: the variant's index.
            reason => reason as usize,
        }
    }
}

/// XOR of all bytes: the NMEA-style checksum carried as `*HH`.
pub fn checksum(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |acc, b| acc ^ b)
}

/// Parses one line (without its `\n`; a single trailing `\n` is tolerated, `\r` is ignored).
pub fn parse_line(line: &[u8]) -> Result<BoardMessage, LineError> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let mut buf = [0u8; MAX_LINE_LEN];
    let mut len = 0;
    for &b in line.iter().filter(|&&b| b != b'\r') {
        if len == MAX_LINE_LEN {
            return Err(LineError::TooLong);
        }
        buf[len] = b;
        len += 1;
    }
    parse_clean(&buf[..len])
}

/// Parses a line that is already free of `\r` and within [`MAX_LINE_LEN`].
fn parse_clean(line: &[u8]) -> Result<BoardMessage, LineError> {
    if !line.is_ascii() {
        return Err(LineError::NotAscii);
    }
    let body = strip_checksum(line)?;
    // Control bytes (including a stray `\n` handed to parse_line) mean line noise.
    if body.iter().any(u8::is_ascii_control) {
        return Err(LineError::Malformed);
    }
    let (kind, rest) = match body.iter().position(|&b| b == b' ') {
        Some(space) => (&body[..space], Some(&body[space + 1..])),
        None => (body, None),
    };
    match kind {
        b"S" if rest.is_some_and(|r| r.len() == DRAUGHTS_DIGITS) => parse_scan50(rest),
        b"S" => parse_scan(rest).map(BoardMessage::Scan),
        b"K" => parse_button(rest),
        b"I" => Ok(BoardMessage::Identity(text(rest))),
        b"E" => Ok(BoardMessage::Fault(text(rest))),
        b"" => Err(LineError::Malformed),
        _ => Err(LineError::UnknownType),
    }
}

/// Verifies and removes an optional `*HH` suffix. `*` is reserved for it, so
/// the first `*` always starts the checksum field.
fn strip_checksum(line: &[u8]) -> Result<&[u8], LineError> {
    let Some(star) = line.iter().position(|&b| b == b'*') else {
        return Ok(line);
    };
    let (body, field) = (&line[..star], &line[star + 1..]);
    let [hi, lo] = field else {
        return Err(LineError::BadChecksum);
    };
    let expected =
        hex_value(*hi).zip(hex_value(*lo)).map(|(hi, lo)| (hi << 4) | lo).ok_or(LineError::BadChecksum)?;
    if checksum(body) == expected { Ok(body) } else { Err(LineError::BadChecksum) }
}

fn hex_value(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).map(|d| d as u8)
}

fn parse_scan(rest: Option<&[u8]>) -> Result<Bitboard, LineError> {
    let digits = rest.ok_or(LineError::Malformed)?;
    if digits.len() != 16 {
        return Err(LineError::Malformed);
    }
    digits
        .iter()
        .try_fold(0u64, |acc, &b| hex_value(b).map(|d| (acc << 4) | u64::from(d)))
        .map(Bitboard)
        .ok_or(LineError::Malformed)
}

/// Hex digits of a 10×10 draughts scan (52 bits: squares 1–50 and two spare zero bits).
pub const DRAUGHTS_DIGITS: usize = 13;

fn parse_scan50(rest: Option<&[u8]>) -> Result<BoardMessage, LineError> {
    let digits = rest.ok_or(LineError::Malformed)?;
    let bits = digits
        .iter()
        .try_fold(0u64, |acc, &b| hex_value(b).map(|d| (acc << 4) | u64::from(d)))
        .ok_or(LineError::Malformed)?;
    if bits >> 50 != 0 {
        return Err(LineError::BeyondSquare50);
    }
    Ok(BoardMessage::Scan50(bits))
}

fn parse_button(rest: Option<&[u8]>) -> Result<BoardMessage, LineError> {
    let rest = rest.ok_or(LineError::Malformed)?;
    let mut fields = rest.split(|&b| b == b' ');
    let (Some(index), Some(state), None) = (fields.next(), fields.next(), fields.next()) else {
        return Err(LineError::Malformed);
    };
    let index = match index {
        [d] if d.is_ascii_digit() => d - b'0',
        [t, d] if t.is_ascii_digit() && d.is_ascii_digit() => (t - b'0') * 10 + (d - b'0'),
        _ => return Err(LineError::Malformed),
    };
    if index >= BUTTON_COUNT {
        return Err(LineError::Malformed);
    }
    let pressed = match state {
        b"0" => false,
        b"1" => true,
        _ => return Err(LineError::Malformed),
    };
    Ok(BoardMessage::Button { index, pressed })
}

fn text(rest: Option<&[u8]>) -> String {
    // The caller has already checked the bytes are printable ASCII.
    rest.map(|t| t.iter().map(|&b| char::from(b)).collect()).unwrap_or_default()
}

fn is_text_char(c: char) -> bool {
    (' '..='~').contains(&c) && c != '*'
}

impl BoardMessage {
    /// Formats the message as one wire line including the trailing `\n`,
    /// optionally with a `*HH` checksum.
    ///
    /// Text that cannot be sent (non-printable characters, `*`) is replaced by
    /// `?` and cut so the line fits [`MAX_LINE_LEN`]. A button index above 15
    /// is written as-is; a receiver drops such a line as malformed.
    pub fn to_line(&self, with_checksum: bool) -> String {
        let budget = if with_checksum { MAX_LINE_LEN - 3 } else { MAX_LINE_LEN };
        let mut line = String::with_capacity(24);
        // Writing into a String cannot fail.
        let _ = match self {
            BoardMessage::Scan(occupancy) => write!(line, "S {:016X}", occupancy.0),
            BoardMessage::Scan50(occupancy) => write!(line, "S {:013X}", occupancy & ((1 << 50) - 1)),
            BoardMessage::Button { index, pressed } => {
                write!(line, "K {index} {}", u8::from(*pressed))
            }
            BoardMessage::Identity(text) => write_text(&mut line, 'I', text, budget),
            BoardMessage::Fault(text) => write_text(&mut line, 'E', text, budget),
        };
        if with_checksum {
            let sum = checksum(line.as_bytes());
            let _ = write!(line, "*{sum:02X}");
        }
        line.push('\n');
        line
    }
}

fn write_text(line: &mut String, kind: char, text: &str, budget: usize) -> std::fmt::Result {
    line.push(kind);
    line.push(' ');
    let room = budget.saturating_sub(line.len());
    line.extend(text.chars().map(|c| if is_text_char(c) { c } else { '?' }).take(room));
    Ok(())
}

/// Incremental line splitter: feed it whatever chunks the serial port returns.
///
/// Never buffers more than [`MAX_LINE_LEN`] bytes; an over-long line is
/// reported once as [`LineError::TooLong`] and skipped up to its `\n`.
/// Empty lines (e.g. from `\r\n\r\n`) are skipped silently.
#[derive(Debug, Clone)]
pub struct LineReader {
    buf: [u8; MAX_LINE_LEN],
    len: usize,
    skipping_long_line: bool,
}

impl Default for LineReader {
    fn default() -> Self {
        Self::new()
    }
}

impl LineReader {
    /// A reader at the start of a line.
    pub fn new() -> Self {
        LineReader { buf: [0; MAX_LINE_LEN], len: 0, skipping_long_line: false }
    }

    /// Forgets any partial line, e.g. after reconnecting.
    pub fn reset(&mut self) {
        self.len = 0;
        self.skipping_long_line = false;
    }

    /// Consumes `bytes` and appends one result per completed (or over-long) line to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Result<BoardMessage, LineError>>) {
        for &b in bytes {
            match b {
                b'\r' => {}
                b'\n' => {
                    if !self.skipping_long_line && self.len > 0 {
                        out.push(parse_clean(&self.buf[..self.len]));
                    }
                    self.reset();
                }
                _ if self.skipping_long_line => {}
                _ if self.len == MAX_LINE_LEN => {
                    // Report now rather than at the `\n`, which may never come.
                    self.skipping_long_line = true;
                    self.len = 0;
                    out.push(Err(LineError::TooLong));
                }
                _ => {
                    self.buf[self.len] = b;
                    self.len += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::picked;
    use proptest::prelude::*;
    use shakmaty::Square;

    fn read_all(bytes: &[u8]) -> Vec<Result<BoardMessage, LineError>> {
        chunked(bytes, &[])
    }

    /// Every one of `lines` is refused with `err`.
    fn assert_refused(lines: &[&[u8]], err: LineError) {
        for bad in lines {
            assert_eq!(parse_line(bad), Err(err), "{bad:?}");
        }
    }

    fn with_sum(body: &str) -> String {
        format!("{body}*{:02X}", checksum(body.as_bytes()))
    }

    #[test]
    fn scan_bits_follow_square_index() {
        let msg = parse_line(b"S 8000000000000081").unwrap();
        let expected = Bitboard::from(Square::A1) | Square::H1 | Square::H8;
        assert_eq!(msg, BoardMessage::Scan(expected));
        assert_eq!(
            parse_line(b"S 0100000000000000").unwrap(),
            BoardMessage::Scan(Bitboard::from(Square::A8))
        );
    }

    #[test]
    fn scan_accepts_both_cases() {
        assert_eq!(
            parse_line(b"S ffff00000000FFFF").unwrap(),
            BoardMessage::Scan(Bitboard(0xFFFF_0000_0000_FFFF))
        );
    }

    #[test]
    fn scan_must_have_sixteen_hex_digits_after_one_space() {
        assert_refused(
            &[
                &b"S"[..],
                b"S ",
                b"S 123",
                b"S 00000000000000000",
                b"S  000000000000000",
                b"S 000000000000000G",
                b"S 0000000000000000 ",
                b"S +000000000000000",
            ],
            LineError::Malformed,
        );
    }

    #[test]
    fn buttons() {
        assert_eq!(parse_line(b"K 0 1"), Ok(BoardMessage::Button { index: 0, pressed: true }));
        assert_eq!(parse_line(b"K 15 0"), Ok(BoardMessage::Button { index: 15, pressed: false }));
        assert_refused(
            &[&b"K 16 1"[..], b"K 1 2", b"K 1", b"K", b"K 1 1 1", b"K -1 1", b"K 123 1", b"K a 1"],
            LineError::Malformed,
        );
    }

    #[test]
    fn identity_and_fault_text() {
        assert_eq!(
            parse_line(b"I PegBoard fw 1.2 (c) 2025"),
            Ok(BoardMessage::Identity("PegBoard fw 1.2 (c) 2025".into()))
        );
        assert_eq!(parse_line(b"I"), Ok(BoardMessage::Identity(String::new())));
        assert_eq!(parse_line(b"I "), Ok(BoardMessage::Identity(String::new())));
        assert_eq!(parse_line(b"E sensor 12 stuck"), Ok(BoardMessage::Fault("sensor 12 stuck".into())));
        assert_eq!(parse_line(b"E row 3\tdead"), Err(LineError::Malformed), "control bytes are noise");
    }

    #[test]
    fn checksum_verified_when_present() {
        let line = with_sum("S 000000000000FFFF");
        assert_eq!(parse_line(line.as_bytes()), Ok(BoardMessage::Scan(Bitboard(0xFFFF))));
        let lower = line.to_ascii_lowercase().replacen('s', "S", 1);
        assert!(parse_line(lower.as_bytes()).is_ok(), "lower-case hex");
        assert_eq!(parse_line(b"S 000000000000FFFF*00"), Err(LineError::BadChecksum));
        assert_refused(
            &[
                &b"S 000000000000FFFF*"[..],
                b"S 000000000000FFFF*1",
                b"S 000000000000FFFF*123",
                b"S 000000000000FFFF*G1",
                b"I a*b*00",
            ],
            LineError::BadChecksum,
        );
    }

    #[test]
    fn documented_examples_have_correct_checksums() {
        // These exact lines appear in docs/pegboard-protocol.md.
        for (line, msg) in [
            ("S FFFF00000000FFFF*73", BoardMessage::Scan(Bitboard(0xFFFF_0000_0000_FFFF))),
            ("S FFFF00001000EFFF*71", BoardMessage::Scan(Bitboard(0xFFFF_0000_1000_EFFF))),
            ("K 3 1*49", BoardMessage::Button { index: 3, pressed: true }),
            ("I AcmePegs 64 fw 1.0.3*63", BoardMessage::Identity("AcmePegs 64 fw 1.0.3".into())),
            ("E sensor e4 stuck*58", BoardMessage::Fault("sensor e4 stuck".into())),
        ] {
            assert_eq!(parse_line(line.as_bytes()), Ok(msg.clone()), "{line}");
            assert_eq!(msg.to_line(true), format!("{line}\n"));
        }
    }

    #[test]
    fn every_checksummed_example_in_the_protocol_document_is_valid() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/pegboard-protocol.md");
        let doc = std::fs::read_to_string(path).expect("docs/pegboard-protocol.md");
        let inline = doc.split('`').skip(1).step_by(2);
        let session = doc
            .lines()
            .filter_map(|l| l.split_once("board → station"))
            .map(|(_, rest)| rest.trim().split("  ").next().unwrap_or_default());
        let examples: Vec<&str> = inline
            .chain(session)
            .filter(|t| t.len() >= 3 && t.as_bytes()[t.len() - 3] == b'*')
            .filter(|t| t.starts_with(['S', 'K', 'I', 'E']))
            .collect();
        assert!(examples.len() >= 10, "{examples:?}");
        for line in examples {
            assert!(parse_line(line.as_bytes()).is_ok(), "{line}");
        }
    }

    #[test]
    fn unknown_types_and_empty_kind() {
        assert_eq!(parse_line(b"X 1"), Err(LineError::UnknownType));
        assert_eq!(parse_line(b"SCAN 0000000000000000"), Err(LineError::UnknownType));
        assert_eq!(parse_line(b"?"), Err(LineError::UnknownType));
        assert_eq!(parse_line(b""), Err(LineError::Malformed));
        assert_eq!(parse_line(b" S 0000000000000000"), Err(LineError::Malformed));
    }

    #[test]
    fn non_ascii_wins_over_other_errors() {
        assert_eq!(parse_line(b"I caf\xc3\xa9"), Err(LineError::NotAscii));
        assert_eq!(parse_line(b"\xff*00"), Err(LineError::NotAscii));
    }

    #[test]
    fn carriage_returns_are_ignored_anywhere() {
        assert_eq!(parse_line(b"\rK 1\r 1\r"), Ok(BoardMessage::Button { index: 1, pressed: true }));
        let out = read_all(b"K 2 0\r\n\r\n");
        assert_eq!(out, vec![Ok(BoardMessage::Button { index: 2, pressed: false })]);
    }

    #[test]
    fn length_limit_is_exactly_128() {
        let ok = format!("I {}", "x".repeat(MAX_LINE_LEN - 2));
        assert_eq!(ok.len(), MAX_LINE_LEN);
        assert!(parse_line(ok.as_bytes()).is_ok());
        let long = format!("{ok}x");
        assert_eq!(parse_line(long.as_bytes()), Err(LineError::TooLong));

        let stream = format!("{ok}\n{long}\nK 1 1\n");
        let out = read_all(stream.as_bytes());
        assert_eq!(out.len(), 3);
        assert!(out[0].is_ok());
        assert_eq!(out[1], Err(LineError::TooLong));
        assert!(out[2].is_ok(), "resynchronised after the long line");
    }

    #[test]
    fn very_long_line_reported_once_and_skipped() {
        let mut stream = vec![b'S'; 10_000];
        stream.extend_from_slice(b"\nK 4 1\n");
        let out = read_all(&stream);
        assert_eq!(out, vec![Err(LineError::TooLong), Ok(BoardMessage::Button { index: 4, pressed: true })]);
    }

    #[test]
    fn partial_line_waits_for_newline() {
        let mut reader = LineReader::new();
        let mut out = Vec::new();
        reader.push(b"S 00000000", &mut out);
        assert!(out.is_empty());
        reader.push(b"000000FF\n", &mut out);
        assert_eq!(out, vec![Ok(BoardMessage::Scan(Bitboard(0xFF)))]);
    }

    #[test]
    fn reset_drops_partial_line() {
        let mut reader = LineReader::new();
        let mut out = Vec::new();
        reader.push(b"S 0000", &mut out);
        reader.reset();
        reader.push(b"K 1 0\n", &mut out);
        assert_eq!(out, vec![Ok(BoardMessage::Button { index: 1, pressed: false })]);
    }

    #[test]
    fn errors_say_what_was_wrong() {
        assert_eq!(LineError::TooLong.to_string(), "line longer than 128 bytes");
    }

    #[test]
    fn station_commands() {
        assert_eq!(StationCommand::RequestScan.to_line(), "?\n");
        assert_eq!(StationCommand::RequestIdentity.to_line(), "I?\n");
        for cmd in [StationCommand::RequestScan, StationCommand::RequestIdentity] {
            assert_eq!(StationCommand::parse_line(cmd.to_line().as_bytes()), Some(cmd));
        }
        assert_eq!(StationCommand::parse_line(b"I?\r\n"), Some(StationCommand::RequestIdentity));
        assert_eq!(StationCommand::parse_line(b"??"), None);
    }

    #[test]
    fn to_line_sanitises_text() {
        let msg = BoardMessage::Fault(format!("bad*char\té{}", "y".repeat(200)));
        let line = msg.to_line(true);
        assert!(line.len() <= MAX_LINE_LEN + 1);
        match parse_line(line.as_bytes()) {
            Ok(BoardMessage::Fault(text)) => assert!(text.starts_with("bad?char??y")),
            other => panic!("{other:?}"),
        }
        let plain = msg.to_line(false);
        assert_eq!(plain.len(), MAX_LINE_LEN + 1);
        assert!(parse_line(plain.as_bytes()).is_ok());
    }

    // ---- fuzzing -------------------------------------------------------------

    /// Reference predicate: is this line (without `\n`) a well-formed scan?
    fn reference_scan(line: &[u8]) -> Option<u64> {
        let line: Vec<u8> = line.iter().copied().filter(|&b| b != b'\r').collect();
        if line.len() > MAX_LINE_LEN {
            return None;
        }
        let text = std::str::from_utf8(&line).ok()?;
        let (body, sum) = match text.split_once('*') {
            Some((body, sum)) => (body, Some(sum)),
            None => (text, None),
        };
        if let Some(sum) = sum
            && (sum.len() != 2
                || !sum.chars().all(|c| c.is_ascii_hexdigit())
                || u8::from_str_radix(sum, 16).ok()? != checksum(body.as_bytes()))
        {
            return None;
        }
        let digits = body.strip_prefix("S ")?;
        if digits.len() != 16 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u64::from_str_radix(digits, 16).ok()
    }

    fn chunked(bytes: &[u8], cuts: &[usize]) -> Vec<Result<BoardMessage, LineError>> {
        let mut reader = LineReader::new();
        crate::test_support::chunked(bytes, cuts, |piece, out| reader.push(piece, out))
    }

    fn arb_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(prop_oneof![(0x20u8..=0x29), (0x2bu8..=0x7e)].prop_map(char::from), 0..100)
            .prop_map(|chars| chars.into_iter().collect())
    }

    fn arb_message() -> impl Strategy<Value = BoardMessage> {
        prop_oneof![
            any::<u64>().prop_map(|bits| BoardMessage::Scan(Bitboard(bits))),
            (0..BUTTON_COUNT, any::<bool>())
                .prop_map(|(index, pressed)| BoardMessage::Button { index, pressed }),
            arb_text().prop_map(BoardMessage::Identity),
            arb_text().prop_map(BoardMessage::Fault),
        ]
    }

    /// Streams that mix valid lines, slightly corrupted lines and raw garbage,
    /// so the fuzzer regularly lands near the interesting boundaries.
    fn arb_stream() -> impl Strategy<Value = Vec<u8>> {
        let fragment = prop_oneof![
            (arb_message(), any::<bool>()).prop_map(|(m, sum)| m.to_line(sum).into_bytes()),
            (arb_message(), any::<bool>(), any::<prop::sample::Index>(), any::<u8>()).prop_map(
                |(m, sum, at, byte)| {
                    let mut line = m.to_line(sum).into_bytes();
                    let i = at.index(line.len());
                    line[i] = byte;
                    line
                }
            ),
            proptest::collection::vec(any::<u8>(), 0..300),
            proptest::collection::vec(prop::sample::select(b"S 0123456789abcdefABCDEF*\r\n".to_vec()), 0..40),
        ];
        proptest::collection::vec(fragment, 0..12).prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn scans_only_from_well_formed_scan_lines(
            bytes in arb_stream(),
            cuts in proptest::collection::vec(0usize..200, 0..10),
        ) {
            let scan = |m| if let BoardMessage::Scan(bb) = m { Some(bb.0) } else { None };
            let got = picked(chunked(&bytes, &cuts), scan);
            // Only complete lines count: a trailing fragment without `\n` is never parsed.
            let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            lines.pop();
            let expected: Vec<u64> = lines.into_iter().filter_map(reference_scan).collect();
            prop_assert_eq!(got, expected);
        }

        #[test]
        fn round_trip_through_reader(
            msgs in proptest::collection::vec((arb_message(), any::<bool>()), 0..20),
            cuts in proptest::collection::vec(0usize..64, 0..20),
        ) {
            let bytes: String = msgs.iter().map(|(m, sum)| m.to_line(*sum)).collect();
            let got = chunked(bytes.as_bytes(), &cuts);
            let expected: Vec<_> = msgs.into_iter().map(|(m, _)| Ok(m)).collect();
            prop_assert_eq!(got, expected);
        }

        #[test]
        fn valid_line_after_garbage_is_read(
            garbage in proptest::collection::vec(any::<u8>(), 0..500),
            msg in arb_message(),
            sum in any::<bool>(),
        ) {
            let mut bytes = garbage;
            bytes.push(b'\n');
            bytes.extend_from_slice(msg.to_line(sum).as_bytes());
            let out = read_all(&bytes);
            prop_assert_eq!(out.last(), Some(&Ok(msg)));
        }
    }

    #[test]
    fn a_13_digit_scan_is_a_draughts_board_and_bits_beyond_50_are_refused() {
        // White's 20 men on 31–50: bits 30..=49.
        let white = ((1u64 << 20) - 1) << 30;
        assert_eq!(parse_line(b"S 3FFFFC0000000"), Ok(BoardMessage::Scan50(white)));
        assert_eq!(parse_line(b"S 0000000000001"), Ok(BoardMessage::Scan50(1)), "square 1");
        // The initial position as docs/pegboard-protocol.md shows it: 1–20 and 31–50.
        let initial = ((1u64 << 20) - 1) | white;
        assert_eq!(parse_line(b"S 3FFFFC00FFFFF"), Ok(BoardMessage::Scan50(initial)));
        assert_eq!(parse_line(b"S 4000000000000"), Err(LineError::BeyondSquare50));
        assert_eq!(parse_line(b"S 8000000000000"), Err(LineError::BeyondSquare50));
        assert_eq!(parse_line(b"S 3FFFFC000000G"), Err(LineError::Malformed));
        assert_eq!(parse_line(b"S 3FFFFC00000000"), Err(LineError::Malformed), "14 digits");
        let line = BoardMessage::Scan50(white).to_line(false);
        assert!(line.starts_with("S 3FFFFC0000000"), "{line}");
        assert_eq!(parse_line(line.trim_end().as_bytes()), Ok(BoardMessage::Scan50(white)));
    }
}
