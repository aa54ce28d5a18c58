//! TypeScript and JavaScript to the JavaScript the isolate runs (L1).
//!
//! Types are stripped and enums, namespaces and decorators lowered; nothing is
//! type-checked, as under jiti. Every module keeps a separate source map so
//! stack traces name the original `.ts` line. Results are cached process-wide
//! by a hash of the source, so loading the same extension a second time (a
//! reload, a second runtime) skips the work, and on disk ([`disk_cache`]), so
//! the next process skips it too.

pub mod disk_cache;
mod long_lines;

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use deno_ast::swc::ast::{
    Callee, Decl, ExportSpecifier, Expr, ImportPhase, ImportSpecifier, Lit, Module, ModuleDecl, ModuleExportName,
    ModuleItem, ObjectPatProp, Pat, Stmt, VarDecl,
};
use deno_ast::{
    DecoratorsTranspileOption, EmitOptions, MediaType, ModuleSpecifier, ParseParams, ProgramRef, SourceMapOption,
    SourceRangedForSpanned, StartSourcePos, TranspileModuleOptions, TranspileOptions,
};

/// The names jiti gives every module it loads (L8); an ES module sees them
/// unless it declares the name itself.
pub const MODULE_GLOBAL_NAMES: [&str; 5] = ["require", "module", "exports", "__filename", "__dirname"];

/// How the transpiled code must be evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModuleFormat {
    /// Has `import`/`export`: evaluated as an ES module.
    EcmaScript,
    /// A script (no `import`/`export`), or a `.cjs` file: evaluated as CommonJS.
    CommonJs,
}

/// One module's transpiled code and how to run it.
#[derive(Debug)]
pub struct TranspiledModule {
    /// The JavaScript to evaluate.
    pub code: String,
    /// How stack traces get from this code back to the file's own lines.
    pub source_map: Option<SourceMapping>,
    /// Whether to evaluate it as an ES module or as CommonJS.
    pub format: ModuleFormat,
    /// Which of [`MODULE_GLOBAL_NAMES`] the module declares at its top level.
    pub declared_module_globals: Vec<&'static str>,
    /// For CommonJS: the export names a static look at the source finds
    /// (`exports.x = …`, `module.exports = { x }`, …), as Node's
    /// cjs-module-lexer does for ESM importers; empty for ES modules.
    pub commonjs_exports: Vec<String>,
    /// For CommonJS: the specifiers whose exports it re-exports
    /// (`module.exports = require("./x")`, `__exportStar(require("x"))`).
    pub commonjs_reexports: Vec<String>,
    /// For CommonJS: the specifiers of its literal `require("…")` calls, found
    /// in its text (one in a comment or a string too: they are only read
    /// ahead, never evaluated), each once, in order. Kept so that what it
    /// requires can be read ahead after its code was handed to an engine and
    /// released.
    pub commonjs_requires: Vec<String>,
    /// For CommonJS: whether its code opens with a `"use strict"` directive,
    /// so that it runs the same as the body of a function in an ES module
    /// (whose code is always strict) as in a script.
    pub strict: bool,
    /// For ES modules: what it exports and imports, read from [`Self::code`]
    /// (so TypeScript's types and elided imports are already gone); `None`
    /// for CommonJS.
    pub es_module: Option<EsModuleShape>,
}

impl TranspiledModule {
    /// The same module without its code: what importers' rewrites and
    /// export look-ups need once an engine has the code.
    pub fn without_code(&self) -> Self {
        Self {
            code: String::new(),
            source_map: self.source_map.clone(),
            format: self.format,
            declared_module_globals: self.declared_module_globals.clone(),
            commonjs_exports: self.commonjs_exports.clone(),
            commonjs_reexports: self.commonjs_reexports.clone(),
            commonjs_requires: self.commonjs_requires.clone(),
            strict: self.strict,
            es_module: self.es_module.clone(),
        }
    }
}

/// Where a transpiled module's source map comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceMapping {
    /// The map (JSON bytes), from the code back to the file.
    Map(Arc<[u8]>),
    /// A minified file whose long lines were broken (`long_lines`): its map
    /// has an entry for every token, more than twice the file's size, and is
    /// needed only when a stack trace passes through the file, so it is
    /// made again then from the file, whose content must still have this
    /// digest ([`long_lines_source_map`]).
    LongLines {
        /// The first bytes of the SHA-256 of the source the code was made from.
        source_digest: [u8; 16],
    },
}

/// The SHA-256 prefix [`SourceMapping::LongLines`] checks a file against.
pub fn source_digest(source: &str) -> [u8; 16] {
    let digest = <sha2::Sha256 as sha2::Digest>::digest(source.as_bytes());
    let mut prefix = [0u8; 16];
    prefix.copy_from_slice(&digest[..16]);
    prefix
}

