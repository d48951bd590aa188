//! The per-listener queue policy, kept pure so it is tested without audio:
//! urgent messages pre-empt, a newer move replaces a stale one, and the queue
//! is bounded so speech never piles up in a fast finish.

use std::collections::VecDeque;

use super::utterance::{Priority, Utterance};

/// An utterance waiting to be said.
#[derive(Debug, Clone)]
pub(crate) struct Queued {
    pub id: u64,
    pub priority: Priority,
    pub utterance: Utterance,
    /// When `say` was called: the start of the latency the benchmark measures.
    pub asked: std::time::Instant,
}

/// What admitting an utterance did.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Admitted {
    /// Ids dropped from the queue (superseded or overflow), possibly the new one.
    pub dropped: Vec<u64>,
    /// Whether the utterance being said must be cut off.
    pub interrupt: bool,
}

/// Bounded priority queue with coalescing.
#[derive(Debug)]
pub(crate) struct Queue {
    items: VecDeque<Queued>,
    capacity: usize,
}

impl Queue {
    pub fn new(capacity: usize) -> Self {
        Self { items: VecDeque::new(), capacity: capacity.max(1) }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Admits `item`, given the priority of what is being said now.
    pub fn push(&mut self, item: Queued, playing: Option<Priority>) -> Admitted {
        let mut admitted = Admitted::default();
        if item.priority == Priority::Low && (playing.is_some() || !self.items.is_empty()) {
            admitted.dropped.push(item.id);
            return admitted;
        }
        if item.priority == Priority::Move {
            // Only the latest move is worth hearing; hints are stale too.
            self.items.retain(|q| {
                let stale = matches!(q.priority, Priority::Move | Priority::Low);
                if stale {
                    admitted.dropped.push(q.id);
                }
                !stale
            });
        }
        admitted.interrupt = playing
            .is_some_and(|p| item.priority > p || (item.priority == Priority::Move && p == Priority::Move));
        self.items.push_back(item);
        self.bound(&mut admitted);
        admitted
    }

    /// Admits `item` after what is queued and being said, replacing and
    /// cutting off nothing: a move decided with the one before it.
    pub fn push_following(&mut self, item: Queued) -> Admitted {
        let mut admitted = Admitted::default();
        self.items.push_back(item);
        self.bound(&mut admitted);
        admitted
    }

    /// Drops what the queue holds beyond its capacity.
    fn bound(&mut self, admitted: &mut Admitted) {
        while self.items.len() > self.capacity {
            // Drop the least urgent, oldest first; never the newest urgent one.
            let victim = self
                .items
                .iter()
                .enumerate()
                .min_by_key(|(i, q)| (q.priority, *i))
                .map(|(i, _)| i)
                .unwrap_or(0);
            if let Some(q) = self.items.remove(victim) {
                admitted.dropped.push(q.id);
            }
        }
    }

    /// The next to say: the most urgent, oldest first among equals.
    pub fn pop(&mut self) -> Option<Queued> {
        let best = self.items.iter().enumerate().max_by_key(|(i, q)| (q.priority, std::cmp::Reverse(*i)))?.0;
        self.items.remove(best)
    }

    /// Drops everything queued but moves (`silence`: answers end, a move is
    /// never dropped), returning the dropped ids.
    pub fn drop_all_but_moves(&mut self) -> Vec<u64> {
        let mut dropped = Vec::new();
        self.items.retain(|q| {
            let keep = q.priority == Priority::Move;
            if !keep {
                dropped.push(q.id);
            }
            keep
        });
        dropped
    }

    /// Empties the queue, returning the dropped ids.
    pub fn clear(&mut self) -> Vec<u64> {
        self.items.drain(..).map(|q| q.id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(id: u64, priority: Priority) -> Queued {
        Queued {
            id,
            priority,
            utterance: Utterance::text(format!("u{id}")),
            asked: std::time::Instant::now(),
        }
    }

    #[test]
    fn urgent_preempts_and_goes_first() {
        let mut queue = Queue::new(4);
        assert!(!queue.push(q(1, Priority::Normal), Some(Priority::Move)).interrupt);
        let a = queue.push(q(2, Priority::Urgent), Some(Priority::Move));
        assert!(a.interrupt);
        assert_eq!(queue.pop().map(|x| x.id), Some(2));
        assert_eq!(queue.pop().map(|x| x.id), Some(1));
        assert!(queue.pop().is_none());
        assert!(!queue.push(q(3, Priority::Urgent), Some(Priority::Urgent)).interrupt);
    }

    #[test]
    fn silence_drops_the_answers_and_keeps_the_move() {
        let mut queue = Queue::new(4);
        queue.push(q(1, Priority::Normal), Some(Priority::Urgent));
        queue.push(q(2, Priority::Move), Some(Priority::Urgent));
        queue.push(q(3, Priority::Urgent), Some(Priority::Urgent));
        assert_eq!(queue.drop_all_but_moves(), vec![1, 3]);
        assert_eq!(queue.pop().map(|x| x.id), Some(2));
        assert!(queue.pop().is_none());
    }

    #[test]
    fn newer_move_replaces_stale_move() {
        let mut queue = Queue::new(4);
        queue.push(q(1, Priority::Move), Some(Priority::Normal));
        let a = queue.push(q(2, Priority::Move), Some(Priority::Move));
        assert_eq!(a.dropped, vec![1]);
        assert!(a.interrupt);
        assert_eq!(queue.len(), 1);
    }

    #[test]
    fn a_move_decided_with_the_one_before_follows_it() {
        let mut queue = Queue::new(4);
        queue.push(q(1, Priority::Move), Some(Priority::Move));
        let a = queue.push_following(q(2, Priority::Move));
        assert_eq!(a, Admitted::default(), "nothing replaced, nothing cut off");
        assert_eq!(queue.pop().map(|x| x.id), Some(1));
        assert_eq!(queue.pop().map(|x| x.id), Some(2));
        // A later move replaces both, as it replaces one.
        queue.push(q(3, Priority::Move), None);
        queue.push_following(q(4, Priority::Move));
        assert_eq!(queue.push(q(5, Priority::Move), None).dropped, vec![3, 4]);
    }

    #[test]
    fn bounded_in_a_fast_finish() {
        let mut queue = Queue::new(3);
        for id in 0..10 {
            queue.push(q(id, Priority::Normal), Some(Priority::Normal));
        }
        assert_eq!(queue.len(), 3);
        assert_eq!(queue.pop().map(|x| x.id), Some(7));
        let a = queue.push(q(20, Priority::Urgent), None);
        assert!(!a.interrupt);
    }

    #[test]
    fn low_only_when_idle() {
        let mut queue = Queue::new(3);
        assert_eq!(queue.push(q(1, Priority::Low), Some(Priority::Normal)).dropped, vec![1]);
        assert!(queue.push(q(2, Priority::Low), None).dropped.is_empty());
        let a = queue.push(q(3, Priority::Move), None);
        assert_eq!(a.dropped, vec![2]);
    }
}
