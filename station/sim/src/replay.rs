//! `station replay`: real games played by simulated hands into the inference
//! engine, in-process and in simulated time, and checked move by move.
//!
//! The games are played by the peg board's simulated hands (normal or fast [`Pace`], with or
//! without noise and jitter) into a `BoardTracker`, and every decision is checked against the game:
//! mismatches, silent errors, revisions, repetitions, fifty-move counts, and the times from a
//! placement to its decision (`station replay`, `station bench`).

use crate::LoadError;
use crate::jitter::LineJitter;
use crate::pegboard::hands::{Hands, TimedScan};
use shakmaty::{Move, Position};
use station_core::event::MismatchReason;
use station_core::inference::{BoardTracker, Observation, TrackerConfig};
use station_core::pgn::{PgnGame, read_games};
use station_core::{Game, Millis};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How quickly the simulated hands follow each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// Every move after some thought, longer than the settle time (the board rests between moves).
    #[default]
    Normal,
    /// The next move starts 50–200 ms after the last placement (seeded): moves are decided on evidence.
    Fast,
}

impl Pace {
    /// The pause between the last placement and the next move's first change, fast pace.
    pub const FAST_GAP_MS: (Millis, Millis) = (50, 200);
}

/// What to replay.
pub struct ReplayOptions {
    /// PGN files.
    pub pgn: Vec<PathBuf>,
    /// Noise seed; no noise when absent.
    pub noise: Option<u64>,
    /// Replay at most this many games (over all files).
    pub games: Option<usize>,
    /// Inference settings.
    pub tracker: TrackerConfig,
    /// How quickly the hands follow each other.
    pub pace: Pace,
    /// Every hand step moved by up to ± this many ms, now and then a few scans
    /// delivered together late (a loaded serial line); none when absent.
    pub jitter: Option<Millis>,
}

/// How the simulated hands play: their noise, their pace and the line's jitter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandsSetup {
    /// Noise seed; no noise when absent.
    pub noise: Option<u64>,
    /// How quickly the hands follow each other.
    pub pace: Pace,
    /// The line's jitter in ms (see [`ReplayOptions::jitter`]).
    pub jitter: Option<Millis>,
}

/// What happened, in total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayTotals {
    /// Games replayed.
    pub games: usize,
    /// Plies replayed.
    pub plies: usize,
    /// Plies where no move was decided (a mismatch or ambiguity was reported, or nothing was).
    pub mismatches: usize,
    /// Plies where a wrong move was accepted as right.
    pub silent_errors: usize,
    /// Promotions whose piece was assumed and then set by the (simulated) announcement.
    pub promotions_announced: usize,
    /// Mismatch reports raised during the replay (a ply can raise several).
    pub reports: usize,
    /// Games whose PGN stopped early (illegal move in the file).
    pub pgn_errors: usize,
    /// Plies after which the position stood for at least the third time (Art. 9.2).
    pub repetitions: usize,
    /// Plies after which 50 moves of each side passed without a pawn move or
    /// capture, the game not over (Art. 9.3).
    pub fifty_move: usize,
    /// Decided moves replaced by another afterwards (an announcement that changed).
    pub revisions: usize,
    /// Moves a hand made that were never decided, while the hands went on with
    /// later moves, and about which the station said nothing (no mismatch
    /// reported from their last peg to the next move's): the station stopped
    /// deciding. Counted among the mismatches too.
    pub stalls: usize,
    /// Plies the station asked about (several moves fit the board, his among
    /// them) and the player's announcement decided. Counted among the mismatches too.
    pub asked: usize,
}

/// A replay's result and how long the simulation and inference took.
pub struct ReplayReport {
    /// Totals.
    pub totals: ReplayTotals,
    /// Time spent in hands and inference (PGN parsing excluded).
    pub elapsed: Duration,
    /// For every move decided right: simulated ms from its last placement to its decision.
    pub latencies_ms: Vec<Millis>,
}

