//! The static shapes (imports, re-exports, export names) of pihost's own
//! modules under `js/`, parsed once per process: the lenient-import rewrite
//! reads what they export, the views of pi's virtual modules where each
//! name is defined.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use deno_ast::ModuleSpecifier;

use super::INTERNAL_SCHEME;
use crate::embedded;
use crate::transpile::{self, EsModuleShape};

type ShapeCache = Mutex<HashMap<String, Option<Arc<EsModuleShape>>>>;
static EMBEDDED_SHAPES: LazyLock<ShapeCache> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The shape of one of pihost's own modules (`js/<path>`), parsed once.
pub(super) fn embedded_shape(path: &str) -> Option<Arc<EsModuleShape>> {
    if let Some(cached) = EMBEDDED_SHAPES.lock().ok().and_then(|cache| cache.get(path).cloned()) {
        return cached;
    }
    let shape = embedded::file(path).and_then(|code| {
        let url = ModuleSpecifier::parse(&format!("{INTERNAL_SCHEME}{path}")).ok()?;
        transpile::parse_es_module_shape(&url, code).map(Arc::new)
    });
    if let Ok(mut cache) = EMBEDDED_SHAPES.lock() {
        cache.insert(path.to_string(), shape.clone());
    }
    shape
}
