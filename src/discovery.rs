//! Finding extension entry points exactly the way pi 1.6.0 does
//! (`discoverAndLoadExtensions` in `core/extensions/loader.js`), without a JS
//! engine.
//!
//! - D1: sources are scanned in order: `<cwd>/<configDir>/extensions/`, then
//!   `<agentDir>/extensions/`, then the configured paths.
//! - D2: in a scanned directory, an entry named `*.ts`/`*.js` that is a file or
//!   a symlink is an extension; a subdirectory (or symlink) contributes its
//!   `package.json` `pi.extensions` entries or else its `index.ts`/`index.js`.
//!   There is no deeper recursion.
//! - D3: manifest entries that do not exist are dropped; an unusable manifest
//!   or one whose entries all vanish falls back to the index files.
//! - D4: symbolic links count, both as files and as directories.
//! - D5: a configured path is resolved like pi's `resolvePath`; a directory is
//!   tried for manifest/index entries and otherwise scanned as in D2; anything
//!   else is taken as a file path, whether or not it exists.
//! - D6: results are de-duplicated by their lexically normalised absolute path
//!   (no symlink resolution); the first occurrence wins.
//! - D7: a directory that cannot be read yields nothing, silently.
//!
//! Paths are handled as strings with POSIX `node:path` semantics, because pi
//! works on JS strings: names that are not UTF-8 are decoded lossily exactly
//! where Node would do so, and the resulting strings are what pi would report.

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// Default value of pi's `CONFIG_DIR_NAME` (overridable by `piConfig.configDir`).
pub const DEFAULT_CONFIG_DIR_NAME: &str = ".pi";
/// Environment variable that overrides the agent directory.
pub const AGENT_DIR_ENV: &str = "PI_CODING_AGENT_DIR";

/// Inputs of one discovery run, mirroring the arguments of pi's
/// `discoverAndLoadExtensions(configuredPaths, cwd, agentDir)`.
#[derive(Debug, Clone)]
pub struct DiscoveryOptions {
    /// The project directory: `<cwd>/<config_dir_name>/extensions` is scanned
    /// first, and relative configured paths resolve against it.
    pub cwd: PathBuf,
    /// pi's agent directory: `<agent_dir>/extensions` is scanned second.
    pub agent_dir: PathBuf,
    /// The name of pi's config directory (`.pi` unless `piConfig.configDir` says otherwise).
    pub config_dir_name: String,
    /// Extension paths given explicitly (as `pi -e` takes them), taken last (D5).
    pub configured_paths: Vec<String>,
}

impl DiscoveryOptions {
    /// Options as pi builds them by default: agent dir from
    /// [`AGENT_DIR_ENV`] or `~/.pi/agent`, config dir [`DEFAULT_CONFIG_DIR_NAME`].
    pub fn from_env(cwd: PathBuf, configured_paths: Vec<String>) -> Self {
        let env_value = std::env::var_os(AGENT_DIR_ENV);
        let env_value = env_value.as_ref().map(|value| value.to_string_lossy());
        Self {
            cwd,
            agent_dir: agent_dir_from_env(env_value.as_deref(), &home_dir(), DEFAULT_CONFIG_DIR_NAME),
            config_dir_name: DEFAULT_CONFIG_DIR_NAME.to_owned(),
            configured_paths,
        }
    }
}

/// One extension entry point, in discovery order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DiscoveredExtension {
    /// The string pi would use as `Extension.path` (and in load errors).
    pub path: String,
    /// `resolve_user_path(path, cwd)`, i.e. pi's `Extension.resolvedPath`.
    pub resolved_path: PathBuf,
}

/// Raised only where pi itself would throw during discovery.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoveryError {
    /// A `file://` URL that Node's `fileURLToPath` rejects.
    #[error("invalid file URL {url:?}: {reason}")]
    InvalidFileUrl {
        /// The URL as given.
        url: String,
        /// Why Node refuses it.
        reason: &'static str,
    },
}

/// How to treat a `file://` URL that Node would refuse to convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UrlPolicy {
    /// Report it, as pi does by throwing.
    Strict,
    /// Keep the text as an ordinary (relative) path, so the caller sees a
    /// load failure for that one entry instead of losing the whole run.
    Lenient,
}

/// Discovers extension entry points (D1–D7).
///
/// Where pi would throw (a malformed `file://` URL in a configured path, the
/// cwd or the agent dir) the URL text is used as a plain path instead; use
/// [`try_discover`] to get pi's failure.
pub fn discover(options: &DiscoveryOptions) -> Vec<DiscoveredExtension> {
    // Lenient resolution cannot fail, so the fallback is never taken.
    discover_impl(options, &home_dir(), UrlPolicy::Lenient, ScanFolders::BOTH).unwrap_or_default()
}

/// Like [`discover`], but fails wherever pi's discovery would throw.
pub fn try_discover(options: &DiscoveryOptions) -> Result<Vec<DiscoveredExtension>, DiscoveryError> {
    discover_impl(options, &home_dir(), UrlPolicy::Strict, ScanFolders::BOTH)
}

/// Like [`try_discover`], scanning only the folders `scan` names before the
/// configured paths: a resource loader leaves out the project's folder of
/// an untrusted project, and both under `noExtensions`.
pub fn try_discover_scanning(
    options: &DiscoveryOptions,
    scan: ScanFolders,
) -> Result<Vec<DiscoveredExtension>, DiscoveryError> {
    discover_impl(options, &home_dir(), UrlPolicy::Strict, scan)
}

/// Which default extension folders discovery scans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanFolders {
    /// `<cwd>/<config dir>/extensions`.
    pub project: bool,
    /// `<agent dir>/extensions`.
    pub agent: bool,
}

impl ScanFolders {
    /// Both folders, as pi's discovery scans them.
    pub const BOTH: Self = Self {
        project: true,
        agent: true,
    };
    /// Neither: only the configured paths.
    pub const NONE: Self = Self {
        project: false,
        agent: false,
    };
}

