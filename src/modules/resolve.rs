//! File and package resolution for imports that are neither virtual pi
//! modules nor Node built-ins: relative and absolute paths, `file:` URLs, and
//! packages from `node_modules` folders above the importing file.
//!
//! Extension resolution follows jiti, which tries TypeScript first: a
//! specifier without an extension tries `.ts`, `.tsx`, `.mts`, `.cts`, `.js`,
//! `.mjs`, `.cjs`, `.json`, then a directory's `index.*`; `./x.js` that does
//! not exist falls back to `./x.ts`, as TypeScript's ESM convention expects.

use std::path::{Path, PathBuf};

const EXTENSIONS: [&str; 8] = ["ts", "tsx", "mts", "cts", "js", "mjs", "cjs", "json"];

/// The conditions `import` resolves `exports` with; `module` also lets a
/// package's `module` field win over `main`, as bundlers and jiti do.
pub const IMPORT_CONDITIONS: &[&str] = &["import", "node", "module"];
/// The conditions `require()` resolves `exports` with (and only `main`).
pub const REQUIRE_CONDITIONS: &[&str] = &["require", "node"];

/// Whether a specifier names a file (`./x`, `../x`, `/x`, `.`, `..`) rather
/// than a package or a built-in.
pub fn is_path_specifier(specifier: &str) -> bool {
    specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier.starts_with('/')
        || specifier == "."
        || specifier == ".."
}

/// Resolves what an import or `require` names from `importer_dir`: a path,
/// a package-internal `#import`, or a package from `node_modules`.
pub fn resolve(specifier: &str, importer_dir: &Path, conditions: &[&str]) -> Option<PathBuf> {
    if is_path_specifier(specifier) {
        resolve_path(Path::new(specifier), importer_dir, conditions)
    } else if specifier.starts_with('#') {
        resolve_package_import(specifier, importer_dir, conditions)
    } else {
        resolve_package(specifier, importer_dir, conditions)
    }
}

/// Why a package specifier did not resolve, in Node's words when the package
/// exists but its `exports` do not offer the subpath.
pub fn unexported_subpath(specifier: &str, importer_dir: &Path, conditions: &[&str]) -> Option<String> {
    let (name, subpath) = split_package_specifier(specifier)?;
    let mut dir = Some(importer_dir);
    while let Some(current) = dir {
        let package_dir = current.join("node_modules").join(name);
        if package_dir.is_dir() {
            let manifest = read_package_json(&package_dir)?;
            let exports = manifest.get("exports")?;
            if export_target(exports, &subpath, conditions).is_some() {
                return None;
            }
            let shown = if subpath == "." { "." } else { subpath.as_str() };
            return Some(format!(
                "Package subpath '{shown}' is not defined by \"exports\" in {}",
                package_dir.join("package.json").display()
            ));
        }
        dir = current.parent();
    }
    None
}

/// Resolves a relative or absolute path specifier against the importing
/// file's directory.
pub fn resolve_path(specifier_path: &Path, importer_dir: &Path, conditions: &[&str]) -> Option<PathBuf> {
    let candidate = if specifier_path.is_absolute() {
        specifier_path.to_path_buf()
    } else {
        importer_dir.join(specifier_path)
    };
    let candidate = crate::discovery::normalize_lexically(&candidate);
    resolve_file_or_directory(&candidate, conditions)
}

/// A `#name` specifier through the `imports` field of the nearest
/// package.json above the importer (Node's subpath imports).
fn resolve_package_import(specifier: &str, importer_dir: &Path, conditions: &[&str]) -> Option<PathBuf> {
    let mut dir = Some(importer_dir);
    while let Some(current) = dir {
        if let Some(manifest) = read_package_json(current) {
            let imports = manifest.get("imports")?;
            let target = subpath_target(imports, specifier, conditions)?;
            return if target.starts_with("./") {
                resolve_file_or_directory(
                    &crate::discovery::normalize_lexically(&current.join(target)),
                    conditions,
                )
            } else {
                resolve_package(&target, current, conditions)
            };
        }
        dir = current.parent();
    }
    None
}

