//! The tournament hall: every station publishes its durable events and its
//! state to an MQTT broker (`publish`), one hall view subscribes to every
//! board and serves the arbiter's page, a hall-wide PGN and JSON (`view`,
//! `server`); `credentials` writes the broker's per-station passwords and ACL.
//! The broker is one more subscriber of durable events, never on the decision path.
//!
//! The publisher is one more `Subscriber` that `station run` attaches: a bounded hand-off to its
//! own thread, never blocking the loop. It publishes each durable event with QoS 1 and its journal
//! sequence number, the retained board state (`board_state`, folded from the same events) and a
//! last will, and publishes the journal again on every (re)connection and when the hall view asks
//! (`annexd/<hall>/replay`); TLS with the hall's CA (native-tls). The view drops, counted and with
//! a reason, forged, malformed, oversized and older-game messages; its client reads any packet the
//! broker forwards, so none ends the connection. The messages are described for other tools in
//! `docs/hall.md`.

pub mod board_state;
pub mod credentials;
pub mod publish;
pub mod server;
pub mod view;
pub mod wire;

// The application's modules, under the paths this crate's modules name them by.
use station_app::{config, delivery, journal_file, server_thread, signals, token};

use anyhow::{Context, Result, bail};
use std::path::Path;

/// Where a broker is: `mqtt://HOST:PORT` (port 1883 when absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerUrl {
    /// Host name or address.
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// `mqtts://`.
    pub tls: bool,
}

impl BrokerUrl {
    /// Parses `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
    pub fn parse(url: &str) -> Result<BrokerUrl> {
        let (tls, rest) = if let Some(r) = url.strip_prefix("mqtt://") {
            (false, r)
        } else if let Some(r) = url.strip_prefix("mqtts://") {
            (true, r)
        } else {
            bail!("`{url}` is not mqtt://HOST:PORT or mqtts://HOST:PORT");
        };
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().with_context(|| format!("`{url}`: bad port `{p}`"))?),
            None => (rest, if tls { 8883 } else { 1883 }),
        };
        if host.is_empty() {
            bail!("`{url}` names no host");
        }
        Ok(BrokerUrl { host: host.to_owned(), port, tls })
    }
}

/// A station's or the hall view's login: a file holding `USER:PASSWORD` on its first line.
pub fn read_credentials(path: &Path) -> Result<(String, String)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let line = text.lines().next().unwrap_or_default().trim();
    let (user, pass) =
        line.split_once(':').with_context(|| format!("{}: expected USER:PASSWORD", path.display()))?;
    Ok((user.to_owned(), pass.to_owned()))
}

/// The topic of a board's events: `annexd/<hall>/<board>/event`.
pub fn event_topic(hall: &str, board: &str) -> String {
    format!("annexd/{hall}/{board}/event")
}

/// The topic of a board's retained state: `annexd/<hall>/<board>/state`.
pub fn state_topic(hall: &str, board: &str) -> String {
    format!("annexd/{hall}/{board}/state")
}

/// The topic of a board's presence (retained; the last will says `gone`).
pub fn status_topic(hall: &str, board: &str) -> String {
    format!("annexd/{hall}/{board}/status")
}

/// The topic on which the hall view asks every station to publish its journal again.
pub fn replay_topic(hall: &str) -> String {
    format!("annexd/{hall}/replay")
}

/// A hall or board name usable as one topic level: no wildcards, no separators.
pub fn check_name(what: &str, name: &str) -> Result<()> {
    if name.is_empty()
        || name.len() > 64
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    {
        bail!("{what} `{name}` must be 1 to 64 letters, digits, `-`, `_` or `.`");
    }
    Ok(())
}

/// The largest packet MQTT can carry (a remaining length of 256 MiB − 1): the
/// hall view's client takes whatever the broker forwards, so that a payload
/// too large for the hall is dropped and counted by the view (`wire::MAX_PAYLOAD`)
/// instead of ending the connection. The broker's `message_size_limit`
/// (config/mosquitto.conf) keeps such payloads from travelling at all.
pub const MQTT_MAX_PACKET: usize = 268_435_455;

/// Why a connection to the broker failed, in words an operator can act on:
/// a TLS failure names the CA file the broker's certificate was checked against.
pub fn connection_problem(e: &rumqttc::ConnectionError, url: &BrokerUrl, ca_file: Option<&Path>) -> String {
    let scheme = if url.tls { "mqtts" } else { "mqtt" };
    let at = format!("{scheme}://{}:{}", url.host, url.port);
    match e {
        rumqttc::ConnectionError::Tls(tls) => {
            let ca = ca_file.map_or_else(|| "(none)".to_owned(), |p| p.display().to_string());
            let text = tls.to_string();
            // OpenSSL says "certificate verify failed" (and why: an unknown issuer, a self-signed chain).
            if text.contains("verify failed") {
                format!(
                    "TLS to {at} refused: the broker's certificate does not verify against the CA file {ca} \
                     (is it the hall's CA?): {text}"
                )
            } else {
                format!("TLS to {at} failed (CA file {ca}): {text}")
            }
        }
        rumqttc::ConnectionError::ConnectionRefused(code) => {
            format!("the broker at {at} refused the login ({code:?}): check the credentials file")
        }
        other => format!("cannot reach the broker at {at}: {other}"),
    }
}

/// The connection for `url`: plain TCP, or TLS checked against the CA file
/// (`mqtts://`; a CA file is required: a hall's broker has its own CA).
pub fn transport(url: &BrokerUrl, ca_file: Option<&Path>) -> Result<rumqttc::Transport> {
    if !url.tls {
        return Ok(rumqttc::Transport::tcp());
    }
    let ca_file = ca_file.context("mqtts:// needs the broker's CA file (`ca_file`, `--ca-file`)")?;
    let ca = std::fs::read(ca_file).with_context(|| format!("cannot read {}", ca_file.display()))?;
    Ok(rumqttc::Transport::tls_with_config(rumqttc::TlsConfiguration::SimpleNative { ca, client_auth: None }))
}

#[cfg(test)]
mod tests;
