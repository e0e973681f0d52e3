//! The subset of Markdown the reports write (headings, paragraphs, lists, pipe tables with
//! alignment, block quotes, fenced and indented code, inline code, bold and links), as HTML
//! for the summary tab of `NAME.html`. Cost: one pass over the text.

/// `text` with `&`, `<`, `>` and `"` escaped for HTML.
pub(in crate::harness::report) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// One line's inline Markdown as HTML: `code`, **bold**, [text](link), backslash escapes.
fn inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut bold = false;
    while i < chars.len() {
        let c = chars[i];
        let rest: String = chars[i..].iter().collect();
        if c == '\\' && i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() {
            out.push_str(&escape(&chars[i + 1].to_string()));
            i += 2;
        } else if c == '`' {
            let ticks = chars[i..].iter().take_while(|&&c| c == '`').count();
            let fence: String = "`".repeat(ticks);
            match rest[ticks..].find(&fence) {
                Some(end) => {
                    let code = rest[ticks..ticks + end].trim();
                    out.push_str(&format!("<code>{}</code>", escape(code)));
                    i += ticks + rest[ticks..ticks + end].chars().count() + ticks;
                }
                None => {
                    out.push_str(&fence);
                    i += ticks;
                }
            }
        } else if rest.starts_with("**") {
            out.push_str(if bold { "</strong>" } else { "<strong>" });
            bold = !bold;
            i += 2;
        } else if let Some((label, target, used)) = link(&rest) {
            out.push_str(&format!(
                "<a href=\"{}\">{}</a>",
                escape(&target),
                inline(&label)
            ));
            i += used;
        } else {
            out.push_str(&escape(&c.to_string()));
            i += 1;
        }
    }
    if bold {
        out.push_str("</strong>");
    }
    out
}

/// `[label](target)` at the start of `text`: label, target and the characters used.
fn link(text: &str) -> Option<(String, String, usize)> {
    let rest = text.strip_prefix('[')?;
    let mut depth = 0usize;
    let mut close = None;
    for (k, c) in rest.char_indices() {
        match c {
            '`' => {}
            '[' => depth += 1,
            ']' if depth == 0 => {
                close = Some(k);
                break;
            }
            ']' => depth -= 1,
            _ => {}
        }
    }
    let close = close?;
    let after = rest[close + 1..].strip_prefix('(')?;
    let end = after.find(')')?;
    let label = &rest[..close];
    let target = &after[..end];
    if target.contains(char::is_whitespace) {
        return None;
    }
    let used = 1 + label.chars().count() + 2 + target.chars().count() + 1;
    Some((label.to_string(), target.to_string(), used))
}

/// The cells of a pipe-table row.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut code = false;
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push_str("\\|");
                chars.next();
            }
            '`' => {
                code = !code;
                out.last_mut().unwrap().push(c);
            }
            '|' if !code => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

