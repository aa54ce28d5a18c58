//! `--tty`: a front end for people. The extensions' pi-tui components are
//! drawn in the real terminal (alternate screen, raw mode) laid out as pi's
//! interactive mode lays out its screen, and every key read from the
//! terminal goes to the focused component, as pi-tui hands it over.
//!
//! Choices a user notices:
//! - ctrl+c goes to the component, as in pi. A second ctrl+c in a row (the
//!   same component, no other key between), ctrl+c while no component has
//!   focus, ctrl+\ at any time, and SIGINT, SIGTERM or SIGHUP abort the run:
//!   open components are closed (their `ctx.ui.custom` promises reject) and
//!   the call gets two seconds to finish.
//! - Overlays are composited over the rest, centred (pi-tui's default
//!   anchor): a frame does not say which anchor, row or column an overlay
//!   asked for.
//! - What is written to stderr while the screen is up (extension logs,
//!   pihost's own) is kept and printed after the terminal is restored.

use std::future::Future;
use std::io::{Read, Write};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Context;
use pihost::host::{Host, HostFuture, HostNotification, HostRequest, ProviderChange, RecordingHost};
use pihost::ui::{Frame, FrameKind, TerminalSize};
use tokio::sync::mpsc;
use unicode_width::UnicodeWidthChar;

use crate::CallOutcome;

/// Fails unless stdin and stdout are both a terminal.
pub fn require_terminal() -> anyhow::Result<()> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        anyhow::bail!(
            "--tty needs a terminal on both stdin and stdout (run it in a terminal, or use --keys for a scripted UI)"
        );
    }
    Ok(())
}

/// The recording host of the one-shot commands, except that the screen's
/// frames go to the terminal front end instead of into `hostCalls`.
pub struct TtyHost {
    pub recorder: Arc<RecordingHost>,
    pub frames: mpsc::UnboundedSender<Frame>,
}

impl Host for TtyHost {
    fn notify(&self, notification: HostNotification) {
        match notification {
            HostNotification::UiFrame(frame) => {
                // The front end is gone only once the run is over.
                let _ = self.frames.send(frame);
            }
            other => self.recorder.notify(other),
        }
    }

    fn request(&self, request: HostRequest) -> HostFuture {
        self.recorder.request(request)
    }

    fn provider(&self, change: ProviderChange) -> Result<(), pihost::host::HostError> {
        self.recorder.provider(change)
    }
}

/// How a run under `--tty` ended.
pub struct TtyRun {
    /// What the call answered; `None` when it did not finish after an abort.
    pub outcome: Option<CallOutcome>,
    /// What aborted the run (`"ctrl+c"`, `"ctrl+\\"`, `"SIGTERM"`, …), if anything did.
    pub aborted: Option<String>,
}

/// Set while pihost owns the terminal, so restoring it happens once
/// whichever of the guard, the panic hook or a signal gets there first.
static TERMINAL_TAKEN: AtomicBool = AtomicBool::new(false);

/// stderr as it was before the screen went up, and the file that holds
/// what was written to it meanwhile.
#[cfg(unix)]
struct CapturedStderr {
    saved: libc::c_int,
    file: std::fs::File,
}

#[cfg(unix)]
static CAPTURED_STDERR: std::sync::Mutex<Option<CapturedStderr>> = std::sync::Mutex::new(None);

/// The terminal, taken over: raw mode, the alternate screen, the cursor
/// hidden, bracketed paste on. Dropping it gives the terminal back.
pub struct Terminal {
    _private: (),
}

impl Terminal {
    pub fn enter() -> anyhow::Result<Terminal> {
        install_panic_hook();
        crossterm::terminal::enable_raw_mode().context("--tty: cannot put the terminal in raw mode")?;
        TERMINAL_TAKEN.store(true, Ordering::SeqCst);
        let terminal = Terminal { _private: () };
        let mut stdout = std::io::stdout().lock();
        crossterm::execute!(
            stdout,
            crossterm::terminal::EnterAlternateScreen,
            crossterm::cursor::Hide,
            // Bracketed paste on (crossterm has the command only with its event reader).
            crossterm::style::Print("\x1b[?2004h"),
        )
        .context("--tty: cannot set up the terminal")?;
        capture_stderr();
        Ok(terminal)
    }

