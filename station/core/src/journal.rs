//! The game journal's records and how a game is restored from them.
//!
//! A journal is one file per game, one JSON record per line, append-only: a
//! header, then every input the core consumed (scans, buttons, link changes)
//! and every event it produced, then an end record when the game is over.
//! A journal whose header says `said_and_delivered` also records how far its
//! events reached the subscribers (`delivered`) and which words the speaker
//! finished (`said`); after the end record only the words of the end follow
//! (their `announcement` events and `said` records).
//! The daemon appends and fsyncs; this module only encodes, decodes and
//! restores, so restoring is as deterministic as the core itself: the inputs
//! are fed again and must reproduce the recorded moves.
//!
//! The header holds the game's table configuration itself, flattened under the keys old headers
//! had, and the rules by name (left out for chess; a header older than the key reads them from its
//! FEN's form); an old header reads with the defaults of its time. Decoding works on the raw bytes:
//! a torn last line (power loss) is cut at its byte offset, damage anywhere else is an error, and
//! [`decode_salvage`] reads what it can of a damaged file.
//!
//! Restoring has one path for every game: the game the header names (its rules, hence its start)
//! resumes a table from it, the inputs go through `Table::apply` again, and when they no longer
//! reproduce the record the game's play says what the game goes on from (chess the recorded moves, draughts the inputs); a recorded move
//! that no longer makes sense gives way to the inputs.
//!
//! A `said` record is a speaker done with a move's or the result's words: `finished`, `estimated`
//! (speech-dispatcher, which reports no end), `cut` or `dropped`. A `delivered` record says the
//! events up to a sequence number reached the subscribers, naming the game when it is the one
//! before. From them a restart finds what to say again ([`Contents::to_say_again`]) and what to
//! deliver again ([`Contents::delivered_mark`], [`Contents::events_after`]); a journal from before
//! these records keeps its old reading ([`Contents::unsaid_moves`]: a queued announcement counts as
//! said).

use crate::Millis;
use crate::event::{About, BoardRole, Event, Listener, PlayedMove, SpeechEnd};
use crate::inference::TrackerConfig;
pub use crate::input::Input;
use crate::pgn::SevenTags;
use crate::record::GameRecord;
use crate::role::ByBoard;
use crate::table::rules::NamedRules;
use crate::table::{Table, TableConfig};
use serde::{Deserialize, Serialize};
use shakmaty::Bitboard;

/// The `format` field of every journal header.
pub const FORMAT: &str = "annexd-station-journal";
/// The journal format version this code writes and reads.
pub const VERSION: u32 = 1;

/// The first line of a journal.
///
/// Its JSON object is the header's own keys with the [`TableConfig`] the game
/// was played with flattened into it: every key an older header wrote keeps
/// its name and value form, so outside tools read a new header as they read
/// an old one, and an old header still reads (see [`Header`]'s `Deserialize`:
/// what an old header left out is judged from what it holds, as restore
/// always did).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// The derive writes inherent `Header::serialize`/`deserialize`; the trait
// impls below wrap them, the reader to settle what the JSON cannot hold.
#[serde(remote = "Self")]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// Format version, [`VERSION`].
    pub version: u32,
    /// Game identifier.
    pub game_id: String,
    /// Start position as the game's record writes it: a FEN, or a PDN FEN for
    /// a draughts game (whose start is no chess [`Game`](crate::Game), hence its own key
    /// rather than the configuration's `start`).
    pub fen: String,
    /// When the game started.
    pub t_ms: Millis,
    /// The board whose scans started the game (the blind player's).
    pub board: BoardRole,
    /// The occupancy sensed on the blind player's board when the game started.
    pub occupancy: String,
    /// The occupancy sensed on the sighted player's board then, when it is sensed.
    #[serde(default)]
    pub mirror_occupancy: Option<String>,
    /// The pieces on the sighted player's board then, when it senses pieces (board FEN).
    #[serde(default)]
    pub mirror_board: Option<String>,
    /// The rules the game was played by, by the name the configuration and the
    /// console's snapshot use (`"draughts"`, `"draughts64"`); the key is left
    /// out for chess, as it was before draughts. Headers written before this
    /// key read the rules from the FEN's form.
    #[serde(default, skip_serializing_if = "NamedRules::unnamed_in_header")]
    pub rules: NamedRules,
    /// The table's configuration, its start being the game's start and its
    /// tags the game's tags.
    #[serde(flatten)]
    pub config: TableConfig,
    /// The moves of the scoresheet the game was started from (UCI), when the
    /// arbiter started it from the moves so far.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<PlayedMove>,
    /// The journal records how far its events were delivered
    /// ([`Record::Delivered`]) and which words were said to the end
    /// ([`Record::Said`]). Left out (false) by the stations before these
    /// records: for their journals a queued announcement counts as said and
    /// every event as delivered, as they took it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub said_and_delivered: bool,
}

