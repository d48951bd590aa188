#[path = "e2e/preround.rs"]
mod preround;