    pub fn size() -> anyhow::Result<TerminalSize> {
        let (columns, rows) = crossterm::terminal::size().context("--tty: cannot read the terminal's size")?;
        Ok(TerminalSize {
            columns: columns.max(1),
            rows: rows.max(1),
        })
    }

    fn draw(&self, screen: &Screen, size: TerminalSize) -> std::io::Result<()> {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(screen.render(size).as_bytes())?;
        stdout.flush()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Gives the terminal back as it was found; does nothing the second time.
pub fn restore_terminal() {
    if !TERMINAL_TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut stdout = std::io::stdout();
    let _ = crossterm::execute!(
        stdout,
        crossterm::style::Print("\x1b[?2004l"),
        crossterm::style::ResetColor,
        crossterm::cursor::Show,
        crossterm::terminal::LeaveAlternateScreen,
    );
    let _ = crossterm::terminal::disable_raw_mode();
    release_stderr();
}

/// On a panic of the thread that drives the screen, gives the terminal
/// back before the message is printed (on the alternate screen it would be
/// lost). A panic elsewhere (the engine's thread, which pihost recovers
/// from) leaves the screen up; its message goes to the captured stderr.
fn install_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    let driver = std::thread::current().id();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() == driver {
                restore_terminal();
            }
            previous(info);
        }));
    });
}

/// Sends fd 2 to an unlinked temporary file while the screen is up, so
/// extension logs do not scribble over the components.
#[cfg(unix)]
fn capture_stderr() {
    use std::io::IsTerminal;
    use std::os::fd::AsRawFd;
    if !std::io::stderr().is_terminal() {
        return;
    }
    let path = std::env::temp_dir().join(format!("pihost-tty-stderr-{}", std::process::id()));
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
    else {
        return;
    };
    let _ = std::fs::remove_file(&path);
    // SAFETY: dup and dup2 on fd 2 and an fd this function owns; no memory is touched.
    let saved = unsafe { libc::dup(2) };
    if saved < 0 {
        return;
    }
    // SAFETY: as above.
    if unsafe { libc::dup2(file.as_raw_fd(), 2) } < 0 {
        // SAFETY: `saved` was just opened here and is not used after this.
        unsafe { libc::close(saved) };
        return;
    }
    if let Ok(mut captured) = CAPTURED_STDERR.lock() {
        *captured = Some(CapturedStderr { saved, file });
    }
}

#[cfg(not(unix))]
fn capture_stderr() {}

/// Puts fd 2 back and prints what was written to it meanwhile.
#[cfg(unix)]
fn release_stderr() {
    use std::io::Seek;
    let Some(CapturedStderr { saved, mut file }) = CAPTURED_STDERR.lock().ok().and_then(|mut c| c.take()) else {
        return;
    };
    // SAFETY: `saved` is the duplicate of the original fd 2 made by capture_stderr.
    unsafe {
        libc::dup2(saved, 2);
        libc::close(saved);
    }
    let mut kept = Vec::new();
    if file.seek(std::io::SeekFrom::Start(0)).is_ok() && file.read_to_end(&mut kept).is_ok() {
        let _ = std::io::stderr().write_all(&kept);
    }
}

#[cfg(not(unix))]
fn release_stderr() {}

/// How long a lone ESC (or the start of a sequence cut by a read) waits for
/// the rest before it counts as the escape key.
const ESCAPE_WAIT: Duration = Duration::from_millis(30);

/// How long an unfinished bracketed paste waits for more before what came
/// is handed over as it is; a big paste arrives over many reads.
const PASTE_WAIT: Duration = Duration::from_millis(500);