impl ReplayTotals {
    /// Plies left undecided that the station did not ask about either: its
    /// board matched no move it could name (issue 32 calls only these
    /// mismatches; `mismatches` counts the asked ones too, as it always has).
    pub fn unexplained(&self) -> usize {
        self.mismatches.saturating_sub(self.asked)
    }
}

impl ReplayReport {
    /// Plies per second.
    pub fn plies_per_s(&self) -> f64 {
        self.totals.plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The summary line (a contract for outside tools).
    pub fn summary_line(&self) -> String {
        let t = &self.totals;
        format!(
            "games {} plies {} mismatches {} silent_errors {} plies_per_s {:.0} repetitions {} fifty_move {} revisions {} stalls {} asked {} unexplained {}",
            t.games,
            t.plies,
            t.mismatches,
            t.silent_errors,
            self.plies_per_s(),
            t.repetitions,
            t.fifty_move,
            t.revisions,
            t.stalls,
            t.asked,
            t.unexplained()
        )
    }
}

/// Loads the games of the given PGN files, in order, at most `limit`.
pub fn load_games(files: &[PathBuf], limit: Option<usize>) -> Result<Vec<PgnGame>, LoadError> {
    let mut games = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).map_err(|source| LoadError::Read { path: file.clone(), source })?;
        games.extend(read_games(&bytes));
        if limit.is_some_and(|n| games.len() >= n) {
            break;
        }
    }
    if let Some(n) = limit {
        games.truncate(n);
    }
    Ok(games)
}

/// Replays the games.
pub fn replay(opts: &ReplayOptions) -> Result<ReplayReport, LoadError> {
    let games = load_games(&opts.pgn, opts.games)?;
    let setup = HandsSetup { noise: opts.noise, pace: opts.pace, jitter: opts.jitter };
    Ok(replay_with(&games, opts.tracker, setup))
}

/// Replays already loaded games at the normal pace.
pub fn replay_games(games: &[PgnGame], noise: Option<u64>, cfg: TrackerConfig) -> ReplayReport {
    replay_games_at(games, noise, cfg, Pace::Normal)
}

/// Replays already loaded games at the given pace.
pub fn replay_games_at(
    games: &[PgnGame],
    noise: Option<u64>,
    cfg: TrackerConfig,
    pace: Pace,
) -> ReplayReport {
    replay_with(games, cfg, HandsSetup { noise, pace, jitter: None })
}

/// Replays already loaded games as `setup`'s hands play them.
pub fn replay_with(games: &[PgnGame], cfg: TrackerConfig, setup: HandsSetup) -> ReplayReport {
    let HandsSetup { noise, pace, jitter } = setup;
    let mut totals = ReplayTotals::default();
    let mut latencies_ms = Vec::new();
    let trace_game: Option<usize> = std::env::var("STATION_REPLAY_TRACE").ok().and_then(|v| v.parse().ok());
    // `STATION_REPLAY_ONLY=<game index>`: that game alone, with the seed it has among all.
    let only: Option<usize> = std::env::var("STATION_REPLAY_ONLY").ok().and_then(|v| v.parse().ok());
    let started = Instant::now();
    let mut scans = Vec::with_capacity(64);
    let mut obs = Vec::with_capacity(16);
    for (index, pgn) in games.iter().enumerate() {
        if only.is_some_and(|i| i != index) {
            continue;
        }
        totals.games += 1;
        totals.pgn_errors += usize::from(pgn.error.is_some());
        let (repetitions, fifty_move) = draw_counts(&pgn.game);
        totals.repetitions += repetitions;
        totals.fifty_move += fifty_move;
        let seed = noise.map(|s| s ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let trace = trace_game == Some(index);
        // The line's jitter has a seed of its own per game (the hands' seed, or the game's number).
        let line = jitter.map(|ms| LineJitter::new(seed.unwrap_or(index as u64), ms));
        let mut run = Run {
            totals: &mut totals,
            latencies_ms: &mut latencies_ms,
            scans: &mut scans,
            obs: &mut obs,
            trace,
            line,
        };
        if std::env::var_os("STATION_REPLAY_VERBOSE").is_some() {
            eprintln!("game {index}");
        }
        match pace {
            Pace::Normal => replay_one(pgn.game.clone(), seed, cfg, &mut run),
            Pace::Fast => replay_one_fast(&pgn.game, seed, cfg, &mut run),
        }
    }
    ReplayReport { totals, elapsed: started.elapsed(), latencies_ms }
}

/// What one game's replay adds to and reuses.
struct Run<'a> {
    totals: &'a mut ReplayTotals,
    latencies_ms: &'a mut Vec<Millis>,
    scans: &'a mut Vec<TimedScan>,
    obs: &'a mut Vec<Observation>,
    /// Every scan and decision of this game to stderr (`STATION_REPLAY_TRACE=<game index>`, fast pace).
    trace: bool,
    /// The line between the hands and the tracker, when it jitters.
    line: Option<LineJitter>,
}

