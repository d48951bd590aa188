//! The engine opponent (issue 26): what the station asks the engine and what
//! its answers mean. It knows no table and no station: the station's
//! `practice` part asks it for a move, a hint or a review and acts on the
//! answers (an engine move is the sighted side's move, entered like the
//! console's `enter_move`).
//!
//! It asks the engine once per position when it is to move, for a hint, and for the review (every
//! position scored at full strength, his moves ranked by how much his evaluation dropped). It keeps
//! the level (the next game's, on "stronger"/"weaker"), names each fault once until the engine
//! answers well again, and holds the famous games' positions a practice game may start from.

use crate::config::OpponentSettings;
use crossbeam_channel::Receiver;
use shakmaty::{Chess, Color, Position};
use station_core::Game;
use station_engine::{
    EngineDriver, EngineEvent, EngineKind, EngineRequest, FaultKind, Score, SearchLimit, SearchPosition,
    Strength, Timeouts,
};
use station_stamp::Stamped;
use std::collections::HashSet;
use std::path::PathBuf;

/// Why the engine was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Its own move.
    Move,
    /// A hint for the blind player.
    Hint,
    /// The review after the game: the position after this many plies.
    Review(usize),
}

#[derive(Clone, Debug)]
struct Search {
    id: u64,
    purpose: Purpose,
    position: SearchPosition,
}

/// A move where his evaluation dropped, for the review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// The ply he played (1-based).
    pub ply: usize,
    /// What he played (UCI).
    pub played: String,
    /// What the engine liked better (UCI).
    pub better: String,
    /// How much worse his move was, in centipawns.
    pub drop_cp: i32,
}

/// The review in progress: a score and a best move for every position.
struct Review {
    game: Game,
    /// Per ply `i` (the position after `i` plies): the score for the side to move and the best move.
    scores: Vec<Option<(i32, Option<String>)>>,
    his: Color,
}

/// What an engine report means to the station.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing to do.
    Nothing,
    /// The engine's move (UCI, legal) for this position: enter it.
    Move {
        /// The move.
        uci: String,
        /// The position it was searched in.
        position: SearchPosition,
    },
    /// A hint (UCI, legal in `position`).
    Hint {
        /// The move.
        uci: String,
        /// Where.
        position: SearchPosition,
    },
    /// The review is done: his worst moves, worst first.
    Reviewed(Vec<Mistake>),
    /// The engine runs (again).
    Ready(String),
    /// A fault; `first` when it was not told since the last good answer.
    Fault {
        /// What.
        kind: FaultKind,
        /// In words.
        detail: String,
        /// Not told since the engine last answered well.
        first: bool,
    },
}

/// How many mistakes the review names at most, and the least drop it names.
const REVIEW_MISTAKES: usize = 3;
const REVIEW_MIN_DROP_CP: i32 = 50;

/// The engine opponent.
pub struct Opponent {
    driver: EngineDriver,
    settings: OpponentSettings,
    /// The level of the game in progress (`None`: full strength).
    elo: Option<u32>,
    /// The level the next game gets ("stronger" / "weaker").
    next_elo: Option<u32>,
    name: String,
    next_id: u64,
    search: Option<Search>,
    /// Faults told since the engine last answered well (each told once).
    told: HashSet<FaultKind>,
    review: Option<Review>,
}

/// "Stockfish 17, Elo 1500" / "Stockfish 17, full strength".
fn level_tag(name: &str, elo: Option<u32>) -> String {
    match elo {
        Some(elo) => format!("{name}, Elo {elo}"),
        None => format!("{name}, full strength"),
    }
}

/// The strongest level "stronger" reaches before full strength.
const TOP_ELO: u32 = 2850;

impl Opponent {
    /// Starts the engine `settings` name (its own thread and process) and
    /// waits a moment for its first report, so the first game's PGN tag has
    /// the engine's own name: that report is returned to be handled.
    pub fn start(settings: &OpponentSettings) -> (Opponent, Option<Stamped<EngineEvent>>) {
        let opponent = Self::spawn(settings);
        let first = opponent.driver.events().recv_timeout(std::time::Duration::from_secs(5)).ok();
        (opponent, first)
    }

