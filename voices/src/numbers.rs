//! Numbers in words with the grammar a count needs (agreement and plural forms).
//!
//! The rules are generic and driven by phrasebook data so that a new language
//! of the same shape needs only a file: `small` words for 0–19, `tens` for
//! 20–90, `hundreds` for 100–900, a `compound` template for 21–99 and a few
//! overrides for agreement with the counted noun's gender. Words no rule
//! makes are listed whole (`exact`: Spanish "veintidós", French
//! "soixante et onze", Italian "ventotto"), and an exact hundred may differ
//! from the hundred before a rest (`hundreds_alone`: "cien" / "ciento uno").

use std::collections::BTreeMap;

use serde::Deserialize;

/// Grammatical gender of a counted noun; some languages change the number word
/// to agree with it ("eine Minute", "jedna minuta", "dwie minuty").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gender {
    /// e.g. German "Zug".
    Masculine,
    /// e.g. German "Minute", Polish "minuta".
    Feminine,
    /// e.g. Polish "posunięcie"; also the choice for languages without gender.
    Neuter,
}

/// How a language picks the noun form after a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum PluralRule {
    /// 1 takes `one`, everything else `other` (German, English).
    #[serde(rename = "one-other")]
    OneOther,
    /// 1 takes `one`; numbers ending in 2–4 but not 12–14 take `few`;
    /// everything else `other` (Polish and other West Slavic languages).
    #[serde(rename = "slavic")]
    Slavic,
}

/// Which noun form a count takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluralForm {
    /// Exactly one.
    One,
    /// The Slavic paucal (2–4, 22–24, …).
    Few,
    /// Everything else.
    Other,
}

impl PluralRule {
    /// The noun form that follows the number `n`.
    pub fn form(self, n: u64) -> PluralForm {
        match self {
            _ if n == 1 => PluralForm::One,
            PluralRule::OneOther => PluralForm::Other,
            PluralRule::Slavic => {
                let last = n % 10;
                let last_two = n % 100;
                if (2..=4).contains(&last) && !(12..=14).contains(&last_two) {
                    PluralForm::Few
                } else {
                    PluralForm::Other
                }
            }
        }
    }
}

/// A counted noun ("Minute"/"Minuten", "minuta"/"minuty"/"minut").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountedNoun {
    /// The gender the number word agrees with.
    pub gender: Gender,
    /// After exactly one.
    pub one: String,
    /// The paucal; languages without one leave it out and `other` is used.
    pub few: Option<String>,
    /// Everything else.
    pub other: String,
}

impl CountedNoun {
    /// The noun form for this plural form.
    pub fn form(&self, form: PluralForm) -> &str {
        match form {
            PluralForm::One => &self.one,
            PluralForm::Few => self.few.as_deref().unwrap_or(&self.other),
            PluralForm::Other => &self.other,
        }
    }
}

/// Number words that change with the counted noun's gender.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Replaces the whole number when it is exactly this digit ("eine", "jedna").
    pub alone: [Option<String>; 10],
    /// Replaces the last digit's word wherever it stands ("dwadzieścia dwie").
    pub unit: [Option<String>; 10],
    /// Replaces the word of the last two digits (0–99) wherever they stand,
    /// before [`NumberWords::exact`] ("veintiún minutos", "vingt et une minutes").
    pub exact: BTreeMap<u8, String>,
    /// Replaces the hundreds' word, by digit 1–9 ("doscientas jugadas").
    pub hundreds: [Option<String>; 10],
}