/// The source map of a minified file's broken lines
/// ([`SourceMapping::LongLines`]), made from `source`, the file's text,
/// when it still has `digest`; `None` when it changed since.
pub fn long_lines_source_map(specifier: &ModuleSpecifier, source: &str, digest: &[u8; 16]) -> Option<Vec<u8>> {
    if source_digest(source) != *digest {
        tracing::debug!(%specifier, "the file changed since it was loaded: no source map for it");
        return None;
    }
    let parsed = deno_ast::parse_program(ParseParams {
        specifier: specifier.clone(),
        text: source.into(),
        media_type: MediaType::from_specifier(specifier),
        capture_tokens: true,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .ok()?;
    let breaks = long_lines::line_breaks(&parsed, source);
    if breaks.is_empty() {
        return None;
    }
    long_lines::broken_lines_source_map(&parsed, source, &breaks, specifier.as_str())
}

/// The static shape of an ES module as the loader needs it for jiti's
/// lenient imports (L9): the names it exports, and where in its code it
/// imports, re-exports and default-exports. Byte ranges index the code the
/// shape was read from.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EsModuleShape {
    /// Every name the module itself exports, `default` included (not the
    /// names `export *` brings).
    pub exports: BTreeSet<String>,
    /// The specifiers of `export * from "…"`.
    pub star_exports: Vec<String>,
    /// Each `import … from "…"` and `export { … } from "…"`.
    pub links: Vec<StaticLink>,
    /// The `import(…)` expressions.
    pub dynamic_imports: Vec<Range<usize>>,
    /// The expression of `export default <expression>`.
    pub default_expression: Option<Range<usize>>,
    /// The top-level `const`, `let` and `class` declarations of exported
    /// names, which an importer in an import cycle could reach before they run.
    pub lexical_exports: Vec<LexicalExport>,
    /// Every specifier written as a string literal (of imports, re-exports,
    /// `export *` and `import("…")`), in the order of the code.
    pub literal_specifiers: Vec<SpecifierLiteral>,
}

impl EsModuleShape {
    /// The same shape for the code [`long_lines::broken_code`] makes of the
    /// shape's source with `breaks` (sorted byte offsets, each a line break
    /// inserted before that byte): a range that starts at a break starts
    /// after it, one that ends there ends before it.
    fn after_line_breaks(mut self, breaks: &[usize]) -> Self {
        if breaks.is_empty() {
            return self;
        }
        let start = |at: usize| at + breaks.partition_point(|&line_break| line_break <= at);
        let end = |at: usize| at + breaks.partition_point(|&line_break| line_break < at);
        let moved = |range: &Range<usize>| start(range.start)..end(range.end);
        for link in &mut self.links {
            link.range = moved(&link.range);
        }
        for call in &mut self.dynamic_imports {
            *call = moved(call);
        }
        if let Some(expression) = &mut self.default_expression {
            *expression = moved(expression);
        }
        for export in &mut self.lexical_exports {
            match export {
                LexicalExport::Variables { keyword } => *keyword = moved(keyword),
                LexicalExport::Class { range, .. } => *range = moved(range),
            }
        }
        for literal in &mut self.literal_specifiers {
            literal.range = moved(&literal.range);
            literal.declaration_end = literal.declaration_end.map(end);
        }
        self
    }
}

/// A module specifier written as a string literal.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SpecifierLiteral {
    /// Where the literal is, quotes included.
    pub range: Range<usize>,
    /// The specifier.
    pub value: String,
    /// Where its declaration ends (after its `;`, if it has one); `None`
    /// for the argument of an `import(…)` call.
    pub declaration_end: Option<usize>,
}

/// A declaration of an exported name with a temporal dead zone.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LexicalExport {
    /// `const`/`let` declarations: the keyword.
    Variables {
        /// Where the `const` or `let` keyword is.
        keyword: Range<usize>,
    },
    /// A class declaration, from its `class` keyword to its closing brace.
    Class {
        /// Where the class is.
        range: Range<usize>,
        /// Its name.
        name: String,
    },
}

/// One `import … from "x"` or `export { … } from "x"` declaration.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StaticLink {
    /// The whole declaration.
    pub range: Range<usize>,
    /// The module specifier as written.
    pub specifier: String,
    /// Import attributes (`with { type: "json" }`) or an import phase
    /// (`import defer`) the loader must not rewrite around.
    pub has_attributes: bool,
    /// What the declaration binds or re-exports.
    pub kind: LinkKind,
}

