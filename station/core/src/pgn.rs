//! PGN: export of a game record (Seven Tag Roster, then SetUp/FEN for games not
//! from the standard start; optionally the time control and `[%clk]` comments)
//! and import of real games from PGN text in memory.
//!
//! An export writes the Seven Tag Roster, `Board` when known, `Termination`, the draw-offer marks
//! `{(=)}` and the record's comments ([`Extra::comments`], from `GameRecord::comments`: claims and
//! clock corrections with who, why, how much and the time after), and the reason a game ended as a
//! comment before the result. [`TagOverrides`] are the tags a new game names over the configured
//! ones.

use crate::Millis;
use crate::clock::{TimeControl, format_clock};
use crate::game::Game;
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, Color, Move, Position, fen::Fen};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::ops::ControlFlow;

/// A game read from PGN: its tags, start, and the moves up to the first error.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// Every tag, by name.
    pub tags: BTreeMap<String, String>,
    /// The game record (start position and the moves).
    pub game: Game,
    /// `[%clk h:mm:ss]` after each move, in seconds, where the PGN has it.
    pub clocks: Vec<Option<u32>>,
    /// Why the movetext stopped early, if it did (an illegal or unreadable move).
    pub error: Option<String>,
}

impl PgnGame {
    /// The moves.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }
}

/// Reads every game of a PGN text. A game with a broken FEN is kept with no
/// moves and its error; a move that does not parse or is illegal ends that game's
/// movetext (the error says where) but not the file.
pub fn read_games(pgn: &[u8]) -> Vec<PgnGame> {
    let mut reader = Reader::new(pgn);
    let mut collector = Collector;
    let mut games = Vec::new();
    // Reading from memory cannot fail with an I/O error.
    while let Ok(Some(game)) = reader.read_game(&mut collector) {
        games.push(game);
    }
    games
}

struct Collector;

struct Movetext {
    game: PgnGame,
}

