//! The web server: operator console, mirror display, live PGN, state API, event stream (in progress).