    fn spawn(settings: &OpponentSettings) -> Opponent {
        let kind = if settings.engine == "sim" {
            station_sim::engine::SimEngine::kind(settings.seed)
        } else {
            EngineKind::Uci { path: PathBuf::from(&settings.engine), timeouts: Timeouts::default() }
        };
        let name = if settings.engine == "sim" {
            "Simulated engine".to_string()
        } else {
            std::path::Path::new(&settings.engine)
                .file_name()
                .map_or_else(|| settings.engine.clone(), |n| n.to_string_lossy().into_owned())
        };
        Opponent {
            driver: EngineDriver::spawn(kind),
            settings: settings.clone(),
            elo: settings.elo,
            next_elo: settings.elo,
            name,
            next_id: 1,
            search: None,
            told: HashSet::new(),
            review: None,
        }
    }

    /// The engine's reports, for the run loop.
    pub fn events(&self) -> Receiver<Stamped<EngineEvent>> {
        self.driver.events()
    }

    /// The engine's name and level, for the PGN tag of its side.
    pub fn tag(&self) -> String {
        level_tag(&self.name, self.elo)
    }

    /// Puts the engine's name and level on its side of `config`'s tags, from
    /// its first report (`start`'s) when that was its name: a game that
    /// begins before the engine is attached (no sensed board starts one at
    /// once) names the engine too, never `?`.
    pub fn name_its_side(&self, first: Option<&Stamped<EngineEvent>>, config: &mut crate::config::Config) {
        let name = match first.map(|s| &s.event) {
            Some(EngineEvent::Ready { name }) => name.as_str(),
            _ => self.name.as_str(),
        };
        let tag = Some(level_tag(name, self.elo));
        match config.blind_color() {
            Color::White => config.tags.black = tag,
            Color::Black => config.tags.white = tag,
        }
    }

    /// The level of the game in progress.
    pub fn elo(&self) -> Option<u32> {
        self.elo
    }

    /// A new game begins: the level chosen meanwhile takes effect.
    pub fn begin_game(&mut self) {
        self.elo = self.next_elo;
        self.cancel();
        self.review = None;
        self.driver.send(EngineRequest::NewGame);
    }

    /// "stronger" / "weaker": the next game's level; `None` is full strength.
    pub fn step_level(&mut self, stronger: bool) -> Option<u32> {
        let step = self.settings.elo_step;
        self.next_elo = match (self.next_elo, stronger) {
            (None, true) => None,
            (None, false) => Some(TOP_ELO - step),
            (Some(e), true) if e + step > TOP_ELO => None,
            (Some(e), true) => Some(e + step),
            (Some(e), false) => Some(e.saturating_sub(step).max(100)),
        };
        self.next_elo
    }

    fn ask(&mut self, purpose: Purpose, position: SearchPosition, limit: SearchLimit, strength: Strength) {
        let id = self.next_id;
        self.next_id += 1;
        self.driver.send(EngineRequest::Search { id, position: position.clone(), limit, strength });
        self.search = Some(Search { id, purpose, position });
    }

    /// The engine is to move in `position` (his move is made): it is asked
    /// once; a question about another position is called off first.
    pub fn want_move(&mut self, position: SearchPosition, limit: Option<SearchLimit>) {
        if let Some(s) = &self.search {
            if s.purpose == Purpose::Move && s.position == position {
                return;
            }
            self.cancel();
        }
        let limit = limit.unwrap_or(SearchLimit::MoveTime(self.settings.move_time_ms.unwrap_or(1000)));
        self.ask(Purpose::Move, position, limit, Strength { elo: self.elo });
    }

    /// The engine is not to move (a take-back, a new game, a move entered by
    /// hand): its own search, if any, no longer matters.
    pub fn not_to_move(&mut self) {
        if self.search.as_ref().is_some_and(|s| s.purpose == Purpose::Move) {
            self.cancel();
        }
    }