/// pi's `resolvePath(input, base, { normalizeUnicodeSpaces: true })`.
///
/// A `file://` URL that Node would reject is treated as a plain path; see
/// [`try_resolve_user_path`].
pub fn resolve_user_path(input: &str, base: &Path) -> PathBuf {
    let home = lossy(&home_dir());
    let resolved = resolve_with(input, &lossy(base), &home, true, UrlPolicy::Lenient);
    PathBuf::from(resolved.unwrap_or_default())
}

/// Like [`resolve_user_path`], but fails where pi's `resolvePath` throws.
pub fn try_resolve_user_path(input: &str, base: &Path) -> Result<PathBuf, DiscoveryError> {
    let home = lossy(&home_dir());
    resolve_with(input, &lossy(base), &home, true, UrlPolicy::Strict).map(PathBuf::from)
}

/// Lexical normalisation as node's `path.resolve` does it for an absolute
/// path: drops `.`, resolves `..` (never above the root), collapses repeated
/// separators and removes a trailing one. Never touches the file system, so
/// symlinks are not resolved. A relative path stays relative (leading `..`
/// kept, empty becomes `.`) because resolving it would need the process cwd.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut parts: Vec<Component<'_>> = Vec::new();
    let mut rooted = false;
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => {
                rooted = true;
                parts.push(component);
            }
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                // `..` at the root is the root.
                Some(Component::Prefix(_) | Component::RootDir) => {}
                _ if rooted => {}
                _ => parts.push(component),
            },
            Component::Normal(_) => parts.push(component),
        }
    }
    if parts.is_empty() {
        return PathBuf::from(".");
    }
    parts.iter().collect()
}

/// pi's `getAgentDir()`: a non-empty env value with `~`/`file://` expanded
/// (but otherwise untouched, as pi leaves it), else `<home>/<configDir>/agent`.
pub fn agent_dir_from_env(env_value: Option<&str>, home: &Path, config_dir_name: &str) -> PathBuf {
    let home = lossy(home);
    match env_value {
        Some(value) if !value.is_empty() => {
            PathBuf::from(normalize_input(value, &home, false, UrlPolicy::Lenient).unwrap_or_default())
        }
        _ => PathBuf::from(posix_join(&[&home, config_dir_name, "agent"])),
    }
}

/// The home directory used for `~` expansion: `$HOME`, else `/` (Node would
/// consult the password database instead; pihost does not).
pub fn home_dir() -> PathBuf {
    match std::env::var_os("HOME") {
        Some(home) if !home.is_empty() => PathBuf::from(home),
        _ => PathBuf::from("/"),
    }
}

/// pi's `discoverExtensionsInDir`: the D2 scan of one directory (D4, D7).
pub fn discover_in_dir(dir: &Path) -> Vec<String> {
    scan_dir(&lossy(dir))
}

/// pi's `resolveExtensionEntries`: manifest entries, else the index file, of
/// one directory (D2, D3); `None` when it has neither.
pub fn extension_entries(dir: &Path) -> Option<Vec<String>> {
    entries_of(&lossy(dir))
}

fn discover_impl(
    options: &DiscoveryOptions,
    home: &Path,
    policy: UrlPolicy,
    scan: ScanFolders,
) -> Result<Vec<DiscoveredExtension>, DiscoveryError> {
    let home = lossy(home);
    // pi resolves both directories against the process cwd, not the cwd option.
    let process_dir = process_cwd();
    let cwd = resolve_with(&lossy(&options.cwd), &process_dir, &home, false, policy)?;
    let agent_dir = resolve_with(&lossy(&options.agent_dir), &process_dir, &home, false, policy)?;

    let mut found = Dedup::default();
    if scan.project {
        found.extend(scan_dir(&posix_join(&[&cwd, &options.config_dir_name, "extensions"])));
    }
    if scan.agent {
        found.extend(scan_dir(&posix_join(&[&agent_dir, "extensions"])));
    }
    for configured in &options.configured_paths {
        let resolved = resolve_with(configured, &cwd, &home, true, policy)?;
        if fs::metadata(&resolved).is_ok_and(|meta| meta.is_dir()) {
            match entries_of(&resolved) {
                Some(entries) => found.extend(entries),
                None => found.extend(scan_dir(&resolved)),
            }
        } else {
            found.extend([resolved]);
        }
    }

    Ok(found
        .paths
        .into_iter()
        .map(|path| {
            // Discovered paths are absolute, so this is the same lexical
            // clean-up pi applies when it loads them.
            let resolved = resolve_with(&path, &cwd, &home, true, UrlPolicy::Lenient);
            DiscoveredExtension {
                resolved_path: PathBuf::from(resolved.unwrap_or_else(|_| path.clone())),
                path,
            }
        })
        .collect())
}

/// Keeps discovery order while dropping later spellings of the same path (D6).
#[derive(Default)]
struct Dedup {
    seen: HashSet<String>,
    paths: Vec<String>,
}

impl Dedup {
    fn extend(&mut self, paths: impl IntoIterator<Item = String>) {
        for path in paths {
            let key = posix_resolve(&[&path]);
            if self.seen.insert(key) {
                self.paths.push(path);
            }
        }
    }
}

fn scan_dir(dir: &str) -> Vec<String> {
    // Any read error makes pi's whole scan of this directory yield nothing.
    let Ok(reader) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut entries = Vec::new();
    for entry in reader {
        let Ok(entry) = entry else {
            return Vec::new();
        };
        let Ok(file_type) = entry.file_type() else {
            return Vec::new();
        };
        entries.push((entry.file_name(), file_type));
    }
    // libuv sorts scandir results with strcmp, i.e. by raw bytes.
    entries.sort_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));

    let mut found = Vec::new();
    for (name, file_type) in entries {
        // Node hands names to JS as lossily decoded UTF-8; every later check
        // uses that string, so a non-UTF-8 name is looked up under the wrong
        // spelling there too.
        let name = name.to_string_lossy();
        let entry_path = posix_join(&[dir, &name]);
        // The type is the entry's own (lstat-like): a symlink named `x.ts`
        // is taken even when it points at a directory or nowhere.
        if (file_type.is_file() || file_type.is_symlink()) && is_extension_file(&name) {
            found.push(entry_path);
        } else if file_type.is_dir() || file_type.is_symlink() {
            found.extend(entries_of(&entry_path).unwrap_or_default());
        }
    }
    found
}