impl Run<'_> {
    /// The scans of one stretch as the line delivers them, none before
    /// `floor`; when the last of them arrives.
    fn deliver(&mut self, floor: Millis) -> Millis {
        match self.line.as_mut() {
            Some(line) => line.deliver(self.scans, floor),
            None => self.scans.last().map_or(floor, |s| s.at_ms.max(floor)),
        }
    }
}

/// Squares as text, for traces.
fn squares(b: shakmaty::Bitboard) -> String {
    b.into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
}

/// The plies of a game after which a draw could be claimed (Art. 9.2, 9.3).
pub fn draw_counts(game: &Game) -> (usize, usize) {
    let facts = station_core::draws::facts_all(game);
    let after_moves = facts.iter().skip(1);
    let repetitions = after_moves.clone().filter(|f| f.threefold()).count();
    let fifty = after_moves
        .filter(|f| f.fifty_moves() && game.position_at(f.ply).is_some_and(|p| !p.legal_moves().is_empty()))
        .count();
    (repetitions, fifty)
}

/// A tracker for a replay: with `STATION_REPLAY_SETTLE_ONLY` set, without the
/// early decisions (the settle time and the next lift alone, for comparisons).
fn tracker(cfg: TrackerConfig, game: Game, occ: shakmaty::Bitboard, t: Millis) -> BoardTracker {
    let mut tracker = BoardTracker::new(cfg, game, occ, t);
    tracker.set_early_decisions(std::env::var_os("STATION_REPLAY_SETTLE_ONLY").is_none());
    tracker
}

/// Thinking time between moves in simulated ms (varied, always longer than the settle time).
fn think_ms(ply: usize, settle: Millis) -> Millis {
    settle + 200 + (ply as u64 * 7919) % 3000
}