    /// Calls off whatever the engine thinks about.
    pub fn cancel(&mut self) {
        if self.search.take().is_some() {
            self.driver.send(EngineRequest::Cancel);
        }
    }

    /// True while the engine thinks about its own move.
    pub fn thinking(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.purpose == Purpose::Move)
    }

    /// A hint for the blind player in `position` (full strength, the hint time).
    pub fn hint(&mut self, position: SearchPosition) {
        self.cancel();
        let limit = SearchLimit::MoveTime(self.settings.hint_time_ms);
        self.ask(Purpose::Hint, position, limit, Strength { elo: None });
    }

    /// Reviews `game` for the player of `his` colour: every position scored
    /// at full strength, one after the other.
    pub fn review(&mut self, game: &Game, his: Color) {
        self.cancel();
        let plies = game.ply();
        self.review = Some(Review { game: game.clone(), scores: vec![None; plies + 1], his });
        self.review_next();
    }

    fn review_next(&mut self) -> Option<Vec<Mistake>> {
        let review = self.review.as_ref()?;
        let Some(ply) = review.scores.iter().position(Option::is_none) else {
            let review = self.review.take()?;
            return Some(review.mistakes());
        };
        let position = position_of_prefix(&review.game, ply);
        let limit = SearchLimit::MoveTime((self.settings.hint_time_ms / 4).max(50));
        self.ask(Purpose::Review(ply), position, limit, Strength { elo: None });
        None
    }

    /// What an engine report means.
    pub fn on_event(&mut self, event: EngineEvent) -> Answer {
        match event {
            EngineEvent::Ready { name } => {
                self.name = name.clone();
                Answer::Ready(name)
            }
            EngineEvent::Fault { kind, detail } => {
                let first = self.told.insert(kind);
                Answer::Fault { kind, detail, first }
            }
            EngineEvent::BestMove { id, uci, score } => {
                let Some(search) = self.search.take_if(|s| s.id == id) else { return Answer::Nothing };
                self.told.clear();
                match search.purpose {
                    Purpose::Move => Answer::Move { uci, position: search.position },
                    Purpose::Hint => Answer::Hint { uci, position: search.position },
                    Purpose::Review(ply) => {
                        let cp = score.map_or(0, Score::centipawns);
                        if let Some(r) = self.review.as_mut() {
                            r.scores[ply] = Some((cp, Some(uci)));
                        }
                        self.review_next().map_or(Answer::Nothing, Answer::Reviewed)
                    }
                }
            }
            EngineEvent::NoMove { id } => {
                let Some(search) = self.search.take_if(|s| s.id == id) else { return Answer::Nothing };
                if let Purpose::Review(ply) = search.purpose
                    && let Some(r) = self.review.as_mut()
                {
                    // Mate is lost for the side to move, stalemate a draw.
                    let lost = search.position.to_position().is_ok_and(|p| p.is_check());
                    r.scores[ply] = Some((if lost { -100_000 } else { 0 }, None));
                    return self.review_next().map_or(Answer::Nothing, Answer::Reviewed);
                }
                Answer::Nothing
            }
        }
    }
}

impl Review {
    /// His moves, each scored as the best score before it minus the score after it.
    fn mistakes(&self) -> Vec<Mistake> {
        let mut out = Vec::new();
        let start_turn = self.game.start().turn();
        for ply in 1..self.scores.len() {
            // The position before ply `ply` has him to move.
            let mover = if (ply - 1).is_multiple_of(2) { start_turn } else { !start_turn };
            if mover != self.his {
                continue;
            }
            let (Some((before, Some(best))), Some((after, _))) = (&self.scores[ply - 1], &self.scores[ply])
            else {
                continue;
            };
            let played = self.game.uci(self.game.moves()[ply - 1]);
            let drop = before.saturating_add(*after);
            if played != *best && drop >= REVIEW_MIN_DROP_CP {
                out.push(Mistake { ply, played, better: best.clone(), drop_cp: drop });
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.drop_cp));
        out.truncate(REVIEW_MISTAKES);
        out
    }
}

