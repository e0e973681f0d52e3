//! Where in a generic model's text an error is: the line and column of a byte offset, and
//! the start of the JSON token serde_json reported an error after. Costs: one pass over the
//! line concerned (over the text before the offset for [`line_col`]).

/// The 1-based line and column (in characters) of byte offset `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// Column of the start of the JSON token that ends at or just before `column` (1-based) on
/// `line`: serde_json reports custom errors at (or just after) the end of the element it read.
pub(super) fn json_token_start(text: &str, line: usize, column: usize) -> usize {
    let Some(src) = text.lines().nth(line.saturating_sub(1)) else {
        return column.max(1);
    };
    let chars: Vec<char> = src.chars().collect();
    // 0-based index of the element's last character: the one before the column, or the one at it.
    let last = [column.saturating_sub(2), column.saturating_sub(1)]
        .into_iter()
        .find(|&i| {
            i < chars.len() && (matches!(chars[i], '"' | ']' | '}') || chars[i].is_ascii_digit())
        });
    let Some(last) = last else {
        return column.max(1);
    };
    if chars[last].is_ascii_digit() {
        return number_start(&chars, last);
    }
    if chars[last] == '"' {
        // The opening quote: the previous quote not escaped by a backslash.
        let mut i = last;
        while i > 0 {
            i -= 1;
            if chars[i] == '"' && (i == 0 || chars[i - 1] != '\\') {
                return i + 1;
            }
        }
        return last + 1;
    }
    let (close, open) = if chars[last] == ']' {
        (']', '[')
    } else {
        ('}', '{')
    };
    let mut depth = 0usize;
    let mut i = last + 1;
    while i > 0 {
        i -= 1;
        if chars[i] == close {
            depth += 1;
        } else if chars[i] == open {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    last + 1
}

/// Column (1-based) of the last number token equal to `number` that starts at or before
/// `column` on `line`. serde_json reports an error in a number at or somewhat after its end
/// (past a following separator), so the offending number is the nearest such token before.
pub(super) fn number_before(text: &str, line: usize, column: usize, number: &str) -> Option<usize> {
    let chars: Vec<char> = text.lines().nth(line.saturating_sub(1))?.chars().collect();
    let is_number = |c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E');
    let mut end = column.min(chars.len());
    while end > 0 {
        if !is_number(chars[end - 1]) {
            end -= 1;
            continue;
        }
        let mut start = end;
        while start > 0 && is_number(chars[start - 1]) {
            start -= 1;
        }
        if chars[start..end].iter().collect::<String>() == number {
            return Some(start + 1);
        }
        end = start;
    }
    None
}

/// Column (1-based) where the number whose last character is `chars[last]` starts (the sign
/// belongs to it).
fn number_start(chars: &[char], last: usize) -> usize {
    let is_number = |c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E');
    let mut start = last;
    while start > 0 && is_number(chars[start - 1]) {
        start -= 1;
    }
    start + 1
}

/// Strips serde_json's " at line L column C" suffix from a message.
pub(super) fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