impl Serialize for Header {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Header::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for Header {
    /// Reads the header, then settles what its JSON leaves open: the rules
    /// (from the FEN's form when the header predates the `rules` key), the
    /// configuration's chess start (from `fen`), and whether the sighted
    /// player's board was sensed (headers before `mirror_sensed` told it only
    /// by recording that board's state; a newer header agrees with itself).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut h = Header::deserialize(d)?;
        h.rules = NamedRules(h.rules.header_rules(&h.fen));
        h.config.start = h.rules.start().read_header(&h.fen).map_err(serde::de::Error::custom)?;
        h.config.mirror_sensed |= h.mirror_occupancy.is_some() || h.mirror_board.is_some();
        h.config.mirror_pieces |= h.mirror_board.is_some();
        Ok(h)
    }
}

/// One line of a journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rec", rename_all = "snake_case")]
pub enum Record {
    /// First line.
    Header(Box<Header>),
    /// An input, in the order consumed.
    Input {
        /// Sequence number (1, 2, …; the header is 0).
        seq: u64,
        /// When it arrived.
        t_ms: Millis,
        /// What.
        input: Input,
    },
    /// An event the core produced.
    Event {
        /// Sequence number.
        seq: u64,
        /// The event.
        event: Event,
    },
    /// The game is over; only its last words follow (their `announcement`
    /// events and [`Record::Said`]), no input and no other event.
    End {
        /// Sequence number.
        seq: u64,
        /// When the game ended.
        t_ms: Millis,
        /// `1-0`, `0-1`, `1/2-1/2`.
        result: String,
    },
    /// Words a listener's speaker is done with: said to the end, or not.
    Said {
        /// Sequence number.
        seq: u64,
        /// When the speaker was done with them.
        t_ms: Millis,
        /// Whose speaker: `private` (the blind player's earphone) or `public`.
        listener: Listener,
        /// What they were about, as their `announcement` says (`move`, `result`).
        about: About,
        /// The ply of the move they said, for a move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
        /// `finished` (said to the end), `estimated` (a voice that cannot
        /// tell its end, speech-dispatcher: the time it takes passed), `cut`
        /// (stopped by newer words) or `dropped` (never begun: newer words
        /// took their place).
        outcome: SpeechEnd,
        /// The voice that said them (`pack`, `espeak`, `tts`, `text`), when one began.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        voice: Option<String>,
    },
    /// Every event up to `through` reached the subscribers (the event
    /// stream, the console, the hall): what a restart delivers again starts
    /// after it.
    Delivered {
        /// Sequence number.
        seq: u64,
        /// The game whose events these are, when it is not this journal's
        /// (the last events of the game before, delivered after this one began).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_id: Option<String>,
        /// The sequence number of the last event delivered.
        through: u64,
    },
}

impl Record {
    /// Its sequence number (the header's is 0).
    pub fn seq(&self) -> u64 {
        match self {
            Record::Header(_) => 0,
            Record::Input { seq, .. }
            | Record::Event { seq, .. }
            | Record::End { seq, .. }
            | Record::Said { seq, .. }
            | Record::Delivered { seq, .. } => *seq,
        }
    }
}

impl Record {
    /// The line for this record (without the newline).
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("records always serialise")
    }
}

pub use crate::input::{occ_hex, parse_occ_hex};

/// What can be wrong with a journal.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum JournalError {
    /// The file is empty.
    #[error("the journal is empty")]
    Empty,
    /// The first line is not a header of a known format and version.
    #[error("line 1 is not a journal header of format {FORMAT} version {VERSION}: {0}")]
    BadHeader(String),
    /// A line before the last one does not decode: the file was damaged.
    #[error("line {line} is damaged: {reason}")]
    Corrupt {
        /// 1-based line number.
        line: usize,
        /// What the decoder said.
        reason: String,
    },
    /// A stored value does not make sense (bad FEN, bad occupancy).
    #[error("the journal holds an invalid value: {0}")]
    Invalid(String),
}

/// A decoded journal.
#[derive(Clone, Debug)]
pub struct Contents {
    /// The header.
    pub header: Header,
    /// The records after it.
    pub records: Vec<Record>,
    /// Bytes of the file that hold whole records; anything after is a torn
    /// last write (power loss in the middle of a line) and is cut off.
    pub valid_len: usize,
    /// True when a torn last line was found.
    pub torn_tail: bool,
}

impl Contents {
    /// True when an end record closes the game.
    pub fn finished(&self) -> bool {
        self.records.iter().any(|r| matches!(r, Record::End { .. }))
    }

    /// The next free sequence number.
    pub fn next_seq(&self) -> u64 {
        self.records.iter().map(Record::seq).max().unwrap_or(0) + 1
    }