fn table(lines: &[&str]) -> String {
    let head = cells(lines[0]);
    let right: Vec<bool> = cells(lines[1])
        .iter()
        .map(|c| c.ends_with(':') && !c.starts_with(':'))
        .collect();
    let cell = |tag: &str, k: usize, text: &str| {
        let class = if right.get(k).copied().unwrap_or(false) {
            " class=\"num\""
        } else {
            ""
        };
        format!("<{tag}{class}>{}</{tag}>", inline(text))
    };
    let mut out = String::from("<table class=\"summary\"><thead><tr>");
    for (k, h) in head.iter().enumerate() {
        out.push_str(&cell("th", k, h));
    }
    out.push_str("</tr></thead><tbody>\n");
    for line in &lines[2..] {
        out.push_str("<tr>");
        for (k, c) in cells(line).iter().enumerate() {
            out.push_str(&cell("td", k, c));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    out
}

fn is_table_rule(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// The block at `lines[i..]`: its HTML and the lines it used.
fn block(lines: &[&str], i: usize) -> (String, usize) {
    let line = lines[i];
    let t = line.trim_start();
    if let Some(lang) = t.strip_prefix("```") {
        let _ = lang;
        let end = (i + 1..lines.len())
            .find(|&k| lines[k].trim_start().starts_with("```"))
            .unwrap_or(lines.len());
        let code = lines[i + 1..end].join("\n");
        return (
            format!("<pre><code>{}</code></pre>\n", escape(&code)),
            end + 1 - i,
        );
    }
    if line.starts_with("    ") {
        let end = (i..lines.len())
            .find(|&k| !lines[k].starts_with("    ") && !lines[k].trim().is_empty())
            .unwrap_or(lines.len());
        let code: Vec<&str> = lines[i..end]
            .iter()
            .map(|l| l.get(4..).unwrap_or(""))
            .collect();
        let code = code.join("\n");
        return (
            format!("<pre><code>{}</code></pre>\n", escape(code.trim_end())),
            end - i,
        );
    }
    if let Some(level) = (1..=6).find(|&n| t.starts_with(&format!("{} ", "#".repeat(n)))) {
        let text = &t[level + 1..];
        return (format!("<h{level}>{}</h{level}>\n", inline(text)), 1);
    }
    if t.starts_with('|') && i + 1 < lines.len() && is_table_rule(lines[i + 1]) {
        let end = (i..lines.len())
            .find(|&k| !lines[k].trim_start().starts_with('|'))
            .unwrap_or(lines.len());
        return (table(&lines[i..end]), end - i);
    }
    if t.starts_with('>') {
        let end = (i..lines.len())
            .find(|&k| !lines[k].trim_start().starts_with('>'))
            .unwrap_or(lines.len());
        let inner: Vec<&str> = lines[i..end]
            .iter()
            .map(|l| {
                let l = l.trim_start().trim_start_matches('>');
                l.strip_prefix(' ').unwrap_or(l)
            })
            .collect();
        return (
            format!("<blockquote>{}</blockquote>\n", to_html(&inner.join("\n"))),
            end - i,
        );
    }
    if t.starts_with("- ") || t.starts_with("* ") {
        let mut items: Vec<String> = Vec::new();
        let mut k = i;
        while k < lines.len() && !lines[k].trim().is_empty() {
            let l = lines[k].trim_start();
            match l.strip_prefix("- ").or_else(|| l.strip_prefix("* ")) {
                Some(item) => items.push(item.to_string()),
                None => {
                    if let Some(last) = items.last_mut() {
                        last.push(' ');
                        last.push_str(l);
                    }
                }
            }
            k += 1;
        }
        let body: String = items
            .iter()
            .map(|item| format!("<li>{}</li>\n", inline(item)))
            .collect();
        return (format!("<ul>\n{body}</ul>\n"), k - i);
    }
    let end = (i..lines.len())
        .find(|&k| {
            let l = lines[k].trim_start();
            lines[k].trim().is_empty()
                || (k > i
                    && (l.starts_with('#')
                        || l.starts_with('|')
                        || l.starts_with("```")
                        || l.starts_with("- ")))
        })
        .unwrap_or(lines.len());
    let text: Vec<&str> = lines[i..end].iter().map(|l| l.trim()).collect();
    (format!("<p>{}</p>\n", inline(&text.join(" "))), end - i)
}

/// The report's Markdown as HTML. Cost: linear in the text.
pub(super) fn to_html(md: &str) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        let (html, used) = block(&lines, i);
        out.push_str(&html);
        i += used.max(1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn the_report_subset_becomes_html() {
        let md = "# Experiment `x`\n\nSome *text* & **bold** [a.svg](a.svg).\n\n- one `a|b`\n- two\n\n| backend | runs |\n|---|---:|\n| `a` | 3 |\n| **VBS** | 4 |\n\n> **Warn: 1.** x\n> - y <z>\n\n```sh\nls <a>\n```\n";
        let html = to_html(md);
        assert!(
            html.contains("<h1>Experiment <code>x</code></h1>"),
            "{html}"
        );
        assert!(html.contains("<strong>bold</strong> <a href=\"a.svg\">a.svg</a>"));
        assert!(html.contains("<li>one <code>a|b</code></li>"));
        assert!(html.contains("<th>backend</th><th class=\"num\">runs</th>"));
        assert!(html.contains("<td><code>a</code></td><td class=\"num\">3</td>"));
        assert!(html.contains("<blockquote><p><strong>Warn: 1.</strong> x</p>"));
        assert!(html.contains("<li>y &lt;z&gt;</li>"));
        assert!(html.contains("<pre><code>ls &lt;a&gt;</code></pre>"));
    }
}