/// How often the terminal's size and the termination signals are checked.
const POLL_EVERY: Duration = Duration::from_millis(100);

/// How long the call may take to finish after an abort closed its components.
const ABORT_GRACE: Duration = Duration::from_secs(2);

const CTRL_C: &str = "\x03";
const CTRL_BACKSLASH: &str = "\x1c";

/// Runs `operation` with the components drawn in the terminal and the
/// terminal's keys sent to them, until it finishes or is aborted. An
/// extension's editor (`ctx.ui.setEditorComponent`) outlives the call that
/// set it, as in pi: while it has focus the run goes on after the call, and
/// ends when the editor goes or the user aborts.
pub async fn drive(
    pihost: &pihost::Pihost,
    terminal: &Terminal,
    mut size: TerminalSize,
    mut frames: mpsc::UnboundedReceiver<Frame>,
    operation: Pin<Box<dyn Future<Output = CallOutcome>>>,
) -> anyhow::Result<TtyRun> {
    let mut operation = operation;
    let signals = TerminationSignals::register()?;
    let mut input = spawn_input_reader();
    let mut input_open = true;
    let mut splitter = KeySplitter::default();
    // When what waits in the splitter is handed over as it is.
    let mut flush_deadline: Option<tokio::time::Instant> = None;
    let mut screen = Screen::default();
    let mut poll = tokio::time::interval(POLL_EVERY);
    // The component that got a ctrl+c no other key has followed yet.
    let mut unanswered_ctrl_c: Option<u64> = None;
    // The call's outcome, once it finished while an editor kept the run going.
    let mut finished: Option<CallOutcome> = None;
    terminal.draw(&screen, size)?;
    loop {
        let mut keys = Vec::new();
        let mut aborted: Option<String> = None;
        let mut read = false;
        tokio::select! {
            outcome = &mut operation, if finished.is_none() => {
                if !editor_has_focus(pihost).await? {
                    return Ok(TtyRun { outcome: Some(outcome), aborted: None });
                }
                finished = Some(outcome);
            },
            Some(frame) = frames.recv() => screen.apply(frame),
            chunk = input.recv(), if input_open => match chunk {
                Some(bytes) => {
                    keys = splitter.push(&bytes);
                    read = true;
                }
                None => input_open = false,
            },
            _ = sleep_until(flush_deadline), if flush_deadline.is_some() => keys = splitter.flush(),
            _ = poll.tick() => {
                if let Some(signal) = signals.received() {
                    aborted = Some(signal.to_string());
                }
                let now = Terminal::size()?;
                if now != size {
                    size = now;
                    // Every shown component draws again at the new size.
                    pihost.attach_screen(size, pihost::ui::FrameDelivery::Push).await?;
                    screen.dirty = true;
                }
            },
        }
        // Every read that leaves something waiting starts its wait anew.
        flush_deadline = match splitter.wait() {
            None => None,
            Some(wait) if read || flush_deadline.is_none() => Some(tokio::time::Instant::now() + wait),
            Some(_) => flush_deadline,
        };
        for key in keys {
            if aborted.is_some() {
                break;
            }
            if key == CTRL_BACKSLASH {
                aborted = Some("ctrl+\\".to_string());
                break;
            }
            let got_it = pihost.send_key(&key).await?;
            if key == CTRL_C {
                match got_it {
                    // Nothing can act on it: the user wants out.
                    None => aborted = Some("ctrl+c".to_string()),
                    Some(component) if unanswered_ctrl_c == Some(component) => {
                        aborted = Some("ctrl+c twice".to_string())
                    }
                    Some(component) => unanswered_ctrl_c = Some(component),
                }
            } else {
                unanswered_ctrl_c = None;
            }
        }
        while let Ok(frame) = frames.try_recv() {
            screen.apply(frame);
        }
        if let Some(how) = aborted {
            let reason = format!("pihost: the run was aborted from the terminal ({how})");
            let _ = pihost.close_components(&reason).await;
            let outcome = match finished {
                Some(outcome) => Some(outcome),
                None => tokio::time::timeout(ABORT_GRACE, &mut operation).await.ok(),
            };
            return Ok(TtyRun {
                outcome,
                aborted: Some(how),
            });
        }
        if screen.dirty {
            terminal.draw(&screen, size)?;
            screen.dirty = false;
        }
        // Nobody can type any more (end of input), or the editor is gone or covered: over.
        if finished.is_some() && (!input_open || !editor_has_focus(pihost).await?) {
            return Ok(TtyRun {
                outcome: finished,
                aborted: None,
            });
        }
    }
}

