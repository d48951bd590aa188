//! The station's side: a [`Subscriber`] that hands durable events to a
//! publishing thread through a bounded channel (never blocking the loop), and
//! the thread that keeps the broker told. Whatever the broker missed — a
//! full channel, a partition, a restarted broker or station — is published
//! again from the journal on every (re)connection, in order; the hall view
//! drops what it already has by sequence number.

use super::board_state::BoardState;
use super::wire::{EventMessage, GameHeader, MAX_PAYLOAD, StatusMessage, publishable};
use super::{BrokerUrl, check_name, event_topic, read_credentials, replay_topic, state_topic, status_topic};
use crate::config::HallSettings;
use crate::delivery::{Delivered, Subscriber};
use crate::journal_file::{Found, JournalDir};
use anyhow::Result;
use crossbeam_channel::{Receiver, Sender, TrySendError};
use rumqttc::{Client, Connection, Event as MqttEvent, LastWill, MqttOptions, Packet, QoS};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Batches waiting for the publishing thread; beyond this they are dropped
/// (and published later from the journal).
const CHANNEL_CAP: usize = 1024;
/// Messages rumqttc may hold while the broker is away.
const REQUEST_CAP: usize = 16 * 1024;

/// Figures of the publisher (for the log and tests).
#[derive(Debug, Default)]
pub struct PublishStats {
    /// Batches the loop could not hand over (channel full).
    pub dropped_batches: AtomicU64,
    /// Connections made to the broker.
    pub connections: AtomicU64,
    /// Events published again from the journal.
    pub replayed: AtomicU64,
}

/// The subscriber the station's loop holds.
pub struct HallPublisher {
    tx: Option<Sender<Vec<Delivered>>>,
    resync: Arc<AtomicBool>,
    stats: Arc<PublishStats>,
    thread: Option<JoinHandle<()>>,
}

impl HallPublisher {
    /// Starts the publishing thread for `settings`; the journals are read from `journal_dir`.
    pub fn start(settings: &HallSettings, journal_dir: &Path, console: Option<String>) -> Result<Self> {
        check_name("hall", &settings.hall)?;
        check_name("board", &settings.board)?;
        let url = BrokerUrl::parse(&settings.broker)?;
        let transport = super::transport(&url, settings.ca_file.as_deref())?;
        let login = settings.credentials.as_deref().map(read_credentials).transpose()?;
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAP);
        let resync = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(PublishStats::default());
        let mut opts = MqttOptions::new(
            format!("annexd-{}-{}", settings.hall, settings.board),
            url.host.clone(),
            url.port,
        );
        opts.set_transport(transport);
        opts.set_keep_alive(Duration::from_secs(5));
        opts.set_clean_session(true);
        opts.set_request_channel_capacity(REQUEST_CAP);
        // Our own messages up to the hall's limit (rumqttc's default is 10 KiB: a long game's
        // retained state would end the connection); only replay requests come in.
        opts.set_max_packet_size(64 * 1024, MAX_PAYLOAD + 1024);
        let gone = StatusMessage { board: settings.board.clone(), online: false };
        opts.set_last_will(LastWill::new(
            status_topic(&settings.hall, &settings.board),
            serde_json::to_vec(&gone)?,
            QoS::AtLeastOnce,
            true,
        ));
        if let Some((user, pass)) = login {
            opts.set_credentials(user, pass);
        }
        let (client, connection) = Client::new(opts, REQUEST_CAP);
        let mut worker = Worker {
            hall: settings.hall.clone(),
            board: settings.board.clone(),
            journal_dir: journal_dir.to_owned(),
            url,
            ca_file: settings.ca_file.clone(),
            problem: None,
            client,
            state: BoardState::new(&settings.board),
            games: BTreeSet::new(),
            connected: false,
            replay_due: true,
            stats: Arc::clone(&stats),
        };
        worker.state.console = console;
        worker.seed();
        let thread_resync = Arc::clone(&resync);
        let thread = std::thread::Builder::new()
            .name("hall-publish".into())
            .spawn(move || worker.run(connection, rx, &thread_resync))?;
        Ok(HallPublisher { tx: Some(tx), resync, stats, thread: Some(thread) })
    }
}