    /// The latest time recorded.
    pub fn last_t_ms(&self) -> Millis {
        self.records
            .iter()
            .filter_map(|r| match r {
                Record::Input { t_ms, .. } | Record::End { t_ms, .. } | Record::Said { t_ms, .. } => {
                    Some(*t_ms)
                }
                Record::Event { event, .. } => Some(event.t_ms()),
                Record::Header(_) | Record::Delivered { .. } => None,
            })
            .max()
            .unwrap_or(self.header.t_ms)
            .max(self.header.t_ms)
    }

    /// The agreed moves (with their sequence numbers) that were journaled but never said to the blind
    /// player (the station stopped between the two): each `game_move` event
    /// is followed by its private `move` announcement, in order.
    pub fn unsaid_moves(&self) -> Vec<(u64, Event)> {
        let mut unsaid = std::collections::VecDeque::new();
        for r in &self.records {
            match r {
                Record::Event { seq, event: e @ Event::GameMove { .. } } => {
                    unsaid.push_back((*seq, e.clone()))
                }
                Record::Event { event: Event::Announcement { listener, about, .. }, .. }
                    if *listener == Listener::Private && *about == About::Move =>
                {
                    unsaid.pop_front();
                }
                _ => {}
            }
        }
        unsaid.into()
    }

    /// What a restart says again (journals with `said_and_delivered`), with
    /// their sequence numbers: the moves the speaker had not dealt with when
    /// the station stopped, in order; the last move whenever the blind player
    /// did not hear it to the end; and the result when he did not hear it to
    /// the end (a mate: the move and the result).
    ///
    /// A move whose words have a `said` record was dealt with: heard to the
    /// end (`finished`, `estimated`), or cut off or dropped for newer words
    /// (`cut`, `dropped`), as the speaker does without a stop (a newer move
    /// replaces an older one): only the last move is said again for being
    /// cut. The moves after the last one dealt with have no record because
    /// the stop came before the speaker was done with them: they are said
    /// again. A journal whose moves have no `said` record at all (the stop
    /// came before the speaker was done with any words, or its speaker never
    /// told) gives no such point: its last move alone is said, never the
    /// whole game again. A take-back after the last move leaves no move to
    /// say again (those before it were followed by newer ones). A `said`
    /// record counts for the move on the record at its ply, so a game started
    /// from the moves so far (its first journaled move at a later ply) reads
    /// the same way.
    pub fn to_say_again(&self) -> Vec<(u64, Event)> {
        /// A move on the record: its sequence number, the event, its ply,
        /// and how far the speaker got with its words.
        struct Told {
            seq: u64,
            event: Event,
            ply: usize,
            dealt_with: bool,
            heard: bool,
        }
        let mut moves: Vec<Told> = Vec::new();
        let mut result: Option<(u64, Event, bool)> = None;
        let private = |listener: &Listener| *listener == Listener::Private;
        let heard = SpeechEnd::heard;
        for r in &self.records {
            match r {
                Record::Event { seq, event: e @ Event::GameMove { ply, .. } } if *ply >= 1 => {
                    moves.retain(|m| m.ply < *ply);
                    let told =
                        Told { seq: *seq, event: e.clone(), ply: *ply, dealt_with: false, heard: false };
                    moves.push(told);
                }
                Record::Event { event: Event::TakenBack { ply, .. }, .. } => {
                    moves.retain(|m| m.ply < *ply);
                    for m in &mut moves {
                        (m.dealt_with, m.heard) = (true, true);
                    }
                }
                Record::Event { seq, event: e @ Event::GameOver { .. } } => {
                    result = Some((*seq, e.clone(), false))
                }
                Record::Said { listener, about, ply: Some(ply), outcome, .. }
                    if *about == About::Move && private(listener) =>
                {
                    if let Some(m) = moves.iter_mut().find(|m| m.ply == *ply) {
                        m.dealt_with = true;
                        m.heard |= heard(outcome);
                    }
                }
                Record::Said { listener, about, outcome, .. }
                    if *about == About::Result && private(listener) && heard(outcome) =>
                {
                    if let Some(r) = result.as_mut() {
                        r.2 = true;
                    }
                }
                _ => {}
            }
        }
        let from = match moves.iter().rposition(|m| m.dealt_with) {
            Some(i) if moves[i].heard => i + 1,
            // Cut or dropped: for the moves after it; the last move, said again.
            Some(i) => (i + 1).min(moves.len() - 1),
            None => moves.len().saturating_sub(1),
        };
        let mut again: Vec<(u64, Event)> = moves.drain(from..).map(|m| (m.seq, m.event)).collect();
        again.extend(result.filter(|r| !r.2).map(|(seq, e, _)| (seq, e)));
        again
    }

