//! The searches behind pi's grep and find tools, done in Rust with
//! ripgrep's own crates (`ignore` for the walk, `grep-regex` and
//! `grep-searcher` for matching), so pihost needs neither `rg` nor `fd`
//! installed. The semantics they reproduce (rg 13 / fd 8.6 as pi runs them:
//! hidden files searched, .gitignore inside repositories, `--sort path`
//! order, rg's binary detection, fd's smart case) are written down in
//! `js/pi/coding-agent/search-backend.js`, which calls these ops; the tools'
//! limits and formatting stay in JS.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use deno_core::{OpState, op2};
use deno_error::JsErrorBox;
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::WalkBuilder;
use ignore::overrides::OverrideBuilder;

/// What the grep tool asks for.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepRequest {
    pattern: String,
    #[serde(default)]
    ignore_case: bool,
    #[serde(default)]
    literal: bool,
    #[serde(default)]
    glob: Option<String>,
    #[serde(default)]
    context: usize,
    max_matches: usize,
}

/// One line rg would report: a match or a context line.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepEvent {
    #[serde(rename = "type")]
    kind: &'static str,
    path: String,
    line_number: u64,
    text: String,
}

/// The lines found, in rg's `--sort path` order.
#[derive(serde::Serialize)]
pub struct GrepResult {
    events: Vec<GrepEvent>,
}

/// What the find tool asks for.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FindRequest {
    pattern: String,
    #[serde(default)]
    full_path: bool,
    #[serde(default)]
    ignore_case: bool,
    max_results: usize,
    #[serde(default = "yes")]
    require_git: bool,
}

fn yes() -> bool {
    true
}

/// The entries found: absolute paths, directories ending in `/`.
#[derive(serde::Serialize)]
pub struct FindResult {
    paths: Vec<String>,
}

/// The walk rg and fd do with `--hidden`: hidden entries included, links
/// not followed, ignore files of the tree and its parents honoured.
fn walker(root: &Path, require_git: bool) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .follow_links(false)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .require_git(require_git)
        .sort_by_file_name(|a, b| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
    builder
}

/// The lines found so far across files, against the match limit.
struct Tally {
    events: Vec<GrepEvent>,
    matches: usize,
    max_matches: usize,
    context: usize,
}

impl Tally {
    /// Searches one file, its lines reported under `shown_path`.
    fn search(
        &mut self,
        searcher: &mut Searcher,
        matcher: &grep_regex::RegexMatcher,
        file: &Path,
        shown_path: &str,
    ) -> std::io::Result<()> {
        let mut collector = LineCollector {
            path: shown_path,
            tally: self,
            last_line: None,
        };
        searcher.search_path(matcher, file, &mut collector)
    }

    fn limit_reached(&self) -> bool {
        self.matches >= self.max_matches
    }
}

/// Collects one file's lines as rg reports them, and tells the walk when
/// the match limit (plus the last match's trailing context) is reached.
struct LineCollector<'a> {
    path: &'a str,
    tally: &'a mut Tally,
    /// The last line to report once the limit is reached.
    last_line: Option<u64>,
}

impl LineCollector<'_> {
    fn push(&mut self, kind: &'static str, line_number: Option<u64>, bytes: &[u8]) -> bool {
        let line_number = line_number.unwrap_or(0);
        if let Some(last) = self.last_line
            && line_number > last
        {
            return false;
        }
        self.tally.events.push(GrepEvent {
            kind,
            path: self.path.to_string(),
            line_number,
            text: String::from_utf8_lossy(bytes).into_owned(),
        });
        true
    }
}

impl Sink for LineCollector<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _searcher: &Searcher, found: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        if !self.push("match", found.line_number(), found.bytes()) {
            return Ok(false);
        }
        if self.last_line.is_none() {
            self.tally.matches += 1;
            if self.tally.limit_reached() {
                self.last_line = Some(found.line_number().unwrap_or(0) + self.tally.context as u64);
            }
        }
        Ok(true)
    }

    fn context(&mut self, _searcher: &Searcher, line: &SinkContext<'_>) -> Result<bool, Self::Error> {
        Ok(self.push("context", line.line_number(), line.bytes()))
    }
}

