//! The simulated engine: a legal move without search, for tests and the demo
//! where no real engine is wanted. It prefers a capture of the most valuable
//! piece, then a move chosen by a seeded generator, so a seed replays a game.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Position, Role};
use station_engine::{
    Engine, EngineError, EngineKind, EngineMaker, Score, SearchLimit, SearchOutcome, SearchPosition, Strength,
};

/// A simulated engine.
pub struct SimEngine {
    seed: u64,
}

impl SimEngine {
    /// An engine whose choices follow `seed`.
    pub fn new(seed: u64) -> Self {
        SimEngine { seed }
    }

    /// What the engine driver runs for a simulated engine with `seed` (a new
    /// one at every start and restart, so a restarted engine plays the same).
    pub fn kind(seed: u64) -> EngineKind {
        EngineKind::InProcess(EngineMaker::new(move || Box::new(SimEngine::new(seed))))
    }
}

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

impl Engine for SimEngine {
    fn name(&self) -> &str {
        "Simulated engine"
    }

    fn set_strength(&mut self, _strength: Strength) -> Result<(), EngineError> {
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    fn search(
        &mut self,
        position: &SearchPosition,
        _limit: SearchLimit,
        _cancelled: &mut dyn FnMut() -> bool,
    ) -> Result<SearchOutcome, EngineError> {
        let pos = position.to_position().map_err(EngineError::Garbage)?;
        let moves = pos.legal_moves();
        let best_capture =
            moves.iter().filter_map(|m| m.capture().map(|c| (value(c), m))).max_by_key(|(v, _)| *v);
        let mv = match best_capture {
            Some((_, m)) => *m,
            None if moves.is_empty() => return Ok(SearchOutcome { best: "0000".into(), score: None }),
            None => {
                // A splitmix step of the seed and the ply: the same game, the same choices.
                let mut z = self
                    .seed
                    .wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(position.moves.len() as u64 + 1));
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                moves[(z % moves.len() as u64) as usize]
            }
        };
        let mode = if position.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let board = pos.board();
        let material: i32 = shakmaty::Role::ALL
            .iter()
            .map(|&r| {
                let n = |c| (board.by_role(r) & board.by_color(c)).count() as i32;
                value(r) * (n(pos.turn()) - n(!pos.turn()))
            })
            .sum();
        Ok(SearchOutcome { best: UciMove::from_move(mv, mode).to_string(), score: Some(Score::Cp(material)) })
    }
}

#[cfg(test)]
mod tests {
    use super::SimEngine;
    use station_engine::{EngineDriver, EngineEvent, EngineRequest, SearchLimit, SearchPosition, Strength};
    use std::time::{Duration, Instant};

    #[test]
    fn the_simulated_engine_plays_legal_moves_to_the_end() {
        let driver = EngineDriver::spawn(SimEngine::kind(3));
        let mut position = SearchPosition::default();
        for id in 0..400 {
            let limit = SearchLimit::MoveTime(1);
            let strength = Strength { elo: Some(1500) };
            driver.send(EngineRequest::Search { id, position: position.clone(), limit, strength });
            // The driver's answer to this search, past its `Ready` (or 30 s).
            let end = Instant::now() + Duration::from_secs(30);
            let answer = std::iter::from_fn(|| driver.events().recv_deadline(end).ok())
                .map(|e| e.event)
                .find(|e| matches!(e, EngineEvent::BestMove { id: i, .. } | EngineEvent::NoMove { id: i } if *i == id));
            match answer {
                Some(EngineEvent::BestMove { uci, .. }) => position.moves.push(uci),
                Some(EngineEvent::NoMove { .. }) => break,
                other => panic!("{other:?}"),
            }
            assert!(position.to_position().is_ok());
        }
        assert!(position.moves.len() > 10);
    }
}
