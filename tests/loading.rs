//! Loading semantics (SEMANTICS L1–L6, L8), each test named after its id.
//! Fixtures report what they saw through a command description.

mod support;

use support::*;

fn report_command(facts: &str) -> String {
    format!("pi.registerCommand(\"report\", {{ description: JSON.stringify({facts}), handler() {{}} }});")
}

#[test]
fn l1_typescript_is_transpiled_not_type_checked() {
    let project = Project::new();
    let source = format!(
        r#"
import type {{ ExtensionAPI }} from "@earendil-works/pi-coding-agent";
enum Level {{ Low = 1, High = 5 }}
namespace Geometry {{ export const sides = (n: number): number => n; }}
function sealed(target: Function) {{ (target as any).sealed = true; }}
@sealed class Box {{ #secret = 2; constructor(private readonly width: number) {{}} area(): number {{ return this.width * this.#secret; }} }}
const wrong: number = "a string" as unknown as number; // a type error tsc would reject
export default function (pi: ExtensionAPI): void {{
  const facts = {{ level: Level.High, name: Level[1], sides: Geometry.sides(4), sealed: (Box as any).sealed, area: new Box(3).area(), wrong }};
  {}
}}
"#,
        report_command("facts")
    );
    let path = project.write("ext.ts", &source);
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let facts: serde_json::Value = serde_json::from_str(&command_description(&report, "report")).expect("json");
    assert_eq!(
        facts,
        serde_json::json!({"level": 5, "name": "Low", "sides": 4, "sealed": true, "area": 6, "wrong": "a string"})
    );
}

#[test]
fn l1_an_error_at_line_n_of_a_ts_file_reports_that_file_and_line() {
    let project = Project::new();
    // Types and blank lines shift the emitted code; the stack must not shift.
    let path = project.write(
        "thrower.ts",
        "interface Options {\n  a: string;\n  b: number;\n}\n\ntype Alias = Options;\n\nexport default function (pi: unknown): void {\n  const options: Alias = { a: \"x\", b: 1 };\n  throw new Error(`boom ${options.a}`);\n}\n",
    );
    let report = project.inspect(&[&path]);
    let error = &report.errors[0];
    assert_eq!(error.error, "Failed to load extension: boom x");
    let stack = error.stack.as_deref().expect("a stack");
    assert!(
        stack.contains(&format!("{path}:10:")),
        "stack does not point at line 10:\n{stack}"
    );
}

#[test]
fn l2_both_prefixes_and_typebox_twins_are_the_same_module_objects() {
    let project = Project::new();
    let source = format!(
        r#"
import * as agentA from "@earendil-works/pi-coding-agent";
import * as agentB from "@mariozechner/pi-coding-agent";
import * as coreA from "@earendil-works/pi-agent-core";
import * as coreB from "@mariozechner/pi-agent-core";
import * as tuiA from "@earendil-works/pi-tui";
import * as tuiB from "@mariozechner/pi-tui";
import * as aiRoot from "@earendil-works/pi-ai";
import * as aiCompat from "@mariozechner/pi-ai/compat";
import * as modelsA from "@earendil-works/pi-ai/models";
import * as modelsB from "@mariozechner/pi-ai/models";
import * as oauthA from "@earendil-works/pi-ai/oauth";
import * as oauthB from "@mariozechner/pi-ai/oauth";
import * as allA from "@earendil-works/pi-ai/providers/all";
import * as allB from "@mariozechner/pi-ai/providers/all";
import * as tb from "typebox";
import * as stb from "@sinclair/typebox";
import * as tbc from "typebox/compile";
import * as stbc from "@sinclair/typebox/compile";
import * as tbv from "typebox/value";
import * as stbv from "@sinclair/typebox/value";
export default function (pi) {{
  const facts = {{
    agent: agentA === agentB, core: coreA === coreB, tui: tuiA === tuiB, ai: aiRoot === aiCompat,
    models: modelsA === modelsB, oauth: oauthA === oauthB, all: allA === allB,
    typebox: tb === stb, compile: tbc === stbc, value: tbv === stbv,
    aiType: aiRoot.Type === tb.Type,
  }};
  {}
}}
"#,
        report_command("facts")
    );
    let path = project.write("ext.js", &source);
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let facts: serde_json::Value = serde_json::from_str(&command_description(&report, "report")).expect("json");
    for (key, value) in facts.as_object().expect("object") {
        assert_eq!(
            value,
            &serde_json::Value::Bool(true),
            "{key} is not the same module object"
        );
    }
}

#[test]
fn l2_a_named_import_of_a_pi_package_is_the_same_binding_as_the_whole_modules() {
    // pihost serves named imports of pi's packages from views holding only
    // those names; each must be the very value the whole module has.
    let exports: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project_root().join("reference-data/exports.json")).expect("exports.json"),
    )
    .expect("json");
    let is_identifier = |name: &str| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c == '_' || c == '$' || c.is_ascii_alphabetic())
            && chars.all(|c| c == '_' || c == '$' || c.is_ascii_alphanumeric())
    };
    let project = Project::new();
    let mut source = String::new();
    let mut checks = Vec::new();
    for (module_index, (module_id, names)) in exports["modules"].as_object().expect("modules").iter().enumerate() {
        let specifier = if module_id.starts_with("typebox") {
            module_id.clone()
        } else {
            format!("@earendil-works/{module_id}")
        };
        let names: Vec<&String> = names
            .as_object()
            .expect("names")
            .keys()
            .filter(|name| name.as_str() != "default" && is_identifier(name))
            .collect();
        if names.is_empty() {
            continue;
        }
        let bindings: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(index, name)| format!("{name} as m{module_index}_{index}"))
            .collect();
        source.push_str(&format!("import {{ {} }} from \"{specifier}\";\n", bindings.join(", ")));
        source.push_str(&format!("import * as whole{module_index} from \"{specifier}\";\n"));
        for (index, name) in names.iter().enumerate() {
            checks.push(format!(
                "if (!Object.is(m{module_index}_{index}, whole{module_index}[\"{name}\"])) differ.push(\"{specifier}.{name}\");"
            ));
        }
    }
    assert!(checks.len() > 500, "every module's names are checked");
    source.push_str(&format!(
        "export default function (pi) {{\n  const differ = [];\n  {}\n  {}\n}}\n",
        checks.join("\n  "),
        report_command("differ")
    ));
    let path = project.write("ext.js", &source);
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let differ: serde_json::Value = serde_json::from_str(&command_description(&report, "report")).expect("json");
    assert_eq!(differ, serde_json::json!([]));
}

