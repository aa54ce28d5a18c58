//! The comment that ends the engine's search for an import specifier
//! (engine note 31). Plain std, so build.rs embeds pihost's own modules with
//! the same needles (build/scan_needles.rs) as the loader puts into
//! extensions' (lenient_imports.rs).

/// A comment holding `specifier` in the quotes other than `quote`, which
/// ends the QuickJS backend's search for the specifier in those quotes
/// where the literal is, instead of at the end of the code: v8x looks for
/// every static import's specifier in both kinds of quotes from the
/// previous one on, so a module that uses one kind was searched to its end
/// once per import (engine note 31). `None` where the comment could not
/// hold it.
pub fn scan_needle(specifier: &str, quote: char) -> Option<String> {
    let other = if quote == '"' { '\'' } else { '"' };
    if specifier.contains(['\'', '"', '\\', '\n', '\r']) || specifier.contains("*/") {
        return None;
    }
    // The space keeps a statement after it at a boundary v8x recognises.
    Some(format!("/*{other}{specifier}{other}*/ "))
}
