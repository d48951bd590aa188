//! The BrlAPI packet protocol (version 8, as brltty 6 speaks it on its Unix
//! socket), pure: packets framed and read back, the payloads a client sends
//! and the ones it understands. No I/O here.
//!
//! Every packet is a header of two big-endian `u32`s — the payload's size and
//! the packet's type (one ASCII letter) — followed by the payload.

/// The protocol version this client speaks (brlapi 0.8).
pub const PROTOCOL_VERSION: u32 = 8;
/// The largest payload BrlAPI allows; a bigger size means the stream is garbled.
pub const MAX_PAYLOAD: usize = 4096;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 8;

/// Packet types (the ASCII letters of `brlapi_protocol.h`).
pub mod kind {
    /// Protocol version (both ways, the server first).
    pub const VERSION: u32 = b'v' as u32;
    /// Authorization: the server's accepted methods, the client's key.
    pub const AUTH: u32 = b'a' as u32;
    /// The display's size (columns, rows).
    pub const DISPLAY_SIZE: u32 = b's' as u32;
    /// Take the display for a tty path.
    pub const ENTER_TTY_MODE: u32 = b't' as u32;
    /// Give the display back.
    pub const LEAVE_TTY_MODE: u32 = b'L' as u32;
    /// Write cells or text.
    pub const WRITE: u32 = b'w' as u32;
    /// A key (server to client).
    pub const KEY: u32 = b'k' as u32;
    /// Acknowledgement.
    pub const ACK: u32 = b'A' as u32;
    /// An error answering a request.
    pub const ERROR: u32 = b'e' as u32;
    /// An error about an earlier packet (asynchronous).
    pub const EXCEPTION: u32 = b'E' as u32;
}

/// Authorization methods in the server's `AUTH` packet.
pub mod auth {
    /// No authorization needed.
    pub const NONE: u32 = b'N' as u32;
    /// The shared key file (`/etc/brlapi.key`).
    pub const KEY: u32 = b'K' as u32;
    /// Unix credentials (polkit, groups).
    pub const CREDENTIALS: u32 = b'C' as u32;
}

/// `WRITE` flags.
mod write_flag {
    pub const REGION: u32 = 0x02;
    pub const TEXT: u32 = 0x04;
    pub const CURSOR: u32 = 0x20;
    pub const CHARSET: u32 = 0x40;
}

/// Key code: the type bits (commands, as opposed to keysyms); the upper 32
/// bits are flags (shift, long press …), which the station ignores.
const KEY_TYPE_MASK: u64 = 0xE000_0000;
/// Key code type of a brltty command.
pub const KEY_TYPE_CMD: u64 = 0x2000_0000;
/// A command's block (which command) and argument (e.g. the routing key's cell).
const KEY_CMD_BLOCK_MASK: u64 = 0x1FFF_0000;
const KEY_CMD_ARG_MASK: u64 = 0xFFFF;
/// The routing-key block (`BRLAPI_KEY_CMD_ROUTE`).
pub const KEY_CMD_ROUTE: u64 = 0x1_0000;

/// One packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Its type (see [`kind`]).
    pub kind: u32,
    /// Its payload.
    pub payload: Vec<u8>,
}

/// Why bytes are not a packet the client can use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A header announced more than [`MAX_PAYLOAD`]: the stream cannot be resynchronised.
    #[error("packet of {0} bytes announced (at most {MAX_PAYLOAD})")]
    Oversized(u32),
    /// A payload too short or too long for its type.
    #[error("`{kind}` packet with a {len}-byte payload")]
    BadPayload {
        /// The packet type, as a character.
        kind: char,
        /// Its payload length.
        len: usize,
    },
    /// A type the client does not expect here.
    #[error("unexpected `{0}` packet")]
    Unexpected(char),
    /// The server refused a request (`ERROR`).
    #[error("brltty refused: error {0}")]
    Refused(u32),
}

/// The packet type as a printable character (for messages).
pub fn kind_char(kind: u32) -> char {
    char::from_u32(kind).filter(|c| c.is_ascii_graphic()).unwrap_or('?')
}