/// The game's position after `plies` plies, as the engine is asked about it.
pub fn position_of_prefix(game: &Game, plies: usize) -> SearchPosition {
    let chess960 = game.castling_mode() == shakmaty::CastlingMode::Chess960;
    let fen = (game.start() != &Chess::default() || chess960).then(|| game.start_fen());
    let moves = game.moves().iter().take(plies).map(|m| game.uci(*m)).collect();
    SearchPosition { fen, moves, chess960 }
}

/// The game's current position, as the engine is asked about it.
pub fn position_of(game: &Game) -> SearchPosition {
    position_of_prefix(game, game.ply())
}

/// Famous games whose position a practice game may start from ("neue Partie
/// zwei"): the name, the moves up to the position, in SAN.
const FAMOUS_POSITIONS: [(&str, &str); 3] = [
    (
        "Kasparov - Topalov, Wijk aan Zee 1999, before 24. Rxd4",
        "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7 Kb1 a6 \
         Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 Rhe1 d4 Nd5 Nbxd5 exd5 Qd6",
    ),
    (
        "Morphy - Duke of Brunswick and Count Isouard, Paris 1858, before 10. Nxb5",
        "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5",
    ),
    (
        "Anderssen - Kieseritzky, London 1851, before 18. Bd6",
        "e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 h4 Qg6 h5 Qg5 \
         Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2",
    ),
];

/// The position (FEN) of famous game `n` (from 1), and its name.
pub fn famous_position(n: u16) -> Option<(&'static str, String)> {
    let (name, sans) = FAMOUS_POSITIONS.get(usize::from(n).checked_sub(1)?)?;
    let mut pos = Chess::default();
    for san in sans.split_whitespace() {
        let mv = san.parse::<shakmaty::san::San>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
    }
    Some((name, shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_famous_positions_are_reached_by_legal_moves() {
        for n in 1..=3 {
            let (name, fen) = famous_position(n).unwrap_or_else(|| panic!("famous position {n}"));
            assert!(Game::from_fen(&fen).is_ok(), "{name}");
        }
        // 24. Rxd4 is White's move in the first.
        assert!(famous_position(1).unwrap().1.contains(" w "));
        assert!(famous_position(0).is_none() && famous_position(4).is_none());
    }

    #[test]
    fn the_review_names_the_moves_that_lost_most() {
        // 1. f3 e5 2. g4?? Qh4#: White's second move loses everything.
        let mut game = Game::default();
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            game.push_uci(uci).unwrap();
        }
        let review = Review {
            game,
            scores: vec![
                Some((30, Some("e2e4".into()))),
                Some((90, Some("d2d4".into()))),
                Some((-80, Some("e2e4".into()))),
                Some((100_000 - 1, Some("d8h4".into()))),
                Some((-100_000, None)),
            ],
            his: Color::White,
        };
        let mistakes = review.mistakes();
        assert_eq!(mistakes.len(), 2, "{mistakes:?}");
        assert_eq!(mistakes[0].ply, 3);
        assert_eq!(mistakes[0].played, "g2g4");
        assert_eq!(mistakes[0].better, "e2e4");
        assert_eq!((mistakes[1].ply, mistakes[1].drop_cp), (1, 120));
    }

    #[test]
    fn levels_step_between_games() {
        let mut o = Opponent::spawn(&OpponentSettings { elo: Some(1500), ..OpponentSettings::new("sim") });
        assert_eq!(o.step_level(true), Some(1600));
        assert_eq!(o.elo(), Some(1500), "the game in progress keeps its level");
        o.begin_game();
        assert_eq!(o.elo(), Some(1600));
        assert_eq!(o.step_level(false), Some(1500));
        let mut full = Opponent::spawn(&OpponentSettings::new("sim"));
        assert_eq!(full.step_level(true), None);
        assert_eq!(full.step_level(false), Some(2750));
    }
}
