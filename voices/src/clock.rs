//! The talking clock of Annex D.2.6.1: remaining time and moves made, in words.
//!
//! How much is said depends on how much time is left, so the announcement
//! stays short when it matters and precise when time is short:
//!
//! | remaining           | said                                  |
//! |---------------------|---------------------------------------|
//! | 1 h or more         | hours and minutes (zero minutes left out) |
//! | 10 min to under 1 h | minutes                               |
//! | 1 min to under 10 min | minutes and seconds (zero seconds left out) |
//! | under 1 min         | seconds                               |
//!
//! Time is rounded down to whole seconds (and to whole minutes where
//! seconds are not said): the clock never claims more time than is left.
//!
//! The time used instead of the time left (D.2.10.4) is [`clock_report_used`]; the counts' grammar
//! is the `numbers` module's.

use crate::phrasebook::Phrasebook;

const SECOND_MS: u64 = 1_000;
const MINUTE_S: u64 = 60;
const HOUR_S: u64 = 3_600;
const TEN_MINUTES_S: u64 = 600;

/// Remaining time in words, e.g. "eine Stunde zwölf Minuten", "dwie minuty trzydzieści sekund".
pub fn say_duration(book: &Phrasebook, remaining_ms: u64) -> String {
    let mut out = String::new();
    write_duration(book, remaining_ms, &mut out);
    out
}

/// Moves made in words, e.g. "dreiundzwanzig Züge", "jedno posunięcie".
pub fn say_moves(book: &Phrasebook, moves: u32) -> String {
    let mut out = String::new();
    book.numbers.write_count(u64::from(moves), &book.clock.moves, &mut out);
    out
}

/// Both times and the number of moves made, as the clock says it:
/// "Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."
pub fn clock_report(book: &Phrasebook, own_ms: u64, opponent_ms: u64, moves: u32) -> String {
    let mut out = String::new();
    out.push_str(&book.clock.own);
    out.push_str(": ");
    write_duration(book, own_ms, &mut out);
    out.push_str(". ");
    out.push_str(&book.clock.opponent);
    out.push_str(": ");
    write_duration(book, opponent_ms, &mut out);
    out.push_str(". ");
    out.push_str(&capitalise_first(&say_moves(book, moves)));
    out.push('.');
    out
}

/// The time each side used and the number of moves made (D.2.10.4), headed
/// by the book's words for it so it never sounds like the time left:
/// "Verbrauchte Zeit. Sie: achtzehn Minuten. Gegner: …. Zweiundzwanzig Züge."
pub fn clock_report_used(book: &Phrasebook, own_ms: u64, opponent_ms: u64, moves: u32) -> String {
    format!("{}. {}", capitalise_first(&book.clock.used), clock_report(book, own_ms, opponent_ms, moves))
}

fn write_duration(book: &Phrasebook, remaining_ms: u64, out: &mut String) {
    let numbers = &book.numbers;
    let words = &book.clock;
    let total = remaining_ms / SECOND_MS;
    let (hours, minutes, seconds) = (total / HOUR_S, total % HOUR_S / MINUTE_S, total % MINUTE_S);
    let mut say = |n: u64, noun| {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        numbers.write_count(n, noun, out);
    };
    if hours > 0 {
        say(hours, &words.hour);
        if minutes > 0 {
            say(minutes, &words.minute);
        }
    } else if total >= TEN_MINUTES_S {
        say(minutes, &words.minute);
    } else if total >= MINUTE_S {
        say(minutes, &words.minute);
        if seconds > 0 {
            say(seconds, &words.second);
        }
    } else {
        say(seconds, &words.second);
    }
}

/// Sentence case for a phrase that starts a sentence ("Zweiundzwanzig Züge").
fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