#[test]
fn l2_importing_a_few_names_of_pi_coding_agent_evaluates_only_what_defines_them() {
    // In pi the package is pi itself, already loaded: an extension that
    // imports `getAgentDir` pays nothing for the rest of it.
    let modules_loaded = |import: &str| {
        let project = Project::new();
        let path = project.write(
            "ext.js",
            &format!("{import}\nexport default function (pi) {{ globalThis.seen = typeof getAgentDir; }}\n"),
        );
        let report = project.inspect(&[&path]);
        assert!(report.errors.is_empty(), "{:#?}", report.errors);
        report.extensions[0].timing.as_ref().expect("timing").modules
    };
    let named = modules_loaded("import { getAgentDir } from \"@earendil-works/pi-coding-agent\";");
    let whole =
        modules_loaded("import * as agent from \"@earendil-works/pi-coding-agent\"; const { getAgentDir } = agent;");
    assert!(named < 30, "a named import loaded {named} modules");
    assert!(whole > 200, "the whole package is {whole} modules");
}

#[test]
fn l2_every_export_links_and_one_that_cannot_work_in_a_host_says_so_when_used() {
    let project = Project::new();
    let source = format!(
        r#"
import {{ ProcessTerminal }} from "@mariozechner/pi-tui";
import {{ createCodemodeExtension }} from "@mariozechner/pi-coding-agent";
import {{ DEFAULT_MAX_BYTES, CONFIG_DIR_NAME }} from "@earendil-works/pi-coding-agent";
class MyTerminal extends ProcessTerminal {{}}
export default function (pi) {{
  let message = "no error";
  try {{ message = typeof createCodemodeExtension(); }} catch (error) {{ message = error.message; }}
  let constructed = "no error";
  try {{ new MyTerminal(); }} catch (error) {{ constructed = error.message; }}
  let hostless = "no error";
  try {{ new ProcessTerminal(); }} catch (error) {{ hostless = error.message; }}
  const facts = {{ message, constructed, hostless, maxBytes: DEFAULT_MAX_BYTES, configDir: CONFIG_DIR_NAME }};
  {}
}}
"#,
        report_command("facts")
    );
    let path = project.write("ext.js", &source);
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let facts: serde_json::Value = serde_json::from_str(&command_description(&report, "report")).expect("json");
    // pi's last export built (the codemode factory); nothing is left "not implemented yet".
    assert_eq!(facts["message"], "function");
    let hostless = facts["hostless"].as_str().unwrap_or_default();
    assert!(
        hostless.starts_with("pihost: @earendil-works/pi-tui.ProcessTerminal cannot work inside a host: ")
            && hostless.contains("the host owns the terminal"),
        "{hostless}"
    );
    // A subclass of such a class fails the same way when constructed.
    assert_eq!(facts["constructed"], facts["hostless"]);
    assert_eq!(facts["maxBytes"], 51200);
    assert_eq!(facts["configDir"], ".pi");
}

