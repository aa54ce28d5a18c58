//! Deno's platform crates declare their JavaScript and TypeScript by the path
//! of the file in the crate's source folder, which deno_core reads when a
//! runtime starts, and TypeScript would be transpiled again for every
//! runtime. This step finds those folders (through `cargo metadata`, so
//! vendored and registry sources both work), transpiles each file once with
//! deno_ast, and embeds the result: a table from the declared path to the
//! JavaScript, which `src/platform/sources.rs` puts in place of the path.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates whose extensions pihost registers and that carry JavaScript.
const CRATES: &[&str] = &[
    "deno_webidl",
    "deno_web",
    "deno_fetch",
    "deno_websocket",
    "deno_crypto",
    "deno_net",
    "deno_io",
    "deno_fs",
    "deno_os",
    "deno_process",
    "deno_node",
];

/// Folders of a crate that hold tests or tools, never extension sources.
const SKIPPED_DIRS: &[&str] = &["tests", "testdata", "benches", "bench", "target", "node_modules"];

fn crate_dirs() -> Result<Vec<(String, PathBuf)>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let manifest = std::env::var("CARGO_MANIFEST_DIR").map_err(|error| error.to_string())?;
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--manifest-path"])
        .arg(Path::new(&manifest).join("Cargo.toml"))
        .output()
        .map_err(|error| format!("cannot run cargo metadata: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|error| format!("cargo metadata's JSON: {error}"))?;
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata has no packages")?;
    let mut dirs = Vec::new();
    for name in CRATES {
        let package = packages
            .iter()
            .find(|package| package["name"] == *name)
            .ok_or_else(|| format!("{name} is not among pihost's dependencies"))?;
        let manifest_path = package["manifest_path"]
            .as_str()
            .ok_or("a package without manifest_path")?;
        let dir = Path::new(manifest_path)
            .parent()
            .ok_or("a manifest path without a folder")?
            .to_path_buf();
        dirs.push((name.to_string(), dir));
    }
    Ok(dirs)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_str()) {
                collect(&path, out)?;
            }
        } else if (name.ends_with(".js") || name.ends_with(".mjs") || name.ends_with(".ts")) && !name.ends_with(".d.ts")
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The value deno_node's `process.ts` reports as Node's version, as the
/// crate defines it (`pub const NODE_VERSION`).
fn node_version(deno_node_dir: &Path) -> Result<String, String> {
    let lib = fs::read_to_string(deno_node_dir.join("lib.rs")).map_err(|error| error.to_string())?;
    lib.lines()
        .find_map(|line| {
            let rest = line.trim().strip_prefix("pub const NODE_VERSION: &str = \"")?;
            Some(rest.split('"').next()?.to_string())
        })
        .ok_or_else(|| "deno_node's lib.rs has no NODE_VERSION".to_string())
}

/// The `node:` modules deno_node declares (its `"node:x" = "file"` entries),
/// without the scheme, sorted; each with the `ext:` script behind it when
/// it is one of deno_node's `synthetic_esm` modules (`"node:x" = "ext:…"`).
fn node_module_names(deno_node_dir: &Path) -> Result<Vec<(String, Option<String>)>, String> {
    let lib = fs::read_to_string(deno_node_dir.join("lib.rs")).map_err(|error| error.to_string())?;
    let mut names: Vec<(String, Option<String>)> = lib
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("\"node:")?;
            let (name, after) = rest.split_once('"')?;
            let target = after.trim_start().strip_prefix('=')?.trim().trim_start_matches('"');
            let backing = target.strip_prefix("ext:").map(|rest| {
                let script = rest.split('"').next().unwrap_or(rest);
                format!("ext:{script}")
            });
            Some((name.to_string(), backing))
        })
        .collect();
    names.sort();
    names.dedup_by(|a, b| a.0 == b.0);
    if names.len() < 40 {
        return Err(format!(
            "found only {} node: modules in deno_node's lib.rs",
            names.len()
        ));
    }
    Ok(names)
}