fn resolve_file_or_directory(candidate: &Path, conditions: &[&str]) -> Option<PathBuf> {
    if candidate.is_file() {
        return Some(candidate.to_path_buf());
    }
    if let Some(found) = with_extension_fallbacks(candidate) {
        return Some(found);
    }
    if candidate.is_dir() {
        if let Some(main) = package_main(candidate, conditions) {
            return Some(main);
        }
        for extension in EXTENSIONS {
            let index = candidate.join(format!("index.{extension}"));
            if index.is_file() {
                return Some(index);
            }
        }
    }
    None
}

fn with_extension_fallbacks(candidate: &Path) -> Option<PathBuf> {
    let file_name = candidate.file_name()?.to_string_lossy().into_owned();
    for extension in EXTENSIONS {
        let with_extension = candidate.with_file_name(format!("{file_name}.{extension}"));
        if with_extension.is_file() {
            return Some(with_extension);
        }
    }
    let typescript_twin = match candidate.extension().and_then(|e| e.to_str()) {
        Some("js") => Some("ts"),
        Some("mjs") => Some("mts"),
        Some("cjs") => Some("cts"),
        Some("jsx") => Some("tsx"),
        _ => None,
    }?;
    let twin = candidate.with_extension(typescript_twin);
    twin.is_file().then_some(twin)
}

/// Splits a bare specifier into its package name and subpath (`./rest` or `.`).
pub fn split_package_specifier(specifier: &str) -> Option<(&str, String)> {
    let mut parts = specifier.splitn(3, '/');
    let first = parts.next()?;
    let (name_len, rest) = if first.starts_with('@') {
        let second = parts.next()?;
        (first.len() + 1 + second.len(), parts.next())
    } else {
        let rest = specifier.get(first.len() + 1..);
        (first.len(), rest.filter(|r| !r.is_empty()))
    };
    let name = specifier.get(..name_len)?;
    if name.is_empty() {
        return None;
    }
    let subpath = match rest {
        Some(rest) if !rest.is_empty() => format!("./{rest}"),
        _ => ".".to_string(),
    };
    Some((name, subpath))
}

/// Resolves a bare package specifier from `node_modules` folders, walking up
/// from the importing file's directory as Node does.
pub fn resolve_package(specifier: &str, importer_dir: &Path, conditions: &[&str]) -> Option<PathBuf> {
    let (name, subpath) = split_package_specifier(specifier)?;
    let mut dir = Some(importer_dir);
    while let Some(current) = dir {
        let package_dir = current.join("node_modules").join(name);
        if package_dir.is_dir() {
            return resolve_in_package(&package_dir, &subpath, conditions);
        }
        dir = current.parent();
    }
    None
}

fn read_package_json(package_dir: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(package_dir.join("package.json")).ok()?;
    serde_json::from_str(text.trim_start_matches('\u{feff}')).ok()
}

fn resolve_in_package(package_dir: &Path, subpath: &str, conditions: &[&str]) -> Option<PathBuf> {
    let manifest = read_package_json(package_dir);
    if let Some(exports) = manifest.as_ref().and_then(|m| m.get("exports")) {
        let target = export_target(exports, subpath, conditions)?;
        return resolve_file_or_directory(&package_dir.join(target), conditions);
    }
    if subpath == "." {
        return resolve_file_or_directory(package_dir, conditions);
    }
    resolve_file_or_directory(&package_dir.join(subpath), conditions)
}

fn package_main(package_dir: &Path, conditions: &[&str]) -> Option<PathBuf> {
    let manifest = read_package_json(package_dir)?;
    let fields: &[&str] = if conditions.contains(&"module") {
        &["module", "main"]
    } else {
        &["main"]
    };
    for &field in fields {
        if let Some(main) = manifest.get(field).and_then(|m| m.as_str()) {
            let candidate = crate::discovery::normalize_lexically(&package_dir.join(main));
            if candidate.is_file() {
                return Some(candidate);
            }
            if let Some(found) = with_extension_fallbacks(&candidate) {
                return Some(found);
            }
            for extension in EXTENSIONS {
                let index = candidate.join(format!("index.{extension}"));
                if index.is_file() {
                    return Some(index);
                }
            }
        }
    }
    None
}

