//! pi-ai's built-in model catalog: the data pi 1.6.0 generates for its
//! providers, recorded from the reference (`reference-data/model-catalog.json`,
//! written by `tests/reference/record-model-catalog.mjs`). The isolate asks
//! for it the first time an extension reads the catalog
//! (`js/pi/ai/catalog.js`), so runtimes that never do pay nothing.

use deno_core::op2;

static CATALOG: &str = include_str!("../../reference-data/model-catalog.json");

/// The catalog as JSON text.
#[op2]
#[string]
pub fn op_pihost_model_catalog() -> String {
    CATALOG.to_string()
}
