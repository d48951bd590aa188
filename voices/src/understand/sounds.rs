//! How near two words sound (issue 33): espeak-ng's phonemes read into
//! phonetic features, and a weighted edit distance over them.
//!
//! Phonemes are written as `espeak-ng -x --sep=_` writes them (its ASCII
//! phoneme mnemonics, one phoneme between underscores, stress marks before
//! a vowel): "k_w_'i:_n" for queen, "g_r_'i:_n" for green. Each phoneme
//! becomes one or more [`Phone`]s (a diphthong is two vowels); two phones
//! are as far apart as their features differ (a voiced and an unvoiced stop
//! of the same place are near, a vowel and a stop are far). The distance of
//! two words is the cheapest edit of one into the other over their mean
//! length, so it runs from 0 (the same sounds) to 1 (nothing alike) whatever
//! the language: no table of confusions needed.

/// One speech sound: an index into the inventory of vowels and consonants
/// the station compares ([`VOWELS`], [`CONSONANTS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Phone(u8);

/// A sound's features.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Features {
    /// A vowel: height 0 (close) to 5 (open), backness 0 (front) to 2
    /// (back), rounded, long.
    Vowel { height: u8, back: u8, round: bool, long: bool },
    /// A consonant: place (0 lips … 16 glottis, in half steps), manner,
    /// voiced.
    Consonant { place: u8, manner: Manner, voiced: bool },
}

/// How a consonant is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manner {
    Stop,
    Affricate,
    Fricative,
    Nasal,
    Lateral,
    Trill,
    Approximant,
}

/// espeak's vowel letters: height, backness, rounded.
const VOWELS: [(char, u8, u8, bool); 17] = [
    ('i', 0, 0, false),
    ('I', 1, 0, false),
    ('e', 2, 0, false),
    ('E', 3, 0, false),
    ('&', 4, 0, false),
    ('a', 5, 0, false),
    ('A', 5, 2, false),
    ('@', 3, 1, false),
    ('3', 3, 1, false),
    ('V', 3, 2, false),
    ('0', 5, 2, true),
    ('O', 3, 2, true),
    ('o', 2, 2, true),
    ('U', 1, 2, true),
    ('u', 0, 2, true),
    ('y', 0, 0, true),
    ('Y', 2, 0, true),
];

use Manner::*;

/// espeak's consonant mnemonics (several may name one sound): place,
/// manner, voiced.
const CONSONANTS: [(&[&str], u8, Manner, bool); 37] = [
    (&["p"], 0, Stop, false),
    (&["b"], 0, Stop, true),
    (&["m"], 0, Nasal, true),
    (&["w"], 0, Approximant, true),
    (&["f"], 2, Fricative, false),
    (&["v"], 2, Fricative, true),
    (&["pF"], 2, Affricate, false),
    (&["T"], 4, Fricative, false),
    (&["D"], 4, Fricative, true),
    (&["t"], 6, Stop, false),
    (&["d"], 6, Stop, true),
    (&["n"], 6, Nasal, true),
    (&["s"], 6, Fricative, false),
    (&["z"], 6, Fricative, true),
    (&["ts"], 6, Affricate, false),
    (&["dz"], 6, Affricate, true),
    (&["l", "L"], 6, Lateral, true),
    (&["r", "*"], 6, Trill, true),
    (&["S", "s."], 8, Fricative, false),
    (&["Z", "z."], 8, Fricative, true),
    (&["tS", "ts."], 8, Affricate, false),
    (&["dZ", "dz."], 8, Affricate, true),
    (&["S;", "s;"], 9, Fricative, false),
    (&["Z;", "z;"], 9, Fricative, true),
    (&["ts;", "tS;"], 9, Affricate, false),
    (&["dz;", "dZ;"], 9, Affricate, true),
    (&["C"], 10, Fricative, false),
    (&["j"], 10, Approximant, true),
    (&["n^", "n;"], 10, Nasal, true),
    (&["l^", "l;"], 10, Lateral, true),
    (&["k"], 12, Stop, false),
    (&["g"], 12, Stop, true),
    (&["x"], 12, Fricative, false),
    (&["Q"], 12, Fricative, true),
    (&["N"], 12, Nasal, true),
    (&["R"], 14, Trill, true),
    (&["h"], 16, Fricative, false),
];