#[test]
fn l3_the_default_export_must_be_a_function_and_commonjs_exports_count() {
    let project = Project::new();
    let object = project.write("object.ts", "export default { name: 'not a factory' };\n");
    let none = project.write("none.ts", "export const factory = () => {};\n");
    let commonjs = project.write(
        "commonjs.cjs",
        "module.exports = function (pi) { pi.registerCommand('from-cjs', { handler() {} }); };\n",
    );
    let transpiled = project.write(
        "transpiled.js",
        "Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = function (pi) { pi.registerCommand('from-esmodule', { handler() {} }); };\n",
    );
    let report = project.inspect(&[&object, &none, &commonjs, &transpiled]);
    let errors: Vec<&str> = report.errors.iter().map(|error| error.error.as_str()).collect();
    assert_eq!(
        errors,
        [
            format!("Extension does not export a valid factory function: {object}"),
            format!("Extension does not export a valid factory function: {none}"),
        ]
    );
    let commands: Vec<&str> = report
        .extensions
        .iter()
        .flat_map(|extension| extension.commands.iter().map(|command| command.name.as_str()))
        .collect();
    assert_eq!(commands, ["from-cjs", "from-esmodule"]);
}

#[test]
fn l4_each_failure_is_reported_and_the_others_still_load_in_order() {
    let project = Project::new();
    let ok = |name: &str| format!("export default (pi) => pi.registerCommand({name:?}, {{ handler() {{}} }});\n");
    let first = project.write("1-first.ts", &ok("first"));
    let bad_import = project.write(
        "2-bad-import.ts",
        "import { x } from './missing-helper';\nexport default () => x;\n",
    );
    let bad_syntax = project.write("3-bad-syntax.ts", "export default function (pi {\n");
    let throws_at_eval = project.write(
        "4-eval.ts",
        "throw new TypeError('evaluation failed');\nexport default () => {};\n",
    );
    let rejects = project.write(
        "5-async.ts",
        "export default async () => { await null; throw 'a string'; };\n",
    );
    let last = project.write("6-last.ts", &ok("last"));
    let report = project.inspect(&[&first, &bad_import, &bad_syntax, &throws_at_eval, &rejects, &last]);
    let loaded: Vec<&str> = report
        .extensions
        .iter()
        .map(|extension| extension.path.as_str())
        .collect();
    assert_eq!(loaded, [first.as_str(), last.as_str()]);
    let errors: Vec<(&str, &str)> = report
        .errors
        .iter()
        .map(|error| (error.path.as_str(), error.error.as_str()))
        .collect();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert_eq!(errors[0].0, bad_import);
    assert_eq!(
        errors[0].1,
        format!("Failed to load extension: Cannot find module './missing-helper'\nRequire stack:\n- {bad_import}")
    );
    assert_eq!(errors[1].0, bad_syntax);
    assert!(errors[1].1.starts_with("Failed to load extension: "), "{}", errors[1].1);
    assert!(
        errors[1].1.contains("3-bad-syntax.ts:1:"),
        "the syntax error names the file and line: {}",
        errors[1].1
    );
    assert_eq!(
        errors[2],
        (throws_at_eval.as_str(), "Failed to load extension: evaluation failed")
    );
    assert_eq!(errors[3], (rejects.as_str(), "Failed to load extension: a string"));
}

