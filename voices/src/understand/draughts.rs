//! Spoken draughts moves in a game (issue 17 §5): the recogniser's phrases
//! of a draughts position and a transcript read against its legal moves.
//!
//! The moves are the rules core's, handed over as [`DraughtsMoveText`] (this
//! crate knows no draughts rules); what was understood names them by index.
//! The words of a move are read by [`crate::draughts::understand_draughts`]
//! (start and end square, with or without the capture word, intermediate
//! squares optional); here come the command words a draughts game keeps, the
//! answer to a question with several choices ("eins", "zwei" …), the
//! recogniser's confidence and its "[unk]", exactly as for chess moves.
//!
//! The grammar holds each legal move's start and end, with and without the capture word, the
//! commands a draughts game keeps and the numbers of an open question's choices. A transcript
//! becomes a [`DraughtsUnderstood`]: a move, moves asked back, a choice by number or a command; the
//! question names the choices by number with their paths.

use super::lexicon::normalise;
use super::spoken::{self, Spoken};
use super::{AskReason, RejectReason, SpokenCommand, Understanding};
use crate::draughts::word_draughts_move;
use crate::draughts::{
    DraughtsHeard, DraughtsMoveText, DraughtsSquare, draughts_grammar, understand_draughts,
};

/// What a transcript means in a draughts position (moves by their index in
/// the legal moves given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraughtsUnderstood {
    /// Exactly one legal move, heard confidently.
    Move(usize),
    /// Ask back: these moves fit (several captures with the same start and
    /// end, or one heard unsurely).
    Ask {
        /// The moves that fit, by index.
        candidates: Vec<usize>,
        /// Why it asks.
        reason: AskReason,
    },
    /// The answer to a question with choices: the choice's number, 0-based.
    Choice(usize),
    /// A command a draughts game keeps (see [`draughts_command`]).
    Command(SpokenCommand),
    /// Not a move, not a command.
    Reject(RejectReason),
}

impl DraughtsUnderstood {
    /// One line for the `heard` event: `move 32-28`, `ask 28x19x… 28x…`,
    /// `choice 2` (1-based, as said), `command NAME` or `reject REASON`.
    pub fn line(&self, legal: &[DraughtsMoveText]) -> String {
        let pdn = |i: &usize| legal.get(*i).map_or_else(|| "?".to_owned(), pdn_of);
        match self {
            DraughtsUnderstood::Move(i) => format!("move {}", pdn(i)),
            DraughtsUnderstood::Ask { candidates, .. } => {
                let moves: Vec<String> = candidates.iter().map(pdn).collect();
                format!("ask {}", moves.join(" "))
            }
            DraughtsUnderstood::Choice(k) => format!("choice {}", k + 1),
            DraughtsUnderstood::Command(command) => format!("command {command}"),
            DraughtsUnderstood::Reject(reason) => format!("reject {reason}"),
        }
    }
}

/// A move's PDN as its words give it: `32-28`, `28x17x6`, on 8×8 `c3-d4`.
pub fn pdn_of(mv: &DraughtsMoveText) -> String {
    let name = |sq: DraughtsSquare| match sq {
        DraughtsSquare::Number(n) => n.to_string(),
        DraughtsSquare::Coordinates(file, rank) => format!("{}{}", file.char(), rank.char()),
    };
    let mut out = name(mv.from);
    if mv.capture {
        for sq in mv.via.iter().chain(std::iter::once(&mv.to)) {
            out.push('x');
            out.push_str(&name(*sq));
        }
    } else {
        out.push('-');
        out.push_str(&name(mv.to));
    }
    out
}

/// Whether a command means something in a draughts game: the clock, the last
/// move again, yes and no, a draw offer, resigning, the draw facts, and the
/// speech controls. The questions about chess pieces, squares, ranks, files,
/// material and the chess record do not.
pub fn draughts_command(command: &SpokenCommand) -> bool {
    matches!(
        command,
        SpokenCommand::Time
            | SpokenCommand::Repeat
            | SpokenCommand::Correction
            | SpokenCommand::Yes
            | SpokenCommand::No
            | SpokenCommand::DrawOffer
            | SpokenCommand::Resign
            | SpokenCommand::DrawStatus
            | SpokenCommand::Silence
            | SpokenCommand::Faster
            | SpokenCommand::Slower
            | SpokenCommand::ClockUsed
            | SpokenCommand::ClockRemaining
    )
}

/// The most choices a question names (more fit nothing said).
const MAX_CHOICES: usize = 9;