    /// How far this journal says the events reached the subscribers: the
    /// last `delivered` record's game (`None`: this journal's own) and
    /// sequence number.
    pub fn delivered_mark(&self) -> Option<(Option<&str>, u64)> {
        self.records.iter().rev().find_map(|r| match r {
            Record::Delivered { game_id, through, .. } => {
                let own = game_id.as_deref().filter(|g| *g != self.header.game_id);
                Some((own, *through))
            }
            _ => None,
        })
    }

    /// The events after sequence number `seq`, in order, with their numbers.
    pub fn events_after(&self, seq: u64) -> Vec<(u64, Event)> {
        self.records
            .iter()
            .filter_map(|r| match r {
                Record::Event { seq: s, event } if *s > seq => Some((*s, event.clone())),
                _ => None,
            })
            .collect()
    }

    /// The moves on the record (revisions and take-backs applied): the
    /// record's fold, nothing of its own.
    pub fn recorded_moves(&self) -> Vec<PlayedMove> {
        self.record().played_moves()
    }

    /// The game's record: its header, then every event folded, as the table
    /// folded them while the game was played.
    pub fn record(&self) -> GameRecord {
        let h = &self.header;
        let mut record =
            GameRecord::started(h.game_id.clone(), h.fen.clone(), h.config.tags.clone(), h.t_ms, &h.moves);
        for r in &self.records {
            match r {
                Record::Event { event, .. } => record.apply(event),
                Record::End { result, t_ms, .. } => record.closed(result, *t_ms),
                _ => {}
            }
        }
        record
    }
}

/// Decodes a journal file's bytes. A damaged last line is tolerated (and
/// reported through `torn_tail`), damage anywhere else is an error. Lines are
/// cut on the raw bytes, so `valid_len` is a byte offset into the file even
/// when a power loss left invalid UTF-8 behind.
pub fn decode(bytes: impl AsRef<[u8]>) -> Result<Contents, JournalError> {
    let bytes = bytes.as_ref();
    let mut lines = Vec::new();
    let mut offset = 0;
    for piece in bytes.split_inclusive(|&b| b == b'\n') {
        lines.push((offset, piece));
        offset += piece.len();
    }
    let Some(&(_, first)) = lines.first() else { return Err(JournalError::Empty) };
    let header = match serde_json::from_slice::<Record>(trim_newline(first)) {
        Ok(Record::Header(h)) if h.format == FORMAT && h.version == VERSION => *h,
        Ok(_) => return Err(JournalError::BadHeader("not a header".into())),
        Err(e) => return Err(JournalError::BadHeader(e.to_string())),
    };
    let mut records = Vec::with_capacity(lines.len());
    let mut valid_len = first.len();
    let mut torn_tail = !first.ends_with(b"\n");
    for (i, &(start, line)) in lines.iter().enumerate().skip(1) {
        let last = i + 1 == lines.len();
        let complete = line.ends_with(b"\n");
        match serde_json::from_slice::<Record>(trim_newline(line)) {
            Ok(Record::Header(_)) => {
                return Err(JournalError::Corrupt { line: i + 1, reason: "a second header".into() });
            }
            Ok(record) if complete => {
                records.push(record);
                valid_len = start + line.len();
            }
            Ok(_) | Err(_) if last => torn_tail = true,
            Err(e) => return Err(JournalError::Corrupt { line: i + 1, reason: e.to_string() }),
            Ok(_) => unreachable!("an incomplete line is always the last"),
        }
    }
    Ok(Contents { header, records, valid_len, torn_tail })
}

/// Decodes what can be read of a damaged journal: the header and every record
/// that decodes, in order, skipping the damaged lines (counted in the second
/// value). The arbiter's copy of the damaged file is kept by the daemon; this
/// is what the game goes on from.
pub fn decode_salvage(bytes: impl AsRef<[u8]>) -> Result<(Contents, usize), JournalError> {
    let bytes = bytes.as_ref();
    let mut lines = bytes.split_inclusive(|&b| b == b'\n');
    let first = lines.next().ok_or(JournalError::Empty)?;
    let header = match serde_json::from_slice::<Record>(trim_newline(first)) {
        Ok(Record::Header(h)) if h.format == FORMAT && h.version == VERSION => *h,
        Ok(_) => return Err(JournalError::BadHeader("not a header".into())),
        Err(e) => return Err(JournalError::BadHeader(e.to_string())),
    };
    let mut records = Vec::new();
    let mut skipped = 0;
    for line in lines {
        match serde_json::from_slice::<Record>(trim_newline(line)) {
            Ok(Record::Header(_)) | Err(_) => skipped += 1,
            Ok(record) => records.push(record),
        }
    }
    Ok((Contents { header, records, valid_len: bytes.len(), torn_tail: false }, skipped))
}