/// pi checks only these two suffixes, so `.mts`, `.tsx` or `.TS` are not
/// extensions while `x.d.ts` and a bare `.ts` are.
fn is_extension_file(name: &str) -> bool {
    name.ends_with(".ts") || name.ends_with(".js")
}

fn entries_of(dir: &str) -> Option<Vec<String>> {
    let manifest = posix_join(&[dir, "package.json"]);
    if exists(&manifest)
        && let Some(declared) = read_manifest_extensions(&manifest)
    {
        let present: Vec<String> = declared
            .iter()
            .map(|entry| posix_resolve(&[dir, entry]))
            .filter(|entry| exists(entry))
            .collect();
        if !present.is_empty() {
            return Some(present);
        }
    }
    ["index.ts", "index.js"]
        .into_iter()
        .map(|index| posix_join(&[dir, index]))
        .find(|index| exists(index))
        .map(|index| vec![index])
}

/// Node's `existsSync`: follows symlinks, and any error means "no".
fn exists(path: &str) -> bool {
    fs::metadata(path).is_ok()
}

/// `pi.extensions` of a package.json as pi's `readPiManifest` reads it.
/// `None` covers every way pi ends up without a list (unreadable file,
/// invalid JSON, `pi` not an object, `extensions` not an array of strings),
/// because they all lead to the same index fallback.
fn read_manifest_extensions(path: &str) -> Option<Vec<String>> {
    let bytes = fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    // serde_json is slightly stricter than JSON.parse: a manifest with a lone
    // surrogate escape or a number beyond f64 reads as "no manifest" here
    // (listed under known differences in the README).
    let root: serde_json::Value = serde_json::from_str(text).ok()?;
    root.get("pi")?
        .as_object()?
        .get("extensions")?
        .as_array()?
        .iter()
        .map(|entry| entry.as_str().map(str::to_owned))
        .collect()
}

fn lossy(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn process_cwd() -> String {
    std::env::current_dir()
        .map(|dir| lossy(&dir))
        .unwrap_or_else(|_| "/".to_owned())
}

/// pi's `resolvePath(input, base, { normalizeUnicodeSpaces })`.
fn resolve_with(
    input: &str,
    base: &str,
    home: &str,
    unicode_spaces: bool,
    policy: UrlPolicy,
) -> Result<String, DiscoveryError> {
    let input = normalize_input(input, home, unicode_spaces, policy)?;
    if input.starts_with('/') {
        return Ok(posix_resolve(&[&input]));
    }
    let base = normalize_input(base, home, false, policy)?;
    Ok(posix_resolve(&[&base, &input]))
}

/// pi's `normalizePath`: unicode spaces, then `~`, then `file://` URLs.
fn normalize_input(input: &str, home: &str, unicode_spaces: bool, policy: UrlPolicy) -> Result<String, DiscoveryError> {
    let input: String = if unicode_spaces {
        input
            .chars()
            .map(|c| if is_unicode_space(c) { ' ' } else { c })
            .collect()
    } else {
        input.to_owned()
    };
    if input == "~" {
        return Ok(home.to_owned());
    }
    if let Some(rest) = input.strip_prefix("~/") {
        return Ok(posix_join(&[home, rest]));
    }
    if input.starts_with("file://") {
        return match file_url_to_path(&input) {
            Ok(path) => Ok(path),
            Err(reason) => match policy {
                UrlPolicy::Strict => Err(DiscoveryError::InvalidFileUrl { url: input, reason }),
                UrlPolicy::Lenient => Ok(input),
            },
        };
    }
    Ok(input)
}

fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Node's `url.fileURLToPath` on POSIX for a string starting with `file://`:
/// WHATWG URL parsing of the host and path, then `decodeURIComponent`.
fn file_url_to_path(url: &str) -> Result<String, &'static str> {
    const BAD_HOST: &str = "File URL host must be \"localhost\" or empty";
    let trimmed = url.trim_end_matches(|c: char| c <= ' ');
    let cleaned: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    let after_scheme = cleaned.get("file://".len()..).unwrap_or_default();
    let before_query = after_scheme
        .find(['?', '#'])
        .map_or(after_scheme, |end| &after_scheme[..end]);
    let host_end = before_query.find('/').unwrap_or(before_query.len());
    let (host, rest) = before_query.split_at(host_end);

    let raw_path = if is_windows_drive_letter(host) {
        // The URL parser reads `file://C:/x` as a path beginning with a drive.
        before_query
    } else {
        let host = percent_decode_lossy(host).to_ascii_lowercase();
        if !host.is_empty() && host != "localhost" {
            return Err(BAD_HOST);
        }
        rest.strip_prefix('/').unwrap_or(rest)
    };

    let mut segments: Vec<String> = Vec::new();
    let raw_segments: Vec<&str> = raw_path.split('/').collect();
    for (index, segment) in raw_segments.iter().enumerate() {
        let is_last = index + 1 == raw_segments.len();
        let lower = segment.to_ascii_lowercase();
        if matches!(lower.as_str(), ".." | ".%2e" | "%2e." | "%2e%2e") {
            // A lone drive letter is never popped off a file URL's path.
            let drive_only = segments.len() == 1 && is_windows_drive_letter(&segments[0]);
            if !drive_only {
                segments.pop();
            }
            if is_last {
                segments.push(String::new());
            }
        } else if matches!(lower.as_str(), "." | "%2e") {
            if is_last {
                segments.push(String::new());
            }
        } else if segments.is_empty() && is_windows_drive_letter(segment) {
            segments.push(format!("{}:", &segment[..1]));
        } else {
            segments.push((*segment).to_owned());
        }
    }
    let pathname = format!("/{}", segments.join("/"));
    if pathname.to_ascii_lowercase().contains("%2f") {
        return Err("File URL path must not include encoded / characters");
    }
    decode_uri_component(&pathname).ok_or("URI malformed")
}

