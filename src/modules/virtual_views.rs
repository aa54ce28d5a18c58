//! Views of pi's virtual modules that hold only the names one import asks
//! for.
//!
//! A virtual module's facade (`pihost:pi/<id>`, [`virtual_map::facade_source`])
//! links every name pi exports, so importing one name of pi-coding-agent
//! evaluated the whole package, some 270 modules, in every runtime: in pi
//! that package is pi itself, already loaded, and costs an extension
//! nothing. The lenient-import rewrite turns `import { a, b } from
//! "@earendil-works/pi-coding-agent"` into an import of a view,
//! `pihost:pi/pi-coding-agent?only=a,b`, which re-exports each name from the
//! module that defines it, so only those modules and what they import are
//! evaluated.
//!
//! The bindings are the very ones the facade gives (a re-export is the same
//! binding), and the facade's own side effect, evaluating the module's
//! engine-only part (`pi/<id>.engine.js`), happens for a view too. A name
//! the view cannot place (a stub of something not built, a name reached
//! through `export *`) comes from the facade itself, which is then
//! evaluated as before.

use std::collections::BTreeSet;

use super::embedded_shapes::embedded_shape;
use super::{INTERNAL_SCHEME, resolve_specifier, virtual_map};
use crate::embedded;
use crate::transpile::{LinkKind, ReexportBinding};

/// What follows a virtual module's id in a view's path.
const ONLY: &str = "?only=";

/// The specifier of the view of virtual module `module_id` holding `names`,
/// or `None` when a view cannot stand for the facade: no names, or a name
/// that is not a plain identifier.
pub(super) fn specifier<'a>(module_id: &str, names: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let names: BTreeSet<&str> = names.into_iter().collect();
    if names.is_empty() || !names.iter().all(|name| virtual_map::is_identifier(name)) {
        return None;
    }
    let list: Vec<&str> = names.into_iter().collect();
    Some(format!("{INTERNAL_SCHEME}pi/{module_id}{ONLY}{}", list.join(",")))
}

/// Whether `specifier` names a view (extension code imports views once the
/// rewrite has made its imports of pi's packages into them).
pub(super) fn is_view(specifier: &str) -> bool {
    specifier
        .strip_prefix(INTERNAL_SCHEME)
        .and_then(parse)
        .is_some_and(|(id, _)| virtual_map::exports(id).is_some())
}

/// The module id and names of a view, from its path under `pihost:`.
fn parse(path: &str) -> Option<(&str, Vec<&str>)> {
    let (id, names) = path.strip_prefix("pi/")?.split_once(ONLY)?;
    Some((id, names.split(',').collect()))
}

/// The source of the view at `path` (under `pihost:`), `None` when `path`
/// is not a view's, an error when it names what the module does not export.
pub(super) fn source(path: &str) -> Option<Result<String, String>> {
    let (module_id, names) = parse(path)?;
    let Some(recorded) = virtual_map::exports(module_id) else {
        return Some(Err(format!("pihost: no virtual module {module_id}")));
    };
    let engine_part = virtual_map::engine_only_path(module_id);
    let implementation = virtual_map::implementation_path(module_id);
    let has_engine_part = embedded::file(&engine_part).is_some();
    let mut source = String::from(embedded::template("view-header.js"));
    if has_engine_part {
        source.push_str(&format!("import \"{INTERNAL_SCHEME}{engine_part}\";\n"));
    }
    for name in names {
        if !recorded.contains_key(name) || !virtual_map::is_identifier(name) {
            return Some(Err(format!(
                "pihost: {} has no export named {name:?}",
                virtual_map::display_name(module_id)
            )));
        }
        // The engine part's names win, as they do in the facade.
        let definition = has_engine_part
            .then(|| definition(&engine_part, name))
            .flatten()
            .or_else(|| definition(&implementation, name));
        source.push_str(&match definition {
            Some(Definition::Binding { module, imported }) if imported == name => {
                format!("export {{ {name} }} from \"{INTERNAL_SCHEME}{module}\";\n")
            }
            Some(Definition::Binding { module, imported }) => {
                let imported = if virtual_map::is_identifier(&imported) {
                    imported
                } else {
                    serde_json::Value::String(imported).to_string()
                };
                format!("export {{ {imported} as {name} }} from \"{INTERNAL_SCHEME}{module}\";\n")
            }
            Some(Definition::Namespace { module }) => {
                format!("export * as {name} from \"{INTERNAL_SCHEME}{module}\";\n")
            }
            // A value pi exports that pihost has no module for (a constant
            // such as CONFIG_DIR_NAME): the facade would give the recorded
            // value too, and a primitive is the same wherever it is made.
            None => match recorded_primitive(&recorded[name]) {
                Some(value) => format!("const {name}$ = {value};\nexport {{ {name}$ as {name} }};\n"),
                None => format!("export {{ {name} }} from \"{INTERNAL_SCHEME}pi/{module_id}\";\n"),
            },
        });
    }
    Some(Ok(source))
}