fn trim_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A game brought back from its journal.
#[derive(Debug)]
pub struct Restored {
    /// The table, as it was after the last journaled input.
    pub table: Table,
    /// True when feeding the inputs again reproduced the recorded moves exactly.
    /// When false, the recorded moves were taken as the record.
    pub reproduced: bool,
    /// What was wrong with the journal, when something was (the game goes on
    /// from what could be trusted).
    pub damage: Option<String>,
}

impl Header {
    /// The header of the game `table` has just started (`game_id`, from `fen`
    /// at `t_ms`): its configuration and its boards as they stand now, which is
    /// what [`restore`] rebuilds the table from.
    pub fn of_table(table: &Table, game_id: &str, fen: &str, t_ms: Millis, tags: SevenTags) -> Header {
        let cfg = table.config();
        Header {
            format: FORMAT.into(),
            version: VERSION,
            game_id: game_id.to_owned(),
            fen: fen.to_owned(),
            t_ms,
            board: BoardRole::Blind,
            occupancy: occ_hex(table.sensed(BoardRole::Blind)),
            mirror_occupancy: table.mirror_pegs().map(occ_hex),
            mirror_board: cfg.mirror_pieces.then(|| table.mirror_board().board_fen().to_string()),
            rules: NamedRules(table.rules()),
            config: TableConfig {
                // What the reader puts back: a chess game's start is its FEN's.
                start: cfg.start.for_header(fen),
                tags,
                ..cfg.clone()
            },
            moves: Vec::new(),
            said_and_delivered: true,
        }
    }
}

impl Header {
    /// The header of a standard game on the blind player's peg board alone,
    /// every setting at its default (no clock), the board showing `occupancy`
    /// at `t_ms`: what tools and tests that write a journal by hand start from.
    pub fn peg_board_alone(game_id: &str, t_ms: Millis, occupancy: Bitboard) -> Header {
        let table = Table::new(TableConfig::single(TrackerConfig::default()));
        let fen = table.config().start.fen();
        Header {
            occupancy: occ_hex(occupancy),
            ..Header::of_table(&table, game_id, &fen, t_ms, SevenTags::default())
        }
    }
}

fn invalid(e: crate::table::TableError) -> JournalError {
    JournalError::Invalid(e.to_string())
}