impl Subscriber for HallPublisher {
    fn deliver(&mut self, batch: &[Delivered]) -> Result<()> {
        let out: Vec<Delivered> = batch.iter().filter(|d| publishable(&d.event)).cloned().collect();
        if out.is_empty() {
            return Ok(());
        }
        if let Some(tx) = &self.tx {
            match tx.try_send(out) {
                Ok(()) => {}
                // Never wait for the broker: the journal has it, a replay follows.
                Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                    self.stats.dropped_batches.fetch_add(1, Ordering::Relaxed);
                    self.resync.store(true, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    }
}

impl Drop for HallPublisher {
    fn drop(&mut self) {
        // The thread says goodbye and ends once its channel is closed.
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        tracing::info!(
            dropped_batches = self.stats.dropped_batches.load(Ordering::Relaxed),
            connections = self.stats.connections.load(Ordering::Relaxed),
            replayed = self.stats.replayed.load(Ordering::Relaxed),
            "hall: publisher stopped"
        );
    }
}

struct Worker {
    hall: String,
    board: String,
    journal_dir: PathBuf,
    url: BrokerUrl,
    ca_file: Option<PathBuf>,
    /// The last connection problem logged (each new one once, not every retry).
    problem: Option<String>,
    client: Client,
    state: BoardState,
    /// Games published by this process (each replayed on reconnection).
    games: BTreeSet<String>,
    connected: bool,
    replay_due: bool,
    stats: Arc<PublishStats>,
}

impl Worker {
    /// The newest game of the journal directory is what a restarted station
    /// may not have published (killed mid-way): it is replayed on connecting.
    fn seed(&mut self) {
        if let Some(found) = self.journals().pop() {
            let id = found.contents.header.game_id.clone();
            self.games.insert(id);
            self.fold(&found);
        }
    }

    fn journals(&self) -> Vec<Found> {
        match JournalDir::open(&self.journal_dir).and_then(|d| d.all()) {
            Ok(all) => all,
            Err(e) => {
                tracing::warn!(error = %e, "hall: cannot read the journals");
                Vec::new()
            }
        }
    }

    /// The state as of the journal `found`.
    fn fold(&mut self, found: &Found) {
        let h = &found.contents.header;
        self.state.start_game(&h.game_id);
        self.state.set_header(header_of(found));
        for r in &found.contents.records {
            if let station_core::journal::Record::Event { seq, event } = r
                && publishable(event)
            {
                self.state.apply(Some(*seq), event);
            }
        }
    }

    /// Waits on both the loop's batches and the broker's news (read by the
    /// `hall-mqtt` thread), so that a batch goes out the moment it arrives.
    fn run(mut self, connection: Connection, rx: Receiver<Vec<Delivered>>, resync: &AtomicBool) {
        let (net_tx, net_rx) = crossbeam_channel::bounded(1024);
        let net_stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&net_stop);
        let net = std::thread::Builder::new()
            .name("hall-mqtt".into())
            .spawn(move || network(connection, &net_tx, &stop));
        if let Err(e) = net {
            tracing::warn!(error = %e, "hall: cannot start the broker's thread; nothing is published");
            return;
        }
        let never = crossbeam_channel::never();
        let mut closing: Option<Instant> = None;
        loop {
            if resync.swap(false, Ordering::Relaxed) {
                self.replay_due = true;
            }
            if self.connected && self.replay_due {
                self.replay_due = false;
                self.replay();
            }
            if let Some(since) = closing {
                // A second to hand over what is queued, then a clean goodbye.
                if since.elapsed() > Duration::from_secs(1) || !self.connected {
                    let _ = self.client.try_disconnect();
                    let until = Instant::now() + Duration::from_millis(500);
                    while let Ok(news) = net_rx.recv_deadline(until) {
                        if matches!(news, Ok(MqttEvent::Outgoing(rumqttc::Outgoing::Disconnect))) {
                            break;
                        }
                    }
                    net_stop.store(true, Ordering::Relaxed);
                    return;
                }
            }
            let live = if closing.is_none() { &rx } else { &never };
            crossbeam_channel::select! {
                recv(live) -> batch => match batch {
                    Ok(batch) => self.live(batch),
                    Err(_) => {
                        closing = Some(Instant::now());
                        let bye = StatusMessage { board: self.board.clone(), online: false };
                        self.send(&status_topic(&self.hall, &self.board), &bye, true);
                    }
                },
                recv(net_rx) -> news => match news {
                    Ok(news) => self.on_network(news),
                    Err(_) => return,
                },
                default(Duration::from_millis(200)) => {}
            }
        }
    }

    /// What the broker's connection reports.
    fn on_network(&mut self, news: Result<MqttEvent, rumqttc::ConnectionError>) {
        match news {
            Ok(MqttEvent::Incoming(Packet::ConnAck(_))) => {
                self.connected = true;
                self.problem = None;
                self.stats.connections.fetch_add(1, Ordering::Relaxed);
                tracing::info!(board = %self.board, "hall: connected to the broker");
                let hello = StatusMessage { board: self.board.clone(), online: true };
                self.send(&status_topic(&self.hall, &self.board), &hello, true);
                // A hall view that was away asks for everything again.
                let _ = self.client.try_subscribe(replay_topic(&self.hall), QoS::AtLeastOnce);
                self.replay_due = true;
            }
            Ok(MqttEvent::Incoming(Packet::Publish(p))) if p.topic == replay_topic(&self.hall) => {
                self.replay_due = true;
            }
            Ok(_) => {}
            Err(e) => {
                let problem = super::connection_problem(&e, &self.url, self.ca_file.as_deref());
                if self.problem.as_ref() != Some(&problem) {
                    tracing::warn!(board = %self.board, %problem, "hall: the broker is away; the game goes on");
                    self.problem = Some(problem);
                }
                self.connected = false;
            }
        }
    }

    /// A batch from the loop.
    fn live(&mut self, batch: Vec<Delivered>) {
        for d in batch {
            if let Some(game) = &d.game_id
                && self.state.game_id.as_deref() != Some(game)
            {
                // A new game: its header (seq 0) comes from its journal.
                self.games.insert(game.clone());
                self.state.start_game(game);
                if let Some(found) = self.journals().into_iter().find(|f| &f.contents.header.game_id == game)
                {
                    self.state.set_header(header_of(&found));
                }
                self.publish_header();
            }
            self.state.apply(d.seq, &d.event);
            let msg = EventMessage {
                hall: self.hall.clone(),
                board: self.board.clone(),
                game_id: d.game_id,
                seq: d.seq,
                event: Some(d.event),
                header: None,
            };
            self.send(&event_topic(&self.hall, &self.board), &msg, false);
        }
        self.publish_state();
    }

    fn publish_header(&mut self) {
        if let Some(header) = self.state.header.clone() {
            let msg = EventMessage {
                hall: self.hall.clone(),
                board: self.board.clone(),
                game_id: self.state.game_id.clone(),
                seq: Some(0),
                event: None,
                header: Some(header),
            };
            self.send(&event_topic(&self.hall, &self.board), &msg, false);
        }
    }

    fn publish_state(&mut self) {
        let state = self.state.clone();
        self.send(&state_topic(&self.hall, &self.board), &state, true);
    }

    /// Every game of this process, from its journal, in order.
    fn replay(&mut self) {
        let mut journals = self.journals();
        journals.retain(|f| self.games.contains(&f.contents.header.game_id));
        // The state follows the journal (a batch the loop could not hand over is in it).
        if let Some(current) =
            journals.iter().find(|f| Some(&f.contents.header.game_id) == self.state.game_id.as_ref())
        {
            self.fold(current);
        }
        let mut count = 0;
        for found in &journals {
            let game = found.contents.header.game_id.clone();
            let header = EventMessage {
                hall: self.hall.clone(),
                board: self.board.clone(),
                game_id: Some(game.clone()),
                seq: Some(0),
                event: None,
                header: Some(header_of(found)),
            };
            self.send(&event_topic(&self.hall, &self.board), &header, false);
            for r in &found.contents.records {
                if let station_core::journal::Record::Event { seq, event } = r
                    && publishable(event)
                {
                    let msg = EventMessage {
                        hall: self.hall.clone(),
                        board: self.board.clone(),
                        game_id: Some(game.clone()),
                        seq: Some(*seq),
                        event: Some(event.clone()),
                        header: None,
                    };
                    self.send(&event_topic(&self.hall, &self.board), &msg, false);
                    count += 1;
                }
            }
        }
        self.stats.replayed.fetch_add(count, Ordering::Relaxed);
        tracing::info!(board = %self.board, events = count, "hall: journal published again");
        self.publish_state();
    }

    fn send(&mut self, topic: &str, payload: &impl serde::Serialize, retain: bool) {
        let Ok(bytes) = serde_json::to_vec(payload) else { return };
        if bytes.len() > MAX_PAYLOAD {
            // The hall view would drop it; the journal keeps it.
            tracing::warn!(board = %self.board, topic, bytes = bytes.len(), "hall: message too large, not published");
            return;
        }
        if self.client.try_publish(topic, QoS::AtLeastOnce, retain, bytes).is_err() {
            // rumqttc's queue is full: the journal has it; publish it all again later.
            self.replay_due = true;
        }
    }
}

/// The `hall-mqtt` thread: drives rumqttc's connection (it also writes what
/// the worker publishes) and hands every report to the worker; after a
/// failure it waits before reconnecting (100 ms, doubling up to 2 s).
fn network(
    mut connection: Connection,
    tx: &Sender<Result<MqttEvent, rumqttc::ConnectionError>>,
    stop: &AtomicBool,
) {
    let mut backoff = Duration::from_millis(100);
    while !stop.load(Ordering::Relaxed) {
        match connection.recv_timeout(Duration::from_millis(200)) {
            Ok(Ok(news)) => {
                if matches!(news, MqttEvent::Incoming(Packet::ConnAck(_))) {
                    backoff = Duration::from_millis(100);
                }
                if tx.send(Ok(news)).is_err() {
                    return;
                }
            }
            Ok(Err(e)) => {
                if tx.send(Err(e)).is_err() {
                    return;
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(2));
            }
            Err(rumqttc::RecvTimeoutError::Timeout) => {}
            Err(rumqttc::RecvTimeoutError::Disconnected) => return,
        }
    }
}

fn header_of(found: &Found) -> GameHeader {
    let h = &found.contents.header;
    GameHeader { fen: h.fen.clone(), started_ms: h.t_ms, tags: h.config.tags.clone(), moves: h.moves.clone() }
}