/// What a [`StaticLink`] asks of its target.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LinkKind {
    /// `import d, { a as b }, * as ns from "x"` (a bare `import "x"` has none).
    Import(Vec<ImportBinding>),
    /// `export { a as b, * as ns } from "x"`.
    Reexport(Vec<ReexportBinding>),
}

/// One binding of an import declaration.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ImportBinding {
    /// `import local from "x"` (also `import { default as local }`).
    Default {
        /// The binding's name in the importing module.
        local: String,
    },
    /// `import { imported as local } from "x"`.
    Named {
        /// The name asked of the target.
        imported: String,
        /// The binding's name in the importing module.
        local: String,
    },
    /// `import * as local from "x"`.
    Namespace {
        /// The binding's name in the importing module.
        local: String,
    },
}

/// One name of an `export { … } from "x"` declaration.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ReexportBinding {
    /// `export { imported as exported } from "x"`.
    Named {
        /// The name asked of the target.
        imported: String,
        /// The name this module exports it as.
        exported: String,
    },
    /// `export * as exported from "x"`.
    Namespace {
        /// The name this module exports the target's namespace as.
        exported: String,
    },
}

/// Why a file could not be transpiled.
#[derive(Debug, thiserror::Error)]
pub enum TranspileError {
    /// A syntax error, with the file and position.
    #[error("{0}")]
    Parse(String),
    /// The parsed program could not be transformed or emitted.
    #[error("{0}")]
    Emit(String),
    /// The file is not JavaScript or TypeScript (by its media type).
    #[error("pihost cannot load files of type {0}")]
    UnsupportedMediaType(String),
}

type CacheKey = [u8; 32];

fn cache_key(specifier: &ModuleSpecifier, media_type: MediaType, source: &str) -> CacheKey {
    // The specifier is part of the key because the source map names the file.
    disk_cache::entry_key(specifier.as_str(), media_type.as_ts_extension(), source)
}

/// Whether pihost transpiles files of this media type as code.
pub fn is_code(media_type: MediaType) -> bool {
    matches!(
        media_type,
        MediaType::JavaScript
            | MediaType::Mjs
            | MediaType::Cjs
            | MediaType::Jsx
            | MediaType::TypeScript
            | MediaType::Mts
            | MediaType::Cts
            | MediaType::Tsx
    )
}

/// Transpiles one module, from the cache when the same source was seen before.
pub fn transpile(
    specifier: &ModuleSpecifier,
    media_type: MediaType,
    source: &str,
) -> Result<Arc<TranspiledModule>, TranspileError> {
    if !is_code(media_type) {
        return Err(TranspileError::UnsupportedMediaType(media_type.to_string()));
    }
    // Kept in memory by the loader's source cache (modules/sources.rs), per
    // file and version; here only on disk.
    let key = cache_key(specifier, media_type, source);
    match disk_cache::read(&key, source) {
        Some(kept) => Ok(Arc::new(kept)),
        None => transpiled_now(&key, specifier, media_type, source),
    }
}

/// [`transpile`], unless the transpile cache on disk has an entry for this
/// source (not read, so not checked: then `None`, and [`transpile`] reads
/// it when it is needed).
pub fn transpile_unless_on_disk(
    specifier: &ModuleSpecifier,
    media_type: MediaType,
    source: &str,
) -> Option<Result<Arc<TranspiledModule>, TranspileError>> {
    if !is_code(media_type) {
        return Some(Err(TranspileError::UnsupportedMediaType(media_type.to_string())));
    }
    let key = cache_key(specifier, media_type, source);
    disk_cache::lacks(&key).then(|| transpiled_now(&key, specifier, media_type, source))
}

fn transpiled_now(
    key: &CacheKey,
    specifier: &ModuleSpecifier,
    media_type: MediaType,
    source: &str,
) -> Result<Arc<TranspiledModule>, TranspileError> {
    let transpiled = transpile_uncached(specifier, media_type, source)?;
    disk_cache::write(key, &transpiled, source);
    Ok(Arc::new(transpiled))
}