/// Whether the extension's editor has the keys (no dialog over it).
async fn editor_has_focus(pihost: &pihost::Pihost) -> anyhow::Result<bool> {
    let focused = pihost.focused_component().await?;
    Ok(focused.map(|focused| focused.kind) == Some(FrameKind::Editor))
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// Reads the terminal's bytes on a thread of their own (a blocking read
/// cannot join the event loop portably); the channel closes at end of input.
fn spawn_input_reader() -> mpsc::UnboundedReceiver<Vec<u8>> {
    let (sender, receiver) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin();
        let mut buffer = [0u8; 4096];
        loop {
            match stdin.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(read) => {
                    if sender.send(buffer[..read].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    receiver
}

/// SIGINT, SIGTERM and SIGHUP, noted instead of killing pihost with the
/// terminal still raw.
struct TerminationSignals {
    flags: Vec<(&'static str, Arc<AtomicBool>)>,
}

impl TerminationSignals {
    #[cfg(unix)]
    fn register() -> anyhow::Result<Self> {
        let mut flags = Vec::new();
        for (name, signal) in [
            ("SIGINT", signal_hook::consts::SIGINT),
            ("SIGTERM", signal_hook::consts::SIGTERM),
            ("SIGHUP", signal_hook::consts::SIGHUP),
        ] {
            let flag = Arc::new(AtomicBool::new(false));
            signal_hook::flag::register(signal, flag.clone())
                .with_context(|| format!("--tty: cannot handle {name}"))?;
            flags.push((name, flag));
        }
        Ok(Self { flags })
    }

    #[cfg(not(unix))]
    fn register() -> anyhow::Result<Self> {
        Ok(Self { flags: Vec::new() })
    }

    fn received(&self) -> Option<&'static str> {
        self.flags
            .iter()
            .find(|(_, flag)| flag.load(Ordering::SeqCst))
            .map(|(name, _)| *name)
    }
}

/// Cuts what the terminal sent into the sequences pi-tui hands a component
/// one at a time: one character, one escape sequence (CSI, SS3, OSC, DCS,
/// APC, alt+key) or one bracketed paste. What a read cut short waits for
/// the next read, or for [`KeySplitter::flush`].
#[derive(Default)]
struct KeySplitter {
    pending: Vec<u8>,
}

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

impl KeySplitter {
    fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(bytes);
        let mut keys = Vec::new();
        let mut start = 0;
        while start < self.pending.len() {
            match sequence_length(&self.pending[start..]) {
                Some(length) => {
                    keys.push(String::from_utf8_lossy(&self.pending[start..start + length]).into_owned());
                    start += length;
                }
                None => break,
            }
        }
        self.pending.drain(..start);
        keys
    }

    fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// How long what waits may wait for its rest; `None` when nothing waits.
    fn wait(&self) -> Option<Duration> {
        if self.pending.starts_with(PASTE_START) {
            Some(PASTE_WAIT)
        } else {
            self.has_pending().then_some(ESCAPE_WAIT)
        }
    }

    /// Hands over what waited in vain for the rest of its sequence: a lone
    /// ESC is the escape key, anything else goes as it is.
    fn flush(&mut self) -> Vec<String> {
        let rest = std::mem::take(&mut self.pending);
        if rest.is_empty() {
            return Vec::new();
        }
        if rest.len() > 1 && rest[0] == 0x1b && rest[1] == 0x1b {
            // ESC then an unfinished sequence: the escape key, then the rest as it is.
            return vec!["\x1b".to_string(), String::from_utf8_lossy(&rest[1..]).into_owned()];
        }
        vec![String::from_utf8_lossy(&rest).into_owned()]
    }
}

/// The length of the sequence `bytes` starts with; `None` when it is not
/// complete yet.
fn sequence_length(bytes: &[u8]) -> Option<usize> {
    let first = *bytes.first()?;
    if first != 0x1b {
        return utf8_char_length(bytes);
    }
    if bytes.starts_with(PASTE_START) {
        let end = find(bytes, PASTE_END)?;
        return Some(end + PASTE_END.len());
    }
    let second = *bytes.get(1)?;
    match second {
        b'[' => {
            // Old X10 mouse reports: ESC [ M and three bytes.
            if bytes.get(2) == Some(&b'M') {
                return (bytes.len() >= 6).then_some(6);
            }
            // Parameter and intermediate bytes, then a final byte.
            let mut index = 2;
            while let Some(&byte) = bytes.get(index) {
                if (0x40..=0x7e).contains(&byte) {
                    return Some(index + 1);
                }
                if !(0x20..=0x3f).contains(&byte) {
                    // Not a CSI after all: ESC [ as alt+[.
                    return Some(2);
                }
                index += 1;
            }
            None
        }
        b'O' => (bytes.len() >= 3).then_some(3),
        b']' | b'P' | b'_' => {
            // A control string, ended by BEL or ESC \.
            let mut index = 2;
            while let Some(&byte) = bytes.get(index) {
                if byte == 0x07 {
                    return Some(index + 1);
                }
                if byte == 0x1b && bytes.get(index + 1) == Some(&b'\\') {
                    return Some(index + 2);
                }
                index += 1;
            }
            None
        }
        // ESC ESC: wait, it may be alt plus an escape sequence; the flush
        // sends a lone ESC first.
        0x1b => {
            let rest = sequence_length(&bytes[1..])?;
            Some(1 + rest)
        }
        // alt+key: ESC and one character.
        _ => utf8_char_length(&bytes[1..]).map(|length| 1 + length),
    }
}

fn utf8_char_length(bytes: &[u8]) -> Option<usize> {
    let first = *bytes.first()?;
    let length = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        // A stray continuation byte: on its own.
        _ => 1,
    };
    (bytes.len() >= length).then_some(length)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}

/// What is on the screen: the newest frame of every shown component, in
/// the order they first drew.
#[derive(Default)]
struct Screen {
    shown: Vec<Frame>,
    dirty: bool,
}

impl Screen {
    fn apply(&mut self, frame: Frame) {
        self.dirty = true;
        let existing = self.shown.iter().position(|shown| shown.component == frame.component);
        match (existing, frame.closed || frame.hidden) {
            (Some(index), true) => {
                self.shown.remove(index);
            }
            (Some(index), false) => self.shown[index] = frame,
            (None, true) => {}
            (None, false) => self.shown.push(frame),
        }
    }

    /// The lines of everything but overlays, top to bottom as pi lays out
    /// its screen: header, widgets above the editor, the newest custom
    /// component in the editor's place (else the extension's editor),
    /// widgets below it, footer.
    fn base_lines(&self) -> Vec<&str> {
        let below = |frame: &Frame| frame.placement.as_deref() == Some("belowEditor");
        let of = |test: &dyn Fn(&Frame) -> bool| -> Vec<&Frame> { self.shown.iter().filter(|f| test(f)).collect() };
        let mut parts = of(&|f| f.kind == FrameKind::Header);
        parts.extend(of(&|f| f.kind == FrameKind::Widget && !below(f)));
        // Only the newest dialog is visible, as in pi; with none, the
        // extension's editor has the place.
        let dialog = self.shown.iter().rev().find(|f| f.kind == FrameKind::Custom);
        parts.extend(dialog.or_else(|| self.shown.iter().rev().find(|f| f.kind == FrameKind::Editor)));
        parts.extend(of(&|f| f.kind == FrameKind::Widget && below(f)));
        parts.extend(of(&|f| f.kind == FrameKind::Footer));
        parts
            .into_iter()
            .flat_map(|frame| frame.lines.iter().map(String::as_str))
            .collect()
    }

    /// The whole screen as one write: every row cleared and drawn, then the
    /// overlays over it, inside a synchronized update so it does not flicker.
    fn render(&self, size: TerminalSize) -> String {
        let rows = usize::from(size.rows);
        let columns = usize::from(size.columns);
        let base = self.base_lines();
        // Taller than the screen: the bottom shows, as pi's screen scrolls.
        let visible = &base[base.len().saturating_sub(rows)..];
        let mut out = String::from("\x1b[?2026h");
        for row in 0..rows {
            // Cleared before it is drawn: clearing after a full-width line
            // would erase its last cell.
            out.push_str(&format!("\x1b[{};1H\x1b[0m\x1b[2K", row + 1));
            if let Some(line) = visible.get(row) {
                out.push_str(line);
                out.push_str("\x1b[0m");
            }
        }
        for overlay in self.shown.iter().filter(|frame| frame.kind == FrameKind::Overlay) {
            let width = overlay.lines.iter().map(|line| visible_width(line)).max().unwrap_or(0);
            let height = overlay.lines.len().min(rows);
            let top = (rows - height) / 2;
            let left = columns.saturating_sub(width) / 2;
            for (index, line) in overlay.lines.iter().take(height).enumerate() {
                out.push_str(&format!("\x1b[{};{}H\x1b[0m{line}\x1b[0m", top + index + 1, left + 1));
            }
        }
        out.push_str("\x1b[?2026l");
        out
    }
}

/// The cells a line takes in a terminal: its characters' widths, escape
/// sequences left out.
fn visible_width(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut width = 0;
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == 0x1b {
            index += sequence_length(&bytes[index..]).unwrap_or(bytes.len() - index);
            continue;
        }
        let Some(character) = line[index..].chars().next() else {
            break;
        };
        width += character.width().unwrap_or(0);
        index += character.len_utf8();
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(component: u64, kind: FrameKind, placement: Option<&str>, lines: &[&str]) -> Frame {
        Frame {
            component,
            extension: "test.ts".to_string(),
            kind,
            widget: None,
            placement: placement.map(str::to_string),
            closed: false,
            hidden: false,
            lines: lines.iter().map(|line| line.to_string()).collect(),
        }
    }

    #[test]
    fn keys_read_together_reach_the_component_one_at_a_time() {
        let mut splitter = KeySplitter::default();
        assert_eq!(splitter.push(b"\x1b[B\ra\xc3\xa9"), ["\x1b[B", "\r", "a", "é"]);
        // Kitty's CSI u and SS3 arrows pass unchanged.
        assert_eq!(
            splitter.push(b"\x1b[99;5u\x1bOA\x1bx"),
            ["\x1b[99;5u", "\x1bOA", "\x1bx"]
        );
        assert!(!splitter.has_pending());
    }

    #[test]
    fn a_paste_is_one_key_and_a_cut_sequence_waits_for_its_rest() {
        let mut splitter = KeySplitter::default();
        assert!(splitter.push(b"\x1b[200~one\rtwo").is_empty());
        assert_eq!(splitter.push(b"\x1b[201~x"), ["\x1b[200~one\rtwo\x1b[201~", "x"]);
        assert!(splitter.push(b"\x1b[1;5").is_empty());
        assert_eq!(splitter.push(b"A"), ["\x1b[1;5A"]);
        assert!(splitter.push(b"\x1b").is_empty());
        assert_eq!(splitter.flush(), ["\x1b"], "a lone ESC is the escape key");
    }

    #[test]
    fn the_screen_stacks_as_pi_does_and_shows_only_the_newest_dialog() {
        let mut screen = Screen::default();
        screen.apply(frame(1, FrameKind::Footer, None, &["footer"]));
        screen.apply(frame(2, FrameKind::Widget, Some("belowEditor"), &["below"]));
        screen.apply(frame(3, FrameKind::Custom, None, &["first dialog"]));
        screen.apply(frame(4, FrameKind::Widget, None, &["above"]));
        screen.apply(frame(5, FrameKind::Header, None, &["header"]));
        screen.apply(frame(6, FrameKind::Custom, None, &["second dialog"]));
        assert_eq!(
            screen.base_lines(),
            ["header", "above", "second dialog", "below", "footer"]
        );
        let mut closed = frame(6, FrameKind::Custom, None, &[]);
        closed.closed = true;
        screen.apply(closed);
        assert_eq!(
            screen.base_lines(),
            ["header", "above", "first dialog", "below", "footer"]
        );
    }

    #[test]
    fn the_extension_editor_sits_between_the_widgets_until_a_dialog_takes_its_place() {
        let mut screen = Screen::default();
        screen.apply(frame(1, FrameKind::Footer, None, &["footer"]));
        screen.apply(frame(2, FrameKind::Editor, None, &["─ editor ─", "text"]));
        screen.apply(frame(3, FrameKind::Widget, Some("belowEditor"), &["below"]));
        screen.apply(frame(4, FrameKind::Widget, None, &["above"]));
        assert_eq!(screen.base_lines(), ["above", "─ editor ─", "text", "below", "footer"]);
        let mut covered = frame(2, FrameKind::Editor, None, &[]);
        covered.hidden = true;
        screen.apply(covered);
        screen.apply(frame(5, FrameKind::Custom, None, &["dialog"]));
        assert_eq!(screen.base_lines(), ["above", "dialog", "below", "footer"]);
        let mut closed = frame(5, FrameKind::Custom, None, &[]);
        closed.closed = true;
        screen.apply(closed);
        screen.apply(frame(2, FrameKind::Editor, None, &["─ editor ─", "text"]));
        assert_eq!(screen.base_lines(), ["above", "─ editor ─", "text", "below", "footer"]);
    }

    #[test]
    fn an_overlay_is_drawn_centred_over_the_rest() {
        let mut screen = Screen::default();
        screen.apply(frame(1, FrameKind::Custom, None, &["base"]));
        screen.apply(frame(2, FrameKind::Overlay, None, &["\x1b[1mbox\x1b[22m", "abc"]));
        let drawn = screen.render(TerminalSize { columns: 11, rows: 4 });
        // Rows 2 and 3 of 4, columns 5 to 7 of 11.
        assert!(drawn.contains("\x1b[2;5H\x1b[0m\x1b[1mbox"), "{drawn:?}");
        assert!(drawn.contains("\x1b[3;5H\x1b[0mabc"), "{drawn:?}");
        assert!(
            drawn.find("base") < drawn.find("box"),
            "the overlay is drawn last: {drawn:?}"
        );
    }

    #[test]
    fn a_screen_too_short_shows_the_bottom() {
        let mut screen = Screen::default();
        screen.apply(frame(1, FrameKind::Custom, None, &["one", "two", "three"]));
        let drawn = screen.render(TerminalSize { columns: 10, rows: 2 });
        assert!(!drawn.contains("one") && drawn.contains("two") && drawn.contains("three"));
    }

    #[test]
    fn escape_sequences_take_no_cells() {
        assert_eq!(visible_width("\x1b[31mré\x1b[0m\x1b]8;;https://x\x07d"), 3);
        assert_eq!(visible_width("日本"), 4);
    }
}
