//! Not listening to the station's own voice.
//!
//! The audio output holds a [`MuteFlag`] while it speaks (a [`MuteGuard`]
//! from [`MuteFlag::mute`], or [`MuteFlag::set`]); the capture path drops
//! every sample while the flag is set, and for a short release time after
//! it clears (room echo and the output's buffer), so the recogniser never
//! hears "Springer Felix drei" from the loudspeaker as the player's move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Set while the station speaks; cheap to clone and share across threads.
/// Guards count, so two speakers talking at once (earphone and public
/// speaker) keep it set until both are done.
#[derive(Debug, Clone, Default)]
pub struct MuteFlag(Arc<AtomicBool>, Arc<AtomicUsize>);

impl MuteFlag {
    /// A cleared flag.
    pub fn new() -> MuteFlag {
        MuteFlag::default()
    }

    /// Sets or clears the flag.
    pub fn set(&self, speaking: bool) {
        self.0.store(speaking, Ordering::Release);
    }

    /// Whether the station is speaking.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Acquire) || self.1.load(Ordering::Acquire) > 0
    }

    /// Sets the flag until the guard (and every other guard) is dropped.
    pub fn mute(&self) -> MuteGuard {
        self.1.fetch_add(1, Ordering::AcqRel);
        MuteGuard(self.clone())
    }
}

/// Clears its [`MuteFlag`] when dropped (also on early return or panic).
#[derive(Debug)]
pub struct MuteGuard(MuteFlag);

impl Drop for MuteGuard {
    fn drop(&mut self) {
        self.0.1.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Applies the flag to a stream of samples: drops them while muted and for
/// `release_samples` after.
#[derive(Debug, Clone)]
pub struct MuteGate {
    flag: MuteFlag,
    release_samples: usize,
    /// Samples still to drop after the flag cleared.
    holding: usize,
}

impl MuteGate {
    /// A gate on `flag` that keeps dropping for `release_samples` (at the
    /// rate of the samples it will see) after the flag clears.
    pub fn new(flag: MuteFlag, release_samples: usize) -> MuteGate {
        MuteGate { flag, release_samples, holding: 0 }
    }

    /// The part of `samples` to keep (empty while muted). Returns whether
    /// anything was dropped, so the caller can reset its detector.
    pub fn pass<'a, T>(&mut self, samples: &'a [T]) -> (&'a [T], bool) {
        if self.flag.is_set() {
            self.holding = self.release_samples;
            return (&samples[..0], true);
        }
        if self.holding == 0 {
            return (samples, false);
        }
        let drop = self.holding.min(samples.len());
        self.holding -= drop;
        (&samples[drop..], true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_dropped_while_speaking_and_for_the_release() {
        let flag = MuteFlag::new();
        let mut gate = MuteGate::new(flag.clone(), 5);
        assert_eq!(gate.pass(&[1, 2, 3]), (&[1, 2, 3][..], false));
        {
            let _speaking = flag.mute();
            assert_eq!(gate.pass(&[1, 2, 3]).0.len(), 0);
        }
        assert!(!flag.is_set());
        assert_eq!(gate.pass(&[1, 2, 3]), (&[][..], true));
        assert_eq!(gate.pass(&[4, 5, 6]), (&[6][..], true));
        assert_eq!(gate.pass(&[7]), (&[7][..], false));
    }

    #[test]
    fn two_speakers_keep_it_muted_until_both_are_done() {
        let flag = MuteFlag::new();
        let earphone = flag.mute();
        let public = flag.mute();
        drop(earphone);
        assert!(flag.is_set());
        drop(public);
        assert!(!flag.is_set());
    }
}