#[test]
fn l5_async_factories_are_awaited_one_at_a_time_in_order() {
    let project = Project::new();
    let slow = project.write(
        "a-slow.ts",
        "export default async (pi) => { const log = (globalThis.order ??= []); log.push('slow:start'); await new Promise((r) => setTimeout(r, 30)); log.push('slow:end'); };\n",
    );
    let fast = project.write(
        "b-fast.ts",
        &format!(
            "export default async (pi) => {{ const log = (globalThis.order ??= []); log.push('fast'); await null; const facts = log; {} }};\n",
            report_command("facts")
        ),
    );
    let report = project.inspect(&[&slow, &fast]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(
        command_description(&report, "report"),
        r#"["slow:start","slow:end","fast"]"#
    );
}

#[test]
fn l6_cached_loads_reuse_factories_until_the_cwd_changes_and_uncached_loads_reevaluate() {
    let project = Project::new();
    let path = project.write(
        "counted.ts",
        "globalThis.evaluations = (globalThis.evaluations ?? 0) + 1;\nconst seen = globalThis.evaluations;\nexport default (pi) => pi.registerCommand('count', { description: String(seen), handler() {} });\n",
    );
    let other_cwd = project.path("elsewhere");
    std::fs::create_dir_all(&other_cwd).expect("mkdir");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let mut engine = pihost::Engine::new(project.options()).await.expect("engine");
        let discovered = engine.discover(std::slice::from_ref(&path));
        let count = |report: &pihost::InspectReport| command_description(report, "count");
        let first = engine.load(&discovered, true).await.expect("load");
        let cached = engine.load(&discovered, true).await.expect("load");
        assert_eq!(
            (count(&first), count(&cached)),
            ("1".to_string(), "1".to_string()),
            "cache hit"
        );
        let uncached = engine.load(&discovered, false).await.expect("load");
        assert_eq!(count(&uncached), "2", "an uncached load evaluates the module anew");
        engine.set_cwd(other_cwd.clone());
        let after_cwd_change = engine.load(&discovered, true).await.expect("load");
        assert_eq!(count(&after_cwd_change), "3", "a cwd change invalidates the cache");
        engine.clear_extension_cache().await.expect("clear");
        engine.set_cwd(other_cwd);
        let after_clear = engine.load(&discovered, true).await.expect("load");
        assert_eq!(count(&after_clear), "4", "clearExtensionCache invalidates the cache");
    });
}

#[test]
fn l8_es_modules_see_jitis_module_globals() {
    let project = Project::new();
    project.write("lib/helper.cjs", "module.exports = { answer: 42 };\n");
    let source = format!(
        r#"
import {{ fileURLToPath }} from "node:url";
export default function (pi) {{
  const facts = {{
    filename: __filename,
    dirname: __dirname,
    fromUrl: fileURLToPath(import.meta.url),
    sameExports: module.exports === exports,
    requirePath: require("node:path").join("a", "b"),
    requireCjs: require("./lib/helper.cjs").answer,
  }};
  {}
}}
"#,
        report_command("facts")
    );
    let path = project.write("ext.ts", &source);
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let facts: serde_json::Value = serde_json::from_str(&command_description(&report, "report")).expect("json");
    let dir = project.root.path().display().to_string();
    assert_eq!(
        facts,
        serde_json::json!({
            "filename": path, "dirname": dir, "fromUrl": path, "sameExports": true,
            "requirePath": "a/b", "requireCjs": 42
        })
    );
}

#[test]
fn l8_a_module_that_declares_require_itself_keeps_its_own() {
    let project = Project::new();
    let source = format!(
        r#"
import {{ createRequire }} from "node:module";
const require = createRequire(import.meta.url);
const __dirname = "declared by the module";
export default function (pi) {{
  const facts = {{ dirname: __dirname, os: typeof require("node:os").platform }};
  {}
}}
"#,
        report_command("facts")
    );
    let path = project.write("own-require.ts", &source);
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(
        command_description(&report, "report"),
        r#"{"dirname":"declared by the module","os":"function"}"#
    );
}

#[test]
fn l1_every_source_kind_loads_ts_mts_cts_tsx_js_mjs_cjs() {
    let project = Project::new();
    let register = |name: &str| format!("pi.registerCommand({name:?}, {{ handler() {{}} }})");
    let esm = |name: &str| {
        format!(
            "const label: string = {name:?};\nexport default (pi: any) => {};\n",
            register(name)
        )
    };
    let cjs = |name: &str| format!("module.exports = (pi) => {};\n", register(name));
    let cts = |name: &str| {
        format!(
            "const label: string = {name:?};\nmodule.exports = (pi: any) => {};\n",
            register(name)
        )
    };
    project.write("pkg/a.ts", &esm("ts"));
    project.write("pkg/b.mts", &esm("mts"));
    project.write("pkg/c.cts", &cts("cts"));
    project.write("pkg/d.tsx", &esm("tsx"));
    project.write("pkg/e.js", &format!("export default (pi) => {};\n", register("js")));
    project.write("pkg/f.mjs", &format!("export default (pi) => {};\n", register("mjs")));
    project.write("pkg/g.cjs", &cjs("cjs"));
    project.write(
        "pkg/package.json",
        r#"{ "pi": { "extensions": ["a.ts", "b.mts", "c.cts", "d.tsx", "e.js", "f.mjs", "g.cjs"] } }"#,
    );
    let report = project.inspect(&["pkg"]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let commands: Vec<&str> = report
        .extensions
        .iter()
        .flat_map(|extension| extension.commands.iter().map(|command| command.name.as_str()))
        .collect();
    assert_eq!(commands, ["ts", "mts", "cts", "tsx", "js", "mjs", "cjs"]);
}