/// Everything needed to say 0–999 in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberWords {
    /// How nouns after a number are chosen.
    pub plural: PluralRule,
    /// 0–19.
    pub small: [String; 20],
    /// 20, 30, …, 90.
    pub tens: [String; 8],
    /// 100, 200, …, 900.
    pub hundreds: [String; 9],
    /// Put between a hundred and the rest ("" in German, " " elsewhere).
    pub hundred_join: String,
    /// Template for 21–99 with `{ten}` and `{unit}` placeholders.
    pub compound: String,
    /// The unit word used inside a compound when it differs ("ein" in "einundzwanzig").
    pub compound_unit: [Option<String>; 10],
    /// Whole words for 0–99 that the template does not make ("veintidós",
    /// "soixante et onze", "ventotto"), used wherever the last two digits stand.
    pub exact: BTreeMap<u8, String>,
    /// The word of an exact hundred when it differs from the one before a
    /// rest, by digit 1–9 ("cien" / "ciento uno", "deux cents" / "deux cent un").
    pub hundreds_alone: [Option<String>; 10],
    /// Overrides per gender, indexed by [`gender_index`].
    pub genders: [Agreement; 3],
}

/// Position of a gender in [`NumberWords::genders`].
pub fn gender_index(gender: Gender) -> usize {
    match gender {
        Gender::Masculine => 0,
        Gender::Feminine => 1,
        Gender::Neuter => 2,
    }
}

impl NumberWords {
    /// Writes `n` in words, agreeing with `gender` if given. Numbers above 999
    /// are written in digits: no clock or move count in a game reaches them,
    /// and digits are still better than silence.
    pub fn write(&self, n: u64, gender: Option<Gender>, out: &mut String) {
        if n > 999 {
            out.push_str(&n.to_string());
            return;
        }
        let agreement = gender.map(|g| &self.genders[gender_index(g)]);
        if let Some(word) = agreement.and_then(|a| digit_override(&a.alone, n)) {
            out.push_str(word);
            return;
        }
        let hundreds = n / 100;
        let rest = n % 100;
        if hundreds > 0 {
            let alone = || (rest == 0).then(|| digit_override(&self.hundreds_alone, hundreds)).flatten();
            let word = agreement
                .and_then(|a| digit_override(&a.hundreds, hundreds))
                .or_else(alone)
                .unwrap_or(&self.hundreds[hundreds as usize - 1]);
            out.push_str(word);
            if rest == 0 {
                return;
            }
            out.push_str(&self.hundred_join);
        }
        let key = rest as u8;
        if let Some(word) = agreement.and_then(|a| a.exact.get(&key)).or_else(|| self.exact.get(&key)) {
            out.push_str(word);
            return;
        }
        let unit_word = |digit: u64, in_compound: bool| -> &str {
            agreement
                .and_then(|a| digit_override(&a.unit, digit))
                .or_else(|| in_compound.then(|| digit_override(&self.compound_unit, digit)).flatten())
                .unwrap_or(&self.small[digit as usize])
        };
        if rest < 10 {
            out.push_str(unit_word(rest, false));
        } else if rest < 20 {
            out.push_str(&self.small[rest as usize]);
        } else {
            let ten = &self.tens[(rest / 10 - 2) as usize];
            let digit = rest % 10;
            if digit == 0 {
                out.push_str(ten);
            } else {
                let unit = unit_word(digit, true);
                out.push_str(&self.compound.replace("{ten}", ten).replace("{unit}", unit));
            }
        }
    }

    /// `n` in words followed by the right form of `noun` ("zwei Stunden").
    /// A number word ending in an apostrophe is elided onto the noun
    /// (Italian "un'ora").
    pub fn write_count(&self, n: u64, noun: &CountedNoun, out: &mut String) {
        self.write(n, Some(noun.gender), out);
        if !out.ends_with(['\'', '\u{2019}']) {
            out.push(' ');
        }
        out.push_str(noun.form(self.plural.form(n)));
    }

    /// `n` in words as a new string (counting form, no agreement).
    pub fn spell(&self, n: u64) -> String {
        let mut out = String::new();
        self.write(n, None, &mut out);
        out
    }
}

