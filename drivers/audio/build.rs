//! Links libvosk from the project's own .deps folder (see build-support/vosk_link.rs).
include!("../../build-support/vosk_link.rs");

fn main() {
    link_vosk();
}
