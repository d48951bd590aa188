//! The simulated twin of a gamepad or foot switch (tests, the demo).

use crossbeam_channel::{Receiver, Sender};
use station_gamepad::GamepadEvent;
use station_stamp::Stamped;

/// The simulated twin of a gamepad or foot switch: what the gilrs thread would
/// report, sent by hand (tests, the demo). Feed [`SimGamepad::events`] to the
/// station in place of a [`GamepadDriver`](station_gamepad::GamepadDriver)'s.
#[derive(Debug, Clone)]
pub struct SimGamepad {
    name: String,
    tx: Sender<Stamped<GamepadEvent>>,
    events: Receiver<Stamped<GamepadEvent>>,
}

impl SimGamepad {
    /// A simulated pad called `name`, not plugged in yet.
    pub fn new(name: impl Into<String>) -> SimGamepad {
        let (tx, events) = crossbeam_channel::unbounded();
        SimGamepad { name: name.into(), tx, events }
    }

    /// The events, as [`GamepadDriver::events`](station_gamepad::GamepadDriver::events) gives them.
    pub fn events(&self) -> Receiver<Stamped<GamepadEvent>> {
        self.events.clone()
    }

    /// The pad is plugged in.
    pub fn plug(&self) {
        self.emit(GamepadEvent::Connected { name: self.name.clone() });
    }

    /// The pad is pulled out.
    pub fn unplug(&self) {
        self.emit(GamepadEvent::Disconnected { name: self.name.clone() });
    }

    /// A button (`South`, `LeftTrigger`, …) is pressed and released.
    pub fn press(&self, button: &str) {
        for pressed in [true, false] {
            self.emit(GamepadEvent::Button { pad: self.name.clone(), button: button.to_owned(), pressed });
        }
    }

    /// Gamepads cannot be used (as gilrs reports a missing subsystem).
    pub fn unavailable(&self, reason: &str) {
        self.emit(GamepadEvent::Unavailable { reason: reason.to_owned() });
    }

    fn emit(&self, event: GamepadEvent) {
        // The receiver half lives in `self`: sending cannot fail.
        let _ = self.tx.send(Stamped::now(event));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulated_pad_reports_like_the_real_one() {
        let pad = SimGamepad::new("Foot switch");
        let rx = pad.events();
        pad.plug();
        pad.press("South");
        pad.unplug();
        let got: Vec<GamepadEvent> = rx.try_iter().map(Stamped::into_event).collect();
        let name = "Foot switch".to_owned();
        let button = |pressed| GamepadEvent::Button { pad: name.clone(), button: "South".into(), pressed };
        assert_eq!(
            got,
            [
                GamepadEvent::Connected { name: name.clone() },
                button(true),
                button(false),
                GamepadEvent::Disconnected { name: name.clone() }
            ]
        );
    }
}
