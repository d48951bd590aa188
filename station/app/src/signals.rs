//! Stopping cleanly on SIGINT and SIGTERM: a flag every loop checks at its turn.

use anyhow::{Context, Result};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// SIGINT and SIGTERM set the flag; the loop ends cleanly at its next turn.
pub fn stop_flag() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop)).context("cannot install signal handler")?;
    }
    Ok(stop)
}
