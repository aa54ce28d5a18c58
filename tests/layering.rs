//! The stages stay a pipeline (docs/architecture.md): no module of `src/`
//! uses a module that uses it back, the layers above the engine (compat,
//! handle, serve, protocol) are used by nothing below them, and the
//! isolate's start-up JavaScript never reaches the compat driver.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The top-level module a source file belongs to (`src/ops/fs.rs` → `ops`).
fn module_of(file: &Path, src: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_string_lossy().into_owned();
    match first.as_str() {
        "lib.rs" | "bin" => None,
        _ => Some(first.trim_end_matches(".rs").to_string()),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// For each top-level module, the other top-level modules it names as `crate::x`.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = project_root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&file, &src) else { continue };
        let text = std::fs::read_to_string(&file).expect("source is readable");
        let uses = graph.entry(module.clone()).or_default();
        for (index, _) in text.match_indices("crate::") {
            let name: String = text[index + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module && name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                uses.insert(name);
            }
        }
    }
    graph
}

fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(module) = stack.pop() {
        for next in graph.get(&module).into_iter().flatten() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    false
}

#[test]
fn no_module_of_src_uses_a_module_that_uses_it_back() {
    let graph = module_graph();
    assert!(
        graph.contains_key("engine") && graph.contains_key("compat"),
        "{graph:?}"
    );
    let cycles: Vec<String> = graph
        .keys()
        .filter(|module| reaches(&graph, module, module))
        .cloned()
        .collect();
    assert!(cycles.is_empty(), "modules on a cycle: {cycles:?}\ngraph: {graph:#?}");
}

#[test]
fn nothing_below_a_layer_uses_it() {
    let graph = module_graph();
    for upper in ["compat", "serve", "protocol", "handle"] {
        for lower in [
            "discovery",
            "transpile",
            "modules",
            "ops",
            "engine",
            "report",
            "host",
            "error",
            "events",
        ] {
            assert!(
                !reaches(&graph, lower, upper),
                "src/{lower} reaches src/{upper}, a layer above it: {graph:#?}"
            );
        }
    }
}

/// Every `pihost:` module statically imported from `entry`, transitively.
fn static_imports(entry: &str) -> BTreeSet<String> {
    let js = project_root().join("js");
    let mut seen = BTreeSet::new();
    let mut stack = vec![entry.to_string()];
    while let Some(module) = stack.pop() {
        let Ok(text) = std::fs::read_to_string(js.join(&module)) else {
            continue;
        };
        for line in text.lines() {
            let line = line.trim_start();
            if !(line.starts_with("import ") || line.starts_with("export ") || line.starts_with("} from")) {
                continue;
            }
            let Some(start) = line.find("\"pihost:") else { continue };
            let rest = &line[start + "\"pihost:".len()..];
            let Some(end) = rest.find('"') else { continue };
            let imported = rest[..end].to_string();
            if seen.insert(imported.clone()) {
                stack.push(imported);
            }
        }
    }
    seen
}

#[test]
fn start_up_javascript_never_reaches_the_compat_driver() {
    let imports = static_imports("runtime/main.js");
    assert!(
        imports.contains("runtime/loader.js"),
        "the import scan found nothing: {imports:?}"
    );
    let compat: Vec<&String> = imports.iter().filter(|module| module.starts_with("compat/")).collect();
    assert!(compat.is_empty(), "runtime/main.js reaches {compat:?}");
    assert!(
        !imports.contains("runtime/module-status.js"),
        "only `pihost modules` needs module-status.js"
    );
}

/// Every `.js` file under `js/`, as the `pihost:` module it is
/// (`runtime/main.js`), with the `pihost:` modules it imports statically
/// (relative imports resolved).
fn js_module_graph() -> BTreeMap<String, BTreeSet<String>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("js is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "js") {
                out.push(path);
            }
        }
    }
    let js = project_root().join("js");
    let mut files = Vec::new();
    walk(&js, &mut files);
    let mut graph = BTreeMap::new();
    for file in files {
        let module = file.strip_prefix(&js).expect("under js").to_string_lossy().into_owned();
        let folder = Path::new(&module).parent().map(Path::to_path_buf).unwrap_or_default();
        let text = std::fs::read_to_string(&file).expect("source is readable");
        let mut imports = BTreeSet::new();
        for line in text.lines() {
            let line = line.trim_start();
            if !(line.starts_with("import ") || line.starts_with("export ") || line.starts_with("} from")) {
                continue;
            }
            let Some(quoted) = line.split('"').nth(1) else { continue };
            if let Some(target) = quoted.strip_prefix("pihost:") {
                imports.insert(target.to_string());
            } else if quoted.starts_with('.') {
                let mut parts: Vec<String> = folder.iter().map(|part| part.to_string_lossy().into_owned()).collect();
                for part in quoted.split('/') {
                    match part {
                        "." => {}
                        ".." => {
                            parts.pop();
                        }
                        other => parts.push(other.to_string()),
                    }
                }
                imports.insert(parts.join("/"));
            }
        }
        graph.insert(module, imports);
    }
    graph
}

/// pihost's JavaScript is layered as its Rust is: the platform (Node's and
/// the web's, `js/platform`), the runtime (`js/runtime`), pi's packages
/// (`js/pi`) never import each other in a circle. TypeBox's port keeps
/// TypeBox's own module graph, circles included, inside `js/pi/typebox`.
#[test]
fn no_javascript_module_imports_one_that_imports_it_back() {
    let graph = js_module_graph();
    assert!(
        graph
            .get("runtime/main.js")
            .is_some_and(|imports| imports.contains("runtime/loader.js")),
        "the import scan found nothing: {:?}",
        graph.get("runtime/main.js")
    );
    let mut circles = Vec::new();
    for module in graph.keys() {
        if module.starts_with("pi/typebox") {
            continue;
        }
        if reaches(&graph, module, module) {
            circles.push(module.clone());
        }
    }
    assert!(circles.is_empty(), "modules on an import circle: {circles:?}");
}

/// An extension's named import of pi's packages evaluates only the modules
/// that define those names (src/modules/virtual_views.rs); a module of
/// pihost's that imported a package's whole export list (`js/pi/pi-ai.js`…)
/// would bring all of it back into every runtime that reaches it.
#[test]
fn pihost_modules_import_what_defines_a_name_not_a_packages_export_list() {
    const EXPORT_LISTS: [&str; 4] = [
        "pi/pi-ai.js",
        "pi/pi-tui.js",
        "pi/pi-coding-agent.js",
        "pi/pi-agent-core.js",
    ];
    let graph = js_module_graph();
    let importers: Vec<String> = graph
        .iter()
        .filter(|(_, imports)| EXPORT_LISTS.iter().any(|list| imports.contains(*list)))
        .map(|(module, _)| module.clone())
        .collect();
    assert!(importers.is_empty(), "import a package's export list: {importers:?}");
    // The export lists themselves only re-export (a name they declared would
    // make a view evaluate the whole list for it).
    for list in EXPORT_LISTS {
        let text = std::fs::read_to_string(project_root().join("js").join(list)).expect("readable");
        let declared: Vec<&str> = text
            .lines()
            .filter(|line| {
                [
                    "export function",
                    "export const",
                    "export class",
                    "export let",
                    "export var",
                ]
                .iter()
                .any(|start| line.starts_with(start))
            })
            .collect();
        assert!(declared.is_empty(), "{list} declares {declared:?}");
    }
}
