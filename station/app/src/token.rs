//! The operator token: what a console must show before it may change the game.

/// A fresh operator token: 128 bits from the operating system's random source
/// (`getrandom`). Without one the station does not start: a guessable token
/// would hand the game to anyone on the machine.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    if let Err(e) = getrandom::fill(&mut bytes) {
        eprintln!("station: no random source for the operator token ({e}); set [console] token");
        std::process::exit(1);
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
