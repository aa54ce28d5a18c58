//! Embeds every file under `js/` into the binary as a sorted table, so the
//! isolate's JavaScript ships inside pihost and the module loader can serve it
//! under the `pihost:` scheme without touching the disk; and embeds Deno's
//! platform sources, transpiled once here (build/platform_sources.rs).

#[path = "build/compact.rs"]
mod compact;
#[path = "build/platform_sources.rs"]
mod platform_sources;
#[path = "build/scan_needles.rs"]
mod scan_needles;

use std::fs;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, root, out)?;
        } else if path.extension().is_some_and(|ext| ext == "js" || ext == "json") {
            let relative = path
                .strip_prefix(root)
                .map_err(std::io::Error::other)?
                .to_string_lossy()
                .replace('\\', "/");
            out.push((relative, path));
        }
    }
    Ok(())
}

/// What tells one build of pihost from another for the caches it keeps:
/// its version, build profile, every dependency's exact version
/// (Cargo.lock) and its own JavaScript, hashed.
fn build_fingerprint(manifest_dir: &std::path::Path, js_files: &[(String, PathBuf)]) -> std::io::Result<String> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::env::var("CARGO_PKG_VERSION").unwrap_or_default().hash(&mut hasher);
    std::env::var("PROFILE").unwrap_or_default().hash(&mut hasher);
    // A packaged crate may come without its lock file.
    fs::read(manifest_dir.join("Cargo.lock"))
        .unwrap_or_default()
        .hash(&mut hasher);
    for (name, path) in js_files {
        name.hash(&mut hasher);
        fs::read(path)?.hash(&mut hasher);
    }
    Ok(format!("{:016x}", hasher.finish()))
}

fn main() -> std::io::Result<()> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(std::io::Error::other)?);
    let js_root = manifest_dir.join("js");
    // Listing any path replaces cargo's default of rerunning on any change,
    // so the script names itself too.
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=js");
    println!("cargo:rerun-if-changed=reference-data");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let mut files = Vec::new();
    collect(&js_root, &js_root, &mut files)?;
    files.sort();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").map_err(std::io::Error::other)?);
    // Modules are embedded compacted (build/compact.rs; not the templates,
    // which pihost fills in) and with the engine's scan needles in
    // (build/scan_needles.rs), from a copy in OUT_DIR.
    let embedded_root = out_dir.join("js-embedded");
    let mut table = String::from("&[\n");
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = fs::read_to_string(path)?;
        let is_script = name.ends_with(".js");
        let compacted = (is_script && !name.starts_with("templates/"))
            .then(|| compact::compact(path, &text))
            .flatten();
        let code = compacted.as_deref().unwrap_or(&text);
        let needled = is_script.then(|| scan_needles::with_scan_needles(path, code)).flatten();
        let embedded = match needled.or(compacted) {
            Some(changed) => {
                let copy = embedded_root.join(name);
                if let Some(parent) = copy.parent() {
                    fs::create_dir_all(parent)?;
                }
                fs::write(&copy, changed)?;
                copy
            }
            None => path.clone(),
        };
        table.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            embedded.display().to_string()
        ));
    }
    table.push(']');
    fs::write(out_dir.join("embedded_js.rs"), table)?;
    println!(
        "cargo:rustc-env=PIHOST_BUILD_FINGERPRINT={}",
        build_fingerprint(&manifest_dir, &files)?
    );
    println!("cargo:rerun-if-changed=build");
    platform_sources::generate(&out_dir).map_err(std::io::Error::other)
}
