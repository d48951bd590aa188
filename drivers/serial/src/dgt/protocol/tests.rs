use super::*;
use crate::test_support::picked;
use proptest::prelude::*;

fn read_all(bytes: &[u8]) -> Vec<Result<DgtMessage, DgtError>> {
    chunked(bytes, &[])
}

fn chunked(bytes: &[u8], cuts: &[usize]) -> Vec<Result<DgtMessage, DgtError>> {
    let mut reader = DgtReader::new();
    crate::test_support::chunked(bytes, cuts, |piece, out| reader.push(piece, out))
}

fn piece(c: char) -> Option<Piece> {
    Piece::from_char(c)
}

#[test]
fn piece_codes_follow_dgtbrd_h() {
    let expected = "PRNBKQprnbkq";
    for (code, ch) in (1u8..=12).zip(expected.chars()) {
        assert_eq!(piece_from_code(code), Ok(piece(ch)), "code {code}");
        assert_eq!(piece_to_code(piece(ch)), code);
    }
    assert_eq!(piece_from_code(0), Ok(None));
    assert_eq!(piece_to_code(None), 0);
    for code in 13..=127 {
        assert!(piece_from_code(code).is_err());
    }
}

#[test]
fn dgt_field_zero_is_a8_and_63_is_h1() {
    assert_eq!(square_from_dgt(0), Some(Square::A8));
    assert_eq!(square_from_dgt(7), Some(Square::H8));
    assert_eq!(square_from_dgt(8), Some(Square::A7));
    assert_eq!(square_from_dgt(56), Some(Square::A1));
    assert_eq!(square_from_dgt(63), Some(Square::H1));
    assert_eq!(square_from_dgt(64), None);
    for sq in Square::ALL {
        assert_eq!(square_from_dgt(square_to_dgt(sq)), Some(sq));
    }
}

/// The start position as a DGT board sends it, written out byte by byte.
fn start_dump_bytes() -> Vec<u8> {
    let mut bytes = vec![0x86, 0x00, 0x43];
    bytes.extend([8, 9, 10, 12, 11, 10, 9, 8]); // a8..h8: r n b q k b n r
    bytes.extend([7; 8]);
    bytes.extend([0; 32]);
    bytes.extend([1; 8]);
    bytes.extend([2, 3, 4, 6, 5, 4, 3, 2]); // a1..h1
    bytes
}

#[test]
fn start_position_dump_decodes_to_the_standard_board() {
    assert_eq!(read_all(&start_dump_bytes()), vec![Ok(DgtMessage::BoardDump(Board::new()))]);
    assert_eq!(DgtMessage::BoardDump(Board::new()).encode(), start_dump_bytes());
}

#[test]
fn field_update_and_identity_messages() {
    // e2 (DGT field 52) emptied, then a white pawn on e4 (DGT field 36).
    let bytes = [0x8e, 0, 5, 52, 0, 0x8e, 0, 5, 36, 1];
    assert_eq!(
        read_all(&bytes),
        vec![
            Ok(DgtMessage::FieldUpdate { square: Square::E2, piece: None }),
            Ok(DgtMessage::FieldUpdate { square: Square::E4, piece: piece('P') }),
        ]
    );
    assert_eq!(read_all(&[0x93, 0, 5, 1, 8]), vec![Ok(DgtMessage::Version { major: 1, minor: 8 })]);
    assert_eq!(read_all(b"\x91\x00\x0801234"), vec![Ok(DgtMessage::SerialNumber("01234".into()))]);
    assert_eq!(read_all(b"\x92\x00\x06DGT"), vec![Ok(DgtMessage::Trademark("DGT".into()))]);
    assert_eq!(read_all(b"\x92\x00\x03"), vec![Ok(DgtMessage::Trademark(String::new()))]);
}

#[test]
fn bwtime_decodes_bcd_flags_and_status() {
    // Right 1:05:09 with time-per-move, left 0:59:30 flag shown; running, left to move.
    let bytes = [0x8d, 0, 10, 0x21, 0x05, 0x09, 0x40, 0x59, 0x30, 0x11];
    let Ok(DgtMessage::ClockTime(t)) = read_all(&bytes).remove(0) else { panic!() };
    assert_eq!((t.right.hours, t.right.minutes, t.right.seconds), (1, 5, 9));
    assert!(t.right.time_per_move && !t.right.flag_shown);
    assert_eq!(t.left.total_secs(), 59 * 60 + 30);
    assert!(t.left.flag_shown && !t.left.flag_blocked);
    assert!(t.running && t.left_to_move && !t.right_to_move && !t.no_clock && !t.lever_right_high);
    assert_eq!(DgtMessage::ClockTime(t).encode(), bytes);
    // Minutes 0x5a is not BCD, 0x60 is 60: malformed.
    assert_eq!(read_all(&[0x8d, 0, 10, 0, 0x5a, 0, 0, 0, 0, 0]), vec![Err(DgtError::Malformed)]);
    assert_eq!(read_all(&[0x8d, 0, 10, 0, 0x60, 0, 0, 0, 0, 0]), vec![Err(DgtError::Malformed)]);
}