fn is_windows_drive_letter(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 2 && bytes[0].is_ascii_alphabetic() && matches!(bytes[1], b':' | b'|')
}

fn hex_byte(bytes: &[u8], at: usize) -> Option<u8> {
    let digits = bytes.get(at + 1..at + 3)?;
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u8::from_str_radix(text, 16).ok()
}

/// WHATWG percent-decoding: malformed escapes stay as they are.
fn percent_decode_lossy(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], hex_byte(bytes, i)) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// ECMAScript `decodeURIComponent`: `None` where it throws a URIError.
fn decode_uri_component(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let lead = hex_byte(bytes, i)?;
        i += 3;
        let len = match lead {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return None,
        };
        let mut sequence = vec![lead];
        for _ in 1..len {
            if bytes.get(i) != Some(&b'%') {
                return None;
            }
            let byte = hex_byte(bytes, i)?;
            if byte & 0xC0 != 0x80 {
                return None;
            }
            sequence.push(byte);
            i += 3;
        }
        // Rejects overlong forms, surrogates and code points past U+10FFFF,
        // exactly the sequences the spec's Decode throws on.
        std::str::from_utf8(&sequence).ok()?;
        out.extend(sequence);
    }
    String::from_utf8(out).ok()
}

/// Node's `normalizeString`: the segment-level core of `path.normalize`.
fn posix_normalize_segments(path: &str, allow_above_root: bool) -> String {
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if segments.last().is_some_and(|last| *last != "..") {
                    segments.pop();
                } else if allow_above_root {
                    segments.push("..");
                }
            }
            _ => segments.push(segment),
        }
    }
    segments.join("/")
}

/// Node's `path.posix.normalize`.
fn posix_normalize(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let absolute = path.starts_with('/');
    let trailing = path.ends_with('/');
    let mut normalized = posix_normalize_segments(path, !absolute);
    if normalized.is_empty() {
        return match (absolute, trailing) {
            (true, _) => "/".to_owned(),
            (false, true) => "./".to_owned(),
            (false, false) => ".".to_owned(),
        };
    }
    if trailing {
        normalized.push('/');
    }
    if absolute {
        normalized.insert(0, '/');
    }
    normalized
}

/// Node's `path.posix.join`.
fn posix_join(parts: &[&str]) -> String {
    let joined = parts
        .iter()
        .copied()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("/");
    if joined.is_empty() {
        return ".".to_owned();
    }
    posix_normalize(&joined)
}