fn replay_one(reference: Game, seed: Option<u64>, cfg: TrackerConfig, run: &mut Run<'_>) {
    let start = Game::new(reference.start().clone(), reference.castling_mode());
    let mut now: Millis = 0;
    let mut tracker = tracker(cfg, start, reference.start().board().occupied(), now);
    let mut hands = Hands::new(seed);
    // When the line delivered the last scan (with jitter, later than the hand made it).
    let mut delivered: Millis = 0;
    for (i, &mv) in reference.moves().iter().enumerate() {
        let before = reference.position_at(i).expect("reference has every position");
        let ply = i + 1;
        run.scans.clear();
        run.obs.clear();
        hands.think(before.board().occupied(), think_ms(ply, cfg.settle_ms), &mut now, run.scans);
        hands.play(before, &mv, &mut now, run.scans);
        delivered = run.deliver(delivered);
        let placed = run.scans.last().map_or(now, |s| s.at_ms);
        let Run { totals, latencies_ms, scans, obs, .. } = run;
        for s in scans.iter() {
            tracker.on_scan(s.at_ms, s.occupancy, obs);
        }
        let settled = now.max(delivered) + cfg.settle_ms;
        tracker.tick(settled, obs);
        delivered = settled;
        totals.plies += 1;
        totals.revisions += obs.iter().filter(|o| matches!(o, Observation::Revised { .. })).count();
        let verdict = judge_ply(&mut tracker, obs, &reference, ply, mv, totals);
        if let (Verdict::Right, Some(t)) = (&verdict, decided_at(obs, ply)) {
            latencies_ms.push(t.saturating_sub(placed));
        }
        // Undecided and unsaid at rest, while the game goes on: the station stalled.
        let reported = obs.iter().any(|o| matches!(o, Observation::Mismatch { .. }));
        if matches!(verdict, Verdict::Unresolved) && !reported && ply < reference.ply() {
            totals.stalls += 1;
        }
        if !matches!(verdict, Verdict::Right) && std::env::var_os("STATION_REPLAY_VERBOSE").is_some() {
            let san = reference.sans()[i].to_string();
            eprintln!("ply {ply} {san}: {verdict:?} {obs:?}");
        }
        match verdict {
            Verdict::Right => {}
            Verdict::Unresolved => totals.mismatches += 1,
            Verdict::Wrong => totals.silent_errors += 1,
        }
        if tracker.game().moves() != &reference.moves()[..ply] {
            // The arbiter (or the announcement) puts the record right; play goes on.
            let mut fixed = Game::new(reference.start().clone(), reference.castling_mode());
            for &m in &reference.moves()[..ply] {
                fixed.push(m);
            }
            let occ = reference.position_at(ply).expect("position exists").board().occupied();
            tracker = self::tracker(cfg, fixed, occ, settled);
        }
    }
}