/// The bytes of a packet.
pub fn encode(kind: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&u32::try_from(payload.len()).unwrap_or(u32::MAX).to_be_bytes());
    out.extend_from_slice(&kind.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// Reads packets out of a byte stream as it arrives.
#[derive(Debug, Default)]
pub struct Decoder {
    buf: Vec<u8>,
}

impl Decoder {
    /// Appends bytes read from the socket.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole packet, if one is there. An oversized header is an
    /// error after which the stream is lost (the connection must be closed).
    pub fn next_packet(&mut self) -> Result<Option<Packet>, ProtocolError> {
        if self.buf.len() < HEADER_LEN {
            return Ok(None);
        }
        let size = u32::from_be_bytes([self.buf[0], self.buf[1], self.buf[2], self.buf[3]]);
        let kind = u32::from_be_bytes([self.buf[4], self.buf[5], self.buf[6], self.buf[7]]);
        let len = size as usize;
        if len > MAX_PAYLOAD {
            self.buf.clear();
            return Err(ProtocolError::Oversized(size));
        }
        if self.buf.len() < HEADER_LEN + len {
            return Ok(None);
        }
        let payload = self.buf[HEADER_LEN..HEADER_LEN + len].to_vec();
        self.buf.drain(..HEADER_LEN + len);
        Ok(Some(Packet { kind, payload }))
    }
}

fn u32_at(payload: &[u8], at: usize) -> Option<u32> {
    payload.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn bad(p: &Packet) -> ProtocolError {
    ProtocolError::BadPayload { kind: kind_char(p.kind), len: p.payload.len() }
}

/// The version a `VERSION` packet carries.
pub fn read_version(p: &Packet) -> Result<u32, ProtocolError> {
    expect(p, kind::VERSION)?;
    if p.payload.len() != 4 {
        return Err(bad(p));
    }
    u32_at(&p.payload, 0).ok_or_else(|| bad(p))
}

/// The methods a server's `AUTH` packet offers.
pub fn read_auth_methods(p: &Packet) -> Result<Vec<u32>, ProtocolError> {
    expect(p, kind::AUTH)?;
    if p.payload.is_empty() || !p.payload.len().is_multiple_of(4) {
        return Err(bad(p));
    }
    Ok(p.payload.chunks_exact(4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]])).collect())
}

/// The client's `AUTH` payload for the key method.
pub fn auth_key(key: &[u8]) -> Vec<u8> {
    let mut out = auth::KEY.to_be_bytes().to_vec();
    out.extend_from_slice(&key[..key.len().min(MAX_PAYLOAD - 4)]);
    out
}

/// Columns and rows of a `DISPLAY_SIZE` answer.
pub fn read_display_size(p: &Packet) -> Result<(u32, u32), ProtocolError> {
    expect(p, kind::DISPLAY_SIZE)?;
    match (p.payload.len(), u32_at(&p.payload, 0), u32_at(&p.payload, 4)) {
        (8, Some(c), Some(r)) if (1..=1024).contains(&c) && (1..=64).contains(&r) => Ok((c, r)),
        _ => Err(bad(p)),
    }
}

/// `ENTER_TTY_MODE` for the given tty path (empty: the root of the tty tree,
/// which a station without a screen reader owns) and no driver keys (commands).
pub fn enter_tty_mode(ttys: &[u32]) -> Vec<u8> {
    let mut out = u32::try_from(ttys.len()).unwrap_or(0).to_be_bytes().to_vec();
    for t in ttys {
        out.extend_from_slice(&t.to_be_bytes());
    }
    out.push(0); // no driver name: brltty commands, not raw driver keys
    out
}

/// `WRITE` of a whole line of text: the first `columns` characters of `text`,
/// padded with blanks, no cursor, UTF-8.
pub fn write_text(text: &str, columns: u32) -> Vec<u8> {
    let cells: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .chain(std::iter::repeat(' '))
        .take(columns as usize)
        .collect();
    let flags = write_flag::REGION | write_flag::TEXT | write_flag::CURSOR | write_flag::CHARSET;
    let mut out = flags.to_be_bytes().to_vec();
    out.extend_from_slice(&1u32.to_be_bytes()); // region begins at cell 1
    out.extend_from_slice(&columns.to_be_bytes()); // and covers the display
    out.extend_from_slice(&u32::try_from(cells.len()).unwrap_or(0).to_be_bytes());
    out.extend_from_slice(cells.as_bytes());
    out.extend_from_slice(&0u32.to_be_bytes()); // no cursor
    let charset = b"UTF-8";
    out.push(charset.len() as u8);
    out.extend_from_slice(charset);
    out
}

/// The text of a `WRITE` payload as [`write_text`] makes it (the simulated
/// server reads it back; other flag sets are refused).
pub fn read_write_text(p: &Packet) -> Result<String, ProtocolError> {
    expect(p, kind::WRITE)?;
    let flags = u32_at(&p.payload, 0).ok_or_else(|| bad(p))?;
    let expected = write_flag::REGION | write_flag::TEXT | write_flag::CURSOR | write_flag::CHARSET;
    if flags != expected {
        return Err(bad(p));
    }
    let len = u32_at(&p.payload, 12).ok_or_else(|| bad(p))? as usize;
    let text = p.payload.get(16..16 + len).ok_or_else(|| bad(p))?;
    String::from_utf8(text.to_vec()).map_err(|_| bad(p))
}

