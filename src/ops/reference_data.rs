//! Data of pi's packages recorded from the reference pi 1.6.0 and served to
//! the isolate as JSON text: pi-ai's built-in model catalog
//! (`reference-data/model-catalog.json`, written by
//! `tests/reference/record-model-catalog.mjs`) and the provider error texts
//! pi-ai recognizes as a context overflow (`reference-data/overflow-patterns.json`,
//! `tests/reference/record-overflow-patterns.mjs`). The isolate asks for a
//! table the first time an extension needs it (`js/pi/ai/catalog.js`,
//! `js/pi/ai/overflow.js`), so runtimes that never do pay nothing.

use deno_core::op2;
use deno_error::JsErrorBox;

static MODEL_CATALOG: &str = include_str!("../../reference-data/model-catalog.json");
static OVERFLOW_PATTERNS: &str = include_str!("../../reference-data/overflow-patterns.json");

/// The table `name` as JSON text.
#[op2]
#[string]
pub fn op_pihost_reference_data(#[string] name: &str) -> Result<String, JsErrorBox> {
    match name {
        "model-catalog" => Ok(MODEL_CATALOG.to_string()),
        "overflow-patterns" => Ok(OVERFLOW_PATTERNS.to_string()),
        other => Err(JsErrorBox::type_error(format!(
            "pihost: no reference data named {other:?}"
        ))),
    }
}