#[test]
fn clock_acks_are_told_apart_from_times() {
    let ack = ClockAck { ack0: 0x10, ack1: 0x88, ack2: 0x91, ack3: 0x33 };
    let bytes = DgtMessage::ClockAck(ack).encode();
    assert_eq!(bytes[3] & 0x0f, 0x0a);
    assert_eq!(read_all(&bytes), vec![Ok(DgtMessage::ClockAck(ack))]);
}

#[test]
fn resynchronises_on_every_byte_with_the_top_bit() {
    let update = [0x8e, 0, 5, 36, 1];
    let good = Ok(DgtMessage::FieldUpdate { square: Square::E4, piece: piece('P') });
    // Garbage before: one report for the whole run.
    let mut bytes = vec![1, 2, 3, 4];
    bytes.extend(update);
    assert_eq!(read_all(&bytes), vec![Err(DgtError::Garbage), good.clone()]);
    // Truncated: a new header arrives mid-message.
    let mut bytes = vec![0x86, 0, 0x43, 1, 2, 3];
    bytes.extend(update);
    assert_eq!(read_all(&bytes), vec![Err(DgtError::Truncated), good.clone()]);
    // Wrong length for a known id: dropped, its data skipped, next message fine.
    let mut bytes = vec![0x8e, 0, 6, 36, 1, 0];
    bytes.extend(update);
    assert_eq!(read_all(&bytes), vec![Err(DgtError::BadLength), good.clone()]);
    // Lengths below 3 or above the maximum.
    for (high, low) in [(0, 0), (0, 2), (0x7f, 0x7f), (4, 1)] {
        let mut bytes = vec![0xa0, high, low];
        bytes.extend(update);
        assert_eq!(read_all(&bytes), vec![Err(DgtError::BadLength), good.clone()]);
    }
    // Unknown id with a plausible length: skipped and counted.
    let mut bytes = vec![0x94, 0, 8, 1, 2, 3, 4, 5];
    bytes.extend(update);
    assert_eq!(read_all(&bytes), vec![Err(DgtError::UnknownId), good.clone()]);
    assert_eq!(read_all(&[0x94, 0, 3]), vec![Err(DgtError::UnknownId)]);
    // Bad content: square 64, piece 16.
    assert_eq!(read_all(&[0x8e, 0, 5, 64, 1]), vec![Err(DgtError::Malformed)]);
    assert_eq!(read_all(&[0x8e, 0, 5, 3, 16]), vec![Err(DgtError::Malformed)]);
    let mut dump = start_dump_bytes();
    dump[40] = 16;
    assert_eq!(read_all(&dump), vec![Err(DgtError::Malformed)]);
}

#[test]
fn partial_message_waits_and_reset_forgets_it() {
    let mut reader = DgtReader::new();
    let mut out = Vec::new();
    reader.push(&[0x8e, 0, 5, 36], &mut out);
    assert!(out.is_empty());
    reader.push(&[1], &mut out);
    assert_eq!(out.len(), 1);
    reader.push(&[0x8e, 0, 5], &mut out);
    reader.reset();
    reader.push(&[0x93, 0, 5, 1, 2], &mut out);
    assert_eq!(out[1], Ok(DgtMessage::Version { major: 1, minor: 2 }));
}

#[test]
fn host_commands_are_single_bytes() {
    let cases = [
        (HostCommand::Reset, 0x40),
        (HostCommand::SendBoard, 0x42),
        (HostCommand::SendUpdates, 0x43),
        (HostCommand::SendUpdatesBoard, 0x44),
        (HostCommand::SendSerialNumber, 0x45),
        (HostCommand::SendTrademark, 0x47),
        (HostCommand::SendUpdatesNice, 0x4b),
        (HostCommand::SendVersion, 0x4d),
    ];
    for (command, byte) in cases {
        assert_eq!(command.encode(), vec![byte]);
    }
}