/// Fast pace: the whole game as one stream of scans, each move begun 50–200 ms
/// after the last placement, so a move is decided when the next one begins.
/// Nobody puts the record right: after a miss the tracker must catch up by itself.
fn replay_one_fast(reference: &Game, seed: Option<u64>, cfg: TrackerConfig, run: &mut Run<'_>) {
    let Run { totals, latencies_ms, scans, obs, trace, line } = run;
    let trace = *trace;
    let start = Game::new(reference.start().clone(), reference.castling_mode());
    let mut now: Millis = 0;
    let mut tracker = tracker(cfg, start, reference.start().board().occupied(), now);
    let mut hands = Hands::new(seed);
    let plies = reference.ply();
    // Per ply: when its last peg was placed, and the last decision about it.
    let mut placed_at: Vec<Millis> = Vec::with_capacity(plies);
    let mut decided: Vec<Option<(Move, Millis)>> = vec![None; plies];
    let mut wrong = vec![false; plies];
    let mut promoted_differently = false;
    // When the station reported a board it could not explain.
    let mut reported: Vec<Millis> = Vec::new();
    // Plies the player's announcement decided, asked about.
    let mut answered = vec![false; plies];
    // Returns the player's announcement (D.2.3) when the station asked about
    // several moves and his is among them.
    let mut take = |tracker: &mut BoardTracker, obs: &mut Vec<Observation>, totals: &mut ReplayTotals| {
        let mut answer: Option<(Move, Millis, usize)> = None;
        for o in obs.drain(..) {
            totals.revisions += usize::from(matches!(o, Observation::Revised { .. }));
            match o {
                Observation::Moved { ply, mv, promotion_assumed, t }
                | Observation::Revised { ply, mv, promotion_assumed, t, .. } => {
                    let Some(expected) = reference.moves().get(ply - 1).copied() else {
                        continue; // a move beyond the game: counted below as wrong record
                    };
                    let mut mv = mv;
                    let named_otherwise = promotion_assumed && mv.promotion() != expected.promotion();
                    if promotion_assumed && mv != expected && same_path(mv, expected) {
                        // D.2.1: the player announces the promotion piece; the record takes it.
                        totals.promotions_announced += 1;
                        match expected.promotion().and_then(|role| tracker.set_promotion(role)) {
                            Some(m) => mv = m,
                            // Decided in one catch-up with later plies: the announcement
                            // names the piece all the same (the record keeps the assumed one).
                            None => mv = expected,
                        }
                    }
                    if promoted_differently && mv != expected && same_but_captured_piece(mv, expected) {
                        mv = expected; // the piece taken is the promoted one the player named
                    }
                    promoted_differently |= named_otherwise;
                    decided[ply - 1] = Some((mv, t));
                    wrong[ply - 1] = mv != expected;
                }
                Observation::Mismatch { reason, sensed, ref candidates, t, .. } => {
                    if std::env::var_os("STATION_REPLAY_VERBOSE").is_some() {
                        let exp = tracker.game().occupancy();
                        let sq = |b: shakmaty::Bitboard| {
                            b.into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
                        };
                        eprintln!(
                            "mismatch at ply {} t {t} {reason:?} extra [{}] missing [{}] cands {candidates:?}",
                            tracker.game().ply(),
                            sq(sensed & !exp),
                            sq(exp & !sensed)
                        );
                    }
                    totals.reports += 1;
                    reported.push(t);
                    // The question may be about a ply after the record's next
                    // (where several sequences part): his move there.
                    let record = tracker.game().ply();
                    let ahead =
                        reference.moves().iter().copied().enumerate().skip(record).take(MAX_ASKED_AHEAD);
                    let mut asked = ahead.filter(|(_, his)| candidates.iter().any(|c| same_path(*c, *his)));
                    let asked = asked.next().filter(|_| reason == MismatchReason::Ambiguous);
                    answer = asked.map(|(index, his)| (his, t, index)).or(answer);
                }
                Observation::Touch { .. } | Observation::Restored { .. } | Observation::PutRight { .. } => {}
            }
        }
        answer
    };
    let mut delivered: Millis = 0;
    for (i, &mv) in reference.moves().iter().enumerate() {
        let before = reference.position_at(i).expect("reference has every position");
        scans.clear();
        let gap = hands.pause(Pace::FAST_GAP_MS.0, Pace::FAST_GAP_MS.1);
        hands.play_after(before, &mv, gap, &mut now, scans);
        delivered = match line.as_mut() {
            Some(line) => line.deliver(scans, delivered),
            None => now,
        };
        placed_at.push(scans.last().map_or(now, |s| s.at_ms));
        if trace {
            let fen = shakmaty::fen::Fen::from_position(before, shakmaty::EnPassantMode::Legal);
            eprintln!("== ply {} {} {fen}", i + 1, reference.sans()[i]);
        }
        for s in scans.iter() {
            if trace {
                let prev = tracker.sensed();
                eprintln!(
                    "  t {} +[{}] -[{}] rec {}",
                    s.at_ms,
                    squares(s.occupancy & !prev),
                    squares(prev & !s.occupancy),
                    tracker.game().ply()
                );
            }
            tracker.on_scan(s.at_ms, s.occupancy, obs);
            if trace {
                obs.iter()
                    .filter(|o| !matches!(o, Observation::Touch { .. }))
                    .for_each(|o| eprintln!("    {o:?}"));
            }
            answer_asked(&mut tracker, obs, totals, &mut answered, &mut take);
        }
    }
    tracker.tick(now.max(delivered) + cfg.settle_ms + cfg.debounce_ms, obs);
    answer_asked(&mut tracker, obs, totals, &mut answered, &mut take);
    totals.plies += plies;
    // A move never decided and never reported while the next one was made: a stall.
    for ply in 0..plies.saturating_sub(1) {
        let (from, to) = (placed_at[ply], placed_at[ply + 1]);
        if decided[ply].is_none() && !reported.iter().any(|&t| (from..=to).contains(&t)) {
            totals.stalls += 1;
        }
    }
    let verbose = std::env::var_os("STATION_REPLAY_VERBOSE").is_some();
    for ply in 0..plies {
        match decided[ply] {
            Some(_) if wrong[ply] => totals.silent_errors += 1,
            Some(_) if answered[ply] => {
                totals.asked += 1;
                totals.mismatches += 1;
            }
            Some((_, t)) => latencies_ms.push(t.saturating_sub(placed_at[ply])),
            None => totals.mismatches += 1,
        }
        if verbose && (wrong[ply] || decided[ply].is_none()) {
            eprintln!("ply {} {}: {:?}", ply + 1, reference.sans()[ply], decided[ply]);
        }
    }
    if tracker.game().ply() > plies {
        totals.silent_errors += tracker.game().ply() - plies;
    }
}

