//! Numbers in words with the grammar a count needs (agreement and plural forms).
//!
//! The rules are generic and driven by phrasebook data so that a new language
//! of the same shape needs only a file: `small` words for 0–19, `tens` for
//! 20–90, `hundreds` for 100–900, a `compound` template for 21–99 and a few
//! overrides for agreement with the counted noun's gender. Words no rule
//! makes are listed whole (`exact`: Spanish "veintidós", French
//! "soixante et onze", Italian "ventotto"), and an exact hundred may differ
//! from the hundred before a rest (`hundreds_alone`: "cien" / "ciento uno").
//!
//! The noun's form after a number follows a plural rule the phrasebook names (`one-other`,
//! `slavic`, `east-slavic`, `czech`, `singular`); number words agree with the noun's gender, and
//! tens may be said otherwise inside compounds (Hungarian "húsz" but "huszon-").

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
    /// Numbers ending in 1 but not 11 take `one` ("двадцать одна минута");
    /// ending in 2–4 but not 12–14 `few`; everything else `other`
    /// (Russian, Ukrainian, Belarusian).
    #[serde(rename = "east-slavic")]
    EastSlavic,
    /// 1 takes `one`, 2–4 `few`, everything else `other`, compounds too:
    /// said tens first, "dvacet jedna minut", "dvacet dva minut" (Czech,
    /// Slovak; the counted noun after an uninflected compound is genitive
    /// plural).
    #[serde(rename = "czech")]
    Czech,
    /// The noun stays singular after every number: `one` always
    /// ("két perc", "húsz perc": Hungarian, Turkish, Finnish after a numeral).
    #[serde(rename = "singular")]
    Singular,
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
        let (last, last_two) = (n % 10, n % 100);
        let few_ending = (2..=4).contains(&last) && !(12..=14).contains(&last_two);
        match self {
            PluralRule::Singular => PluralForm::One,
            PluralRule::EastSlavic if last == 1 && last_two != 11 => PluralForm::One,
            PluralRule::EastSlavic if few_ending => PluralForm::Few,
            PluralRule::EastSlavic => PluralForm::Other,
            _ if n == 1 => PluralForm::One,
            PluralRule::OneOther => PluralForm::Other,
            PluralRule::Slavic if few_ending => PluralForm::Few,
            PluralRule::Czech if (2..=4).contains(&n) => PluralForm::Few,
            PluralRule::Slavic | PluralRule::Czech => PluralForm::Other,
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
    /// The tens word used inside a compound when it differs, by tens digit
    /// (Hungarian 2 → "huszon": "húsz" but "huszonegy"). With 1 ("tizen"),
    /// a teen whose last digit a gender's `unit` changes is made the same
    /// way ("tizenkét perc"); otherwise the teens are `small`'s.
    pub compound_ten: [Option<String>; 10],
    /// Overrides per gender, indexed by `gender_index`.
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
        let digit = rest % 10;
        let agreeing_teen = (11..20).contains(&rest)
            && agreement.is_some_and(|a| digit_override(&a.unit, digit).is_some())
            && digit_override(&self.compound_ten, 1).is_some();
        if rest < 10 {
            out.push_str(unit_word(rest, false));
        } else if rest < 20 && !agreeing_teen {
            out.push_str(&self.small[rest as usize]);
        } else {
            let tens_digit = rest / 10;
            let plain_ten = || self.tens.get((tens_digit as usize).wrapping_sub(2)).map(String::as_str);
            if digit == 0 {
                out.push_str(plain_ten().unwrap_or_default());
            } else {
                let ten =
                    digit_override(&self.compound_ten, tens_digit).or_else(plain_ten).unwrap_or_default();
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
            compound_ten: Default::default(),
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

    fn forms(rule: PluralRule, numbers: &[u64]) -> Vec<PluralForm> {
        numbers.iter().map(|n| rule.form(*n)).collect()
    }

    #[test]
    fn east_slavic_counts_twenty_one_as_one() {
        use PluralForm::*;
        let numbers = [0, 1, 2, 4, 5, 11, 12, 14, 15, 21, 22, 24, 25, 101, 111, 112, 122];
        let want = [
            Other, One, Few, Few, Other, Other, Other, Other, Other, One, Few, Few, Other, One, Other, Other,
            Few,
        ];
        assert_eq!(forms(PluralRule::EastSlavic, &numbers), want);
        // Polish keeps 21 for `other`, the difference the two rules exist for.
        assert_eq!(PluralRule::Slavic.form(21), Other);
        assert_eq!(PluralRule::Slavic.form(22), Few);
    }

    #[test]
    fn czech_has_few_for_two_to_four_only() {
        use PluralForm::*;
        let numbers = [0, 1, 2, 3, 4, 5, 11, 21, 22, 24, 31, 102];
        let want = [Other, One, Few, Few, Few, Other, Other, Other, Other, Other, Other, Other];
        assert_eq!(forms(PluralRule::Czech, &numbers), want);
    }

    #[test]
    fn singular_after_every_number() {
        assert!(forms(PluralRule::Singular, &[0, 1, 2, 5, 21, 100]).iter().all(|f| *f == PluralForm::One));
    }

    fn spaced(list: &str) -> Vec<String> {
        list.split(' ').map(str::to_owned).collect()
    }

    /// Hungarian's shape: "húsz" alone but "huszon-" in compounds, the
    /// attributive "két" before a noun and "kettő" when counting.
    fn hungarian() -> NumberWords {
        let small = spaced(
            "nulla egy kettő három négy öt hat hét nyolc kilenc tíz tizenegy tizenkettő tizenhárom \
             tizennégy tizenöt tizenhat tizenhét tizennyolc tizenkilenc",
        );
        let mut compound_ten: [Option<String>; 10] = Default::default();
        compound_ten[1] = Some("tizen".to_owned());
        compound_ten[2] = Some("huszon".to_owned());
        let mut agreement = Agreement::default();
        agreement.unit[2] = Some("két".to_owned());
        NumberWords {
            plural: PluralRule::Singular,
            small: small.try_into().unwrap(),
            tens: spaced("húsz harminc negyven ötven hatvan hetven nyolcvan kilencven").try_into().unwrap(),
            hundreds: spaced("száz kétszáz háromszáz négyszáz ötszáz hatszáz hétszáz nyolcszáz kilencszáz")
                .try_into()
                .unwrap(),
            hundred_join: String::new(),
            compound: "{ten}{unit}".to_owned(),
            compound_unit: Default::default(),
            exact: Default::default(),
            hundreds_alone: Default::default(),
            compound_ten,
            genders: [Agreement::default(), Agreement::default(), agreement],
        }
    }

    #[test]
    fn compound_tens_and_agreeing_teens() {
        let hu = hungarian();
        let said = |n: u64, gender| {
            let mut out = String::new();
            hu.write(n, gender, &mut out);
            out
        };
        for (n, counting, before_a_noun) in [
            (2, "kettő", "két"),
            (12, "tizenkettő", "tizenkét"),
            (13, "tizenhárom", "tizenhárom"),
            (20, "húsz", "húsz"),
            (21, "huszonegy", "huszonegy"),
            (22, "huszonkettő", "huszonkét"),
            (32, "harminckettő", "harminckét"),
            (112, "száztizenkettő", "száztizenkét"),
            (122, "százhuszonkettő", "százhuszonkét"),
        ] {
            assert_eq!(said(n, None), counting, "{n}");
            assert_eq!(said(n, Some(Gender::Neuter)), before_a_noun, "{n}");
        }
        let noun =
            CountedNoun { gender: Gender::Neuter, one: "perc".into(), few: None, other: "perc".into() };
        let mut out = String::new();
        hu.write_count(22, &noun, &mut out);
        assert_eq!(out, "huszonkét perc");
    }
}