/// The glottal stop, a consonant espeak writes "?".
const GLOTTAL: (u8, Manner, bool) = (16, Stop, false);

/// Every phone: the vowels short and long, then the consonants, then the
/// glottal stop.
const PHONES: usize = 2 * VOWELS.len() + CONSONANTS.len() + 1;

impl Phone {
    fn features(self) -> Features {
        let i = usize::from(self.0);
        if i < 2 * VOWELS.len() {
            let (_, height, back, round) = VOWELS[i / 2];
            return Features::Vowel { height, back, round, long: i % 2 == 1 };
        }
        let (place, manner, voiced) = match CONSONANTS.get(i - 2 * VOWELS.len()) {
            Some((_, place, manner, voiced)) => (*place, *manner, *voiced),
            None => GLOTTAL,
        };
        Features::Consonant { place, manner, voiced }
    }
}

fn vowel_of(c: char, long: bool) -> Option<Phone> {
    let i = VOWELS.iter().position(|v| v.0 == c)?;
    u8::try_from(2 * i + usize::from(long)).ok().map(Phone)
}

fn consonant_of(symbol: &str) -> Option<Phone> {
    if symbol == "?" {
        return u8::try_from(PHONES - 1).ok().map(Phone);
    }
    let i = CONSONANTS.iter().position(|c| c.0.contains(&symbol))?;
    u8::try_from(2 * VOWELS.len() + i).ok().map(Phone)
}

/// Reads espeak-ng's `-x --sep=_` output (words separated by spaces) into
/// phones. Unknown symbols are skipped; stress, syllable and glottal-onset
/// marks carry no sound of their own.
pub(crate) fn parse(phonemes: &str) -> Vec<Phone> {
    let mut out = Vec::with_capacity(phonemes.len());
    for token in phonemes.split(['_', ' ']) {
        let token = token.trim_start_matches(['\'', ',', '%', '=']);
        let token: String = token.chars().filter(|c| !matches!(c, '#' | '~' | '!' | '|' | '2')).collect();
        if token.is_empty() || token == ";" {
            continue;
        }
        if let Some(c) = consonant_of(&token) {
            out.push(c);
            continue;
        }
        let (body, long) = match token.strip_suffix(':') {
            Some(body) => (body, true),
            None => (token.as_str(), false),
        };
        // A consonant with a length or palatal mark: the consonant.
        if let Some(c) = consonant_of(body.trim_end_matches(';')) {
            out.push(c);
            continue;
        }
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            if vowel_of(c, false).is_some() {
                // "aa" is one long vowel; a length mark lengthens the last.
                let doubled = chars.peek() == Some(&c);
                if doubled {
                    chars.next();
                }
                out.extend(vowel_of(c, doubled || (long && chars.peek().is_none())));
            } else if let Some(consonant) = consonant_of(&c.to_string()) {
                // "@L", "UR": a vowel with a syllabic consonant.
                out.push(consonant);
            }
        }
    }
    out
}

/// The sounds of a word read from its letters, when no pronunciation is
/// known (a documented fallback: rough, but never nothing).
pub(crate) fn from_spelling(word: &str) -> Vec<Phone> {
    let mut out = Vec::with_capacity(word.len());
    for c in word.chars().flat_map(char::to_lowercase) {
        let phone = match c {
            'a' | 'ą' | 'á' | 'à' => vowel_of('a', false),
            'ä' => vowel_of('E', false),
            'e' | 'ę' | 'é' | 'è' => vowel_of('e', false),
            'i' | 'í' | 'j' => vowel_of('i', false),
            'o' | 'ó' | 'ò' => vowel_of('o', false),
            'ö' => vowel_of('Y', false),
            'u' | 'ú' => vowel_of('u', false),
            'ü' | 'y' => vowel_of('y', false),
            'c' | 'q' => consonant_of("k"),
            'ł' => consonant_of("w"),
            'ż' | 'ź' => consonant_of("Z"),
            'ś' => consonant_of("S"),
            'ć' => consonant_of("tS"),
            'ń' => consonant_of("n^"),
            'ß' => consonant_of("s"),
            c if c.is_ascii_alphabetic() => consonant_of(&c.to_string()),
            _ => None,
        };
        out.extend(phone);
    }
    out
}

