//! The pages, embedded in the binary: plain HTML, CSS and JavaScript, no build step.

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
