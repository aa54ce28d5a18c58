//! pi's virtual module map (L2): the specifiers pi resolves for extensions
//! (`@earendil-works/*`, `@mariozechner/*`, `typebox`, `@sinclair/typebox`)
//! and the export names each module has in pi 1.6.0.
//!
//! The names are data recorded from the reference (`reference-data/exports.json`,
//! written by `tests/reference/record-exports.mjs`). Every name links; a name
//! pihost implements comes from `js/pi/<module>.js`, any other is a value that
//! throws `pihost: <module>.<name> is not implemented yet` when used.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use crate::embedded;

#[derive(Debug, Deserialize)]
struct ExportsData {
    specifiers: BTreeMap<String, String>,
    modules: BTreeMap<String, BTreeMap<String, ExportDescription>>,
}

/// What the reference exports under one name.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
pub struct ExportDescription {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
}

static DATA: LazyLock<ExportsData> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../reference-data/exports.json")).unwrap_or_else(|error| {
        // The file is committed data checked by the tests; a broken copy is a
        // build defect, not user input.
        tracing::error!("reference-data/exports.json is unreadable: {error}");
        ExportsData {
            specifiers: BTreeMap::new(),
            modules: BTreeMap::new(),
        }
    })
});

/// The module id (`pi-coding-agent`, `pi-ai`, `typebox/value`, …) a specifier
/// maps to, or `None` when it is not one of pi's virtual modules.
pub fn module_id(specifier: &str) -> Option<&'static str> {
    DATA.specifiers.get(specifier).map(String::as_str)
}

/// All specifiers of the virtual map, for listings and tests.
pub fn specifiers() -> impl Iterator<Item = (&'static str, &'static str)> {
    DATA.specifiers
        .iter()
        .map(|(specifier, id)| (specifier.as_str(), id.as_str()))
}

/// The export names and kinds of one virtual module.
pub fn exports(module_id: &str) -> Option<&'static BTreeMap<String, ExportDescription>> {
    DATA.modules.get(module_id)
}

/// The name shown in "not implemented" errors: the `@earendil-works/` form.
pub fn display_name(module_id: &str) -> String {
    if module_id.starts_with("typebox") {
        module_id.to_string()
    } else {
        format!("@earendil-works/{module_id}")
    }
}

/// The path under `js/` of pihost's implementation of a virtual module.
pub fn implementation_path(module_id: &str) -> String {
    format!("pi/{module_id}.js")
}

/// The path under `js/` of the part of a virtual module's implementation
/// that works only inside the engine (it reaches the runtime's own modules),
/// kept apart so the Node differentials can import the rest.
pub fn engine_only_path(module_id: &str) -> String {
    format!("pi/{module_id}.engine.js")
}

/// Whether an export name can be written as a plain identifier.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c == '$' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c == '$' || c.is_ascii_alphanumeric())
}

/// The ES module that stands for a virtual module: every recorded export
/// name, each taken from the implementation when it has it, else a stub.
pub fn facade_source(module_id: &str) -> Option<String> {
    let names = exports(module_id)?;
    let has_implementation = embedded::file(&implementation_path(module_id)).is_some();
    let mut source = String::new();
    source.push_str(embedded::template("facade-header.js"));
    let has_engine_part = embedded::file(&engine_only_path(module_id)).is_some();
    match (has_implementation, has_engine_part) {
        (true, true) => source.push_str(&format!(
            "import * as shared from \"pihost:{}\";\nimport * as engineOnly from \"pihost:{}\";\nconst implementation = {{ ...shared, ...engineOnly }};\n",
            implementation_path(module_id),
            engine_only_path(module_id)
        )),
        (true, false) => source.push_str(&format!(
            "import * as implementation from \"pihost:{}\";\n",
            implementation_path(module_id)
        )),
        _ => source.push_str("const implementation = {};\n"),
    }
    let module_name = serde_json::Value::String(display_name(module_id));
    let mut export_list = Vec::with_capacity(names.len());
    for (index, (name, description)) in names.iter().enumerate() {
        let local = format!("__export{index}");
        let description = serde_json::to_string(description).unwrap_or_else(|_| "{}".to_string());
        let quoted = serde_json::Value::String(name.clone());
        source.push_str(&format!(
            "const {local} = exportOrStub(implementation, {module_name}, {quoted}, {description});\n"
        ));
        if is_identifier(name) {
            export_list.push(format!("{local} as {name}"));
        } else {
            export_list.push(format!("{local} as {quoted}"));
        }
    }
    source.push_str(&format!("export {{ {} }};\n", export_list.join(", ")));
    Some(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_prefixes_map_to_the_same_module_l2() {
        for suffix in [
            "pi-coding-agent",
            "pi-agent-core",
            "pi-tui",
            "pi-ai",
            "pi-ai/compat",
            "pi-ai/models",
            "pi-ai/oauth",
            "pi-ai/providers/all",
        ] {
            let earendil = module_id(&format!("@earendil-works/{suffix}"));
            let mario = module_id(&format!("@mariozechner/{suffix}"));
            assert!(earendil.is_some(), "{suffix} is mapped");
            assert_eq!(earendil, mario, "{suffix}");
        }
        for suffix in ["", "/compile", "/value"] {
            assert_eq!(
                module_id(&format!("typebox{suffix}")),
                module_id(&format!("@sinclair/typebox{suffix}"))
            );
            assert!(module_id(&format!("typebox{suffix}")).is_some());
        }
    }

    #[test]
    fn the_pi_ai_root_is_its_compat_view_l2() {
        assert_eq!(
            module_id("@earendil-works/pi-ai"),
            module_id("@earendil-works/pi-ai/compat")
        );
        assert_eq!(module_id("@mariozechner/pi-ai"), Some("pi-ai"));
    }

    #[test]
    fn every_recorded_module_has_a_facade_naming_all_exports() {
        for (_, id) in specifiers() {
            let source = facade_source(id).expect("facade");
            for name in exports(id).expect("names").keys() {
                assert!(source.contains(&format!("{name:?}")), "{id} lacks {name}");
            }
        }
    }
}