/// Takes a turn's observations into the replay's books; returns the player's
/// answer (his move, when, its ply index) when the station asked about his.
type TakeObservations<'a> = dyn FnMut(&mut BoardTracker, &mut Vec<Observation>, &mut ReplayTotals) -> Option<(Move, Millis, usize)>
    + 'a;

/// How many plies past the record a question may be about (the catch-up's longest).
const MAX_ASKED_AHEAD: usize = 12;

/// Takes the observations, and while the station asked about moves that
/// include the player's, lets his announcement answer (and takes what that
/// decided); marks the plies so decided.
fn answer_asked(
    tracker: &mut BoardTracker,
    obs: &mut Vec<Observation>,
    totals: &mut ReplayTotals,
    answered: &mut [bool],
    take: &mut TakeObservations<'_>,
) {
    while let Some((his, t, ply)) = take(tracker, obs, totals) {
        if !tracker.decide_now(Some(his), t, obs) {
            take(tracker, obs, totals);
            return;
        }
        if let Some(a) = answered.get_mut(ply) {
            *a = true;
        }
    }
}

/// When the move of `ply` was decided, from this ply's observations.
fn decided_at(obs: &[Observation], ply: usize) -> Option<Millis> {
    obs.iter().rev().find_map(|o| match *o {
        Observation::Moved { ply: p, t, .. } | Observation::Revised { ply: p, t, .. } if p == ply => Some(t),
        _ => None,
    })
}

#[derive(Debug)]
enum Verdict {
    Right,
    Unresolved,
    Wrong,
}

fn judge_ply(
    tracker: &mut BoardTracker,
    obs: &[Observation],
    reference: &Game,
    ply: usize,
    expected: Move,
    totals: &mut ReplayTotals,
) -> Verdict {
    let mut decided: Option<(Move, bool)> = None;
    for o in obs {
        match *o {
            Observation::Moved { ply: p, mv, promotion_assumed, .. }
            | Observation::Revised { ply: p, mv, promotion_assumed, .. } => {
                if p == ply {
                    decided = Some((mv, promotion_assumed));
                } else if reference.moves().get(p - 1) != Some(&mv) {
                    return Verdict::Wrong; // an earlier move revised into a wrong one
                }
            }
            Observation::Mismatch { .. } => totals.reports += 1,
            Observation::Touch { .. } | Observation::Restored { .. } | Observation::PutRight { .. } => {}
        }
    }
    match decided {
        None => {
            // Asked naming his move: his announcement answers it (the record
            // is put right below, as at fast pace).
            let named = obs.iter().any(|o| {
                matches!(o, Observation::Mismatch { reason: MismatchReason::Ambiguous, candidates, .. }
                    if candidates.iter().any(|c| same_path(*c, expected)))
            });
            totals.asked += usize::from(named);
            Verdict::Unresolved
        }
        Some((mv, _)) if mv == expected => Verdict::Right,
        Some((mv, true)) if same_path(mv, expected) => {
            // D.2.1: the player announces the promotion piece; the record takes it.
            totals.promotions_announced += 1;
            match expected.promotion().and_then(|role| tracker.set_promotion(role)) {
                Some(m) if m == expected => Verdict::Right,
                _ => Verdict::Wrong,
            }
        }
        Some(_) => Verdict::Wrong,
    }
}

/// The same move but for the role of the piece it captures.
fn same_but_captured_piece(a: Move, b: Move) -> bool {
    match (a, b) {
        (
            Move::Normal { role, from, to, promotion, capture: Some(_) },
            Move::Normal { role: r, from: f, to: t, promotion: p, capture: Some(_) },
        ) => role == r && from == f && to == t && promotion == p,
        _ => false,
    }
}

