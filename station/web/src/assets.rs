//! The pages, embedded in the binary: plain HTML, CSS and JavaScript, no build step.
//!
//! The console (`console.*`) is keyboard first: Alt+letter reaches a control, Enter acts; a
//! discrepancy's fix is read out step by step; a new game is confirmed in the page, never in a
//! browser dialog; a refusal is shown once, next to the control that sent it; a clock correction is
//! asked first with the side, the new time and the time now, added time in a field of its own, and
//! a take-back's clock proposal is the arbiter's to accept or not. At 1280×800 and wider the first
//! screen holds the players and the game's state in the header, the clocks and the record on the
//! left (a scoresheet when no board is sensed) and the sensed boards, or the game's position, large
//! on the right. The log is in the console's words, never a field name or a ply count; the result
//! is given with how it ended (Alt+F). It is screen-reader ready: boards as text, focusable scroll
//! regions, `lang` on German and Polish words, reflow at 320 px.
//!
//! The mirror (`mirror.*`) shows one instruction at a time during a discrepancy (the sighted
//! player's own correction steps, or "wait for the arbiter") with the last move kept in sight,
//! marks his own clock and names the players, writes the last move with its language's piece
//! letters, words its text board in its language, shows draw offers, the result and an adjournment,
//! and in a draughts game a 10×10 (or 8×8) board with its square numbers. `/player` (`player.*`) is
//! the visually impaired player's own read-only view, token-free like the mirror: a large board
//! from his side, the last move in words and SAN, both clocks; no animation, and it reflows at 400
//! % zoom.
//!
//! The mirror's and the player page's words (`TEXT` in their scripts, the text board's
//! `BOARD_WORDS` in `common.js`) exist for every built-in language, the chess words taken from its
//! phrasebook; `page_words_tests` holds them to `station_voices::BUILTIN_LANGUAGES`.

/// `/`: links to the console and the mirror.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// `/console`: the assistant's and arbiter's console.
pub const CONSOLE_HTML: &str = include_str!("assets/console.html");
/// `/mirror`: the sighted opponent's display.
pub const MIRROR_HTML: &str = include_str!("assets/mirror.html");
/// `/player`: the visually impaired player's own view (his tablet).
pub const PLAYER_HTML: &str = include_str!("assets/player.html");

/// `/assets/<name>`: (name, content type, body).
const FILES: &[(&str, &str, &str)] = &[
    ("common.css", "text/css; charset=utf-8", include_str!("assets/common.css")),
    ("console.css", "text/css; charset=utf-8", include_str!("assets/console.css")),
    ("mirror.css", "text/css; charset=utf-8", include_str!("assets/mirror.css")),
    ("common.js", "text/javascript; charset=utf-8", include_str!("assets/common.js")),
    ("console.js", "text/javascript; charset=utf-8", include_str!("assets/console.js")),
    ("mirror.js", "text/javascript; charset=utf-8", include_str!("assets/mirror.js")),
    ("player.css", "text/css; charset=utf-8", include_str!("assets/player.css")),
    ("player.js", "text/javascript; charset=utf-8", include_str!("assets/player.js")),
];

/// The content type and body of an asset.
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    FILES.iter().find(|(n, _, _)| *n == name).map(|(_, t, b)| (*t, *b))
}
