//! Functions compiled as the default export of a module of their own.
//!
//! On the QuickJS backend only ES modules are read from the engine's on-disk
//! bytecode cache; scripts, `eval` and `CompileFunction` are parsed again in
//! every process (docs/engine-notes.md, note 25). Code that pihost has to
//! turn into a function at run time (deno_node's lazily loaded scripts,
//! CommonJS files that `require` loads) is therefore compiled as
//! `export default function (<parameters>) { <body>\n}` and the function
//! taken from the module, which is linked but never evaluated. Only code
//! that is strict already may go this way: a module's code is strict.

use deno_core::v8;
use deno_error::JsErrorBox;

/// The module source for a function of `parameters` with `body` on the
/// module's first line, so the body's lines keep their numbers.
pub(crate) fn module_source(parameters: &str, body: &str) -> String {
    format!("export default function ({parameters}) {{ {body}\n}}")
}

/// Compiles `source` (made by [`module_source`]) as a module named `name`
/// and returns its default export. A syntax error in it is an error naming
/// `name`.
pub(crate) fn compile<'s, 'i>(
    scope: &mut v8::PinScope<'s, 'i>,
    name: &str,
    source: &str,
) -> Result<v8::Local<'s, v8::Value>, JsErrorBox> {
    let failed = |what: &str, detail: String| JsErrorBox::generic(format!("pihost: cannot {what} {name}{detail}"));
    let text = v8::String::new(scope, source).ok_or_else(|| failed("hold", String::new()))?;
    let resource = v8::String::new(scope, name).ok_or_else(|| failed("name", String::new()))?;
    let origin = v8::ScriptOrigin::new(scope, resource.into(), 0, 0, false, -1, None, false, false, true, None);
    v8::tc_scope!(let scope, scope);
    let mut source = v8::script_compiler::Source::new(text, Some(&origin));
    let step = 'compile: {
        let Some(module) = v8::script_compiler::compile_module(scope, &mut source) else {
            break 'compile "compile";
        };
        if module.instantiate_module(scope, no_imports).is_none() {
            break 'compile "link";
        }
        // Not evaluated: a module's function declarations are bound when it
        // is linked (the specification's InitializeEnvironment), and the
        // body has nothing else to run. Evaluating would only cost the
        // engine's walk over every module it knows (engine note 40).
        let Ok(namespace) = v8::Local::<v8::Object>::try_from(module.get_module_namespace()) else {
            break 'compile "read the namespace of";
        };
        let Some(key) = v8::String::new(scope, "default") else {
            break 'compile "read";
        };
        match namespace.get(scope, key.into()) {
            Some(function) if function.is_function() => return Ok(function),
            _ => break 'compile "read the function of",
        }
    };
    let detail = scope
        .exception()
        .map(|exception| format!(": {}", exception.to_rust_string_lossy(scope)))
        .unwrap_or_default();
    Err(failed(step, detail))
}

/// The modules hold one function and import nothing.
fn no_imports<'s>(
    _context: v8::Local<'s, v8::Context>,
    _specifier: v8::Local<'s, v8::String>,
    _import_attributes: v8::Local<'s, v8::FixedArray>,
    _referrer: v8::Local<'s, v8::Module>,
) -> Option<v8::Local<'s, v8::Module>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_starts_on_the_first_line() {
        let source = module_source("a, b", "return a +\nb;");
        assert_eq!(source, "export default function (a, b) { return a +\nb;\n}");
    }
}
