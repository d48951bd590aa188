//! The tournament hall: stations publishing to a real Mosquitto and the hall
//! view reading it, over plain MQTT, with credentials and over TLS.

mod support;

mod bad_input;
mod browser;
pub(crate) mod run;
mod tls;
