//! A background thread that polls a stop flag: set and joined when its
//! handle goes (the Braille display's and the gamepads' threads).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// Owns a thread that runs until its stop flag is set; dropping it sets the
/// flag and waits for the thread.
#[derive(Debug)]
pub struct FlagThread {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FlagThread {
    /// Starts `body` on a thread called `name`, handing it the stop flag to
    /// poll. A thread the system cannot start is no thread: its events never
    /// come, which the driver's consumer already copes with.
    pub fn spawn(name: &str, body: impl FnOnce(Arc<AtomicBool>) + Send + 'static) -> FlagThread {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new().name(name.into()).spawn(move || body(flag)).ok();
        FlagThread { stop, thread }
    }
}

impl Drop for FlagThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
