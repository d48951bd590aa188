//! Temporary wrapper: the pre-round check e2e test until e2e.rs includes it.
#[path = "e2e/preround.rs"]
mod preround;
