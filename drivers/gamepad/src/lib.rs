//! Gamepads and foot switches as clock levers and buttons (gilrs).
//!
//! Works with no gamepad present and with none ever plugged in; a pad plugged
//! in or out mid-game is reported and the game goes on. Buttons are named as
//! gilrs names them (`South`, `East`, `LeftTrigger`, …), which is what the
//! `[buttons]` config uses (`gamepad:South`).

use crossbeam_channel::{Receiver, Sender};
use station_stamp::FlagThread;
use station_stamp::Stamped;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the pads are polled; a lever press is noticed within this.
const POLL: Duration = Duration::from_millis(10);
/// How long to wait before trying again when the gamepad subsystem is unavailable.
const RETRY: Duration = Duration::from_secs(5);

/// Why gamepads cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum GamepadError {
    /// gilrs could not start (no udev, no permission …).
    #[error("gamepad support unavailable: {0}")]
    Unavailable(String),
}

/// What the gamepad thread reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GamepadEvent {
    /// A pad appeared.
    Connected {
        /// Its name.
        name: String,
    },
    /// A pad went away.
    Disconnected {
        /// Its name.
        name: String,
    },
    /// A button changed.
    Button {
        /// The pad's name.
        pad: String,
        /// The button's name (`South`, `LeftTrigger`, …).
        button: String,
        /// Pressed (true) or released.
        pressed: bool,
    },
    /// Gamepads cannot be used right now (reported once per outage).
    Unavailable {
        /// Why.
        reason: String,
    },
}

/// The names of the connected gamepads (for `station devices`).
pub fn list_gamepads() -> Result<Vec<String>, GamepadError> {
    let gilrs = gilrs::Gilrs::new().map_err(|e| GamepadError::Unavailable(e.to_string()))?;
    Ok(gilrs.gamepads().map(|(_, pad)| pad.name().to_owned()).collect())
}

/// The background thread that watches the gamepads.
pub struct GamepadDriver {
    /// Declared first, so dropped first: the thread is stopped and joined
    /// while its queue is still open.
    _thread: FlagThread,
    events: Receiver<Stamped<GamepadEvent>>,
}

impl GamepadDriver {
    /// Starts watching; never fails (an unavailable subsystem is an event, and retried).
    pub fn spawn() -> GamepadDriver {
        let (tx, events) = crossbeam_channel::unbounded();
        let thread = FlagThread::spawn("gamepads", move |stop| watch(&tx, &stop));
        GamepadDriver { _thread: thread, events }
    }

    /// The events.
    pub fn events(&self) -> Receiver<Stamped<GamepadEvent>> {
        self.events.clone()
    }
}

fn watch(tx: &Sender<Stamped<GamepadEvent>>, stop: &AtomicBool) {
    let mut told_unavailable = false;
    while !stop.load(Ordering::Relaxed) {
        let mut gilrs = match gilrs::Gilrs::new() {
            Ok(g) => g,
            Err(e) => {
                if !told_unavailable {
                    let _ = tx.send(Stamped::now(GamepadEvent::Unavailable { reason: e.to_string() }));
                    told_unavailable = true;
                }
                sleep_unless(stop, RETRY);
                continue;
            }
        };
        told_unavailable = false;
        for (_, pad) in gilrs.gamepads() {
            let _ = tx.send(Stamped::now(GamepadEvent::Connected { name: pad.name().to_owned() }));
        }
        while !stop.load(Ordering::Relaxed) {
            while let Some(gilrs::Event { id, event, .. }) = gilrs.next_event() {
                // Polled every few ms: the poll that saw it is its arrival.
                let at = std::time::Instant::now();
                let pad = gilrs.gamepad(id).name().to_owned();
                let out = match event {
                    gilrs::EventType::ButtonPressed(b, _) => {
                        GamepadEvent::Button { pad, button: format!("{b:?}"), pressed: true }
                    }
                    gilrs::EventType::ButtonReleased(b, _) => {
                        GamepadEvent::Button { pad, button: format!("{b:?}"), pressed: false }
                    }
                    gilrs::EventType::Connected => GamepadEvent::Connected { name: pad },
                    gilrs::EventType::Disconnected => GamepadEvent::Disconnected { name: pad },
                    _ => continue,
                };
                if tx.send(Stamped::new(at, out)).is_err() {
                    return;
                }
            }
            std::thread::sleep(POLL);
        }
    }
}

fn sleep_unless(stop: &AtomicBool, total: Duration) {
    let mut left = total;
    while !left.is_zero() && !stop.load(Ordering::Relaxed) {
        let step = left.min(Duration::from_millis(50));
        std::thread::sleep(step);
        left -= step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_no_gamepad_the_driver_starts_reports_and_stops_cleanly() {
        let driver = GamepadDriver::spawn();
        // Either the subsystem is unavailable (reported once) or there are no pads:
        // in both cases no button ever arrives and dropping returns promptly.
        let first = driver.events().recv_timeout(Duration::from_millis(500));
        assert!(!matches!(first.map(Stamped::into_event), Ok(GamepadEvent::Button { .. })), "first event");
        let started = std::time::Instant::now();
        drop(driver);
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn listing_never_panics() {
        match list_gamepads() {
            Ok(pads) => assert!(pads.iter().all(|p| !p.is_empty())),
            Err(e) => assert!(e.to_string().contains("unavailable")),
        }
    }
}
