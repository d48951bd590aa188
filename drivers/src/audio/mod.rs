//! Audio output: voice packs, speech-dispatcher, text (in progress).