fn digit_override(table: &[Option<String>; 10], n: u64) -> Option<&str> {
    table.get(usize::try_from(n).ok()?)?.as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &str) -> Vec<String> {
        list.split(',').map(str::to_owned).collect()
    }

    /// Spanish-shaped numbers: one-word twenties, "cien" alone, the
    /// masculine "un" and the feminine hundreds.
    fn spanish() -> NumberWords {
        let mut genders: [Agreement; 3] = Default::default();
        genders[0].alone[1] = Some("un".into());
        genders[0].unit[1] = Some("un".into());
        genders[0].exact.insert(21, "veintiún".into());
        genders[1].alone[1] = Some("una".into());
        genders[1].unit[1] = Some("una".into());
        genders[1].exact.insert(21, "veintiuna".into());
        genders[1].hundreds[2] = Some("doscientas".into());
        let mut hundreds_alone: [Option<String>; 10] = Default::default();
        hundreds_alone[1] = Some("cien".into());
        NumberWords {
            plural: PluralRule::OneOther,
            small: words("cero,uno,dos,tres,cuatro,cinco,seis,siete,ocho,nueve,diez,once,doce,trece,catorce,quince,dieciséis,diecisiete,dieciocho,diecinueve").try_into().unwrap(),
            tens: words("veinte,treinta,cuarenta,cincuenta,sesenta,setenta,ochenta,noventa").try_into().unwrap(),
            hundreds: words("ciento,doscientos,trescientos,cuatrocientos,quinientos,seiscientos,setecientos,ochocientos,novecientos").try_into().unwrap(),
            hundred_join: " ".into(),
            compound: "{ten} y {unit}".into(),
            compound_unit: Default::default(),
            exact: [(21, "veintiuno"), (22, "veintidós"), (26, "veintiséis")]
                .into_iter()
                .map(|(n, w)| (n, w.to_owned()))
                .collect(),
            hundreds_alone,
            genders,
        }
    }

    fn say(numbers: &NumberWords, n: u64, gender: Option<Gender>) -> String {
        let mut out = String::new();
        numbers.write(n, gender, &mut out);
        out
    }

    #[test]
    fn exact_words_stand_wherever_the_last_two_digits_do() {
        let es = spanish();
        assert_eq!(say(&es, 21, None), "veintiuno");
        assert_eq!(say(&es, 22, None), "veintidós");
        assert_eq!(say(&es, 126, None), "ciento veintiséis");
        assert_eq!(say(&es, 31, None), "treinta y uno");
        assert_eq!(say(&es, 21, Some(Gender::Masculine)), "veintiún");
        assert_eq!(say(&es, 121, Some(Gender::Feminine)), "ciento veintiuna");
        assert_eq!(say(&es, 31, Some(Gender::Masculine)), "treinta y un");
        assert_eq!(say(&es, 22, Some(Gender::Feminine)), "veintidós");
    }

    #[test]
    fn an_exact_hundred_may_have_its_own_word() {
        let es = spanish();
        assert_eq!(say(&es, 100, None), "cien");
        assert_eq!(say(&es, 101, None), "ciento uno");
        assert_eq!(say(&es, 100, Some(Gender::Feminine)), "cien");
        assert_eq!(say(&es, 200, Some(Gender::Feminine)), "doscientas");
        assert_eq!(say(&es, 201, Some(Gender::Feminine)), "doscientas una");
        assert_eq!(say(&es, 200, Some(Gender::Masculine)), "doscientos");
    }

    #[test]
    fn an_elided_number_joins_its_noun() {
        let mut it = spanish();
        it.genders[2].alone[1] = Some("un'".into());
        let hour = CountedNoun { gender: Gender::Neuter, one: "ora".into(), few: None, other: "ore".into() };
        let mut out = String::new();
        it.write_count(1, &hour, &mut out);
        assert_eq!(out, "un'ora");
        out.clear();
        it.write_count(2, &hour, &mut out);
        assert_eq!(out, "dos ore");
    }
}
