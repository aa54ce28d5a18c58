//! deno_node's lazily loaded scripts, compiled as ES modules so that the
//! engine's bytecode cache serves them.
//!
//! deno_core compiles each `lazy_loaded_js` file with `CompileFunction` the
//! first time a runtime needs it, and on the QuickJS backend that parses the
//! whole script again in every process: most of a first `import("node:http")`
//! (engine note 25). ES modules, unlike functions, are read from the engine's
//! on-disk bytecode cache before any parse. So each such file is replaced by
//! a stub of one line, which deno_core still compiles with `CompileFunction`
//! (cheap), and which asks [`op_pihost_compile_lazy_script`] for the real
//! script compiled as the default export of a module: the same function
//! deno_core would have made, called with the same `__bootstrap`.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use deno_core::{Extension, ExtensionFileSource, ExtensionFileSourceCode, op2, v8};
use deno_error::JsErrorBox;

/// Every lazily loaded script's real code, by specifier.
static SCRIPTS: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();

/// Each script's stub, made once per process.
static STUBS: OnceLock<HashMap<&'static str, Arc<str>>> = OnceLock::new();

#[allow(
    deprecated,
    reason = "embedded platform files are `IncludedInBinary` (src/platform/sources.rs)"
)]
fn static_code(file: &ExtensionFileSource) -> Option<&'static str> {
    match &file.code {
        ExtensionFileSourceCode::IncludedInBinary(code) => Some(code.as_str()),
        _ => None,
    }
}

/// Replaces the embedded lazily loaded scripts of `extensions` with stubs
/// that compile them through [`op_pihost_compile_lazy_script`]. Runs after
/// their code was embedded; pihost's own stand-ins keep their code.
pub(super) fn defer(extensions: &mut [Extension]) {
    let scripts = SCRIPTS.get_or_init(|| {
        extensions
            .iter()
            .flat_map(|extension| extension.lazy_loaded_js_files.iter())
            .filter_map(|file| Some((file.specifier, static_code(file)?)))
            .collect()
    });
    let stubs = STUBS.get_or_init(|| {
        scripts
            .keys()
            .map(|specifier| (*specifier, Arc::from(stub(specifier))))
            .collect()
    });
    for extension in extensions {
        if extension.lazy_loaded_js_files.is_empty() {
            continue;
        }
        let files = extension
            .lazy_loaded_js_files
            .iter()
            .map(|file| match stubs.get(file.specifier) {
                Some(stub) => ExtensionFileSource::new_computed(file.specifier, stub.clone()),
                None => file.clone(),
            })
            .collect::<Vec<_>>();
        extension.lazy_loaded_js_files = std::borrow::Cow::Owned(files);
    }
}

/// deno_core takes a source that starts with `"use strict"; return (` as
/// the body of its function as it is, so the stub is that body.
fn stub(specifier: &str) -> String {
    let quoted = serde_json::to_string(specifier).unwrap_or_else(|_| format!("\"{specifier}\""));
    format!("\"use strict\"; return (__bootstrap.core.ops.op_pihost_compile_lazy_script({quoted})(__bootstrap));")
}

/// The module a script is compiled as. The function's body is what
/// deno_core would have compiled, on the module's first line, so the
/// script's lines keep their numbers in stack traces.
fn module_source(code: &str) -> String {
    crate::function_modules::module_source("__bootstrap", &deno_core::wrap_lazy_ext_script(code))
}

/// The function a lazily loaded script's stub calls with `__bootstrap`.
#[op2(reentrant)]
pub fn op_pihost_compile_lazy_script<'s, 'i>(
    scope: &mut v8::PinScope<'s, 'i>,
    #[string] specifier: &str,
) -> Result<v8::Local<'s, v8::Value>, JsErrorBox> {
    let code = SCRIPTS
        .get()
        .and_then(|scripts| scripts.get(specifier))
        .ok_or_else(|| JsErrorBox::generic(format!("pihost: no platform script {specifier} was embedded")))?;
    crate::function_modules::compile(scope, specifier, &module_source(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_becomes_a_module_whose_default_is_the_function_deno_core_would_make() {
        let source = module_source("// license\n\"use strict\";\n(function () {\n  return 1;\n})();\n");
        assert!(source.starts_with("export default function (__bootstrap) { \"use strict\"; return ((function () {"));
        assert!(source.ends_with("})());\n}"));
    }

    #[test]
    fn a_stub_is_a_body_deno_core_takes_as_it_is() {
        let stub = stub("ext:deno_node/internal/util.mjs");
        assert!(stub.starts_with("\"use strict\"; return ("));
        assert!(stub.contains("op_pihost_compile_lazy_script(\"ext:deno_node/internal/util.mjs\")(__bootstrap)"));
    }
}
