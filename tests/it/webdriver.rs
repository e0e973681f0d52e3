//! A small WebDriver client (W3C protocol over `std::net::TcpStream` and serde_json) driving
//! headless Chromium through `chromedriver`, for the tests of the HTML report pages. No async
//! stack: one request per connection, `Connection: close`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The WebDriver element reference key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The first of `names` found on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// A chromedriver process and one browser session; both end when it drops.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

/// Why no browser could be started, for the loud skip message.
pub fn find_browser() -> Result<(PathBuf, PathBuf), String> {
    let driver = std::env::var_os("CHROMEDRIVER")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromedriver"]))
        .ok_or("no chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")?;
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromium", "chromium-browser", "google-chrome"]))
        .ok_or("no chromium on PATH (Debian: apt-get install chromium chromium-driver)")?;
    Ok((driver, chromium))
}

fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    let response = read_response(&mut stream)?;
    let text = String::from_utf8_lossy(&response);
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP header")?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let value: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("{method} {path}: {head}: {value}"));
    }
    Ok(value["value"].clone())
}

/// One HTTP response: up to the end of its body (`Content-Length`, or the last chunk), since
/// chromedriver may keep the connection open.
fn read_response(stream: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut response = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        response.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&response);
        if n == 0 {
            return Ok(response);
        }
        let Some(end) = text.find("\r\n\r\n") else {
            continue;
        };
        let head = text[..end].to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        match length {
            Some(len) if response.len() >= end + 4 + len => return Ok(response),
            None if text.ends_with("0\r\n\r\n") => return Ok(response),
            _ => {}
        }
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session (window
    /// `width` x `height`), logging the browser console.
    pub fn start(width: u32, height: u32) -> Result<Browser, String> {
        let (driver, chromium) = find_browser()?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", driver.display()))?;
        let mut browser = Browser {
            driver: child,
            port,
            session: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while http(port, "GET", "/status", None).map_or(true, |v| v["ready"] != json!(true)) {
            if Instant::now() > deadline {
                return Err("chromedriver did not start within 30 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", format!("--window-size={width},{height}")]
            },
            "goog:loggingPrefs": {"browser": "ALL"}
        }}});
        let session = http(port, "POST", "/session", Some(&caps))?;
        browser.session = session["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        Ok(browser)
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        http(self.port, method, &path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens `url` and waits for the page to load.
    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// The current URL.
    pub fn url(&self) -> String {
        self.call("GET", "/url", None)
            .as_str()
            .unwrap_or_default()
            .into()
    }

    /// Reloads the page.
    pub fn refresh(&self) {
        self.call("POST", "/refresh", Some(json!({})));
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Clicks the first element matching `css` (a real WebDriver click).
    pub fn click(&self, css: &str) {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// The browser console's entries since the last call (level, message).
    pub fn console(&self) -> Vec<(String, String)> {
        let entries = self.call("POST", "/se/log", Some(json!({"type": "browser"})));
        entries
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or("").to_string(),
                            e["message"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let b64 = self.call("GET", "/screenshot", None);
        base64_decode(b64.as_str().unwrap_or_default())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (k, d) in chunk.iter().enumerate() {
            n |= (*d as u32) << (18 - 6 * k);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

#[test]
fn base64_decodes_with_and_without_padding() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("aGk="), b"hi");
    assert_eq!(base64_decode("YWJj"), b"abc");
}