impl Understanding {
    /// The recogniser's phrases in a draughts position: each legal move's
    /// start and end, with and without the capture word, in the sentence
    /// language; the command words of a draughts game; while a question with
    /// `choices` choices is open, the choices' numbers ("eins" … ); "\[unk\]".
    pub fn draughts_grammar(&self, legal: &[DraughtsMoveText], choices: usize) -> super::Grammar {
        let book = self.wording.phrasebook();
        let mut phrases = draughts_grammar(book, legal);
        phrases.sort_unstable();
        phrases.dedup();
        for phrase in self.forms.draughts_commands() {
            if !phrases.contains(phrase) {
                phrases.push(phrase.clone());
            }
        }
        for k in 1..=choices.min(MAX_CHOICES) {
            let number = normalise(&book.numbers().spell(k as u64));
            if !phrases.contains(&number) {
                phrases.push(number);
            }
        }
        phrases.push("[unk]".to_owned());
        super::Grammar::from_phrases(phrases)
    }

    /// What `text` means in a draughts position with `legal` moves; `choices`
    /// is the number of choices of the question open (0: none), whose number
    /// said alone answers it. `confidence` as for [`Understanding::understand`]:
    /// a move heard unsurely is asked, a command heard unsurely refused.
    pub fn understand_draughts(
        &self,
        text: &str,
        confidence: Option<f32>,
        legal: &[DraughtsMoveText],
        choices: usize,
    ) -> DraughtsUnderstood {
        let normalised = normalise(text);
        let fillers: Vec<String> =
            self.wording.phrasebook().listening().fillers.iter().map(|f| normalise(f)).collect();
        let words: Vec<&str> = normalised.split(' ').filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return DraughtsUnderstood::Reject(RejectReason::Empty);
        }
        let unheard = words.contains(&"[unk]");
        // Commands are read with the fillers (the lexicon knows them: "repeat the move");
        // squares without ("äh zweiunddreißig …").
        let rest: Vec<&str> = words.iter().copied().filter(|w| *w != "[unk]").collect();
        let said = rest.join(" ");
        let squares: Vec<&str> = rest.iter().copied().filter(|w| !fillers.iter().any(|f| f == w)).collect();
        if squares.is_empty() {
            return if rest.is_empty() {
                DraughtsUnderstood::Reject(RejectReason::NotUnderstood)
            } else {
                self.draughts_command_of(&said, unheard, None, RejectReason::Empty)
            };
        }
        let squares = self.without_king_word(&squares.join(" "));
        let unsure = confidence.filter(|c| c.is_nan() || *c < self.min_confidence);
        let unsure_command = confidence.filter(|c| c.is_nan() || *c < self.command_confidence);
        if choices > 0
            && let Some(k) = self.choice_number(&squares, choices.min(MAX_CHOICES))
            && !unheard
        {
            return match unsure_command {
                Some(c) => DraughtsUnderstood::Reject(RejectReason::LowConfidence(c)),
                None => DraughtsUnderstood::Choice(k),
            };
        }
        if legal.is_empty() {
            // No move to name; a command may still be meant.
            return self.draughts_command_of(&said, unheard, unsure_command, RejectReason::NoMoves);
        }
        let heard = match self.with_path_said(&squares, legal) {
            Some(heard) => heard,
            None => understand_draughts(self.wording.phrasebook(), &squares, legal),
        };
        match heard {
            // Something outside the grammar was heard as well: asked, never made.
            DraughtsHeard::Move(i) if unheard => DraughtsUnderstood::Ask {
                candidates: vec![i],
                reason: AskReason::Repaired(format!("heard \"{normalised}\"; the rest names a move")),
            },
            DraughtsHeard::Move(i) => match unsure {
                Some(c) => {
                    DraughtsUnderstood::Ask { candidates: vec![i], reason: AskReason::LowConfidence(c) }
                }
                None => DraughtsUnderstood::Move(i),
            },
            DraughtsHeard::Ask(candidates) => {
                DraughtsUnderstood::Ask { candidates, reason: AskReason::Ambiguous }
            }
            DraughtsHeard::Reject => self.draughts_command_of(
                &said,
                unheard,
                unsure_command,
                RejectReason::NoSuchMove(format!("no legal draughts move fits \"{said}\"")),
            ),
        }
    }

    /// `said` without the new king's word after the move ("siedem jeden damka"):
    /// the rules core knows whether the move makes a king.
    fn without_king_word(&self, said: &str) -> String {
        let Some(words) = self.wording.phrasebook().draughts() else { return said.to_owned() };
        for king in words.king.accepted().map(normalise) {
            if let Some(rest) = said.strip_suffix(king.as_str()).and_then(|r| r.strip_suffix(' ')) {
                return rest.to_owned();
            }
        }
        said.to_owned()
    }

    /// A move said the way the station says its path on request ("dwadzieścia
    /// osiem bije sześć przez siedemnaście"): the moves whose words with the
    /// path are exactly these; `None` when no path word was said.
    fn with_path_said(&self, said: &str, legal: &[DraughtsMoveText]) -> Option<DraughtsHeard> {
        let book = self.wording.phrasebook();
        let words = book.draughts()?;
        let padded = format!(" {said} ");
        if !words.via.accepted().map(normalise).any(|via| padded.contains(&format!(" {via} "))) {
            return None;
        }
        let fits: Vec<usize> = legal
            .iter()
            .enumerate()
            .filter(|(_, mv)| {
                let plain = DraughtsMoveText { king: false, ..(*mv).clone() };
                word_draughts_move(book, &plain, true).is_ok_and(|w| normalise(&w) == said)
            })
            .map(|(i, _)| i)
            .collect();
        Some(match fits.as_slice() {
            [] => DraughtsHeard::Reject,
            [one] => DraughtsHeard::Move(*one),
            _ => DraughtsHeard::Ask(fits),
        })
    }

    /// The command `said` names, if a draughts game keeps it; else `otherwise`.
    fn draughts_command_of(
        &self,
        said: &str,
        unheard: bool,
        unsure: Option<f32>,
        otherwise: RejectReason,
    ) -> DraughtsUnderstood {
        let Ok(meanings) = self.lexicon.read(said) else { return DraughtsUnderstood::Reject(otherwise) };
        match spoken::read(&meanings) {
            Ok(Spoken::Command(command)) if !unheard && draughts_command(&command) => match unsure {
                Some(c) => DraughtsUnderstood::Reject(RejectReason::LowConfidence(c)),
                None => DraughtsUnderstood::Command(command),
            },
            Ok(Spoken::Command(command)) if !unheard => DraughtsUnderstood::Reject(RejectReason::Malformed(
                format!("`{}` is not available in a draughts game", command.name()),
            )),
            Ok(Spoken::Command(_)) => DraughtsUnderstood::Reject(RejectReason::NotUnderstood),
            _ => DraughtsUnderstood::Reject(otherwise),
        }
    }

    /// The choice `said` names: its number alone, in words or digits (1-based said, 0-based out).
    fn choice_number(&self, said: &str, choices: usize) -> Option<usize> {
        let numbers = self.wording.phrasebook().numbers();
        (1..=choices)
            .find(|&k| said == k.to_string() || said == normalise(&numbers.spell(k as u64)))
            .map(|k| k - 1)
    }

    /// The question that confirms draughts moves: one move as it is said
    /// ("achtundzwanzig schlägt neunzehn?"); several, each with its number and
    /// its intermediate squares, joined by the language's "or" ("eins —
    /// achtundzwanzig schlägt neunzehn über elf zwei oder zwei — …?"), so that
    /// the number alone answers it. Indices beyond `legal` are left out.
    pub fn draughts_question(&self, legal: &[DraughtsMoveText], candidates: &[usize]) -> String {
        let book = self.wording.phrasebook();
        let several = candidates.len() > 1;
        let mut out = String::new();
        for (k, mv) in candidates.iter().filter_map(|&i| legal.get(i)).enumerate() {
            let Ok(said) = word_draughts_move(book, mv, several) else { continue };
            if !out.is_empty() {
                out.push(' ');
                out.push_str(&self.or);
                out.push(' ');
            }
            if several {
                out.push_str(&book.numbers().spell(k as u64 + 1));
                out.push_str(" — ");
            }
            out.push_str(&said);
        }
        if !out.is_empty() {
            out.push('?');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8, via: &[u8], capture: bool) -> DraughtsMoveText {
        DraughtsMoveText {
            from: DraughtsSquare::Number(from),
            to: DraughtsSquare::Number(to),
            via: via.iter().map(|&n| DraughtsSquare::Number(n)).collect(),
            capture,
            king: false,
        }
    }

    /// White's opening moves of international draughts (31–35 forward).
    fn opening() -> Vec<DraughtsMoveText> {
        vec![
            mv(31, 26, &[], false),
            mv(31, 27, &[], false),
            mv(32, 27, &[], false),
            mv(32, 28, &[], false),
            mv(33, 28, &[], false),
            mv(33, 29, &[], false),
            mv(34, 29, &[], false),
            mv(34, 30, &[], false),
            mv(35, 30, &[], false),
        ]
    }

    /// Two maximal captures from 28 to 19 over different men (4.13), and a third capture elsewhere.
    fn pair() -> Vec<DraughtsMoveText> {
        vec![mv(28, 19, &[17, 8], true), mv(28, 19, &[39, 30], true), mv(27, 18, &[], true)]
    }

    fn u(lang: &str) -> Understanding {
        Understanding::language(lang).unwrap()
    }

    #[test]
    fn spoken_quiet_moves_in_three_languages() {
        let legal = opening();
        let heard = |lang: &str, text: &str| u(lang).understand_draughts(text, Some(1.0), &legal, 0);
        assert_eq!(heard("pl", "trzydzieści dwa dwadzieścia osiem"), DraughtsUnderstood::Move(3));
        assert_eq!(heard("de", "zweiunddreißig achtundzwanzig"), DraughtsUnderstood::Move(3));
        assert_eq!(heard("en", "thirty two twenty eight"), DraughtsUnderstood::Move(3));
        assert_eq!(heard("de", "äh dreiunddreißig neunundzwanzig"), DraughtsUnderstood::Move(5));
        // Typed with digits as a transcript never is, but the station's console may send it.
        assert_eq!(heard("en", "thirty-four thirty"), DraughtsUnderstood::Move(7));
        // A move that is not legal here, and the capture word with a quiet move.
        assert!(matches!(heard("pl", "trzydzieści dwa dwadzieścia sześć"), DraughtsUnderstood::Reject(_)));
        assert!(matches!(
            heard("de", "zweiunddreißig schlägt achtundzwanzig"),
            DraughtsUnderstood::Reject(RejectReason::NoSuchMove(_))
        ));
        assert_eq!(DraughtsUnderstood::Move(3).line(&legal), "move 32-28");
    }

    #[test]
    fn a_capture_with_or_without_the_word_and_the_pair_with_the_same_squares_asked_back() {
        let legal = pair();
        for (lang, single, both) in [
            ("pl", "dwadzieścia siedem bije osiemnaście", "dwadzieścia osiem bije dziewiętnaście"),
            ("de", "siebenundzwanzig schlägt achtzehn", "achtundzwanzig schlägt neunzehn"),
            ("en", "twenty seven takes eighteen", "twenty eight takes nineteen"),
        ] {
            let un = u(lang);
            assert_eq!(
                un.understand_draughts(single, Some(1.0), &legal, 0),
                DraughtsUnderstood::Move(2),
                "{lang}"
            );
            let without: String = single
                .split(' ')
                .filter(|w| !["bije", "schlägt", "takes"].contains(w))
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(
                un.understand_draughts(&without, Some(1.0), &legal, 0),
                DraughtsUnderstood::Move(2),
                "{lang}"
            );
            let asked = un.understand_draughts(both, Some(1.0), &legal, 0);
            assert_eq!(
                asked,
                DraughtsUnderstood::Ask { candidates: vec![0, 1], reason: AskReason::Ambiguous },
                "{lang}"
            );
            assert_eq!(asked.line(&legal), "ask 28x17x8x19 28x39x30x19");
            // The question names each choice by number with its path; the number answers it.
            let question = un.draughts_question(&legal, &[0, 1]);
            let book = un.wording().phrasebook();
            let one = book.numbers().spell(1);
            let two = book.numbers().spell(2);
            assert!(question.starts_with(&format!("{one} — ")), "{question}");
            assert!(question.contains(&format!(" {two} — ")), "{question}");
            assert!(question.contains(&book.numbers().spell(39)), "{question}");
            assert!(question.ends_with('?'));
            assert_eq!(
                un.understand_draughts(&two, Some(1.0), &legal, 2),
                DraughtsUnderstood::Choice(1),
                "{lang}"
            );
            assert_eq!(un.understand_draughts("1", None, &legal, 2), DraughtsUnderstood::Choice(0));
            // Without the question open a lone number is no move.
            assert!(matches!(
                un.understand_draughts(&two, Some(1.0), &legal, 0),
                DraughtsUnderstood::Reject(_)
            ));
            // The choices' numbers are in the grammar only while asked.
            assert!(un.draughts_grammar(&legal, 2).contains(&two));
            assert!(!un.draughts_grammar(&legal, 0).contains(&two));
        }
        // The path said as the station says it on request, the new king's word after a move.
        let pl = u("pl");
        assert_eq!(
            pl.understand_draughts(
                "dwadzieścia osiem bije dziewiętnaście przez trzydzieści dziewięć trzydzieści",
                Some(1.0),
                &legal,
                0
            ),
            DraughtsUnderstood::Move(1)
        );
        assert_eq!(
            pl.understand_draughts("dwadzieścia siedem bije osiemnaście damka", Some(1.0), &legal, 0),
            DraughtsUnderstood::Move(2)
        );
        assert!(matches!(
            pl.understand_draughts("dwadzieścia osiem bije dziewiętnaście przez dwa", Some(1.0), &legal, 0),
            DraughtsUnderstood::Reject(_)
        ));
        // An intermediate square said picks one.
        let en = u("en");
        assert_eq!(
            en.understand_draughts("twenty eight takes eight takes nineteen", Some(1.0), &legal, 0),
            DraughtsUnderstood::Move(0)
        );
    }

    #[test]
    fn unsure_moves_are_asked_unsure_commands_refused_and_unk_never_makes_a_move() {
        let legal = opening();
        let de = u("de");
        let hear = |text: &str, confidence: f32| de.understand_draughts(text, Some(confidence), &legal, 0);
        let asked = hear("zweiunddreißig achtundzwanzig", 0.5);
        assert!(
            matches!(asked, DraughtsUnderstood::Ask { ref candidates, reason: AskReason::LowConfidence(_) } if candidates == &[3])
        );
        assert_eq!(de.draughts_question(&legal, &[3]), "zweiunddreißig — achtundzwanzig?");
        assert!(matches!(
            hear("[unk] zweiunddreißig achtundzwanzig", 1.0),
            DraughtsUnderstood::Ask { reason: AskReason::Repaired(_), .. }
        ));
        assert_eq!(hear("[unk]", 1.0), DraughtsUnderstood::Reject(RejectReason::NotUnderstood));
        assert_eq!(hear("", 1.0), DraughtsUnderstood::Reject(RejectReason::Empty));
        assert_eq!(hear("Zeit", 1.0), DraughtsUnderstood::Command(SpokenCommand::Time));
        assert!(matches!(hear("Zeit", 0.3), DraughtsUnderstood::Reject(RejectReason::LowConfidence(_))));
        assert_eq!(hear("ja", 1.0), DraughtsUnderstood::Command(SpokenCommand::Yes));
        // A chess question is not one in draughts.
        assert!(matches!(hear("Material", 1.0), DraughtsUnderstood::Reject(RejectReason::Malformed(_))));
        // Hostile text: nothing fits, nothing panics.
        let long = "achtundzwanzig ".repeat(300);
        assert!(matches!(hear(&long, 1.0), DraughtsUnderstood::Reject(_)));
        assert!(matches!(de.understand_draughts("zwei", Some(1.0), &[], 0), DraughtsUnderstood::Reject(_)));
    }

    #[test]
    fn the_grammar_holds_the_moves_and_the_draughts_commands_only() {
        let legal = pair();
        for lang in crate::BUILTIN_LANGUAGES {
            let un = u(lang);
            let g = un.draughts_grammar(&legal, 0);
            let book = un.wording().phrasebook();
            let capture = book.draughts().unwrap().capture.say().to_lowercase();
            let n = |k: u64| normalise(&book.numbers().spell(k));
            assert!(g.contains(&format!("{} {}", n(28), n(19))), "{lang}");
            assert!(g.contains(&format!("{} {capture} {}", n(28), n(19))), "{lang}");
            assert!(g.contains(&format!("{} {}", n(27), n(18))), "{lang}");
            assert!(!g.contains(&format!("{} {}", n(32), n(28))), "{lang}");
            let yes =
                book.command_words().unwrap().entry(crate::command_words::CommandWord::Yes).unwrap().say();
            assert!(g.contains(yes), "{lang}");
            let material = book
                .command_words()
                .unwrap()
                .entry(crate::command_words::CommandWord::Material)
                .unwrap()
                .say();
            assert!(!g.contains(material), "{lang}");
            assert_eq!(g.phrases().last().map(String::as_str), Some("[unk]"));
            // Every phrase of the grammar is understood (moves, commands), none rejected.
            for phrase in g.phrases().iter().filter(|p| *p != "[unk]") {
                let heard = un.understand_draughts(phrase, Some(1.0), &legal, 0);
                assert!(!matches!(heard, DraughtsUnderstood::Reject(_)), "{lang} {phrase}: {heard:?}");
            }
        }
    }
}