/// The cost of one phone for another, by their features.
fn substitution(a: Features, b: Features) -> f32 {
    if a == b {
        return 0.0;
    }
    match (a, b) {
        (
            Features::Vowel { height: h1, back: b1, round: r1, long: l1 },
            Features::Vowel { height: h2, back: b2, round: r2, long: l2 },
        ) => {
            if (h1, b1, r1) == (h2, b2, r2) {
                return 0.05;
            }
            let cost = 0.15
                + 0.08 * f32::from(h1.abs_diff(h2))
                + 0.12 * f32::from(b1.abs_diff(b2))
                + if r1 == r2 { 0.0 } else { 0.12 }
                + if l1 == l2 { 0.0 } else { 0.05 };
            cost.min(0.7)
        }
        (
            Features::Consonant { place: p1, manner: m1, voiced: v1 },
            Features::Consonant { place: p2, manner: m2, voiced: v2 },
        ) => {
            let place = 0.35 * (f32::from(p1.abs_diff(p2)) / 8.0).min(1.0);
            let cost = 0.15 + place + 1.3 * manner_distance(m1, m2) + if v1 == v2 { 0.0 } else { 0.15 };
            cost.min(0.9)
        }
        (Features::Vowel { .. }, Features::Consonant { .. }) => substitution(b, a),
        (Features::Consonant { place, manner, .. }, Features::Vowel { height, back, .. }) => match manner {
            // Glides and their vowels: j/i, w/u; a vocalised r or l and a schwa.
            Approximant if (place == 10 && back == 0) || (place == 0 && back == 2) => {
                0.35 + 0.05 * f32::from(height)
            }
            Trill | Lateral if back == 1 => 0.5,
            _ => 1.0,
        },
    }
}

fn manner_distance(a: Manner, b: Manner) -> f32 {
    if a == b {
        return 0.0;
    }
    match (a, b) {
        (Stop, Affricate) | (Affricate, Stop) => 0.2,
        (Affricate, Fricative) | (Fricative, Affricate) => 0.15,
        (Stop, Fricative) | (Fricative, Stop) => 0.2,
        (Nasal, Stop) | (Stop, Nasal) => 0.3,
        (Lateral | Trill | Approximant, Lateral | Trill | Approximant) => 0.2,
        (Nasal, Lateral | Trill | Approximant) | (Lateral | Trill | Approximant, Nasal) => 0.3,
        _ => 0.45,
    }
}

/// The cost of a phone heard or said that the other side lacks.
fn indel(p: Features) -> f32 {
    match p {
        // A breath, a glottal stop, a schwa: small models lose them first.
        Features::Consonant { place: 16, .. } | Features::Vowel { height: 3, back: 1, .. } => 0.35,
        _ => 0.6,
    }
}

/// Every substitution and indel cost, worked out once.
struct Costs {
    sub: Vec<f32>,
    indel: Vec<f32>,
}

fn costs() -> &'static Costs {
    static COSTS: std::sync::OnceLock<Costs> = std::sync::OnceLock::new();
    COSTS.get_or_init(|| {
        let phones: Vec<Features> =
            (0..PHONES).map(|i| Phone(u8::try_from(i).unwrap_or(u8::MAX)).features()).collect();
        let mut sub = Vec::with_capacity(PHONES * PHONES);
        for a in &phones {
            for b in &phones {
                sub.push(substitution(*a, *b));
            }
        }
        Costs { sub, indel: phones.iter().map(|p| indel(*p)).collect() }
    })
}

