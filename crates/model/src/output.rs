//! Writing output files so that nothing is ever half-written: the one place every command and
//! report writer goes through.
//!
//! [`write_atomically`] writes a regular file through a temporary file in the same folder and a
//! rename, so a reader (or a run that is killed) sees either the old file or the complete new
//! one. Paths that are not regular files are written in place instead: renaming over
//! `/dev/null`, a FIFO or a terminal would replace the device with a plain file (a replaced
//! `/dev/null` silently corrupts every later program that reads from it, compilers included).
//! A symbolic link is followed, so the link stays and its target is replaced.
//!
//! Permissions: a new file gets what a plain `File::create` would give (`0666` less the
//! user's umask), and a replaced file keeps its mode.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `contents` to `path`. A missing or regular file is replaced atomically (temporary
/// file in the same folder, `fsync`, rename); a device, FIFO or socket is opened and written in
/// place. The parent folder must exist. On error no temporary file is left behind.
///
/// Cost: one extra file creation, one `fsync` and one rename beyond the write itself.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut writer = AtomicWriter::create(path)?;
    writer.write_all(contents)?;
    writer.commit()
}

/// A file written piece by piece and put in place only by [`AtomicWriter::commit`], with the
/// rules of [`write_atomically`]: a reader, or a run killed half-way, never sees a partial
/// file (a device, FIFO or socket is written in place as the pieces come). Dropped without
/// `commit`, it leaves nothing behind. For outputs too large to hold in memory.
pub struct AtomicWriter {
    target: PathBuf,
    /// `None` when writing in place (a device).
    tmp: Option<tempfile::NamedTempFile>,
    device: Option<fs::File>,
}

impl AtomicWriter {
    /// Starts writing `path` (its parent folder must exist).
    pub fn create(path: &Path) -> io::Result<AtomicWriter> {
        let target = resolve_links(path)?;
        let existing = fs::metadata(&target).ok();
        if let Some(meta) = &existing {
            if !meta.file_type().is_file() && !meta.is_dir() {
                let device = fs::OpenOptions::new().write(true).open(&target)?;
                return Ok(AtomicWriter {
                    target,
                    tmp: None,
                    device: Some(device),
                });
            }
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let file_name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        let prefix = format!(".{file_name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        builder.permissions(new_file_permissions());
        let tmp = builder.tempfile_in(dir)?;
        if let Some(meta) = existing.filter(|m| m.is_file()) {
            // A replaced file keeps its mode (set explicitly: not reduced by the umask).
            tmp.as_file().set_permissions(meta.permissions())?;
        }
        Ok(AtomicWriter {
            target,
            tmp: Some(tmp),
            device: None,
        })
    }

    /// Flushes, `fsync`s and renames the temporary file over the target.
    pub fn commit(self) -> io::Result<()> {
        match self.tmp {
            Some(mut tmp) => {
                tmp.flush()?;
                tmp.as_file().sync_all()?;
                tmp.persist(&self.target).map_err(|e| e.error)?;
                Ok(())
            }
            None => self.device.map_or(Ok(()), |mut d| d.flush()),
        }
    }
}

impl Write for AtomicWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match (&mut self.tmp, &mut self.device) {
            (Some(tmp), _) => tmp.write(buf),
            (None, Some(device)) => device.write(buf),
            (None, None) => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match (&mut self.tmp, &mut self.device) {
            (Some(tmp), _) => tmp.flush(),
            (None, Some(device)) => device.flush(),
            (None, None) => Ok(()),
        }
    }
}

/// The mode asked for when creating a file: `0666`, which the kernel reduces by the umask, as
/// for `File::create` (the temporary-file default would be `0600`).
#[cfg(unix)]
fn new_file_permissions() -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(0o666)
}

/// `path` with every symbolic link on it resolved when it names an existing link; otherwise
/// `path` unchanged.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path),
        _ => Ok(path.to_path_buf()),
    }
}

/// `text` on one line: each control character (newline, tab, ...) written as its escape
/// (`\n`, `\t`, `\u{1b}`), so a name from a file name cannot end a comment line of an output
/// format or start a new one. Cost: one pass; borrows when nothing needs escaping.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// `text` for a Markdown table cell or heading: on one line ([`one_line`], so no new heading or
/// row can start), `|` escaped (it would split the cell), `<` and `&` as entities (no HTML).
/// Other characters are kept, so names like `royle_17clue#3` read as they are.
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            '|' => out.push_str("\\|"),
            _ => out.push(c),
        }
    }
    out
}

/// `text` as a Markdown code span (`` `text` ``) that is safe in a table cell or heading: on one
/// line, `|` escaped (GitHub tables split on it even inside code), a backtick written as `'`.
pub fn markdown_code(text: &str) -> String {
    let body: String = one_line(text)
        .chars()
        .map(|c| match c {
            '|' => "\\|".to_string(),
            '`' => "'".to_string(),
            _ => c.to_string(),
        })
        .collect();
    format!("`{body}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_newlines_pipes_and_markup_stay_in_their_line_and_cell() {
        let nasty = "a,b\"c|d\ne<x>&y\n## injected`";
        assert_eq!(one_line(nasty), "a,b\"c|d\\ne<x>&y\\n## injected`");
        assert_eq!(one_line("plain"), "plain");
        let text = markdown_text(nasty);
        assert!(!text.contains('\n') && !text.contains('<'), "{text}");
        assert_eq!(
            text.matches('|').count(),
            text.matches("\\|").count(),
            "{text}"
        );
        assert!(text.contains("&lt;x>&amp;y"), "{text}");
        let code = markdown_code(nasty);
        assert!(code.starts_with('`') && code.ends_with('`') && code.matches('`').count() == 2);
        assert!(!code.contains('\n') && code.contains("c\\|d"), "{code}");
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_a_regular_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(entries(dir.path()), vec!["out.txt"]);
    }

    #[test]
    fn a_missing_folder_is_an_error_and_nothing_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no-such-dir").join("out.txt");
        let err = write_atomically(&path, b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(entries(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_stays_a_link_and_its_target_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(entries(dir.path()), vec!["link.txt", "real.txt"]);
    }

    /// The umask (inherited by a child shell, which prints it).
    #[cfg(unix)]
    fn current_umask() -> u32 {
        let out = std::process::Command::new("sh")
            .args(["-c", "umask"])
            .output()
            .expect("sh runs");
        u32::from_str_radix(String::from_utf8_lossy(&out.stdout).trim(), 8).expect("octal umask")
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_mode_of_a_plain_create_under_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        fs::File::create(&plain).unwrap();
        let ours = dir.path().join("ours.txt");
        write_atomically(&ours, b"x").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&ours), mode(&plain));
        assert_eq!(mode(&ours), 0o666 & !current_umask());
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.md");
        for wanted in [0o644, 0o640, 0o755] {
            fs::write(&path, "old").unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(wanted)).unwrap();
            write_atomically(&path, b"new").unwrap();
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, wanted);
            assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        }
    }

    /// A FIFO stands in for `/dev/null` and other special files: it must still be a FIFO
    /// afterwards, and the reader must get the bytes.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(&fifo).unwrap())
        };
        write_atomically(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(entries(dir.path()), vec!["pipe"]);
    }
}
