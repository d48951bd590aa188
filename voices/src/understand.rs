//! Understanding spoken moves and commands (in progress).