impl Visitor for Collector {
    type Tags = BTreeMap<String, String>;
    type Movetext = Movetext;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(BTreeMap::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.insert(String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let (game, error) = match tags.get("FEN") {
            None => (Game::default(), None),
            Some(fen) => match Game::from_fen(fen) {
                Ok(g) => (g, None),
                Err(e) => (Game::default(), Some(format!("FEN tag: {e}"))),
            },
        };
        ControlFlow::Continue(Movetext { game: PgnGame { tags, game, clocks: Vec::new(), error } })
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let game = &mut movetext.game;
        if game.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(game.game.position()) {
            Ok(mv) => {
                game.game.push(mv);
                game.clocks.push(None);
            }
            Err(e) => game.error = Some(format!("ply {}: {san_plus}: {e}", game.game.ply() + 1)),
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if let Some(secs) = clock_comment(comment.as_bytes())
            && let Some(last) = movetext.game.clocks.last_mut()
        {
            *last = Some(secs);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        movetext.game
    }
}

/// Seconds of a `[%clk h:mm:ss]` annotation inside a comment.
fn clock_comment(comment: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(comment).ok()?;
    let rest = &text[text.find("[%clk")? + 5..];
    let value = rest[..rest.find(']')?].trim();
    let mut parts = value.split(':').map(|p| p.split('.').next().unwrap_or("").parse::<u32>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    Some(h * 3600 + m * 60 + s)
}

/// A start position for a game of `chess` from a FEN, Chess960 castling understood.
pub fn position_from_fen(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>().ok()?.into_position(CastlingMode::Chess960).ok()
}

/// The Seven Tag Roster. Unknown values are `?` as the PGN standard asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SevenTags {
    /// Event name.
    pub event: String,
    /// Site.
    pub site: String,
    /// Date `YYYY.MM.DD`.
    pub date: String,
    /// Round.
    pub round: String,
    /// White player.
    pub white: String,
    /// Black player.
    pub black: String,
    /// The board number in a team or tournament hall (PGN `Board`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}

impl SevenTags {
    /// The six tags every game names besides its result, by their PGN (and
    /// PDN) names, in the order of the Seven Tag Roster.
    pub fn named(&self) -> [(&'static str, &str); 6] {
        [
            ("Event", &self.event),
            ("Site", &self.site),
            ("Date", &self.date),
            ("Round", &self.round),
            ("White", &self.white),
            ("Black", &self.black),
        ]
    }

    /// The tags with `other`'s given values over these (a `new_game` naming
    /// the players over the configured defaults). Values are kept on one line.
    pub fn overridden(&self, other: &TagOverrides) -> SevenTags {
        let pick = |mine: &String, theirs: &Option<String>| {
            theirs.as_deref().map(one_line).filter(|v| !v.is_empty()).unwrap_or_else(|| mine.clone())
        };
        SevenTags {
            event: pick(&self.event, &other.event),
            site: pick(&self.site, &other.site),
            date: self.date.clone(),
            round: pick(&self.round, &other.round),
            white: pick(&self.white, &other.white),
            black: pick(&self.black, &other.black),
            board: other
                .board
                .as_deref()
                .map(one_line)
                .filter(|v| !v.is_empty())
                .or_else(|| self.board.clone()),
        }
    }
}

/// Tags named for one game (the `new_game` command); what is absent keeps
/// the configured default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagOverrides {
    /// White player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// Black player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// Event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// Board number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}

impl TagOverrides {
    /// Nothing is named.
    pub fn is_empty(&self) -> bool {
        *self == TagOverrides::default()
    }
}

/// A tag value on one line: control characters (a newline that would start a
/// forged tag) become spaces.
fn one_line(v: &str) -> String {
    v.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_owned()
}

impl Default for SevenTags {
    fn default() -> Self {
        SevenTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            board: None,
        }
    }
}

/// Writes `game` as PGN with the given tags and result (`1-0`, `0-1`, `1/2-1/2`, `*`).
pub fn write_pgn(game: &Game, tags: &SevenTags, result: &str) -> String {
    write_movetext_pgn(game, tags, result, None, &[], &[])
}

/// Writes `game` as PGN like [`write_pgn`], with a `TimeControl` tag after the
/// Seven Tag Roster (if `time_control` is given) and a `{[%clk h:mm:ss]}`
/// comment after every move whose `clocks` entry (the mover's remaining time
/// after the move, by ply) is known. Clock times are rounded down to whole seconds.
/// A delay time control is written in the station's notation (see
/// [`time_control`](crate::clock::time_control)), which other PGN readers do not know.
pub fn write_pgn_with_clocks(
    game: &Game,
    tags: &SevenTags,
    result: &str,
    clocks: &[Option<Millis>],
    time_control: Option<&TimeControl>,
) -> String {
    write_movetext_pgn(game, tags, result, time_control, clocks, &[])
}

/// The draw-offer mark of Appendix E, written as a PGN comment after the move
/// it follows (`{(=)}`), so every PGN reader keeps it.
pub const DRAW_OFFER_MARK: &str = "(=)";

/// Writes `game` like [`write_pgn_with_clocks`] with the draw offers of Art.
/// 9.1(b): `{(=)}` after each ply in `draw_offers` (0: before the first move).
pub fn write_pgn_with_marks(
    game: &Game,
    tags: &SevenTags,
    result: &str,
    clocks: &[Option<Millis>],
    time_control: Option<&TimeControl>,
    draw_offers: &[usize],
) -> String {
    write_movetext_pgn(game, tags, result, time_control, clocks, draw_offers)
}

/// What a finished record adds to its PGN: the `Termination` tag and the
/// reason the game ended, as a comment before the result.
#[derive(Clone, Debug, Default)]
pub struct Extra<'a> {
    /// The `Termination` tag's value.
    pub termination: Option<&'a str>,
    /// Why the game ended, written as a comment before the result.
    pub result_comment: Option<&'a str>,
    /// Comments after a ply (0: before the first move), in order: claims and
    /// clock corrections (after the ply's clock and draw-offer mark).
    pub comments: &'a [(usize, String)],
}

/// Writes `game` like [`write_pgn_with_marks`], with the record's [`Extra`].
pub fn write_pgn_full(
    game: &Game,
    tags: &SevenTags,
    result: &str,
    clocks: &[Option<Millis>],
    time_control: Option<&TimeControl>,
    draw_offers: &[usize],
    extra: &Extra<'_>,
) -> String {
    write_pgn_inner(game, tags, result, time_control, clocks, draw_offers, extra)
}

fn write_movetext_pgn(
    game: &Game,
    tags: &SevenTags,
    result: &str,
    time_control: Option<&TimeControl>,
    clocks: &[Option<Millis>],
    draw_offers: &[usize],
) -> String {
    write_pgn_inner(game, tags, result, time_control, clocks, draw_offers, &Extra::default())
}

fn write_pgn_inner(
    game: &Game,
    tags: &SevenTags,
    result: &str,
    time_control: Option<&TimeControl>,
    clocks: &[Option<Millis>],
    draw_offers: &[usize],
    extra: &Extra<'_>,
) -> String {
    let mut out = String::new();
    for (name, value) in tags.named().into_iter().chain([("Result", result)]) {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    if let Some(board) = &tags.board {
        let _ = writeln!(out, "[Board \"{}\"]", escape(board));
    }
    if let Some(termination) = extra.termination {
        let _ = writeln!(out, "[Termination \"{}\"]", escape(termination));
    }
    if let Some(control) = time_control {
        let _ = writeln!(out, "[TimeControl \"{}\"]", escape(&control.to_string()));
    }
    let standard = *game.start() == shakmaty::Chess::default();
    if !standard {
        if game.castling_mode() == CastlingMode::Chess960 {
            let _ = writeln!(out, "[Variant \"Chess960\"]");
        }
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", game.start_fen());
    }
    out.push('\n');
    let start = game.start();
    let mut number = start.fullmoves().get();
    let mut turn = start.turn();
    let mut tokens: Vec<String> = Vec::with_capacity(game.ply() * 3 + 1);
    let mut after_comment = false;
    let comment = |text: &str| format!("{{{}}}", one_line(text).replace('}', ")"));
    let comments_after = |ply: usize| extra.comments.iter().filter(move |(after, _)| *after == ply);
    if draw_offers.contains(&0) {
        tokens.push(format!("{{{DRAW_OFFER_MARK}}}"));
        after_comment = true;
    }
    for (_, text) in comments_after(0) {
        tokens.push(comment(text));
        after_comment = true;
    }
    for (i, san) in game.sans().iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 || after_comment {
            // PGN export format: a Black move after a comment repeats its number.
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.to_string());
        after_comment = false;
        if let Some(Some(ms)) = clocks.get(i) {
            tokens.push(format!("{{[%clk {}]}}", format_clock(*ms)));
            after_comment = true;
        }
        if draw_offers.contains(&(i + 1)) {
            tokens.push(format!("{{{DRAW_OFFER_MARK}}}"));
            after_comment = true;
        }
        for (_, text) in comments_after(i + 1) {
            tokens.push(comment(text));
            after_comment = true;
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    if let Some(text) = extra.result_comment {
        // A brace would end the comment early: PGN comments cannot escape it.
        tokens.push(comment(text));
    }
    tokens.push(result.to_string());
    out.push_str(&wrap_movetext(tokens));
    out.push_str("\n\n");
    out
}

/// Movetext words joined by spaces in lines of at most 79 characters (the
/// PGN export format's habit, kept by PDN too); a word longer than a line
/// stands on a line of its own. The last line has no line end.
pub fn wrap_movetext(words: impl IntoIterator<Item = String>) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_seven_tag_roster_and_numbered_moves() {
        let mut g = Game::default();
        for m in ["e2e4", "e7e5", "g1f3"] {
            g.push_uci(m).unwrap();
        }
        let tags = SevenTags { white: "Anna \"A\"".into(), ..SevenTags::default() };
        let pgn = write_pgn(&g, &tags, "*");
        assert!(pgn.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"));
        assert!(
            pgn.contains("[White \"Anna \\\"A\\\"\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n")
        );
        assert!(!pgn.contains("FEN"));
    }

    #[test]
    fn a_game_from_a_position_starts_with_black_numbering_and_fen() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        g.push_uci("e8d8").unwrap();
        g.push_uci("e2e4").unwrap();
        let pgn = write_pgn(&g, &SevenTags::default(), "1/2-1/2");
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]"));
        assert!(pgn.contains("\n30... Kd8 31. e4 1/2-1/2\n"), "{pgn}");
    }

    #[test]
    fn reads_games_with_clock_comments_and_stops_at_an_illegal_move() {
        let pgn = b"[White \"A\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 1:02:03] } 2. Ke3 *\n\n[White \"B\"]\n\n1. d4 *\n";
        let games = read_games(pgn);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags["White"], "A");
        assert_eq!(games[0].moves().len(), 2);
        assert_eq!(games[0].clocks, [Some(180), Some(3723)]);
        assert!(games[0].error.as_deref().unwrap().starts_with("ply 3: Ke3"));
        assert_eq!(games[1].moves().len(), 1);
        assert!(games[1].error.is_none());
    }

    #[test]
    fn clocks_and_time_control_round_trip_through_the_reader() {
        let mut g = Game::default();
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] {
            g.push_uci(m).unwrap();
        }
        let control: TimeControl = "40/7200:20/3600:900+30".parse().unwrap();
        let clocks = [Some(7_199_999), Some(7_190_000), None, Some(3_723_000), Some(0)];
        let pgn = write_pgn_with_clocks(&g, &SevenTags::default(), "*", &clocks, Some(&control));
        assert!(pgn.contains("[Result \"*\"]\n[TimeControl \"40/7200:20/3600:900+30\"]\n\n"), "{pgn}");
        let movetext = pgn.replace('\n', " ");
        assert!(
            movetext.contains(
                "1. e4 {[%clk 1:59:59]} 1... e5 {[%clk 1:59:50]} 2. Nf3 Nc6 {[%clk 1:02:03]} 3. Bb5"
            )
        );
        assert!(pgn.lines().all(|l| l.len() < 80));
        let games = read_games(pgn.as_bytes());
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tags["TimeControl"], control.to_string());
        assert_eq!(games[0].moves(), g.moves());
        assert_eq!(games[0].clocks, [Some(7199), Some(7190), None, Some(3723), Some(0)]);
        assert!(games[0].error.is_none());
    }