/// How far apart two sound sequences are: the cheapest edit of one into the
/// other over their mean length (0 the same, 0.7 to 1 unrelated);
/// 1 when one side is empty and the other not.
pub(crate) fn distance(a: &[Phone], b: &[Phone]) -> f32 {
    if a == b {
        return 0.0;
    }
    if a.is_empty() || b.is_empty() {
        return 1.0;
    }
    let costs = costs();
    // Two rows of the edit table; on the stack for words of usual length.
    let m = b.len();
    let mut stack = [0.0f32; 2 * 48];
    let mut heap = Vec::new();
    let rows: &mut [f32] = if 2 * (m + 1) <= stack.len() {
        &mut stack[..2 * (m + 1)]
    } else {
        heap.resize(2 * (m + 1), 0.0);
        &mut heap
    };
    let (mut prev, mut row) = rows.split_at_mut(m + 1);
    for j in 0..m {
        prev[j + 1] = prev[j] + costs.indel[usize::from(b[j].0)];
    }
    for &pa in a {
        let subs = &costs.sub[usize::from(pa.0) * PHONES..][..PHONES];
        let gone = costs.indel[usize::from(pa.0)];
        row[0] = prev[0] + gone;
        for j in 0..m {
            let bj = usize::from(b[j].0);
            let sub = prev[j] + subs[bj];
            let del = prev[j + 1] + gone;
            let ins = row[j] + costs.indel[bj];
            row[j + 1] = sub.min(del).min(ins);
        }
        std::mem::swap(&mut prev, &mut row);
    }
    // Over the mean length: a length the other lacks counts fully.
    (2.0 * prev[m] / (a.len() + b.len()) as f32).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str) -> f32 {
        distance(&parse(a), &parse(b))
    }

    #[test]
    fn espeak_phonemes_are_read() {
        // queen, green (en); Eva, Eber (de); Dawid (pl); König; hetmana.
        assert_eq!(parse("k_w_'i:_n").len(), 4);
        assert_eq!(parse("_!_'e:_v_a").len(), 3);
        assert_eq!(parse("d_'a_v_i_t").len(), 5);
        assert_eq!(parse("k_'Y:_n_I_C").len(), 5);
        assert_eq!(parse("x_E_t_m_'a_n_a#__").len(), 7);
        // A diphthong is two vowels.
        assert_eq!(parse("d_r_'aI").len(), 4);
        assert!(parse("").is_empty());
    }

    #[test]
    fn alike_words_are_near_and_others_far() {
        // Each near pair is nearer than the same word to another word of its kind.
        let queen_green = d("k_w_'i:_n", "g_r_'i:_n");
        let queen_rook = d("k_w_'i:_n", "r_'U_k");
        assert!(queen_green < 0.35, "{queen_green}");
        assert!(queen_rook > queen_green + 0.15, "{queen_rook}");
        let eva_eber = d("_!_'e:_v_A:", "_!_'e:_b_3");
        let eva_felix = d("_!_'e:_v_A:", "f_'e:_l_I_k_s");
        assert!(eva_eber < 0.35, "{eva_eber}");
        assert!(eva_felix > eva_eber + 0.15, "{eva_felix}");
        // David (en) and Dawid (pl, said "davit").
        let david = d("d_'eI_v_I_d", "d_'a_v_i_t");
        let dawid_dwa = d("d_'a_v_i_t", "d_v_'a__");
        assert!(david < 0.35, "{david}");
        assert!(dawid_dwa > david, "{dawid_dwa}");
        assert_eq!(d("f_'i:_r", "f_'i:_r"), 0.0);
    }

    #[test]
    fn spelling_gives_sounds_when_nothing_else_does() {
        assert_eq!(from_spelling("Eva").len(), 3);
        assert!(distance(&from_spelling("green"), &from_spelling("queen")) < 0.45);
    }
}