/// A key the display sent, as the station uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A routing key, by cell (0 = the leftmost).
    Routing(u16),
    /// Any other brltty command (panning, line up/down …): its block and argument.
    Command(u32),
}

/// The `KEY` packet's code, as brltty sends it.
pub fn key_code(code: u64) -> Result<Key, u64> {
    if code & KEY_TYPE_MASK != KEY_TYPE_CMD {
        return Err(code); // a keysym: a keyboard's key, not the display's
    }
    let block = code & KEY_CMD_BLOCK_MASK;
    let arg = code & KEY_CMD_ARG_MASK;
    Ok(if block == KEY_CMD_ROUTE { Key::Routing(arg as u16) } else { Key::Command((block | arg) as u32) })
}

/// The key a `KEY` packet carries (a keysym is `None`: not the display's).
pub fn read_key(p: &Packet) -> Result<Option<Key>, ProtocolError> {
    expect(p, kind::KEY)?;
    if p.payload.len() != 8 {
        return Err(bad(p));
    }
    let hi = u64::from(u32_at(&p.payload, 0).ok_or_else(|| bad(p))?);
    let lo = u64::from(u32_at(&p.payload, 4).ok_or_else(|| bad(p))?);
    Ok(key_code((hi << 32) | lo).ok())
}

/// The `KEY` payload of a code (the simulated server sends these).
pub fn key_payload(code: u64) -> Vec<u8> {
    let mut out = ((code >> 32) as u32).to_be_bytes().to_vec();
    out.extend_from_slice(&(code as u32).to_be_bytes());
    out
}

/// An `ACK`, or the server's refusal.
pub fn read_ack(p: &Packet) -> Result<(), ProtocolError> {
    match p.kind {
        kind::ACK => Ok(()),
        kind::ERROR => Err(ProtocolError::Refused(u32_at(&p.payload, 0).unwrap_or(0))),
        other => Err(ProtocolError::Unexpected(kind_char(other))),
    }
}

fn expect(p: &Packet, want: u32) -> Result<(), ProtocolError> {
    match p.kind {
        k if k == want => Ok(()),
        kind::ERROR => Err(ProtocolError::Refused(u32_at(&p.payload, 0).unwrap_or(0))),
        other => Err(ProtocolError::Unexpected(kind_char(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_split_anywhere_come_out_whole() {
        let mut bytes = encode(kind::VERSION, &PROTOCOL_VERSION.to_be_bytes());
        bytes.extend(encode(kind::KEY, &key_payload(KEY_TYPE_CMD | KEY_CMD_ROUTE | 7)));
        for split in 0..bytes.len() {
            let mut d = Decoder::default();
            d.push(&bytes[..split]);
            let mut got = Vec::new();
            while let Some(p) = d.next_packet().unwrap() {
                got.push(p);
            }
            d.push(&bytes[split..]);
            while let Some(p) = d.next_packet().unwrap() {
                got.push(p);
            }
            assert_eq!(got.len(), 2, "split at {split}");
            assert_eq!(read_version(&got[0]), Ok(8));
            assert_eq!(read_key(&got[1]), Ok(Some(Key::Routing(7))));
        }
    }

    #[test]
    fn an_oversized_header_is_an_error_not_an_allocation() {
        let mut d = Decoder::default();
        d.push(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, b'k']);
        assert_eq!(d.next_packet(), Err(ProtocolError::Oversized(u32::MAX)));
    }

    #[test]
    fn malformed_payloads_are_errors() {
        let short = Packet { kind: kind::KEY, payload: vec![1, 2, 3] };
        assert!(read_key(&short).is_err());
        let size = Packet { kind: kind::DISPLAY_SIZE, payload: vec![0; 8] };
        assert!(read_display_size(&size).is_err(), "a display of 0 columns");
        let auth = Packet { kind: kind::AUTH, payload: vec![0; 5] };
        assert!(read_auth_methods(&auth).is_err());
    }

    #[test]
    fn a_written_line_reads_back_padded_to_the_display() {
        let p = Packet { kind: kind::WRITE, payload: write_text("12. Sf3 é", 20) };
        let text = read_write_text(&p).unwrap();
        assert_eq!(text.chars().count(), 20);
        assert_eq!(text.trim_end(), "12. Sf3 é");
    }

    #[test]
    fn keysyms_are_not_display_keys() {
        assert_eq!(key_code(0x0000_0000_0000_0061), Err(0x61));
        assert_eq!(key_code(KEY_TYPE_CMD | 0x0001), Ok(Key::Command(1)));
        // What brltty 6.5 sent for the virtual display's `Route 3` (its log:
        // "client code 0000000020010003"), with a flag in the upper half.
        assert_eq!(key_code(0x0000_0000_2001_0003), Ok(Key::Routing(3)));
        assert_eq!(key_code(0x0000_0001_2001_0003), Ok(Key::Routing(3)));
    }
}