fn same_path(a: Move, b: Move) -> bool {
    a.from() == b.from() && a.to() == b.to()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(file: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pgn/games").join(file)
    }

    fn sample(file: &str, n: usize) -> Vec<PgnGame> {
        load_games(&[shared(file)], Some(n)).expect("shared PGN data beside the workspace")
    }

    #[test]
    fn real_games_replay_without_a_mismatch_when_hands_are_clean() {
        let games = sample("Kasparov.pgn", 60);
        let r = replay_games(&games, None, TrackerConfig::default());
        assert_eq!(r.totals.games, 60);
        assert!(r.totals.plies > 3000);
        assert_eq!((r.totals.mismatches, r.totals.silent_errors), (0, 0), "{:?}", r.totals);
    }

    #[test]
    fn quick_hands_have_every_move_decided_on_evidence_before_the_settle_time() {
        let games = sample("Fischer.pgn", 60);
        let cfg = TrackerConfig::default();
        let r = replay_games_at(&games, None, cfg, Pace::Fast);
        assert!(r.totals.plies > 3000);
        assert_eq!((r.totals.mismatches, r.totals.silent_errors), (0, 0), "{:?}", r.totals);
        // Simulated time: most moves are decided when the next one begins, not after a rest.
        let mut ms = r.latencies_ms.clone();
        ms.sort_unstable();
        assert_eq!(ms.len(), r.totals.plies);
        assert!(ms[ms.len() / 2] < cfg.settle_ms, "median {} ms", ms[ms.len() / 2]);
    }

    #[test]
    fn noisy_hands_never_make_a_wrong_move_pass_as_right() {
        // Held out from tuning: Polgar's games are only ever replayed here and in CI.
        let games = sample("PolgarJ.pgn", 60);
        let r = replay_games(&games, Some(99), TrackerConfig::default());
        assert_eq!(r.totals.silent_errors, 0, "{:?}", r.totals);
        assert!(r.totals.plies > 3000);
    }

    #[test]
    fn quick_noisy_hands_never_make_a_wrong_move_pass_as_right() {
        // Quick hands with noise, a seed the inference was never tuned on: a
        // position repeated inside a burst, recaptures on one square, a flicker
        // inside a lift may leave plies undecided, never decided wrong.
        let games = sample("Capablanca.pgn", 120);
        let r = replay_games_at(&games, Some(7), TrackerConfig::default(), Pace::Fast);
        assert!(r.totals.plies > 8000);
        assert_eq!(r.totals.silent_errors, 0, "{:?}", r.totals);
    }

    #[test]
    fn the_judge_counts_wrong_and_missing_decisions() {
        let mut reference = Game::default();
        let e4 = reference.push_uci("e2e4").map(|_| reference.moves()[0]).unwrap();
        let d4 = {
            let mut g = Game::default();
            g.push_uci("d2d4").unwrap();
            g.moves()[0]
        };
        let occ = Game::default().occupancy();
        let mut tracker = BoardTracker::new(TrackerConfig::default(), Game::default(), occ, 0);
        let mut totals = ReplayTotals::default();
        let moved = |mv| Observation::Moved { ply: 1, mv, promotion_assumed: false, t: 0 };
        let judge = |obs: &[Observation], tracker: &mut BoardTracker, totals: &mut ReplayTotals| {
            judge_ply(tracker, obs, &reference, 1, e4, totals)
        };
        assert!(matches!(judge(&[moved(e4)], &mut tracker, &mut totals), Verdict::Right));
        assert!(matches!(judge(&[moved(d4)], &mut tracker, &mut totals), Verdict::Wrong));
        assert!(matches!(judge(&[], &mut tracker, &mut totals), Verdict::Unresolved));
        let mismatch = Observation::Mismatch {
            reason: station_core::event::MismatchReason::Unexplained,
            sensed: occ,
            candidates: Vec::new(),
            takeback_to_ply: None,
            t: 0,
        };
        assert!(matches!(judge(&[mismatch], &mut tracker, &mut totals), Verdict::Unresolved));
        assert_eq!(totals.reports, 1);
    }
}
