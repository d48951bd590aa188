use super::*;
use station_core::journal::{FORMAT, VERSION};
use station_core::{BoardRole, Game};

fn header(game_id: &str) -> Header {
    let table = station_core::Table::new(station_core::TableConfig::single(Default::default()));
    let mut h = Header::of_table(&table, game_id, &Game::default().fen(), 1000, Default::default());
    h.format = FORMAT.into();
    h.version = VERSION;
    h
}

fn tmp(name: &str) -> PathBuf {
    crate::station::test_support::scratch(&format!("journal-{name}"))
}

fn scan(n: u64) -> Input {
    Input::scan(BoardRole::Blind, shakmaty::Bitboard(n))
}

/// A journal folder `name` and a writer with `options` that has created game-1's journal in it.
fn game_1(name: &str, options: WriterOptions) -> (JournalDir, Journal) {
    let dir = JournalDir::open(&tmp(name)).unwrap();
    let mut journal = Journal::start(options).unwrap();
    journal.create(&dir, header("game-1"));
    (dir, journal)
}

#[test]
fn batches_are_acknowledged_in_order_and_everything_lands_on_disk() {
    let (dir, mut journal) = game_1("order", WriterOptions::default());
    let mut tickets = Vec::new();
    for i in 0..50 {
        journal.input(1000 + i, scan(i));
        tickets.push(journal.commit());
    }
    let acks = journal.wait_durable(Duration::from_secs(10));
    let last = acks.last().expect("acknowledged");
    assert!(last.ticket >= *tickets.last().unwrap());
    assert!(acks.windows(2).all(|w| w[0].ticket < w[1].ticket), "in order");
    let contents = journal::decode(std::fs::read(dir.file_for("game-1")).unwrap()).unwrap();
    assert_eq!(contents.records.len(), 50);
    assert!(!contents.torn_tail);
}

#[test]
fn a_slow_disk_never_holds_the_loop_and_batches_group() {
    let options = WriterOptions { extra_sync_delay: Duration::from_millis(200) };
    let (dir, mut journal) = game_1("slow", options);
    let started = Instant::now();
    let mut longest = Duration::ZERO;
    for i in 0..20 {
        let turn = Instant::now();
        journal.input(1000 + i, scan(i));
        journal.commit();
        longest = longest.max(turn.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    let queued_in = started.elapsed();
    let acks = journal.wait_durable(Duration::from_secs(20));
    let batches: u64 = acks.iter().map(|a| a.batches).sum();
    // 20 commits over ~400 ms against 200 ms fsyncs: several share an fsync.
    assert!(acks.len() < 21, "group commit: {} fsyncs for 21 batches", acks.len());
    assert!(batches >= 21);
    eprintln!(
        "slow disk: 21 batches in {} fsyncs, longest enqueue {longest:?} (the loop), queued in {queued_in:?}",
        acks.len()
    );
    let contents = journal::decode(std::fs::read(dir.file_for("game-1")).unwrap()).unwrap();
    assert_eq!(contents.records.len(), 20);
}

#[test]
fn a_journal_deleted_mid_game_is_written_again_from_memory() {
    let (dir, mut journal) = game_1("deleted", WriterOptions::default());
    journal.input(1000, scan(1));
    journal.wait_durable(Duration::from_secs(5));
    std::fs::remove_file(dir.file_for("game-1")).unwrap();
    journal.input(1100, scan(2));
    let acks = journal.wait_durable(Duration::from_secs(5));
    assert!(acks.iter().any(|a| a.rewritten.is_some()), "{acks:?}");
    let contents = journal::decode(std::fs::read(dir.file_for("game-1")).unwrap()).unwrap();
    assert_eq!(contents.header.game_id, "game-1");
    assert_eq!(contents.records.len(), 2, "both inputs, the one before the deletion too");
}

#[test]
fn a_torn_tail_is_cut_on_reopen_and_writing_goes_on_after_it() {
    let dir = {
        let (dir, mut journal) = game_1("torn", WriterOptions::default());
        journal.input(1000, scan(1));
        journal.wait_durable(Duration::from_secs(5));
        dir // the journal stops here, before the tear
    };
    let path = dir.file_for("game-1");
    // Power loss in the middle of a line, with bytes that are not UTF-8.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(b"{\"rec\":\"input\",\"seq\":2,\xff\xfe\xfd");
    std::fs::write(&path, &bytes).unwrap();
    let found = dir.all().unwrap().into_iter().next().unwrap();
    assert!(found.contents.torn_tail);
    let mut journal = Journal::start(WriterOptions::default()).unwrap();
    journal.reopen(&found, bytes);
    journal.input(1200, scan(3));
    journal.wait_durable(Duration::from_secs(5));
    let contents = journal::decode(std::fs::read(&path).unwrap()).unwrap();
    assert!(!contents.torn_tail);
    assert_eq!(contents.records.len(), 2, "the whole record before the tear and the new one");
}

#[test]
fn a_damaged_journal_is_set_aside_with_every_byte_kept() {
    let dir = JournalDir::open(&tmp("aside")).unwrap();
    let path = dir.file_for("game-9");
    std::fs::write(&path, b"not a journal\n{}\n").unwrap();
    let listing = dir.list().unwrap();
    assert_eq!(listing.damaged.len(), 1);
    let aside = dir.set_aside(&path).unwrap();
    assert!(!path.exists());
    assert_eq!(std::fs::read(&aside).unwrap(), b"not a journal\n{}\n");
    assert!(dir.list().unwrap().damaged.is_empty(), "never read again");
}

/// The writer may take an append before its commit has arrived: a deletion
/// found then is still told with the commit's acknowledgement (it was lost
/// once, when the two came apart).
#[test]
fn a_rewrite_found_before_the_commit_arrives_is_told_with_the_commit() {
    let dir = JournalDir::open(&tmp("deleted-apart")).unwrap();
    let path = dir.file_for("game-1");
    let mut writer = Writer::new(WriterOptions::default());
    let header = Op::Create { path: path.clone(), header: Box::new(header("game-1")) };
    let ack = writer.write_batch(vec![header, Op::Commit { ticket: 1 }]).expect("a commit is acknowledged");
    assert_eq!((ack.ticket, ack.rewritten.as_ref()), (1, None));
    std::fs::remove_file(&path).unwrap();
    let line = Record::Input { seq: 1, t_ms: 1000, input: scan(1) }.encode() + "\n";
    assert!(writer.write_batch(vec![Op::Append(line)]).is_none(), "no commit, no acknowledgement");
    let ack = writer.write_batch(vec![Op::Commit { ticket: 2 }]).expect("the commit is acknowledged");
    assert_eq!(ack.rewritten.as_ref(), Some(&path), "{ack:?}");
    assert_eq!(ack.error, None);
    let contents = journal::decode(std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(contents.records.len(), 1);
    let ack = writer.write_batch(vec![Op::Commit { ticket: 3 }]).unwrap();
    assert_eq!(ack.rewritten, None, "told once");
}