fn grep(search_path: &Path, request: &GrepRequest) -> Result<GrepResult, String> {
    let matcher = RegexMatcherBuilder::new()
        .case_insensitive(request.ignore_case)
        .fixed_strings(request.literal)
        .line_terminator(Some(b'\n'))
        .build(&request.pattern)
        .map_err(|error| pattern_error(&request.pattern, request.literal, &error))?;
    let mut tally = Tally {
        events: Vec::new(),
        matches: 0,
        max_matches: request.max_matches.max(1),
        context: request.context,
    };
    if search_path.is_file() {
        // A file named outright is searched as text, NUL bytes and all.
        let mut searcher = searcher(request.context, BinaryDetection::none());
        let path = search_path.display().to_string();
        tally
            .search(&mut searcher, &matcher, search_path, &path)
            .map_err(|error| format!("{path}: {error}"))?;
        return Ok(GrepResult { events: tally.events });
    }
    let mut walk = walker(search_path, true);
    if let Some(glob) = &request.glob {
        let mut overrides = OverrideBuilder::new(search_path);
        overrides.add(glob).map_err(|error| error.to_string())?;
        walk.overrides(overrides.build().map_err(|error| error.to_string())?);
    }
    let mut searcher = searcher(request.context, BinaryDetection::quit(0));
    for entry in walk.build() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            continue;
        }
        let relative = entry.path().strip_prefix(search_path).unwrap_or(entry.path());
        let path = relative.to_string_lossy().into_owned();
        // An unreadable file is skipped, as rg reports it on stderr and goes on.
        let _ = tally.search(&mut searcher, &matcher, entry.path(), &path);
        if tally.limit_reached() {
            break;
        }
    }
    Ok(GrepResult { events: tally.events })
}

/// rg's text for a bad pattern: grep-regex wraps the pattern before parsing,
/// so its own error would quote the wrapped form; the pattern alone is
/// parsed again for the message rg prints.
fn pattern_error(pattern: &str, literal: bool, error: &grep_regex::Error) -> String {
    if !literal && let Err(syntax) = regex_syntax::Parser::new().parse(pattern) {
        return syntax.to_string();
    }
    error.to_string()
}

fn searcher(context: usize, binary: BinaryDetection) -> Searcher {
    SearcherBuilder::new()
        .line_number(true)
        .before_context(context)
        .after_context(context)
        .binary_detection(binary)
        .bom_sniffing(true)
        .build()
}

/// fd's smart case: a pattern without upper-case letters ignores case.
fn smart_case(pattern: &str) -> bool {
    !pattern.chars().any(char::is_uppercase)
}

fn find(search_path: &Path, request: &FindRequest) -> Result<FindResult, String> {
    if !search_path.is_dir() {
        return Err(format!(
            "[fd error]: Search path '{}' is not a directory.\n[fd error]: No valid search paths given.",
            search_path.display()
        ));
    }
    let glob = globset::GlobBuilder::new(&request.pattern)
        .literal_separator(true)
        .case_insensitive(request.ignore_case || smart_case(&request.pattern))
        .build()
        .map_err(|error| format!("[fd error]: {error}"))?
        .compile_matcher();
    let mut found: Vec<(PathBuf, bool)> = Vec::new();
    for entry in walker(search_path, request.require_git).build() {
        let Ok(entry) = entry else { continue };
        if entry.depth() == 0 {
            continue;
        }
        let path = entry.path();
        let matched = if request.full_path {
            glob.is_match(path)
        } else {
            path.file_name().is_some_and(|name| glob.is_match(name))
        };
        if matched {
            let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
            found.push((path.to_path_buf(), is_dir));
        }
    }
    found.sort_by(|(a, _), (b, _)| compare_by_components(a, b));
    let paths = found
        .into_iter()
        .take(request.max_results)
        .map(|(path, is_dir)| {
            let text = path.display().to_string();
            if is_dir { format!("{text}/") } else { text }
        })
        .collect();
    Ok(FindResult { paths })
}

fn compare_by_components(a: &Path, b: &Path) -> Ordering {
    a.components()
        .map(|part| part.as_os_str().as_encoded_bytes())
        .cmp(b.components().map(|part| part.as_os_str().as_encoded_bytes()))
}

/// Runs a walk on tokio's blocking pool, so a large tree never stalls the
/// isolate's event loop; its error text becomes the JS error.
async fn off_the_isolate<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, JsErrorBox> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| JsErrorBox::generic(error.to_string()))?
        .map_err(JsErrorBox::generic)
}

/// A search reads everything under its path.
fn may_read(state: &Rc<RefCell<OpState>>, search_path: &str, api_name: &str) -> Result<(), JsErrorBox> {
    crate::permissions::check_read(
        state.borrow().borrow::<deno_permissions::PermissionsContainer>(),
        Path::new(search_path),
        api_name,
    )
}

/// Matching lines under `search_path` (a directory or one file).
#[op2]
#[serde]
pub async fn op_pihost_search_grep(
    state: Rc<RefCell<OpState>>,
    #[string] search_path: String,
    #[serde] request: GrepRequest,
) -> Result<GrepResult, JsErrorBox> {
    may_read(&state, &search_path, "grep")?;
    off_the_isolate(move || grep(Path::new(&search_path), &request)).await
}

/// Entries under `search_path` whose name (or path) matches a glob.
#[op2]
#[serde]
pub async fn op_pihost_search_find(
    state: Rc<RefCell<OpState>>,
    #[string] search_path: String,
    #[serde] request: FindRequest,
) -> Result<FindResult, JsErrorBox> {
    may_read(&state, &search_path, "find")?;
    off_the_isolate(move || find(Path::new(&search_path), &request)).await
}