/// The JavaScript text of a recorded export that is a primitive value.
fn recorded_primitive(description: &virtual_map::ExportDescription) -> Option<String> {
    match (description.kind.as_str(), &description.value) {
        ("string" | "number" | "boolean", Some(value)) => Some(value.to_string()),
        ("null", _) => Some("null".to_string()),
        ("undefined", _) => Some("undefined".to_string()),
        _ => None,
    }
}

/// Where a name of one of pihost's implementation modules is defined.
#[derive(Debug, PartialEq, Eq)]
enum Definition {
    /// Exported by `module` (under `pihost:`) as `imported`.
    Binding { module: String, imported: String },
    /// The namespace of `module`.
    Namespace { module: String },
}

/// Where the implementation module at `path` gets its export `name`: the
/// target of its `export { … } from`, or the module itself when it
/// declares the name; `None` when it does not export it visibly.
fn definition(path: &str, name: &str) -> Option<Definition> {
    let shape = embedded_shape(path)?;
    let referrer = format!("{INTERNAL_SCHEME}{path}");
    let target = |specifier: &str| {
        resolve_specifier(specifier, &referrer)
            .ok()
            .and_then(|url| url.as_str().strip_prefix(INTERNAL_SCHEME).map(str::to_string))
            // Only pihost's own modules: a re-export of anything else is
            // left to the facade.
            .filter(|module| embedded::file(module).is_some())
    };
    for link in &shape.links {
        let LinkKind::Reexport(bindings) = &link.kind else {
            continue;
        };
        for binding in bindings {
            match binding {
                ReexportBinding::Named { imported, exported } if exported == name => {
                    return target(&link.specifier).map(|module| Definition::Binding {
                        module,
                        imported: imported.clone(),
                    });
                }
                ReexportBinding::Namespace { exported } if exported == name => {
                    return target(&link.specifier).map(|module| Definition::Namespace { module });
                }
                _ => {}
            }
        }
    }
    shape.exports.contains(name).then(|| Definition::Binding {
        module: path.to_string(),
        imported: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source_of(path: &str) -> String {
        source(path).expect("a view").expect("its source")
    }

    #[test]
    fn a_view_re_exports_each_name_from_the_module_that_defines_it() {
        let source = source_of("pi/pi-coding-agent?only=getAgentDir,SessionManager");
        assert!(source.contains("export { getAgentDir } from \"pihost:pi/coding-agent/agent-dir.js\";"));
        assert!(source.contains("export { SessionManager } from \"pihost:pi/coding-agent/session-manager.js\";"));
        // The facade's side effect comes with it.
        assert!(source.contains("import \"pihost:pi/pi-coding-agent.engine.js\";"));
        assert!(!source.contains("\"pihost:pi/pi-coding-agent\""), "{source}");
    }

    #[test]
    fn renamed_re_exports_and_engine_only_names_keep_their_definitions() {
        let source = source_of("pi/pi-ai?only=getModel");
        assert!(
            source.contains("export { getBuiltinModel as getModel } from"),
            "{source}"
        );
        let source = source_of("pi/pi-coding-agent?only=ExtensionRunner");
        assert!(
            source.contains("from \"pihost:pi/pi-coding-agent.engine.js\""),
            "{source}"
        );
    }

    #[test]
    fn a_constant_pihost_has_no_module_for_is_its_recorded_value_and_stubs_come_from_the_facade() {
        let source = source_of("pi/pi-coding-agent?only=CONFIG_DIR_NAME");
        assert!(source.contains("const CONFIG_DIR_NAME$ = \".pi\";"), "{source}");
        assert!(!source.contains("\"pihost:pi/pi-coding-agent\""), "{source}");
        let source = source_of("pi/pi-tui?only=ProcessTerminal");
        assert!(
            source.contains("export { ProcessTerminal } from \"pihost:pi/pi-tui\";"),
            "{source}"
        );
    }

    #[test]
    fn names_it_does_not_export_are_refused() {
        let error = source("pi/pi-tui?only=noSuchName")
            .expect("a view path")
            .expect_err("refused");
        assert!(
            error.contains("@earendil-works/pi-tui has no export named \"noSuchName\""),
            "{error}"
        );
        assert!(source("pi/pi-tui.js").is_none());
    }

    #[test]
    fn only_plain_identifiers_make_a_view_and_the_names_are_ordered() {
        assert_eq!(specifier("pi-tui", []), None);
        assert_eq!(specifier("pi-tui", ["a-b"]), None);
        assert_eq!(
            specifier("pi-tui", ["visibleWidth", "Text", "Text"]).as_deref(),
            Some("pihost:pi/pi-tui?only=Text,visibleWidth")
        );
        assert!(is_view("pihost:pi/pi-tui?only=Text"));
        assert!(!is_view("pihost:pi/nothing?only=Text"));
        assert!(!is_view("pihost:pi/pi-tui"));
    }
}
