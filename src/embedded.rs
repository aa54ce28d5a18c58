//! The isolate's own JavaScript (`js/`), compiled into the binary by build.rs.

/// `(path under js/, source)`, sorted by path.
static FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/embedded_js.rs"));

/// The source of `js/<path>`, if pihost ships that file.
pub fn file(path: &str) -> Option<&'static str> {
    FILES
        .binary_search_by(|(name, _)| (*name).cmp(path))
        .ok()
        .map(|index| FILES[index].1)
}

/// A template from `js/templates/`, which must exist (they ship with pihost).
pub fn template(name: &str) -> &'static str {
    file(&format!("templates/{name}")).unwrap_or("")
}