/// The target of `subpath` in a package's `exports` field, honouring
/// condition objects in order of the package's own keys.
fn export_target(exports: &serde_json::Value, subpath: &str, conditions: &[&str]) -> Option<String> {
    let is_subpath_map = exports
        .as_object()
        .is_some_and(|map| map.keys().any(|key| key.starts_with('.')));
    if !is_subpath_map {
        return (subpath == ".").then(|| pick_condition(exports, conditions)).flatten();
    }
    subpath_target(exports, subpath, conditions)
}

/// The target of `subpath` in a map of subpaths (`exports`' `"./x"` keys or
/// `imports`' `"#x"` keys), exact keys first, then `*` patterns.
fn subpath_target(map: &serde_json::Value, subpath: &str, conditions: &[&str]) -> Option<String> {
    let map = map.as_object()?;
    if let Some(entry) = map.get(subpath) {
        return pick_condition(entry, conditions);
    }
    // Pattern exports: "./features/*": "./src/features/*.js".
    for (key, entry) in map {
        if let Some((prefix, suffix)) = key.split_once('*')
            && subpath.starts_with(prefix)
            && subpath.ends_with(suffix)
            && subpath.len() >= prefix.len() + suffix.len()
        {
            let matched = &subpath[prefix.len()..subpath.len() - suffix.len()];
            return pick_condition(entry, conditions).map(|target| target.replace('*', matched));
        }
    }
    None
}

fn pick_condition(entry: &serde_json::Value, conditions: &[&str]) -> Option<String> {
    match entry {
        serde_json::Value::String(target) => Some(target.clone()),
        serde_json::Value::Array(alternatives) => alternatives.iter().find_map(|alt| pick_condition(alt, conditions)),
        serde_json::Value::Object(map) => map.iter().find_map(|(condition, target)| {
            (condition == "default" || conditions.contains(&condition.as_str()))
                .then(|| pick_condition(target, conditions))
                .flatten()
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_scoped_and_plain_package_specifiers() {
        assert_eq!(split_package_specifier("lodash"), Some(("lodash", ".".to_string())));
        assert_eq!(
            split_package_specifier("lodash/fp/map"),
            Some(("lodash", "./fp/map".to_string()))
        );
        assert_eq!(
            split_package_specifier("@scope/pkg"),
            Some(("@scope/pkg", ".".to_string()))
        );
        assert_eq!(
            split_package_specifier("@scope/pkg/sub"),
            Some(("@scope/pkg", "./sub".to_string()))
        );
    }

    #[test]
    fn exports_conditions_follow_the_package_key_order() {
        let exports = serde_json::json!({
            ".": { "types": "./index.d.ts", "import": "./esm/index.js", "require": "./cjs/index.js" },
            "./feature/*": { "default": "./lib/feature/*.js" }
        });
        assert_eq!(
            export_target(&exports, ".", &["import", "node"]).as_deref(),
            Some("./esm/index.js")
        );
        assert_eq!(
            export_target(&exports, ".", &["require", "node"]).as_deref(),
            Some("./cjs/index.js")
        );
        assert_eq!(
            export_target(&exports, "./feature/x", &["import"]).as_deref(),
            Some("./lib/feature/x.js")
        );
        assert_eq!(export_target(&exports, "./missing", &["import"]), None);
    }

    #[test]
    fn a_relative_import_of_x_js_finds_x_ts() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("helper.ts"), "export {}").expect("write");
        let found = resolve_path(Path::new("./helper.js"), dir.path(), IMPORT_CONDITIONS).expect("resolves");
        assert_eq!(found, dir.path().join("helper.ts"));
        let found = resolve_path(Path::new("./helper"), dir.path(), IMPORT_CONDITIONS).expect("resolves");
        assert_eq!(found, dir.path().join("helper.ts"));
    }
}