/// Rebuilds the table of an unfinished game: the inputs are fed again in
/// order, to a table of the rules the header names. When they no longer
/// reproduce the recorded moves, the game's play decides what the game goes
/// on from (`Play::follow_record`, in `table::play`).
pub fn restore(contents: &Contents) -> Result<Restored, JournalError> {
    let h = &contents.header;
    let occ = |s: &str| parse_occ_hex(s).ok_or_else(|| JournalError::Invalid(s.to_owned()));
    let mut sensed = ByBoard::new(occ(&h.occupancy)?, Bitboard::EMPTY);
    if let Some(m) = &h.mirror_occupancy {
        sensed[BoardRole::Mirror] = occ(m)?;
    }
    let mirror_board = h.mirror_board.as_deref().map(crate::table::board_of).transpose().map_err(invalid)?;
    let mut table =
        Table::resume_journaled(h.config.clone(), h.game_id.clone(), &h.moves, sensed, mirror_board, h.t_ms)
            .map_err(JournalError::Invalid)?;
    let mut last_t = h.t_ms;
    for r in &contents.records {
        if let Record::Input { t_ms, input, .. } = r {
            last_t = *t_ms;
            // The same call the daemon made; a refusal then is a refusal now.
            let _ = table.apply(*t_ms, input);
        }
    }
    let replayed: Vec<PlayedMove> = table.record().map(GameRecord::played_moves).unwrap_or_default();
    if replayed == contents.recorded_moves() {
        return Ok(Restored { table, reproduced: true, damage: None });
    }
    let (table, damage) = table.follow_record(h.game_id.clone(), contents.record(), last_t);
    Ok(Restored { table, reproduced: false, damage })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use shakmaty::{Position, Square};

    fn header(occ: Bitboard) -> Header {
        let mut h = Header::peg_board_alone("game-1", 1000, occ);
        h.config.clock_auto_start = false;
        h
    }

    fn scan(seq: u64, t_ms: Millis, occ: Bitboard) -> Record {
        Record::Input { seq, t_ms, input: Input::scan(BoardRole::Blind, occ) }
    }

    fn journal_of_e4() -> String {
        let start = Game::default().position().board().occupied();
        let lifted = start.without(Square::E2);
        let placed = lifted.with(Square::E4);
        let mut text = String::new();
        for r in [Record::Header(Box::new(header(start))), scan(1, 2000, lifted), scan(2, 2100, placed)] {
            text.push_str(&r.encode());
            text.push('\n');
        }
        text
    }

    #[test]
    fn inputs_fed_again_reproduce_the_game() {
        let mut text = journal_of_e4();
        let mut table = restore(&decode(&text).unwrap()).unwrap().table;
        let mut out = Vec::new();
        table.tick(5000, &mut out);
        let moves: Vec<_> = out.iter().filter(|e| !matches!(e, Event::Touch { .. })).collect();
        assert!(
            matches!(&moves[..], [Event::Move { ply: 1, .. }, Event::GameMove { ply: 1, .. }]),
            "{out:?}"
        );
        // Once the tick and its events are journaled too, the restore reproduces them.
        text.push_str(&Record::Input { seq: 3, t_ms: 5000, input: Input::Tick }.encode());
        text.push('\n');
        for (seq, e) in (4..).zip(&out) {
            text.push_str(&Record::Event { seq, event: e.clone() }.encode());
            text.push('\n');
        }
        let restored = restore(&decode(&text).unwrap()).unwrap();
        assert!(restored.reproduced);
        let mut table = restored.table;
        assert_eq!(table.agreed().unwrap().ply(), 1);
        // Nothing decided before the crash is decided again.
        let mut again = Vec::new();
        table.tick(9000, &mut again);
        assert!(again.is_empty(), "{again:?}");
    }

    #[test]
    fn a_torn_last_line_is_cut_off_but_damage_elsewhere_is_an_error() {
        let text = journal_of_e4();
        let torn = format!("{text}{{\"rec\":\"inp");
        let c = decode(&torn).unwrap();
        assert!(c.torn_tail);
        assert_eq!(c.valid_len, text.len());
        assert_eq!(c.records.len(), 2);
        let mut lines: Vec<&str> = text.lines().collect();
        lines[1] = "garbage";
        let damaged = lines.join("\n") + "\n";
        assert!(matches!(decode(&damaged), Err(JournalError::Corrupt { line: 2, .. })));
        assert_eq!(decode("").unwrap_err(), JournalError::Empty);
        assert!(matches!(decode("{}\n"), Err(JournalError::BadHeader(_))));
    }

    #[test]
    fn recorded_moves_win_when_inputs_no_longer_reproduce_them() {
        let start = Game::default().position().board().occupied();
        let mut text = String::new();
        let mv = Event::GameMove {
            ply: 1,
            san: "d4".into(),
            uci: "d2d4".into(),
            by: BoardRole::Blind,
            revised: false,
            t_ms: 1500,
            pdn: None,
        };
        for r in [Record::Header(Box::new(header(start))), Record::Event { seq: 1, event: mv }] {
            text.push_str(&r.encode());
            text.push('\n');
        }
        let restored = restore(&decode(&text).unwrap()).unwrap();
        assert!(!restored.reproduced);
        let game = restored.table.agreed().unwrap();
        assert_eq!(game.uci(game.moves()[0]), "d2d4");
    }

    /// A header of a table playing by `rules`, its game just started from their start.
    fn header_of_rules(rules: &'static dyn crate::table::rules::Rules) -> Header {
        let table = Table::new(TableConfig::single(TrackerConfig::default())).with_rules(rules);
        let fen = table.config().start.fen();
        let occupancy = table.config().start.occupancy();
        Header {
            occupancy: occ_hex(occupancy),
            ..Header::of_table(&table, "g", &fen, 1000, SevenTags::default())
        }
    }

    #[test]
    fn each_rules_header_round_trips_and_restores_by_its_rules() {
        for rules in crate::table::rules::ALL {
            let header = header_of_rules(rules);
            assert_eq!(header.rules.name(), rules.name());
            let line = Record::Header(Box::new(header.clone())).encode();
            // The key names draughts rules; a chess header leaves it out, as before draughts.
            let key = format!(r#""rules":"{}""#, rules.name());
            assert_eq!(line.contains(&key), rules.header_name().is_some(), "{line}");
            assert_eq!(line.contains(r#""rules""#), rules.header_name().is_some(), "{line}");
            let contents = decode(format!("{line}\n")).expect("the header reads");
            assert_eq!(contents.header, header);
            assert_eq!(contents.header.rules.name(), rules.name());
            // Written again, byte for byte the same line.
            assert_eq!(Record::Header(Box::new(contents.header.clone())).encode(), line);
            let restored = restore(&contents).expect("restores");
            assert!(restored.reproduced, "{}: {:?}", rules.name(), restored.damage);
            assert_eq!(restored.table.rules().name(), rules.name());
            assert_eq!(restored.table.turn(), Some((0, crate::clock::Side::White)), "{}", rules.name());
        }
    }

    #[test]
    fn a_header_naming_unknown_rules_does_not_read() {
        let line = Record::Header(Box::new(header_of_rules(&crate::table::rules::INTERNATIONAL))).encode();
        let unknown = line.replace(r#""rules":"draughts""#, r#""rules":"checkers""#);
        assert_ne!(unknown, line);
        assert!(
            matches!(decode(format!("{unknown}\n")), Err(JournalError::BadHeader(e)) if e.contains("rules checkers"))
        );
    }

    #[test]
    fn a_draughts_record_the_inputs_do_not_reproduce_is_reported_not_adopted() {
        let header = header_of_rules(&crate::table::rules::INTERNATIONAL);
        let mv = Event::GameMove {
            ply: 1,
            san: "32-28".into(),
            uci: "32-28".into(),
            by: BoardRole::Blind,
            revised: false,
            t_ms: 1500,
            pdn: Some("32-28".into()),
        };
        let mut text = String::new();
        for r in [Record::Header(Box::new(header)), Record::Event { seq: 1, event: mv }] {
            text.push_str(&r.encode());
            text.push('\n');
        }
        let contents = decode(&text).unwrap();
        assert_eq!(contents.recorded_moves(), ["32-28"]);
        let restored = restore(&contents).unwrap();
        assert!(!restored.reproduced);
        assert_eq!(
            restored.damage.as_deref(),
            Some(
                "the journaled inputs no longer reproduce the recorded draughts moves; the game follows the inputs"
            )
        );
        // The game follows the inputs (none): no move was adopted.
        assert_eq!(restored.table.record_moves(), Some(Vec::new()));
        assert_eq!(restored.table.turn(), Some((0, crate::clock::Side::White)));
    }

    fn game_move(ply: usize, uci: &str, t_ms: Millis) -> Event {
        Event::GameMove {
            ply,
            san: uci.into(),
            uci: uci.into(),
            by: BoardRole::Blind,
            revised: false,
            t_ms,
            pdn: None,
        }
    }

    fn said(seq: u64, about: &str, ply: Option<usize>, outcome: &str) -> Record {
        Record::Said {
            seq,
            t_ms: 9000 + seq,
            listener: "private".into(),
            about: about.into(),
            ply,
            outcome: outcome.into(),
            voice: Some("espeak".into()),
        }
    }

    fn contents(records: Vec<Record>) -> Contents {
        let mut text = Record::Header(Box::new(header(Game::default().occupancy()))).encode() + "\n";
        for r in records {
            text.push_str(&r.encode());
            text.push('\n');
        }
        decode(text).expect("the journal reads")
    }

    /// Issue 32: a move counts as said when the speaker finished it; a
    /// restart says again the moves the speaker had not dealt with and the
    /// last move when it was not heard to the end (a move cut or dropped for
    /// a newer one is not), and the result.
    #[test]
    fn a_restart_says_again_what_was_not_heard_to_the_end() {
        let ev = |seq, event| Record::Event { seq, event };
        let over =
            Event::GameOver { result: "1-0".into(), reason: "checkmate".into(), termination: None, t_ms: 5 };
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            said(2, "move", Some(1), "finished"),
            ev(3, game_move(2, "e7e5", 2)),
            said(4, "move", Some(2), "cut"),
            ev(5, game_move(3, "g1f3", 3)),
            said(6, "move", Some(3), "finished"),
            ev(7, game_move(4, "b8c6", 4)),
            said(8, "move", Some(4), "dropped"),
            ev(9, game_move(5, "f1c4", 5)),
        ]);
        let again: Vec<u64> = c.to_say_again().into_iter().map(|(seq, _)| seq).collect();
        assert_eq!(again, [9], "the last move alone: the one before it was dropped for it");
        // Nothing heard to the end (every move cut by the next, or no `said`
        // record at all): still the last move alone, never the whole game.
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            ev(2, game_move(2, "e7e5", 2)),
            said(3, "move", Some(1), "cut"),
            ev(4, game_move(3, "g1f3", 3)),
            said(5, "move", Some(2), "dropped"),
            ev(6, game_move(4, "b8c6", 4)),
            said(7, "move", Some(3), "dropped"),
        ]);
        assert_eq!(c.to_say_again().into_iter().map(|(s, _)| s).collect::<Vec<_>>(), [6]);
        let c = contents(vec![ev(1, game_move(1, "e2e4", 1)), ev(2, game_move(2, "e7e5", 2))]);
        assert_eq!(c.to_say_again().into_iter().map(|(s, _)| s).collect::<Vec<_>>(), [2]);
        // The stop came before the speaker was done with two moves: both, in order.
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            said(2, "move", Some(1), "finished"),
            ev(3, game_move(2, "e7e5", 2)),
            ev(4, game_move(3, "g1f3", 3)),
        ]);
        assert_eq!(c.to_say_again().into_iter().map(|(s, _)| s).collect::<Vec<_>>(), [3, 4]);
        // A game started from the moves so far: its plies begin later.
        let c = contents(vec![ev(1, game_move(11, "e2e4", 1)), said(2, "move", Some(11), "finished")]);
        assert!(c.to_say_again().is_empty(), "the move at ply 11 was heard");
        // A take-back after the last move: no move to say again.
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            ev(2, game_move(2, "e7e5", 2)),
            ev(3, Event::TakenBack { ply: 2, t_ms: 3, clock_proposal: None }),
        ]);
        assert!(c.to_say_again().is_empty());
        // A finished game: the mating move and the result, until each is heard.
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            said(2, "move", Some(1), "finished"),
            ev(3, game_move(2, "e7e5", 2)),
            ev(4, over.clone()),
            Record::End { seq: 5, t_ms: 5, result: "1-0".into() },
        ]);
        assert_eq!(c.to_say_again().into_iter().map(|(s, _)| s).collect::<Vec<_>>(), [3, 4]);
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            ev(2, over),
            Record::End { seq: 3, t_ms: 5, result: "1-0".into() },
            said(4, "move", Some(1), "finished"),
            said(5, "result", None, "estimated"),
        ]);
        assert!(c.to_say_again().is_empty(), "heard to the end (speech-dispatcher's end estimated)");
        // A move replaced by its revision is said again until the revision is heard.
        let mut revised = game_move(1, "e2e3", 6);
        if let Event::GameMove { revised: r, .. } = &mut revised {
            *r = true;
        }
        let c = contents(vec![
            ev(1, game_move(1, "e2e4", 1)),
            said(2, "move", Some(1), "finished"),
            ev(3, revised),
        ]);
        assert_eq!(c.to_say_again().into_iter().map(|(s, _)| s).collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn the_delivered_mark_says_where_a_restart_delivers_again_from() {
        let ev = |seq, ply| Record::Event { seq, event: game_move(ply, "e2e4", ply as u64) };
        let c = contents(vec![
            ev(1, 1),
            Record::Delivered { seq: 2, game_id: None, through: 1 },
            ev(3, 2),
            ev(4, 3),
        ]);
        assert_eq!(c.delivered_mark(), Some((None, 1)));
        assert_eq!(c.events_after(1).into_iter().map(|(s, _)| s).collect::<Vec<_>>(), [3, 4]);
        let c = contents(vec![
            ev(1, 1),
            Record::Delivered { seq: 2, game_id: Some("game-0".into()), through: 40 },
        ]);
        assert_eq!(c.delivered_mark(), Some((Some("game-0"), 40)), "the last events of the game before");
        let own = contents(vec![Record::Delivered { seq: 1, game_id: Some("game-1".into()), through: 7 }]);
        assert_eq!(own.delivered_mark(), Some((None, 7)), "its own game named is its own");
    }

    /// Journal formats are contracts: the new records read and write back
    /// byte for byte, and an old header (without `said_and_delivered`) still
    /// writes back without it.
    #[test]
    fn the_new_records_round_trip_and_an_old_header_stays_as_it_was() {
        for line in [
            r#"{"rec":"said","seq":12,"t_ms":1700000000123,"listener":"private","about":"move","ply":7,"outcome":"finished","voice":"espeak"}"#,
            r#"{"rec":"said","seq":13,"t_ms":1700000000124,"listener":"private","about":"result","outcome":"dropped"}"#,
            r#"{"rec":"delivered","seq":14,"through":11}"#,
            r#"{"rec":"delivered","seq":15,"game_id":"game-1","through":90}"#,
        ] {
            let record: Record = serde_json::from_str(line).expect(line);
            assert_eq!(record.encode(), line);
        }
        let mut old = header(Game::default().occupancy());
        old.said_and_delivered = false;
        let line = Record::Header(Box::new(old)).encode();
        assert!(!line.contains("said_and_delivered"), "{line}");
        let read = decode(format!("{line}\n")).unwrap();
        assert!(!read.header.said_and_delivered);
        assert_eq!(Record::Header(Box::new(read.header)).encode(), line);
        let new = Record::Header(Box::new(header(Game::default().occupancy()))).encode();
        assert!(new.contains(r#""said_and_delivered":true"#), "{new}");
    }

    #[test]
    fn occupancy_hex_round_trips() {
        let bb = Game::default().position().board().occupied();
        assert_eq!(occ_hex(bb), "ffff00000000ffff");
        assert_eq!(parse_occ_hex(&occ_hex(bb)), Some(bb));
        assert_eq!(parse_occ_hex("xyz"), None);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::game::Game;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
            let _ = decode(&text);
        }

        #[test]
        fn a_valid_journal_with_arbitrary_bytes_appended_still_restores(tail in proptest::collection::vec(any::<u8>(), 0..200)) {
            let start = Game::default().occupancy();
            let mut header = Header::peg_board_alone("g", 0, start);
            header.config.clock_auto_start = false;
            let mut text = Record::Header(Box::new(header)).encode();
            text.push('\n');
            let tail = String::from_utf8_lossy(&tail).replace('\n', " ");
            text.push_str(&tail);
            let c = decode(&text).expect("only the last line is damaged");
            prop_assert!(restore(&c).is_ok());
        }
    }
}