#[test]
fn clock_commands_use_the_documented_layout() {
    let set = HostCommand::Clock(ClockCommand::SetAndRun {
        left: SideTime::from_secs(5400),
        right: SideTime::from_secs(3600 + 59 * 60 + 7),
        run: ClockRun::LeftRunning,
        lever: false,
    });
    assert_eq!(set.encode(), vec![0x2b, 0x0a, 0x03, 0x0a, 1, 30, 0, 1, 59, 7, 0x01, 0x00]);
    let lever = HostCommand::Clock(ClockCommand::SetAndRun {
        left: SideTime::from_secs(300),
        right: SideTime::from_secs(300),
        run: ClockRun::RightRunning,
        lever: true,
    });
    assert_eq!(lever.encode(), vec![0x2b, 0x0a, 0x03, 0x0a, 0, 5, 0, 0, 5, 0, 0x0a, 0x00]);
    let version = HostCommand::Clock(ClockCommand::Version);
    assert_eq!(version.encode(), vec![0x2b, 0x03, 0x03, 0x09, 0x00]);
    let beep = HostCommand::Clock(ClockCommand::Beep { units: 4 });
    assert_eq!(beep.encode(), vec![0x2b, 0x04, 0x03, 0x0b, 4, 0x00]);
    let text = HostCommand::Clock(ClockCommand::Display { text: "e4".into(), beep: true });
    assert_eq!(text.encode(), b"\x2b\x0c\x03\x0ce4      \x01\x00".to_vec());
    let end = HostCommand::Clock(ClockCommand::EndDisplay);
    assert_eq!(end.encode(), vec![0x2b, 0x03, 0x03, 0x03, 0x00]);

    let mut reader = HostCommandReader::new();
    let mut out = Vec::new();
    let stream: Vec<u8> = [&set, &beep, &HostCommand::SendBoard, &text, &end, &lever, &version]
        .iter()
        .flat_map(|c| c.encode())
        .chain([0x99])
        .collect();
    for b in stream {
        reader.push(&[b], &mut out);
    }
    let expected = vec![
        Some(set),
        Some(beep),
        Some(HostCommand::SendBoard),
        Some(HostCommand::Clock(ClockCommand::Display { text: "e4      ".into(), beep: true })),
        Some(end),
        Some(lever),
        Some(version),
        None,
    ];
    assert_eq!(out, expected);
}

// ---- fuzzing -------------------------------------------------------------------

fn arb_piece() -> impl Strategy<Value = Option<Piece>> {
    (0u8..=12).prop_map(|code| piece_from_code(code).unwrap_or(None))
}

fn arb_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(arb_piece(), 64).prop_map(|pieces| {
        let mut board = Board::empty();
        for (sq, p) in Square::ALL.into_iter().zip(pieces) {
            if let Some(p) = p {
                board.set_piece_at(sq, p);
            }
        }
        board
    })
}

fn arb_side() -> impl Strategy<Value = SideTime> {
    (0u8..10, 0u8..60, 0u8..60, any::<[bool; 3]>()).prop_map(|(hours, minutes, seconds, f)| SideTime {
        hours,
        minutes,
        seconds,
        flag_blocked: f[0],
        time_per_move: f[1],
        flag_shown: f[2],
    })
}

fn arb_text(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(0u8..0x80, 0..max).prop_map(|b| b.into_iter().map(char::from).collect())
}

fn arb_message() -> impl Strategy<Value = DgtMessage> {
    prop_oneof![
        arb_board().prop_map(DgtMessage::BoardDump),
        (0u32..64, arb_piece())
            .prop_map(|(sq, piece)| DgtMessage::FieldUpdate { square: Square::new(sq), piece }),
        (0u8..0x80, 0u8..0x80).prop_map(|(major, minor)| DgtMessage::Version { major, minor }),
        proptest::collection::vec(b'0'..=b'9', 5)
            .prop_map(|d| DgtMessage::SerialNumber(d.into_iter().map(char::from).collect())),
        arb_text(60).prop_map(DgtMessage::Trademark),
        (arb_side(), arb_side(), any::<[bool; 6]>()).prop_map(|(right, left, s)| {
            DgtMessage::ClockTime(BwTime {
                right,
                left,
                running: s[0],
                lever_right_high: s[1],
                battery_low: s[2],
                right_to_move: s[3],
                left_to_move: s[4],
                no_clock: s[5],
            })
        }),
        any::<[u8; 4]>().prop_map(|[ack0, ack1, ack2, ack3]| DgtMessage::ClockAck(ClockAck {
            ack0,
            ack1,
            ack2,
            ack3
        })),
    ]
}