    #[test]
    fn writing_with_no_clocks_is_plain_pgn() {
        let mut g = Game::default();
        g.push_uci("e2e4").unwrap();
        let plain = write_pgn(&g, &SevenTags::default(), "*");
        assert_eq!(write_pgn_with_clocks(&g, &SevenTags::default(), "*", &[], None), plain);
    }

    #[test]
    fn long_games_wrap_below_80_columns() {
        let mut g = Game::default();
        for _ in 0..10 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                g.push_uci(m).unwrap();
            }
        }
        let pgn = write_pgn(&g, &SevenTags::default(), "*");
        assert!(pgn.lines().all(|l| l.len() < 80));
    }

    #[test]
    fn art_9_1_b_draw_offers_are_marked_after_their_move_and_the_game_reads_back() {
        let mut g = Game::default();
        for m in ["e2e4", "e7e5", "g1f3"] {
            g.push_uci(m).unwrap();
        }
        let text = write_pgn_with_marks(&g, &SevenTags::default(), "1/2-1/2", &[], None, &[1, 2]);
        assert!(text.contains("1. e4 {(=)} 1... e5 {(=)} 2. Nf3 1/2-1/2"), "{text}");
        let back = read_games(text.as_bytes());
        assert_eq!(back[0].moves(), g.moves(), "the marks are comments every reader skips");
    }
}