fn transpile(path: &Path, text: String) -> Result<String, String> {
    let is_typescript = path.extension().is_some_and(|ext| ext == "ts");
    if !is_typescript {
        return Ok(text);
    }
    let specifier = deno_ast::ModuleSpecifier::from_file_path(path).map_err(|()| format!("{}", path.display()))?;
    let parsed = deno_ast::parse_module(deno_ast::ParseParams {
        specifier,
        text: text.into(),
        media_type: deno_ast::MediaType::TypeScript,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .map_err(|error| format!("{}: {error}", path.display()))?;
    let emitted = parsed
        .transpile(
            &deno_ast::TranspileOptions {
                imports_not_used_as_values: deno_ast::ImportsNotUsedAsValues::Remove,
                ..Default::default()
            },
            &deno_ast::TranspileModuleOptions::default(),
            &deno_ast::EmitOptions {
                source_map: deno_ast::SourceMapOption::None,
                ..Default::default()
            },
        )
        .map_err(|error| format!("{}: {error}", path.display()))?;
    Ok(emitted.into_source().text)
}

/// Deno's sources read the `Deno` namespace as a global; pihost keeps it off
/// `globalThis` (Node has no `Deno`, and packages that see one take Deno's
/// code paths). Each file that names it gets it as a local binding instead,
/// from the object pihost's bootstrap (js/platform/) puts on deno_core's
/// `internals`: a module by an import of `ext:core/mod.js`, a script (a
/// `loadExtScript` IIFE) through the `__bootstrap` its wrapper receives.
///
/// The same goes for the global scope's event listeners, which deno_node's
/// `process` adds when `uncaughtException` listeners come and go: Node's
/// global has no `addEventListener`, so those calls go to
/// `internals.pihostGlobalScope` (js/platform/bootstrap.js).
fn bind_deno_namespace(path: &Path, code: String) -> Result<String, String> {
    const GLOBAL_LISTENER_CALLS: [(&str, &str); 2] = [
        ("globalThis.addEventListener(", "__pihostGlobalScope.addEventListener("),
        (
            "globalThis.removeEventListener(",
            "__pihostGlobalScope.removeEventListener(",
        ),
    ];
    let names_global_listeners = GLOBAL_LISTENER_CALLS.iter().any(|(call, _)| code.contains(call));
    let code = if names_global_listeners {
        GLOBAL_LISTENER_CALLS
            .iter()
            .fold(code, |code, (call, local)| code.replace(call, local))
    } else {
        code
    };
    let names_deno = code.match_indices("Deno").any(|(index, _)| {
        let before = code[..index].chars().next_back();
        let after = code[index + 4..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.' || c == '"' || c == '\'')
            && matches!(after, Some('.') | Some('[') | Some('?'))
    });
    if !names_deno && !names_global_listeners {
        return Ok(code);
    }
    // Code a file generates with `new Function` runs in the global scope,
    // where there is no `Deno`: it gets the namespace as a parameter.
    let (code, function_helper) = if code.contains("new Function(") {
        (
            code.replace("new Function(", "__pihostFunctionWithDeno("),
            "\nconst __pihostFunctionWithDeno = (...args) => new Function(\"Deno\", ...args).bind(null, Deno);",
        )
    } else {
        (code, "")
    };
    let body = strip_comments_at_start(&code);
    if body.starts_with("(function") {
        let open = body
            .find('{')
            .ok_or_else(|| format!("{}: a script without a function body", path.display()))?;
        let at = code.len() - body.len() + open + 1;
        Ok(format!(
            "{}\nconst Deno = __bootstrap.internals.pihostDeno;{function_helper}{}{}",
            &code[..at],
            if names_global_listeners {
                "\nconst __pihostGlobalScope = __bootstrap.internals.pihostGlobalScope;"
            } else {
                ""
            },
            &code[at..]
        ))
    } else {
        Ok(format!(
            "import {{ internals as __pihostInternals }} from \"ext:core/mod.js\";\nconst Deno = __pihostInternals.pihostDeno;{function_helper}{}\n{code}",
            if names_global_listeners {
                "\nconst __pihostGlobalScope = __pihostInternals.pihostGlobalScope;"
            } else {
                ""
            }
        ))
    }
}

fn strip_comments_at_start(code: &str) -> &str {
    let mut rest = code;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
        } else if let Some(after) = trimmed.strip_prefix("\"use strict\";") {
            rest = after;
        } else {
            return trimmed;
        }
    }
}

/// Writes `platform_sources.rs` into `out_dir`: `&[(declared path, code)]`.
pub fn generate(out_dir: &Path) -> Result<(), String> {
    let dirs = crate_dirs()?;
    let node_dir = &dirs
        .iter()
        .find(|(name, _)| name == "deno_node")
        .ok_or("deno_node is missing")?
        .1;
    let node_version = node_version(node_dir)?;
    println!("cargo:rustc-env=PIHOST_NODE_VERSION={node_version}");
    let generated = out_dir.join("platform");
    let mut table = String::from("&[\n");
    let mut count = 0usize;
    for (name, dir) in &dirs {
        let mut files = Vec::new();
        collect(dir, &mut files).map_err(|error| format!("{}: {error}", dir.display()))?;
        files.sort();
        for file in files {
            let relative = file.strip_prefix(dir).map_err(|error| error.to_string())?;
            let text = fs::read_to_string(&file).map_err(|error| format!("{}: {error}", file.display()))?;
            let text = text.replace("__NODE_VERSION__", &node_version);
            let code = bind_deno_namespace(&file, transpile(&file, text)?)?;
            let code = crate::compact::compact(&file, &code).unwrap_or(code);
            // deno_core embeds extension code as one-byte strings, and every
            // file an extension declares is ASCII; what is not (the crates'
            // tools and scripts) is not an extension file. A declared file
            // that is missing here fails loudly when a runtime starts.
            if !code.is_ascii() {
                continue;
            }
            // `x.ts` and `x.js` may sit side by side: keep the whole name.
            let mut target = generated.join(name).join(relative).into_os_string();
            target.push(".js");
            let target = PathBuf::from(target);
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|error| error.to_string())?;
            }
            fs::write(&target, code).map_err(|error| error.to_string())?;
            let declared = format!("{}/{}", dir.display(), relative.display());
            writeln!(
                table,
                "    ({declared:?}, ::deno_core::ascii_str_include!({:?})),",
                target.display().to_string()
            )
            .map_err(|error| error.to_string())?;
            count += 1;
        }
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    table.push(']');
    fs::write(out_dir.join("platform_sources.rs"), table).map_err(|error| error.to_string())?;
    let names = node_module_names(node_dir)?;
    let list = format!("&{names:?}");
    fs::write(out_dir.join("platform_node_modules.rs"), list).map_err(|error| error.to_string())?;
    println!("cargo:rustc-env=PIHOST_PLATFORM_SOURCE_COUNT={count}");
    Ok(())
}