fn transpile_uncached(
    specifier: &ModuleSpecifier,
    media_type: MediaType,
    source: &str,
) -> Result<TranspiledModule, TranspileError> {
    let is_plain_javascript = matches!(media_type, MediaType::JavaScript | MediaType::Mjs | MediaType::Cjs);
    // Emitted code has short lines; plain JavaScript is evaluated as written,
    // and a minified file's long lines need breaking for the engine.
    let has_long_lines = is_plain_javascript && long_lines::longest_line(source) > long_lines::LONGEST_LINE;
    let parsed = deno_ast::parse_program(ParseParams {
        specifier: specifier.clone(),
        text: source.into(),
        media_type,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .map_err(|diagnostic| TranspileError::Parse(diagnostic.to_string()))?;

    let is_commonjs = matches!(media_type, MediaType::Cjs | MediaType::Cts)
        || (matches!(media_type, MediaType::JavaScript | MediaType::Jsx) && parsed.compute_is_script());
    let format = if is_commonjs {
        ModuleFormat::CommonJs
    } else {
        ModuleFormat::EcmaScript
    };
    let declared_module_globals = match parsed.program_ref() {
        ProgramRef::Module(module) => declared_module_globals(&module.body),
        ProgramRef::Script(_) => Vec::new(),
    };
    let strict = is_commonjs && opens_strict(parsed.program_ref());
    let (commonjs_exports, commonjs_reexports) = if is_commonjs {
        let analysis = parsed.analyze_cjs();
        (analysis.exports, analysis.reexports)
    } else {
        (Vec::new(), Vec::new())
    };

    // Plain JavaScript has nothing to strip: it is evaluated as written, which
    // spares the emit (most of the time on a large npm file) and needs no
    // source map. Only legacy decorators, which jiti compiles, need the emit.
    let (code, source_map, es_module) = if is_plain_javascript && !has_decorators(&parsed) {
        let breaks = if has_long_lines {
            long_lines::line_breaks(&parsed, source)
        } else {
            Vec::new()
        };
        let broken = (!breaks.is_empty()).then(|| long_lines::broken_code(source, &breaks));
        let es_module = match (format, parsed.program_ref(), &broken) {
            // The shape's ranges index the code the engine gets: the
            // source's, moved past the line breaks before them.
            (ModuleFormat::EcmaScript, ProgramRef::Module(module), _) => {
                Some(es_module_shape(module, parsed.range().start).after_line_breaks(&breaks))
            }
            (ModuleFormat::EcmaScript, ProgramRef::Script(_), Some(code)) => parse_es_module_shape(specifier, code),
            // An `.mjs` file without imports or exports.
            (ModuleFormat::EcmaScript, ProgramRef::Script(_), None) => Some(EsModuleShape::default()),
            (ModuleFormat::CommonJs, _, _) => None,
        };
        let (code, source_map) = match broken {
            Some(code) => (
                code,
                Some(SourceMapping::LongLines {
                    source_digest: source_digest(source),
                }),
            ),
            None => (source.to_string(), None),
        };
        (code, source_map, es_module)
    } else {
        let emitted = parsed
            .transpile(
                &TranspileOptions {
                    // jiti compiles TypeScript's experimental decorators, as tsc would.
                    decorators: DecoratorsTranspileOption::LegacyTypeScript { emit_metadata: false },
                    ..Default::default()
                },
                &TranspileModuleOptions { module_kind: None },
                &EmitOptions {
                    source_map: SourceMapOption::Separate,
                    // Stack traces need the positions only: the sources
                    // inlined would keep every TypeScript file twice.
                    inline_sources: false,
                    ..Default::default()
                },
            )
            .map_err(|error| TranspileError::Emit(error.to_string()))?
            .into_source();

        // The shape must be the emitted code's: TypeScript's type-only
        // exports and elided imports are gone there, and the ranges index
        // that text.
        let es_module = match format {
            ModuleFormat::EcmaScript => parse_es_module_shape(specifier, &emitted.text),
            ModuleFormat::CommonJs => None,
        };
        (
            emitted.text,
            emitted
                .source_map
                .map(|map| SourceMapping::Map(Arc::from(map.into_bytes()))),
            es_module,
        )
    };
    let commonjs_requires = if is_commonjs {
        literal_requires(&code)
    } else {
        Vec::new()
    };
    Ok(TranspiledModule {
        code,
        source_map,
        format,
        declared_module_globals,
        commonjs_exports,
        commonjs_reexports,
        commonjs_requires,
        strict,
        es_module,
    })
}

/// The string literals of `require("…")` / `require('…')` calls in `code`,
/// each once, by a look at its text.
fn literal_requires(code: &str) -> Vec<String> {
    const CALL: &str = "require(";
    let mut seen = BTreeSet::new();
    code.match_indices(CALL)
        .filter_map(move |(at, _)| {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
                return None;
            }
            let rest = code[at + CALL.len()..].trim_start();
            let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let body = &rest[1..];
            let end = body.find([quote, '\\', '\n'])?;
            let after = body[end..].strip_prefix(quote)?.trim_start();
            (after.starts_with(')') && end > 0).then(|| &body[..end])
        })
        .filter(|specifier| seen.insert(*specifier))
        .map(str::to_string)
        .collect()
}

/// Whether the program's directive prologue has `"use strict"`.
fn opens_strict(program: ProgramRef<'_>) -> bool {
    let directive = |statement: &Stmt| match statement {
        Stmt::Expr(expression) => match &*expression.expr {
            Expr::Lit(Lit::Str(text)) => Some(matches!(
                text.raw.as_deref().unwrap_or(""),
                "\"use strict\"" | "'use strict'"
            )),
            _ => None,
        },
        _ => None,
    };
    let prologue: Vec<Option<bool>> = match program {
        ProgramRef::Script(script) => script.body.iter().map(directive).take_while(Option::is_some).collect(),
        ProgramRef::Module(module) => module
            .body
            .iter()
            .map(|item| match item {
                ModuleItem::Stmt(statement) => directive(statement),
                ModuleItem::ModuleDecl(_) => None,
            })
            .take_while(Option::is_some)
            .collect(),
    };
    prologue.into_iter().any(|strict| strict == Some(true))
}

/// The [`EsModuleShape`] of JavaScript module code, or `None` when it does
/// not parse as a module.
pub fn parse_es_module_shape(specifier: &ModuleSpecifier, code: &str) -> Option<EsModuleShape> {
    let parsed = deno_ast::parse_module(ParseParams {
        specifier: specifier.clone(),
        text: code.into(),
        media_type: MediaType::JavaScript,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .ok()?;
    match parsed.program_ref() {
        ProgramRef::Module(module) => Some(es_module_shape(module, parsed.range().start)),
        ProgramRef::Script(_) => Some(EsModuleShape::default()),
    }
}

fn export_name(name: &ModuleExportName) -> String {
    match name {
        ModuleExportName::Ident(ident) => ident.sym.to_string(),
        ModuleExportName::Str(text) => text.value.to_string_lossy().into_owned(),
    }
}

fn es_module_shape(module: &Module, start: StartSourcePos) -> EsModuleShape {
    let mut shape = EsModuleShape::default();
    // Local names exported by a list (`export { a, b as c }`).
    let mut listed = BTreeSet::new();
    for item in &module.body {
        if let ModuleItem::ModuleDecl(ModuleDecl::ExportNamed(export)) = item
            && export.src.is_none()
            && !export.type_only
        {
            for specifier in &export.specifiers {
                if let ExportSpecifier::Named(named) = specifier
                    && !named.is_type_only
                {
                    listed.insert(export_name(&named.orig));
                }
            }
        }
    }
    for item in &module.body {
        let declaration = match item {
            ModuleItem::ModuleDecl(ModuleDecl::ExportDecl(export)) => Some(&export.decl),
            ModuleItem::Stmt(Stmt::Decl(decl)) => {
                let mut names = Vec::new();
                collect_decl_names(decl, &mut names);
                names.iter().any(|name| listed.contains(name)).then_some(decl)
            }
            _ => None,
        };
        if let Some(lexical) = declaration.and_then(|decl| lexical_export(decl, start)) {
            shape.lexical_exports.push(lexical);
        }
    }
    for item in &module.body {
        let ModuleItem::ModuleDecl(declaration) = item else {
            continue;
        };
        match declaration {
            ModuleDecl::Import(import) if !import.type_only => {
                let bindings = import
                    .specifiers
                    .iter()
                    .filter_map(|specifier| match specifier {
                        ImportSpecifier::Default(default) => Some(ImportBinding::Default {
                            local: default.local.sym.to_string(),
                        }),
                        ImportSpecifier::Namespace(namespace) => Some(ImportBinding::Namespace {
                            local: namespace.local.sym.to_string(),
                        }),
                        ImportSpecifier::Named(named) if !named.is_type_only => {
                            let local = named.local.sym.to_string();
                            let imported = named
                                .imported
                                .as_ref()
                                .map(export_name)
                                .unwrap_or_else(|| local.clone());
                            Some(if imported == "default" {
                                ImportBinding::Default { local }
                            } else {
                                ImportBinding::Named { imported, local }
                            })
                        }
                        ImportSpecifier::Named(_) => None,
                    })
                    .collect();
                let specifier = import.src.value.to_string_lossy().into_owned();
                shape.literal_specifiers.push(SpecifierLiteral {
                    range: import.src.range().as_byte_range(start),
                    value: specifier.clone(),
                    declaration_end: Some(import.range().as_byte_range(start).end),
                });
                shape.links.push(StaticLink {
                    range: import.range().as_byte_range(start),
                    specifier,
                    has_attributes: import.with.is_some() || import.phase != ImportPhase::Evaluation,
                    kind: LinkKind::Import(bindings),
                });
            }
            ModuleDecl::ExportDecl(export) => {
                let mut names = Vec::new();
                collect_decl_names(&export.decl, &mut names);
                shape.exports.extend(names);
            }
            ModuleDecl::ExportNamed(export) if !export.type_only => {
                let mut bindings = Vec::new();
                for specifier in &export.specifiers {
                    let (exported, binding) = match specifier {
                        ExportSpecifier::Named(named) if named.is_type_only => continue,
                        ExportSpecifier::Named(named) => {
                            let imported = export_name(&named.orig);
                            let exported = named
                                .exported
                                .as_ref()
                                .map(export_name)
                                .unwrap_or_else(|| imported.clone());
                            let binding = ReexportBinding::Named {
                                imported,
                                exported: exported.clone(),
                            };
                            (exported, binding)
                        }
                        ExportSpecifier::Namespace(namespace) => {
                            let exported = export_name(&namespace.name);
                            (exported.clone(), ReexportBinding::Namespace { exported })
                        }
                        ExportSpecifier::Default(default) => {
                            let exported = default.exported.sym.to_string();
                            let binding = ReexportBinding::Named {
                                imported: "default".to_string(),
                                exported: exported.clone(),
                            };
                            (exported, binding)
                        }
                    };
                    shape.exports.insert(exported);
                    bindings.push(binding);
                }
                if let Some(source) = &export.src {
                    let specifier = source.value.to_string_lossy().into_owned();
                    shape.literal_specifiers.push(SpecifierLiteral {
                        range: source.range().as_byte_range(start),
                        value: specifier.clone(),
                        declaration_end: Some(export.range().as_byte_range(start).end),
                    });
                    shape.links.push(StaticLink {
                        range: export.range().as_byte_range(start),
                        specifier,
                        has_attributes: export.with.is_some(),
                        kind: LinkKind::Reexport(bindings),
                    });
                }
            }
            ModuleDecl::ExportDefaultDecl(_) => {
                shape.exports.insert("default".to_string());
            }
            ModuleDecl::ExportDefaultExpr(export) => {
                shape.exports.insert("default".to_string());
                shape.default_expression = Some(export.expr.range().as_byte_range(start));
            }
            ModuleDecl::ExportAll(export) if !export.type_only => {
                let specifier = export.src.value.to_string_lossy().into_owned();
                shape.literal_specifiers.push(SpecifierLiteral {
                    range: export.src.range().as_byte_range(start),
                    value: specifier.clone(),
                    declaration_end: Some(export.range().as_byte_range(start).end),
                });
                shape.star_exports.push(specifier);
            }
            _ => {}
        }
    }
    let (calls, literals) = dynamic_imports(module, start);
    shape.dynamic_imports = calls;
    shape.literal_specifiers.extend(literals);
    shape.literal_specifiers.sort_by_key(|literal| literal.range.start);
    shape
}

fn lexical_export(decl: &Decl, start: StartSourcePos) -> Option<LexicalExport> {
    use deno_ast::swc::ast::VarDeclKind;
    match decl {
        Decl::Var(var) if var.kind != VarDeclKind::Var => {
            let at = var.range().as_byte_range(start).start;
            let length = if var.kind == VarDeclKind::Const {
                "const".len()
            } else {
                "let".len()
            };
            Some(LexicalExport::Variables {
                keyword: at..at + length,
            })
        }
        Decl::Class(class) => Some(LexicalExport::Class {
            range: class.class.range().as_byte_range(start),
            name: class.ident.sym.to_string(),
        }),
        _ => None,
    }
}

/// The ranges of every `import(…)` call in the module, and the string
/// literals among their specifiers.
type DynamicImports = (Vec<Range<usize>>, Vec<SpecifierLiteral>);

fn dynamic_imports(module: &Module, start: StartSourcePos) -> DynamicImports {
    use deno_ast::swc::ast::CallExpr;
    use deno_ast::swc::ecma_visit::{Visit, VisitWith};

    struct FindImports {
        start: StartSourcePos,
        calls: Vec<Range<usize>>,
        literals: Vec<SpecifierLiteral>,
    }
    impl Visit for FindImports {
        fn visit_call_expr(&mut self, call: &CallExpr) {
            if matches!(call.callee, Callee::Import(_)) {
                self.calls.push(call.range().as_byte_range(self.start));
                if let Some(first) = call.args.first()
                    && first.spread.is_none()
                    && let Expr::Lit(Lit::Str(literal)) = &*first.expr
                {
                    self.literals.push(SpecifierLiteral {
                        range: literal.range().as_byte_range(self.start),
                        value: literal.value.to_string_lossy().into_owned(),
                        declaration_end: None,
                    });
                }
            }
            call.visit_children_with(self);
        }
    }
    let mut finder = FindImports {
        start,
        calls: Vec::new(),
        literals: Vec::new(),
    };
    module.visit_with(&mut finder);
    (finder.calls, finder.literals)
}

/// Whether the program uses decorators anywhere.
fn has_decorators(parsed: &deno_ast::ParsedSource) -> bool {
    use deno_ast::swc::ecma_visit::{Visit, VisitWith};

    #[derive(Default)]
    struct FindDecorator(bool);
    impl Visit for FindDecorator {
        fn visit_decorator(&mut self, _decorator: &deno_ast::swc::ast::Decorator) {
            self.0 = true;
        }
    }
    let mut finder = FindDecorator::default();
    match parsed.program_ref() {
        ProgramRef::Module(module) => module.visit_with(&mut finder),
        ProgramRef::Script(script) => script.visit_with(&mut finder),
    }
    finder.0
}

fn declared_module_globals(body: &[ModuleItem]) -> Vec<&'static str> {
    let mut names: Vec<String> = Vec::new();
    for item in body {
        match item {
            ModuleItem::Stmt(Stmt::Decl(decl)) => collect_decl_names(decl, &mut names),
            ModuleItem::ModuleDecl(ModuleDecl::ExportDecl(export)) => collect_decl_names(&export.decl, &mut names),
            ModuleItem::ModuleDecl(ModuleDecl::Import(import)) => {
                for specifier in &import.specifiers {
                    let local = match specifier {
                        ImportSpecifier::Named(named) => &named.local,
                        ImportSpecifier::Default(default) => &default.local,
                        ImportSpecifier::Namespace(namespace) => &namespace.local,
                    };
                    names.push(local.sym.to_string());
                }
            }
            _ => {}
        }
    }
    MODULE_GLOBAL_NAMES
        .into_iter()
        .filter(|global| names.iter().any(|name| name == global))
        .collect()
}

fn collect_decl_names(decl: &Decl, names: &mut Vec<String>) {
    match decl {
        Decl::Var(var) => collect_var_names(var, names),
        Decl::Fn(function) => names.push(function.ident.sym.to_string()),
        Decl::Class(class) => names.push(class.ident.sym.to_string()),
        Decl::Using(using) => {
            for declarator in &using.decls {
                collect_pattern_names(&declarator.name, names);
            }
        }
        _ => {}
    }
}

fn collect_var_names(var: &VarDecl, names: &mut Vec<String>) {
    for declarator in &var.decls {
        collect_pattern_names(&declarator.name, names);
    }
}

fn collect_pattern_names(pattern: &Pat, names: &mut Vec<String>) {
    match pattern {
        Pat::Ident(ident) => names.push(ident.id.sym.to_string()),
        Pat::Array(array) => {
            for element in array.elems.iter().flatten() {
                collect_pattern_names(element, names);
            }
        }
        Pat::Object(object) => {
            for property in &object.props {
                match property {
                    ObjectPatProp::KeyValue(key_value) => collect_pattern_names(&key_value.value, names),
                    ObjectPatProp::Assign(assign) => names.push(assign.key.sym.to_string()),
                    ObjectPatProp::Rest(rest) => collect_pattern_names(&rest.arg, names),
                }
            }
        }
        Pat::Rest(rest) => collect_pattern_names(&rest.arg, names),
        Pat::Assign(assign) => collect_pattern_names(&assign.left, names),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_requires_are_found_once_and_other_calls_are_not() {
        let code = r#"const a = require("./a"); const b = require( 'b/sub' );
            const c = obj.require("./not"); const d = myrequire("./not2");
            const e = require(name); const f = require("./f" + x); require("");
            const g = require("./g\\h"); __webpack_require__("./no"); require("./a");"#;
        assert_eq!(literal_requires(code), vec!["./a", "b/sub"]);
    }

    #[test]
    fn a_commonjs_file_keeps_what_it_requires_and_an_es_module_nothing() {
        let url = ModuleSpecifier::parse("file:///project/lib.js").expect("url");
        let commonjs = transpile_uncached(
            &url,
            MediaType::JavaScript,
            "const fs = require('fs');\nmodule.exports = require(\"./impl\");\n",
        )
        .expect("transpiles");
        assert_eq!(commonjs.format, ModuleFormat::CommonJs);
        assert_eq!(commonjs.commonjs_requires, vec!["fs", "./impl"]);
        assert_eq!(commonjs.without_code().commonjs_requires, commonjs.commonjs_requires);
        let module_url = ModuleSpecifier::parse("file:///project/lib.mjs").expect("url");
        let es_module = transpile_uncached(
            &module_url,
            MediaType::Mjs,
            "import x from './x.js';\nexport default require('./y');\n",
        )
        .expect("transpiles");
        assert!(es_module.commonjs_requires.is_empty());
    }

    #[test]
    fn a_minified_es_modules_shape_indexes_its_broken_code() {
        // Every kind of range the shape keeps, on lines long enough to break
        // (some right where a statement starts after a `;`).
        let filler: String = (0..300)
            .map(|index| format!("var f{index}=[{index},{index}];"))
            .collect();
        let source = format!(
            "import a,{{b as c}} from \"./a.js\";{filler}export {{d}} from './d.js';{filler}\
             export const e=1,g=import(\"./g.js\");{filler}export let h=2;export class K{{m(){{return import('./k.js')}}}}\
             {filler}export * from \"./star.js\";export default {{a,c,e}};{filler}"
        );
        let specifier = ModuleSpecifier::parse("file:///min-module.mjs").expect("url");
        let transpiled = transpile_uncached(&specifier, MediaType::Mjs, &source).expect("transpiles");
        assert!(
            matches!(transpiled.source_map, Some(SourceMapping::LongLines { .. })),
            "its lines were broken"
        );
        let shape = transpiled.es_module.expect("a module's shape");
        assert_eq!(
            Some(&shape),
            parse_es_module_shape(&specifier, &transpiled.code).as_ref()
        );
        assert_eq!(shape.links.len(), 2);
        assert_eq!(shape.dynamic_imports.len(), 2);
        for literal in &shape.literal_specifiers {
            let text = &transpiled.code[literal.range.clone()];
            assert_eq!(&text[1..text.len() - 1], literal.value);
        }
    }

    #[test]
    fn a_minified_files_map_is_made_again_from_the_file_only_while_it_is_unchanged() {
        let source: String = (0..4000).map(|index| format!("var v{index}=\"x\";")).collect();
        let specifier = ModuleSpecifier::parse("file:///min-map.js").expect("url");
        let transpiled = transpile_uncached(&specifier, MediaType::JavaScript, &source).expect("transpiles");
        let Some(SourceMapping::LongLines { source_digest }) = transpiled.source_map else {
            panic!("a broken file keeps no map: {:?}", transpiled.source_map);
        };
        let map = long_lines_source_map(&specifier, &source, &source_digest).expect("made again");
        let map = deno_ast::swc::sourcemap::SourceMap::from_slice(&map).expect("a map");
        assert!(map.get_token_count() > 4000);
        let changed = source.replacen("v0", "w0", 1);
        assert_eq!(long_lines_source_map(&specifier, &changed, &source_digest), None);
    }

    fn specifier(name: &str) -> ModuleSpecifier {
        ModuleSpecifier::parse(&format!("file:///tmp/{name}")).expect("valid test url")
    }

    #[test]
    fn strips_types_and_lowers_enums_l1() {
        let source = "enum Color { Red, Green }\nconst x: number = Color.Green;\nexport default x as number;\n";
        let out = transpile(&specifier("a.ts"), MediaType::TypeScript, source).expect("transpiles");
        assert!(!out.code.contains(": number"), "{}", out.code);
        assert!(out.code.contains("Color"), "{}", out.code);
        assert_eq!(out.format, ModuleFormat::EcmaScript);
        assert!(out.source_map.is_some());
    }

    #[test]
    fn a_script_is_commonjs_and_a_module_is_not() {
        let cjs = transpile(
            &specifier("b.js"),
            MediaType::JavaScript,
            "module.exports = function () {};",
        )
        .expect("transpiles");
        assert_eq!(cjs.format, ModuleFormat::CommonJs);
        let esm = transpile(&specifier("c.js"), MediaType::JavaScript, "export default 1;").expect("transpiles");
        assert_eq!(esm.format, ModuleFormat::EcmaScript);
    }

    #[test]
    fn finds_module_globals_declared_at_top_level_l8() {
        let source = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst { a, b: __dirname } = {};\nexport default 1;\n";
        let out = transpile(&specifier("d.ts"), MediaType::TypeScript, source).expect("transpiles");
        assert_eq!(out.declared_module_globals, vec!["require", "__dirname"]);
    }

    #[test]
    fn a_syntax_error_names_the_file_and_position() {
        let error =
            transpile(&specifier("broken.ts"), MediaType::TypeScript, "export default (;").expect_err("must fail");
        let message = error.to_string();
        assert!(message.contains("broken.ts"), "{message}");
        assert!(message.contains(":1:"), "{message}");
    }
}