/// Streams mixing valid messages, corrupted ones and raw garbage.
fn arb_stream() -> impl Strategy<Value = Vec<u8>> {
    let fragment = prop_oneof![
        arb_message().prop_map(|m| m.encode()),
        (arb_message(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(m, at, byte)| {
            let mut bytes = m.encode();
            let i = at.index(bytes.len());
            bytes[i] = byte;
            bytes
        }),
        (arb_message(), any::<prop::sample::Index>()).prop_map(|(m, at)| {
            let mut bytes = m.encode();
            bytes.truncate(at.index(bytes.len()));
            bytes
        }),
        proptest::collection::vec(any::<u8>(), 0..100),
        proptest::collection::vec(
            prop::sample::select(vec![0x86u8, 0x8e, 0x8d, 0, 0x43, 5, 10, 1, 12, 13]),
            0..80
        ),
    ];
    proptest::collection::vec(fragment, 0..12).prop_map(|parts| parts.concat())
}

/// Reference: the board dumps a correct decoder must find in `bytes`.
fn reference_dumps(bytes: &[u8]) -> Vec<Board> {
    (0..bytes.len())
        .filter(|&i| bytes[i..].starts_with(&[0x86, 0x00, 0x43]))
        .filter_map(|i| bytes.get(i + 3..i + 67))
        .filter(|data| data.iter().all(|&b| b <= 15))
        .map(|data| {
            let mut board = Board::empty();
            for (index, &code) in data.iter().enumerate() {
                if let (Some(sq), Ok(Some(p))) = (square_from_dgt(index as u8), sensed_piece(code)) {
                    board.set_piece_at(sq, p);
                }
            }
            board
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn round_trip_through_reader(
        msgs in proptest::collection::vec(arb_message(), 0..20),
        cuts in proptest::collection::vec(0usize..64, 0..20),
    ) {
        let bytes: Vec<u8> = msgs.iter().flat_map(DgtMessage::encode).collect();
        let expected: Vec<_> = msgs.into_iter().map(Ok).collect();
        prop_assert_eq!(chunked(&bytes, &cuts), expected);
    }

    #[test]
    fn board_dumps_only_from_well_formed_dumps(
        bytes in arb_stream(),
        cuts in proptest::collection::vec(0usize..100, 0..10),
    ) {
        let dump = |m| if let DgtMessage::BoardDump(board) = m { Some(board) } else { None };
        prop_assert_eq!(picked(chunked(&bytes, &cuts), dump), reference_dumps(&bytes));
    }

    #[test]
    fn valid_message_after_garbage_is_read(
        garbage in proptest::collection::vec(any::<u8>(), 0..300),
        msg in arb_message(),
    ) {
        let mut bytes = garbage;
        bytes.extend(msg.encode());
        let out = read_all(&bytes);
        prop_assert_eq!(out.last(), Some(&Ok(msg)));
    }

    #[test]
    fn host_command_reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..500)) {
        let mut reader = HostCommandReader::new();
        let mut out = Vec::new();
        reader.push(&bytes, &mut out);
    }
}

#[test]
fn magic_piece_codes_read_as_empty_and_keep_the_dump() {
    let mut dump = start_dump_bytes();
    // Field 40 is a3 (empty in the start position); field 48 is a2 (a white pawn).
    dump[3 + 40] = 13;
    dump[3 + 48] = 15;
    let mut expected = Board::new();
    expected.discard_piece_at(Square::A2);
    assert_eq!(read_all(&dump), vec![Ok(DgtMessage::BoardDump(expected))]);
    assert_eq!(
        read_all(&[0x8e, 0, 5, 52, 14]),
        vec![Ok(DgtMessage::FieldUpdate { square: Square::E2, piece: None })]
    );
    assert_eq!(sensed_piece(14), Ok(None));
    assert_eq!(piece_from_code(14), Err(InvalidPieceCode(14)));
}

#[test]
fn an_all_zero_reading_is_empty_and_acks_name_their_command() {
    let [Ok(DgtMessage::ClockTime(zero))] = read_all(&[0x8d, 0, 10, 0, 0, 0, 0, 0, 0, 0])[..] else {
        panic!("an all-zero frame still decodes");
    };
    assert!(zero.is_empty());
    let no_clock = BwTime { no_clock: true, ..BwTime::default() };
    assert!(!no_clock.is_empty(), "a reading saying no clock is attached is a reading");

    let version = ClockAck { ack0: 0x10, ack1: 0x09, ack2: 0x21, ack3: 0 };
    assert_eq!(version.version(), Some((2, 1)));
    assert_eq!(ClockModel::from_main(2), ClockModel::Dgt3000);
    assert!(ClockModel::Dgt3000.shows_text() && !ClockModel::DgtXl.shows_text());
    let refused = ClockAck { ack0: 0x10, ack1: ACK_NOT_IN_MODE_23, ack2: 0, ack3: 0 };
    assert!(refused.not_in_mode_23() && refused.command().is_none());
    let error = ClockAck { ack0: 0x40, ack1: 0x0a, ack2: 0, ack3: 0 };
    assert!(!error.is_ok() && error.command() == Some(0x0a) && error.version().is_none());
    for ack in [version, refused, error, ClockAck::ok(0x0a)] {
        assert_eq!(read_all(&DgtMessage::ClockAck(ack).encode()), vec![Ok(DgtMessage::ClockAck(ack))]);
    }
}
