//! "Did you mean ...?" for misspelt names (backends, parameters, experiment keys, senses): the
//! closest candidate by edit distance, when it is close enough to be a typo.
//!
//! Costs: one edit distance per candidate, `O(len(word) * len(candidate))` each; only
//! computed when an error message is made.

/// The candidate closest to `word` (edit distance, case-insensitive) when the distance is
/// at most a third of the longer word's length (at least 1, and never the word itself).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (distance(&word, &c.to_lowercase()), c))
        .filter(|&(d, c)| d > 0 && d <= (word.chars().count().max(c.chars().count()) / 3).max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// `"; did you mean 'X'?"` for the closest candidate, or `""` when none is close.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or_else(String::new, |c| format!("; did you mean '{c}'?"))
}

/// The same for a comma-separated list of candidates (as error messages hold them).
pub fn did_you_mean_in(word: &str, list: &str) -> String {
    did_you_mean(word, list.split(',').map(str::trim))
}

/// A serde message `unknown field `x`, expected one of `a`, `b`` (or `unknown variant`) with
/// "did you mean" appended when one of the listed names is close; other messages unchanged.
pub fn serde_hint(message: &str) -> String {
    let Some(start) = ["unknown field `", "unknown variant `"]
        .iter()
        .find_map(|p| message.find(p).map(|i| i + p.len()))
    else {
        return message.to_string();
    };
    let Some(len) = message[start..].find('`') else {
        return message.to_string();
    };
    let word = &message[start..start + len];
    let Some(list) = message[start + len..]
        .split_once("expected")
        .map(|(_, l)| l)
    else {
        return message.to_string();
    };
    let names = list.split('`').skip(1).step_by(2);
    let hint = did_you_mean(word, names);
    if hint.is_empty() {
        return message.to_string();
    }
    // Keep any location suffix serde or toml put after the list on its own lines.
    match message.find('\n') {
        Some(nl) => format!("{}{hint}{}", &message[..nl], &message[nl..]),
        None => format!("{message}{hint}"),
    }
}

/// Edit distance over characters: insertions, deletions, substitutions and transpositions of
/// neighbours (`mlip` is one edit from `milp`), the optimal-string-alignment distance.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i-2, i-1 and i of the table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_are_not() {
        let backends = [
            "bitset", "brute", "enum", "dp", "sat", "milp", "vsa", "gauss",
        ];
        assert_eq!(closest("bitst", backends), Some("bitset"));
        assert_eq!(closest("BITSET", backends), None); // the same word, other case
        assert_eq!(closest("mlip", backends), Some("milp"));
        assert_eq!(closest("quantum", backends), None);
        assert_eq!(
            did_you_mean("ordr", ["order", "threads"]),
            "; did you mean 'order'?"
        );
        assert_eq!(
            did_you_mean_in("relaxx", "relax, time_limit"),
            "; did you mean 'relax'?"
        );
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("mlip", "milp"), 1);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn serde_messages_get_a_hint_only_when_a_listed_name_is_close() {
        let m = "unknown field `repetition`, expected one of `title`, `repetitions`, `kind`";
        assert!(
            serde_hint(m).ends_with("; did you mean 'repetitions'?"),
            "{}",
            serde_hint(m)
        );
        let far = "unknown field `zzz`, expected one of `title`, `kind`";
        assert_eq!(serde_hint(far), far);
        assert_eq!(serde_hint("invalid type"), "invalid type");
    }
}
