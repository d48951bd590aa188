//! Adjournment to the end (FIDE Guidelines I, an assistant's duty under
//! D.2.10.6): the sealed move is kept as written (the journal is the
//! envelope) and read only when the envelope is opened (I.8: ambiguous,
//! unreadable or illegal loses); adjourning before the session's end costs the
//! sealer the time left (I.1.2); resumption with both players (I.9.1), without
//! the one who must reply (I.9.2: his clock runs, the envelope stays shut
//! until he comes), or without the sealer (I.9.3: the reply sealed in a new
//! envelope, the sealer's clock running); a lost envelope (I.12.1). A draw or
//! a resignation before resumption ends the game with the envelope unopened
//! (I.6), and the arbiter corrects the clocks before the first move (I.13).

use super::{Phase, Table, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::event::Event;
use crate::notation::{ReadError, read_exactly};
use shakmaty::Position;

/// A sealed envelope: the move as written and who wrote it.
#[derive(Clone, Debug)]
pub(crate) struct Envelope {
    text: String,
    sealer: Side,
}

impl Table {
    /// Whether the game in progress is adjourned (a move sealed, not yet
    /// opened). The sealed move itself is never shown.
    pub fn is_adjourned(&self) -> bool {
        self.phase == Phase::Playing && self.sealed().is_some()
    }

    /// The player who sealed the move in the envelope not yet opened.
    pub fn sealer(&self) -> Option<Side> {
        self.sealed().filter(|_| self.phase == Phase::Playing).map(|e| e.sealer)
    }

    /// The envelope of the chess game's sealed move (a draughts game seals none).
    fn sealed(&self) -> Option<&Envelope> {
        self.seat.chess_rulings()?.sealed.as_ref()
    }

    /// Seals `envelope` in the chess game (the caller checked there is one).
    fn seal(&mut self, envelope: Envelope) {
        if let Some(r) = self.seat.chess_rulings_mut() {
            r.sealed = Some(envelope);
        }
    }

    /// Adjourns the game: the player to move seals his move (never shown or
    /// announced; read only when opened, I.8); the clock stops (I.1.1). Before
    /// the session's end (I.1.2) the time left in the session, `session_left_ms`,
    /// is taken from his clock.
    pub fn adjourn(&mut self, sealed: &str, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.adjourn_early(sealed, 0, t, out)
    }

    /// [`adjourn`](Self::adjourn) before the end of the session (I.1.2).
    pub fn adjourn_early(
        &mut self,
        sealed: &str,
        session_left_ms: Millis,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.tick_in_game(t, out)?;
        if self.sealed().is_some() {
            return Err(TableError::Invalid("the game is adjourned already".into()));
        }
        let (ply, sealer) = self.to_seal(sealed)?;
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| c.is_running()) {
            clock.pause(t)?;
        }
        if session_left_ms > 0
            && let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed())
        {
            let left = clock.remaining(sealer, t).saturating_sub(session_left_ms);
            let why = "Guidelines I.1.2: adjourned before the end of the session";
            clock.set_remaining(sealer, left, t, "arbiter", why);
            out.push(super::clock_corrected(sealer, None, left, "arbiter", why, t));
        }
        self.seal(Envelope { text: sealed.trim().to_owned(), sealer });
        out.push(Event::Adjourned { ply, t_ms: t });
        Ok(())
    }

    /// Resumes with the player who replies present (I.9.1; also I.9.3, the
    /// sealer absent): the envelope is opened, the sealed move made, and the
    /// replier's clock runs.
    pub fn resume_adjourned(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick(t, out);
        if !self.is_adjourned() {
            return Err(TableError::NotAdjourned);
        }
        out.push(Event::AdjournmentResumed { t_ms: t });
        self.open_envelope_now(t, out)
    }

    /// I.9.2: the player who replies is absent: his clock runs, the envelope
    /// stays shut until he comes ([`open_envelope`](Self::open_envelope)).
    pub(crate) fn resume_replier_absent(
        &mut self,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        let sealer = self.sealer().ok_or(TableError::NotAdjourned)?;
        self.run_clock_of(sealer.opponent(), "Guidelines I.9.2: the replier is absent", t, out);
        Ok(())
    }

    /// The envelope opened in the replier's presence (I.7; I.9.2 when he
    /// comes, I.9.3 the reply's envelope when the sealer comes).
    pub(crate) fn open_envelope(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        if !self.is_adjourned() {
            return Err(TableError::NotAdjourned);
        }
        self.open_envelope_now(t, out)
    }

    /// I.9.3: the sealer is absent; after his sealed move was made, his
    /// opponent seals his reply in a new envelope and switches the clock: the
    /// sealer's time runs.
    pub(crate) fn seal_reply(
        &mut self,
        sealed: &str,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        if self.phase != Phase::Playing || self.sealed().is_some() {
            return Err(TableError::Invalid("only after the envelope was opened".into()));
        }
        let (ply, replier) = self.to_seal(sealed)?;
        self.seal(Envelope { text: sealed.trim().to_owned(), sealer: replier });
        out.push(Event::Adjourned { ply, t_ms: t });
        self.run_clock_of(replier.opponent(), "Guidelines I.9.3: the reply sealed", t, out);
        Ok(())
    }

    /// I.12.1: the envelope is lost: play resumes in the adjourned position
    /// with the times at the adjournment; the sealer says and makes his move.
    pub(crate) fn envelope_lost(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let sealer = self.sealer().ok_or(TableError::NotAdjourned)?;
        if let Some(r) = self.seat.chess_rulings_mut() {
            r.sealed = None;
        }
        out.push(Event::AdjournmentResumed { t_ms: t });
        self.run_clock_of(sealer, "Guidelines I.12.1: the envelope is lost", t, out);
        Ok(())
    }

    /// Opens the envelope (I.8): a move that cannot be read, is illegal or
    /// ambiguous loses; else it is made and the side to move's clock runs.
    fn open_envelope_now(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let c = self.seat.chess_mut().ok_or(TableError::NotAdjourned)?;
        let envelope = c.rulings.sealed.take().ok_or(TableError::NotAdjourned)?;
        let sync = &mut c.sync;
        let mv = match read_exactly(sync.agreed().position(), &envelope.text) {
            Ok(mv) => mv,
            Err(e) => {
                let reason = match e {
                    ReadError::Ambiguous => "sealed_move_ambiguous",
                    ReadError::Unreadable => "sealed_move_unreadable",
                    ReadError::Illegal => "sealed_move_illegal",
                };
                let result = self.rules().win_for(envelope.sealer.opponent());
                self.end_game(result, reason, t, out);
                return Ok(());
            }
        };
        sync.enter_move(mv, t, out);
        self.clocking.pressed_ply = sync.agreed().ply();
        let to_move = Side::from(sync.agreed().position().turn());
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed()) {
            let moves = clock.moves_made(envelope.sealer) + 1;
            clock.set_moves(envelope.sealer, moves, t, "station", "the sealed move");
        }
        self.run_clock_of(to_move, "the sealed move was made", t, out);
        self.adopt_targets(t, out);
        self.check_game_over(t, out);
        Ok(())
    }

    /// The ply the move `sealed` would be and the side to move, who seals
    /// it; an empty envelope is refused.
    fn to_seal(&self, sealed: &str) -> Result<(usize, Side), TableError> {
        if sealed.trim().is_empty() {
            return Err(TableError::Invalid("the sealed move is empty".into()));
        }
        let sync = &self.seat.chess().ok_or(TableError::NoGame)?.sync;
        Ok((sync.agreed().ply() + 1, Side::from(sync.agreed().position().turn())))
    }

    /// The clock runs for `side` (a stopped clock starts again).
    fn run_clock_of(&mut self, side: Side, why: &str, t: Millis, out: &mut Vec<Event>) {
        let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed()) else { return };
        if clock.set_on_move(side, t, "station", why.to_owned()).is_some() {
            out.push(super::clock_changed("on_move_set", Some(side), "station", why, t));
        }
        let restarted = if clock.is_started() {
            !clock.is_running() && clock.resume(t).is_ok()
        } else {
            clock.start(t).is_ok()
        };
        if restarted {
            out.push(super::clock_changed("resumed", None, "station", why, t));
        }
    }
}