/// Node's `path.posix.resolve`, falling back to the process cwd.
fn posix_resolve(parts: &[&str]) -> String {
    let mut resolved = String::new();
    let mut absolute = false;
    for part in parts.iter().rev().filter(|part| !part.is_empty()) {
        resolved = format!("{part}/{resolved}");
        if part.starts_with('/') {
            absolute = true;
            break;
        }
    }
    if !absolute {
        let cwd = process_cwd();
        absolute = cwd.starts_with('/');
        resolved = format!("{cwd}/{resolved}");
    }
    let normalized = posix_normalize_segments(&resolved, !absolute);
    if absolute {
        format!("/{normalized}")
    } else if normalized.is_empty() {
        ".".to_owned()
    } else {
        normalized
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;
    use tempfile::TempDir;

    const EXT: &str = "export default function () {}\n";

    /// A temp tree with canonical root, so expected strings are predictable.
    struct Tree {
        _tmp: TempDir,
        root: PathBuf,
    }

    impl Tree {
        fn new() -> io::Result<Self> {
            let tmp = TempDir::new()?;
            let root = fs::canonicalize(tmp.path())?;
            Ok(Self { _tmp: tmp, root })
        }

        fn path(&self, rel: &str) -> PathBuf {
            self.root.join(rel)
        }

        fn s(&self, rel: &str) -> String {
            lossy(&self.path(rel))
        }

        fn file(&self, rel: &str) -> io::Result<()> {
            self.write(rel, EXT)
        }

        fn write(&self, rel: &str, contents: &str) -> io::Result<()> {
            let path = self.path(rel);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(path, contents)
        }

        fn dir(&self, rel: &str) -> io::Result<()> {
            fs::create_dir_all(self.path(rel))
        }

        #[cfg(unix)]
        fn symlink(&self, target: &str, rel: &str) -> io::Result<()> {
            std::os::unix::fs::symlink(target, self.path(rel))
        }

        /// cwd = `<root>/proj`, agent dir = `<root>/agent`.
        fn options(&self, configured: &[&str]) -> DiscoveryOptions {
            DiscoveryOptions {
                cwd: self.path("proj"),
                agent_dir: self.path("agent"),
                config_dir_name: DEFAULT_CONFIG_DIR_NAME.to_owned(),
                configured_paths: configured.iter().map(|p| (*p).to_owned()).collect(),
            }
        }

        fn discover(&self, options: &DiscoveryOptions) -> Vec<String> {
            paths_of(
                &discover_impl(options, &self.path("home"), UrlPolicy::Lenient, ScanFolders::BOTH).unwrap_or_default(),
            )
        }
    }

    fn paths_of(found: &[DiscoveredExtension]) -> Vec<String> {
        found.iter().map(|e| e.path.clone()).collect()
    }

    #[test]
    fn d1_sources_in_order_local_agent_configured() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/.pi/extensions/z.ts")?;
        t.file("agent/extensions/a.ts")?;
        t.file("proj/cfg.ts")?;
        let found = t.discover(&t.options(&["cfg.ts"]));
        assert_eq!(
            found,
            [
                t.s("proj/.pi/extensions/z.ts"),
                t.s("agent/extensions/a.ts"),
                t.s("proj/cfg.ts")
            ]
        );
        Ok(())
    }

    #[test]
    fn d1_config_dir_name_is_a_setting() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/.pi/extensions/default.ts")?;
        t.file("proj/.tau/extensions/custom.ts")?;
        let mut options = t.options(&[]);
        options.config_dir_name = ".tau".to_owned();
        assert_eq!(t.discover(&options), [t.s("proj/.tau/extensions/custom.ts")]);
        Ok(())
    }

    #[test]
    fn d1_agent_dir_from_env() {
        let home = Path::new("/home/u");
        // Compared as raw strings: Path equality would ignore `.` and `/`.
        let agent = |value: Option<&str>, config: &str| lossy(&agent_dir_from_env(value, home, config));
        assert_eq!(agent(None, ".pi"), "/home/u/.pi/agent");
        // An empty value is falsy in pi and falls back too.
        assert_eq!(agent(Some(""), ".pi"), "/home/u/.pi/agent");
        assert_eq!(agent(None, ".tau"), "/home/u/.tau/agent");
        assert_eq!(agent(Some("~"), ".pi"), "/home/u");
        assert_eq!(agent(Some("~/a//b/"), ".pi"), "/home/u/a/b/");
        // pi leaves other values untouched until discovery resolves them.
        assert_eq!(agent(Some("/x/./y/"), ".pi"), "/x/./y/");
        assert_eq!(agent(Some("rel"), ".pi"), "rel");
        assert_eq!(agent(Some("file:///x%20y"), ".pi"), "/x y");
        assert_eq!(agent(Some("~user/x"), ".pi"), "~user/x");
    }

    #[test]
    fn d1_agent_dir_is_resolved_with_tilde() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("home/agentdir/extensions/g.ts")?;
        let mut options = t.options(&[]);
        options.agent_dir = PathBuf::from("~/agentdir/./");
        assert_eq!(t.discover(&options), [t.s("home/agentdir/extensions/g.ts")]);
        Ok(())
    }

    #[test]
    fn d6_dedup_across_sources_first_wins() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/.pi/extensions/a.ts")?;
        t.file("proj/b.ts")?;
        // The agent dir is the project config dir, so everything repeats.
        let mut options = t.options(&[".pi/extensions/a.ts", "b.ts", ".pi/extensions", "b.ts"]);
        options.agent_dir = t.path("proj/.pi");
        assert_eq!(
            t.discover(&options),
            [t.s("proj/.pi/extensions/a.ts"), t.s("proj/b.ts")]
        );
        Ok(())
    }

    #[test]
    fn d6_same_file_two_spellings() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/ext.ts")?;
        t.dir("proj/x")?;
        let found = t.discover(&t.options(&["./x/../ext.ts", "ext.ts", "x//..//ext.ts/"]));
        assert_eq!(found, [t.s("proj/ext.ts")]);
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d6_no_realpath_in_dedup() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/real/ext.ts")?;
        t.symlink("real", "proj/alias")?;
        let found = t.discover(&t.options(&["real/ext.ts", "alias/ext.ts"]));
        assert_eq!(found, [t.s("proj/real/ext.ts"), t.s("proj/alias/ext.ts")]);
        Ok(())
    }

    #[test]
    fn d2_byte_order_sorting() -> io::Result<()> {
        let t = Tree::new()?;
        for name in ["b.ts", "B.ts", "a.js", "_.ts", "Z.js", "é.ts", "e.ts", "10.ts", "9.ts"] {
            t.file(&format!("ext/{name}"))?;
        }
        let expected: Vec<String> = ["10.ts", "9.ts", "B.ts", "Z.js", "_.ts", "a.js", "b.ts", "e.ts", "é.ts"]
            .iter()
            .map(|name| t.s(&format!("ext/{name}")))
            .collect();
        assert_eq!(discover_in_dir(&t.path("ext")), expected);
        Ok(())
    }

    #[test]
    fn d2_direct_files_by_suffix_only() -> io::Result<()> {
        let t = Tree::new()?;
        for name in [
            "a.ts", "b.js", "c.d.ts", ".ts", "d.md", "e.tsx", "f.mts", "g.cjs", "h.TS", "i.json", "ts",
        ] {
            t.file(&format!("ext/{name}"))?;
        }
        let expected: Vec<String> = [".ts", "a.ts", "b.js", "c.d.ts"]
            .iter()
            .map(|name| t.s(&format!("ext/{name}")))
            .collect();
        assert_eq!(discover_in_dir(&t.path("ext")), expected);
        Ok(())
    }

    #[test]
    fn d2_directory_named_like_a_file_is_a_subdirectory() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("ext/pkg.ts/index.ts")?;
        t.dir("ext/empty.js")?;
        assert_eq!(discover_in_dir(&t.path("ext")), [t.s("ext/pkg.ts/index.ts")]);
        Ok(())
    }

    #[test]
    fn d2_d3_manifest_existing_missing_and_directory_entries() -> io::Result<()> {
        let t = Tree::new()?;
        t.write(
            "ext/pkg/package.json",
            r#"{"name":"p","pi":{"extensions":["src/main.ts","missing.ts","./lib","../outside.js","/nope/x.ts"]}}"#,
        )?;
        t.file("ext/pkg/src/main.ts")?;
        t.dir("ext/pkg/lib")?;
        t.file("ext/pkg/index.ts")?;
        t.file("ext/outside.js")?;
        assert_eq!(
            extension_entries(&t.path("ext/pkg")),
            Some(vec![
                t.s("ext/pkg/src/main.ts"),
                t.s("ext/pkg/lib"),
                t.s("ext/outside.js")
            ])
        );
        Ok(())
    }

    #[test]
    fn d3_manifest_empty_string_entry_is_the_directory_itself() -> io::Result<()> {
        let t = Tree::new()?;
        t.write("pkg/package.json", r#"{"pi":{"extensions":[""]}}"#)?;
        assert_eq!(extension_entries(&t.path("pkg")), Some(vec![t.s("pkg")]));
        Ok(())
    }

    #[test]
    fn d3_manifest_non_string_entry_falls_back_to_index() -> io::Result<()> {
        let t = Tree::new()?;
        t.write("pkg/package.json", r#"{"pi":{"extensions":["a.ts", 3]}}"#)?;
        t.file("pkg/a.ts")?;
        t.file("pkg/index.js")?;
        assert_eq!(extension_entries(&t.path("pkg")), Some(vec![t.s("pkg/index.js")]));
        Ok(())
    }

    #[test]
    fn d3_manifest_all_missing_falls_back_to_index_ts() -> io::Result<()> {
        let t = Tree::new()?;
        t.write("pkg/package.json", r#"{"pi":{"extensions":["gone.ts"]}}"#)?;
        t.file("pkg/index.ts")?;
        t.file("pkg/index.js")?;
        assert_eq!(extension_entries(&t.path("pkg")), Some(vec![t.s("pkg/index.ts")]));
        // Nothing to fall back to: the directory yields nothing.
        t.write("bare/package.json", r#"{"pi":{"extensions":["gone.ts"]}}"#)?;
        assert_eq!(extension_entries(&t.path("bare")), None);
        Ok(())
    }

    #[test]
    fn d3_unusable_manifests_count_as_none() -> io::Result<()> {
        let t = Tree::new()?;
        let cases = [
            "not json",
            r#"{"pi":{"extensions":["a.ts"]}} trailing"#,
            r#"{"pi":[]}"#,
            r#"{"pi":"a.ts"}"#,
            r#"[{"pi":{"extensions":["a.ts"]}}]"#,
            r#"{"pi":{"extensions":"a.ts"}}"#,
            r#"{"pi":{"extensions":[]}}"#,
            r#"{"pi":{"extensions":["a.ts",]}}"#,
        ];
        for (n, manifest) in cases.iter().enumerate() {
            let dir = format!("c{n}");
            t.write(&format!("{dir}/package.json"), manifest)?;
            t.file(&format!("{dir}/a.ts"))?;
            t.file(&format!("{dir}/index.js"))?;
            assert_eq!(
                extension_entries(&t.path(&dir)),
                Some(vec![t.s(&format!("{dir}/index.js"))]),
                "manifest {manifest}"
            );
        }
        // A package.json that is a directory cannot be read either.
        t.dir("d/package.json")?;
        t.file("d/index.ts")?;
        assert_eq!(extension_entries(&t.path("d")), Some(vec![t.s("d/index.ts")]));
        Ok(())
    }

    #[test]
    fn d3_manifest_with_bom_and_json_parse_leniencies() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("pkg/a.ts")?;
        t.file("pkg/b.ts")?;
        t.file("pkg/index.ts")?;
        let cases = [
            "\u{feff}{\"pi\":{\"extensions\":[\"a.ts\"]}}",
            // Last duplicate key wins, as in JSON.parse.
            r#"{"pi":{"extensions":["b.ts"]},"pi":{"extensions":["a.ts"]}}"#,
            r#"{"pi":{"extensions":["b.ts"],"extensions":["a.ts"]}}"#,
            r#"{"pi":{"extensions":["\u0061.ts"]}}"#,
        ];
        for manifest in cases {
            t.write("pkg/package.json", manifest)?;
            assert_eq!(
                extension_entries(&t.path("pkg")),
                Some(vec![t.s("pkg/a.ts")]),
                "{manifest}"
            );
        }
        Ok(())
    }

    #[test]
    fn d2_index_ts_preferred_over_index_js() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("ext/both/index.ts")?;
        t.file("ext/both/index.js")?;
        t.file("ext/js/index.js")?;
        assert_eq!(
            discover_in_dir(&t.path("ext")),
            [t.s("ext/both/index.ts"), t.s("ext/js/index.js")]
        );
        Ok(())
    }

    #[test]
    fn d2_empty_subdir_and_no_recursion() -> io::Result<()> {
        let t = Tree::new()?;
        t.dir("ext/empty")?;
        t.file("ext/deep/nested/index.ts")?;
        t.file("ext/deep/nested/x.ts")?;
        t.file("ext/deep/other.ts")?;
        assert!(discover_in_dir(&t.path("ext")).is_empty());
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d4_symlinked_file_and_directory() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("targets/real.ts")?;
        t.file("targets/pkg/index.ts")?;
        t.dir("ext")?;
        t.symlink("../targets/real.ts", "ext/link.ts")?;
        t.symlink("../targets/pkg", "ext/linkdir")?;
        // A symlink without an extension suffix pointing at a file is probed
        // as a directory and yields nothing.
        t.symlink("../targets/real.ts", "ext/plainlink")?;
        assert_eq!(
            discover_in_dir(&t.path("ext")),
            [t.s("ext/link.ts"), t.s("ext/linkdir/index.ts")]
        );
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d4_symlink_named_ts_is_a_file_even_if_dir_or_dangling() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("targets/pkg/index.ts")?;
        t.dir("ext")?;
        t.symlink("../targets/pkg", "ext/dir.ts")?;
        t.symlink("../nowhere", "ext/dangling.js")?;
        assert_eq!(
            discover_in_dir(&t.path("ext")),
            [t.s("ext/dangling.js"), t.s("ext/dir.ts")]
        );
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d2_other_file_types_are_ignored() -> io::Result<()> {
        let t = Tree::new()?;
        t.dir("ext")?;
        let _socket = std::os::unix::net::UnixListener::bind(t.path("ext/sock.ts"))?;
        t.file("ext/z.ts")?;
        assert_eq!(discover_in_dir(&t.path("ext")), [t.s("ext/z.ts")]);
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d2_non_utf8_names_are_decoded_like_node() -> io::Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let t = Tree::new()?;
        t.dir("ext")?;
        let raw = |name: &[u8]| t.path("ext").join(std::ffi::OsStr::from_bytes(name));
        fs::write(raw(b"f\xff.ts"), EXT)?;
        fs::create_dir(raw(b"d\xff"))?;
        fs::write(raw(b"d\xff").join("index.ts"), EXT)?;
        // The file is reported under its lossy name; the directory's index is
        // looked up under that lossy name and so is not found.
        assert_eq!(discover_in_dir(&t.path("ext")), [t.s("ext/f\u{fffd}.ts")]);
        Ok(())
    }

    #[test]
    fn d5_configured_directory_with_entries_or_scanned() -> io::Result<()> {
        let t = Tree::new()?;
        t.write("proj/withman/package.json", r#"{"pi":{"extensions":["main.ts"]}}"#)?;
        t.file("proj/withman/main.ts")?;
        t.file("proj/withman/other.ts")?;
        t.file("proj/withindex/index.js")?;
        t.file("proj/withindex/other.ts")?;
        t.file("proj/plain/b.ts")?;
        t.file("proj/plain/a.js")?;
        t.file("proj/plain/sub/index.ts")?;
        let found = t.discover(&t.options(&["withman", "withindex/", "./plain"]));
        assert_eq!(
            found,
            [
                t.s("proj/withman/main.ts"),
                t.s("proj/withindex/index.js"),
                t.s("proj/plain/a.js"),
                t.s("proj/plain/b.ts"),
                t.s("proj/plain/sub/index.ts"),
            ]
        );
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d4_d5_configured_symlink_to_directory_is_a_directory() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("real/x.ts")?;
        t.dir("proj")?;
        t.symlink("../real", "proj/link")?;
        assert_eq!(t.discover(&t.options(&["link"])), [t.s("proj/link/x.ts")]);
        Ok(())
    }

    #[test]
    fn d5_configured_non_directory_taken_as_is() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/notes.md")?;
        let found = t.discover(&t.options(&["missing.ts", "notes.md", "gone/dir/", ""]));
        // "" resolves to the cwd, an existing directory with nothing in it.
        assert_eq!(
            found,
            [t.s("proj/missing.ts"), t.s("proj/notes.md"), t.s("proj/gone/dir")]
        );
        Ok(())
    }

    #[test]
    fn d5_tilde_unicode_space_and_file_url() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("home/my ext.ts")?;
        let configured = [
            "~/my\u{00a0}ext.ts",
            "~",
            "~user/x.ts",
            "file:///abs/a%20b.ts",
            "\u{3000}lead.ts",
        ];
        let found = t.discover(&t.options(&configured));
        // "~" is the home directory itself: scanned, and its only extension
        // is already known.
        assert_eq!(
            found,
            [
                t.s("home/my ext.ts"),
                t.s("proj/~user/x.ts"),
                "/abs/a b.ts".to_owned(),
                t.s("proj/ lead.ts"),
            ]
        );
        Ok(())
    }

    #[test]
    fn d5_resolve_with_cases() {
        let resolve = |input: &str, base: &str| resolve_with(input, base, "/home/u", true, UrlPolicy::Strict);
        let ok = |p: &str| Ok(p.to_owned());
        assert_eq!(resolve("a/../b//c/", "/base"), ok("/base/b/c"));
        assert_eq!(resolve("/x/./y/..", "/base"), ok("/x"));
        assert_eq!(resolve("../../..", "/base"), ok("/"));
        assert_eq!(resolve("", "/base/"), ok("/base"));
        assert_eq!(resolve("~", "/base"), ok("/home/u"));
        assert_eq!(resolve("~/", "/base"), ok("/home/u"));
        assert_eq!(resolve("~/../v", "/base"), ok("/home/v"));
        assert_eq!(resolve("~x", "/base"), ok("/base/~x"));
        assert_eq!(resolve("a", "~/w"), ok("/home/u/w/a"));
        assert_eq!(resolve("a\u{2000}b\u{200a}c\u{202f}d\u{205f}e", "/"), ok("/a b c d e"));
        // Other spaces, like U+2028 and U+FEFF, are left alone.
        assert_eq!(resolve("a\u{2028}\u{feff}", "/"), ok("/a\u{2028}\u{feff}"));
        assert_eq!(resolve("file://localhost/a/b", "/base"), ok("/a/b"));
        assert_eq!(resolve("FILE:///a", "/base"), ok("/base/FILE:/a"));
        assert!(matches!(
            resolve("file://host/a", "/base"),
            Err(DiscoveryError::InvalidFileUrl { .. })
        ));
        // Lenient: the URL text becomes a relative path instead.
        assert_eq!(
            resolve_with("file://host/a", "/base", "/h", true, UrlPolicy::Lenient),
            ok("/base/file:/host/a")
        );
        // Unicode spaces are only replaced when asked for (cwd, agent dir).
        assert_eq!(
            resolve_with("a\u{a0}", "/", "/h", false, UrlPolicy::Strict),
            ok("/a\u{a0}")
        );
    }

    #[test]
    fn d5_file_url_to_path_matches_node() {
        // Expected values recorded from Node 22's url.fileURLToPath.
        let cases: &[(&str, Option<&str>)] = &[
            ("file:///a/b", Some("/a/b")),
            ("file://localhost/a/b", Some("/a/b")),
            ("file://LOCALHOST/a", Some("/a")),
            ("file://%6cocalhost/a", Some("/a")),
            ("file://host/a", None),
            ("file://[::1]/a", None),
            ("file://lo%zz/x", None),
            ("file:///a%20b", Some("/a b")),
            ("file:///a b", Some("/a b")),
            ("file:///a%2Fb", None),
            ("file:///a%2fb", None),
            ("file:///a%zzb", None),
            ("file:///a%ffb", None),
            ("file:///a%", None),
            ("file:///a%2", None),
            ("file:///a/../b", Some("/b")),
            ("file:///a/%2e%2e/b", Some("/b")),
            ("file:///a/./b/.", Some("/a/b/")),
            ("file:///a?x#y", Some("/a")),
            ("file:///a#y", Some("/a")),
            ("file://", Some("/")),
            ("file:///", Some("/")),
            ("file://localhost", Some("/")),
            ("file:///C:/x", Some("/C:/x")),
            ("file://C:/x", Some("/C:/x")),
            ("file:///C:/../x", Some("/C:/x")),
            ("file:///C|/x", Some("/C:/x")),
            ("file://C|/x", Some("/C:/x")),
            ("file://C:", Some("/C:")),
            ("file://c:\\x", Some("/c:/x")),
            ("file:///a\\b", Some("/a/b")),
            ("file:///a\tb", Some("/ab")),
            ("file:///a\nb", Some("/ab")),
            ("file:///a/b  ", Some("/a/b")),
            ("file:///é", Some("/é")),
            ("file:///%C3%A9", Some("/é")),
            ("file:////a", Some("//a")),
            ("file://///a//b/", Some("///a//b/")),
            ("file:///a/..", Some("/")),
            ("file:///a/b/..", Some("/a/")),
            ("file:///a%00b", Some("/a\u{0}b")),
            ("file:///a/%2E.", Some("/")),
            ("file:///a%5Cb", Some("/a\\b")),
            ("file:///a|b", Some("/a|b")),
            ("file:///../x", Some("/x")),
            ("file:///.%2E/x", Some("/x")),
        ];
        for (url, expected) in cases {
            assert_eq!(file_url_to_path(url).ok().as_deref(), *expected, "{url}");
        }
    }

    #[test]
    fn d6_normalize_lexically_like_path_resolve() {
        // Compared as raw strings: Path equality would ignore `.` and `/`.
        let n = |p: &str| lossy(&normalize_lexically(Path::new(p)));
        assert_eq!(n("/a/./b/../c//d/"), "/a/c/d");
        assert_eq!(n("/../.."), "/");
        assert_eq!(n("//a///b"), "/a/b");
        assert_eq!(n("/"), "/");
        assert_eq!(n("/a/b/.."), "/a");
        assert_eq!(n("a/../../b"), "../b");
        assert_eq!(n("./"), ".");
        assert_eq!(n(""), ".");
    }

    #[test]
    fn d6_posix_path_helpers_match_node() {
        assert_eq!(posix_join(&["/", "x"]), "/x");
        assert_eq!(posix_join(&["/a/", "", "b/"]), "/a/b/");
        assert_eq!(posix_join(&["/a", "../..", "b"]), "/b");
        assert_eq!(posix_join(&["a", "../.."]), "..");
        assert_eq!(posix_join(&["", ""]), ".");
        assert_eq!(posix_resolve(&["/a", "/b", "c/"]), "/b/c");
        assert_eq!(posix_resolve(&["/a", ""]), "/a");
        assert_eq!(posix_normalize("a/"), "a/");
        assert_eq!(posix_normalize("./"), "./");
    }

    #[test]
    fn d7_missing_or_non_directory_yields_nothing() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("file.ts")?;
        assert!(discover_in_dir(&t.path("nope")).is_empty());
        assert!(discover_in_dir(&t.path("file.ts")).is_empty());
        assert_eq!(extension_entries(&t.path("nope")), None);
        // No sources at all is not an error.
        assert!(t.discover(&t.options(&[])).is_empty());
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn d7_unreadable_directory_yields_nothing() -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let t = Tree::new()?;
        t.file("proj/.pi/extensions/a.ts")?;
        t.file("agent/extensions/g.ts")?;
        let locked = t.path("proj/.pi/extensions");
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000))?;
        // Root (and CAP_DAC_OVERRIDE) ignores the mode, so only assert when
        // the lock actually holds.
        let enforced = fs::read_dir(&locked).is_err();
        let found = t.discover(&t.options(&[]));
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755))?;
        if enforced {
            assert_eq!(found, [t.s("agent/extensions/g.ts")]);
        } else {
            assert_eq!(found, [t.s("proj/.pi/extensions/a.ts"), t.s("agent/extensions/g.ts")]);
        }
        Ok(())
    }

    #[test]
    fn resolved_path_and_serialization() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/.pi/extensions/a.ts")?;
        let found =
            discover_impl(&t.options(&[]), &t.path("home"), UrlPolicy::Strict, ScanFolders::BOTH).unwrap_or_default();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].resolved_path, t.path("proj/.pi/extensions/a.ts"));
        let json = serde_json::to_value(&found[0]).map_err(io::Error::other)?;
        assert_eq!(json["path"], t.s("proj/.pi/extensions/a.ts"));
        Ok(())
    }

    #[test]
    fn discovery_scans_only_the_default_folders_it_is_asked_to() -> io::Result<()> {
        let t = Tree::new()?;
        t.file("proj/.pi/extensions/project.ts")?;
        t.file("agent/extensions/user.ts")?;
        t.file("proj/extra.ts")?;
        let options = t.options(&["extra.ts"]);
        let configured =
            discover_impl(&options, &t.path("home"), UrlPolicy::Strict, ScanFolders::NONE).unwrap_or_default();
        assert_eq!(paths_of(&configured), [t.s("proj/extra.ts")]);
        assert_eq!(t.discover(&options).len(), 3);
        let agent_only = ScanFolders {
            project: false,
            agent: true,
        };
        let found = discover_impl(&options, &t.path("home"), UrlPolicy::Strict, agent_only).unwrap_or_default();
        assert_eq!(
            paths_of(&found),
            [t.s("agent/extensions/user.ts"), t.s("proj/extra.ts")]
        );
        Ok(())
    }

    #[test]
    fn d5_strict_discovery_fails_like_pi_on_bad_file_url() -> io::Result<()> {
        let t = Tree::new()?;
        let options = t.options(&["file://example.com/x.ts"]);
        assert!(discover_impl(&options, &t.path("home"), UrlPolicy::Strict, ScanFolders::BOTH).is_err());
        assert_eq!(t.discover(&options), [t.s("proj/file:/example.com/x.ts")]);
        Ok(())
    }
}
