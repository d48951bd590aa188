//! Where `--events` goes: a file (appended to, so a restart continues it) or stdout.

use anyhow::{Context, Result};
use station_core::Event;
use std::fs::OpenOptions;
use std::io::Write;

/// The event stream's destination.
pub enum EventSink {
    /// Nowhere.
    Off,
    /// Standard output.
    Stdout,
    /// A file.
    File(std::fs::File),
}

impl EventSink {
    /// From the `--events` argument: `-` is stdout, anything else a file path.
    pub fn open(arg: Option<&str>) -> Result<Self> {
        Ok(match arg {
            None => EventSink::Off,
            Some("-") => EventSink::Stdout,
            Some(path) => EventSink::File(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open events file {path}"))?,
            ),
        })
    }

    /// Writes events, one JSON object per line, and flushes.
    pub fn write(&mut self, events: &[Event]) -> Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        for e in events {
            text.push_str(&e.to_json());
            text.push('\n');
        }
        match self {
            EventSink::Off => Ok(()),
            EventSink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .context("cannot write events to stdout")
            }
            EventSink::File(f) => f.write_all(text.as_bytes()).context("cannot write events file"),
        }
    }
}
