// The shared case table for pi's built-in tools (read, write, edit, ls,
// find, grep, bash): a fixture tree and the calls run against it.
// tests/reference/record-builtin-tools.mjs runs it against pi 1.6.0's own
// tools, builtin-tools-differential.mjs against js/pi/pi-coding-agent.js under
// Node, and in-pihost.ts against the facade inside pihost. Every run builds a
// fresh fixture, so calls that write see the same files everywhere; calls
// run in table order, and later ones may see earlier writes.
import * as fsPromises from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { fingerprint, serialize } from "./pi-packages-cases.mjs";

const numbered = (prefix, count, width = 0) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(width, "0")}`).join("\n") + "\n";

// A 1x1 PNG and a 1x1 GIF: the smallest images the read tool sends as they are.
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const GIF_1X1 = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

/**
 * The fixture under `dir`. The root is not a git repository (rg and fd then
 * ignore its .gitignore); `repo/` is one (a `.git` directory), with its own
 * .gitignore, hidden files, many files and long names, and a nested
 * repository `repo/vendor/`, where repo's .gitignore no longer applies.
 */
export async function buildFixture(dir) {
  const files = {
    "notes.txt": numbered("note line ", 10),
    "lines3000.txt": numbered("line ", 3000),
    "wide.txt": Array.from({ length: 1500 }, (_, i) => `${String(i + 1).padStart(5, "0")} ${"w".repeat(54)}`).join("\n") + "\n",
    "longline.txt": `${"x".repeat(60000)}\nshort second line\n`,
    "crlf.txt": "alpha\r\nbeta\r\ngamma needle\r\n",
    "mixed-eol.txt": "one\r\ntwo\nthree\r\nfour",
    "unicode.txt": "héllo wörld\n日本語テキスト needle\nemoji 😀 here\ncombining e\u0301\n\u201csmart quotes\u201d \u2014 dash\n",
    "bom.txt": "\ufefffirst line\nsecond line\n",
    "no-newline.txt": "only line without newline",
    "empty.txt": "",
    "blank-lines.txt": "\n\n\n",
    "with space.txt": "spaced name\n",
    ".gitignore": "ignored.txt\nbuild/\n*.log\n!keep.log\n",
    "ignored.txt": "needle in ignored\n",
    "build/out.js": "needle in build\n",
    "debug.log": "needle in log\n",
    "keep.log": "needle kept\n",
    ".hidden/secret.txt": "needle hidden\n",
    ".env": "TOKEN=needle\n",
    "Upper.md": "# Upper\n",
    "lower.md": "# lower\n",
    "_under.txt": "under\n",
    "10.txt": "ten\n",
    "9.txt": "nine\n",
    "src.ts": "export const needle = 1;\n",
    "src/a.ts": "import { b } from './b';\nexport const a = 'needle a';\n",
    "src/b.ts": "export const b = 'B needle';\nexport const dotted = 'a.b';\n",
    "src/util.js": "module.exports = { axb: 'axb' };\n",
    "src/nested/deep/c.ts": "// NEEDLE upper case\nexport const c = 3;\n",
    "grep-many.txt": numbered("match ", 150),
    "grep-ctx.txt": Array.from({ length: 30 }, (_, i) => ([5, 6, 15, 28].includes(i + 1) ? `needle at ${i + 1}` : `filler ${i + 1}`)).join("\n") + "\n",
    "grep-long.txt": `short needle\n${"y".repeat(300)}needle${"z".repeat(400)}\n`,
    "grep-wide.txt": Array.from({ length: 150 }, (_, i) => `wide ${String(i).padStart(3, "0")} ${"q".repeat(440)}`).join("\n") + "\n",
    "edit/basic.txt": "alpha\nbeta\ngamma\ndelta\n",
    "edit/multi.txt": numbered("row ", 20),
    "edit/dup.txt": "same\nsame\nother\n",
    "edit/crlf.txt": "first\r\nsecond\r\nthird\r\n",
    "edit/bom.txt": "\ufeffbom first\nbom second\n",
    "edit/fuzzy.txt": "function foo() {   \n  return \u201cquoted\u201d;\t\n}\n",
    "edit/no-newline.txt": "start\nend without newline",
    "edit/big.txt": numbered("big line ", 3000),
    "edit/unicode.txt": "naïve café\n日本\n",
    "edit/repeat.txt": "a\nb\na\nb\na\nb\nc\n",
    "edit/sandwich.txt": "x\ny\nx\ny\nx\n",
    "edit/cr.txt": "one\rtwo\rthree",
    "edit/nfkc.txt": "\ufb01le name  \nother\nlast line\n",
    "edit/mixed.txt": "keep  \nchange me\n\u2018quoted\u2019 line\nend\n",
    "empty-dir/.keep-out": "",
    "repo/.git/HEAD": "ref: refs/heads/main\n",
    "repo/.gitignore": "*.gen.ts\nout/\n",
    "repo/src/main.ts": "export const main = 'needle main';\n",
    "repo/src/main.gen.ts": "export const generated = 'needle gen';\n",
    "repo/src/Helper.TS": "export const helper = 1;\n",
    "repo/out/x.js": "needle out\n",
    "repo/lib/util.ts": "export const util = 'needle util';\n",
    "repo/lib.ts": "export * from './lib/util';\n",
    "repo/docs/guide.md": "# Guide\nneedle docs\n",
    "repo/.config/settings.json": "{ \"needle\": true }\n",
    "repo/Readme.MD": "# Readme\n",
    "repo/vendor/.git/HEAD": "ref: refs/heads/main\n",
    "repo/vendor/v.gen.ts": "export const vendored = 'needle vendored';\n",
  };
  for (let i = 0; i < 520; i++) files[`repo/many/f${String(i).padStart(3, "0")}.txt`] = `file ${i}\n`;
  for (let i = 0; i < 300; i++) files[`repo/longnames/${String(i).padStart(3, "0")}-${"n".repeat(196)}`] = "";
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  await mkdir(join(dir, "empty-dir", "inner"), { recursive: true });
  await writeFile(join(dir, "image.png"), Uint8Array.from(atob(PNG_1X1), (c) => c.charCodeAt(0)));
  await writeFile(join(dir, "image.gif"), Uint8Array.from(atob(GIF_1X1), (c) => c.charCodeAt(0)));
  await writeImages(dir);
  // A NUL byte makes rg skip the file; the rest is invalid UTF-8 for read.
  await writeFile(join(dir, "binary.bin"), Uint8Array.from([0x00, 0x01, 0xff, 0x0a, ...new TextEncoder().encode("needle bin\n")]));
  await writeFile(join(dir, "latin1.txt"), Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x20, ...new TextEncoder().encode("needle latin\n")]));
  await makeSymlink("src", join(dir, "link-to-src"));
  await makeSymlink("does-not-exist", join(dir, "broken-link"));
  await makeSymlink("lib", join(dir, "repo", "linkdir"));
  await makeSymlink("nowhere", join(dir, "repo", "broken"));
}

const { mkdir, readFile, writeFile } = fsPromises;

// Images the read tool must decode, resize or convert, drawn here so that
// no binary fixture is committed: RGB pixels from `pixel(x, y)`.
function crc32(bytes) {
  let crc = -1;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ -1) >>> 0;
}

function pngChunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function drawPng(width, height, pixel) {
  const rows = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0, at = 0; y < height; y++) {
    rows[at++] = 0;
    for (let x = 0; x < width; x++) for (const channel of pixel(x, y)) rows[at++] = channel;
  }
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function drawBmp(width, height, pixel) {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const out = new Uint8Array(54 + stride * height);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, height - 1 - y);
      out.set([b, g, r], 54 + y * stride + x * 3);
    }
  }
  return out;
}

/** Pseudo-random pixels (noise compresses badly as PNG and well enough as JPEG). */
function noise(seed) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return [state >>> 24, (state >>> 16) & 0xff, (state >>> 8) & 0xff];
  };
}

async function writeImages(dir) {
  const quadrant = (x, y) => (x < 1200 ? (y < 300 ? [200, 40, 40] : [40, 200, 40]) : y < 300 ? [40, 40, 200] : [240, 240, 240]);
  await writeFile(join(dir, "wide.png"), drawPng(2400, 600, quadrant));
  const grain = noise(7);
  await writeFile(join(dir, "noise.png"), drawPng(2100, 500, () => grain()));
  const speckle = noise(11);
  await writeFile(join(dir, "picture.bmp"), drawBmp(40, 30, () => speckle()));
  const whole = drawPng(100, 100, (x, y) => [x, y, 0]);
  await writeFile(join(dir, "truncated.png"), whole.subarray(0, 60));
}

// pihost's node:fs may lack symlink (hence the namespace import); `ln -s` does the same.
async function makeSymlink(target, path) {
  if (typeof fsPromises.symlink === "function") return fsPromises.symlink(target, path);
  const result = spawnSync("ln", ["-s", target, path]);
  if (result.status !== 0) throw new Error(`ln -s ${target} ${path} failed`);
}

/**
 * The calls. Each: `name`, `tool` ("read", …), `params` (or a function of
 * the fixture dir), optional `options` (the tool factory's), `cwd` (relative
 * to the fixture), `ctx`, `prepare` (run prepareArguments first), `abort`
 * ("before" or milliseconds), `updates` (record onUpdate calls), `file`
 * (a path whose content is recorded after the call), `definition` (use
 * create*ToolDefinition).
 */
export function buildCases() {
  const cases = [];
  const add = (tool, name, params, extra = {}) => cases.push({ name: `${tool} ${name}`, tool, params, ...extra });

  // --- read ---------------------------------------------------------------
  add("read", "whole file", { path: "notes.txt" });
  add("read", "offset and limit", { path: "notes.txt", offset: 3, limit: 4 });
  add("read", "offset to end", { path: "notes.txt", offset: 8 });
  add("read", "offset at trailing empty line", { path: "notes.txt", offset: 11 });
  add("read", "offset beyond end", { path: "notes.txt", offset: 12 });
  add("read", "limit only", { path: "notes.txt", limit: 3 });
  add("read", "limit reaching end", { path: "notes.txt", offset: 5, limit: 100 });
  add("read", "offset 0", { path: "notes.txt", offset: 0, limit: 2 });
  add("read", "negative offset", { path: "notes.txt", offset: -5, limit: 2 });
  add("read", "fractional offset", { path: "notes.txt", offset: 2.5, limit: 2 });
  add("read", "limit 0", { path: "notes.txt", limit: 0 });
  add("read", "negative limit", { path: "notes.txt", limit: -1 });
  add("read", "fractional limit", { path: "notes.txt", offset: 2, limit: 1.5 });
  add("read", "line limit", { path: "lines3000.txt" });
  add("read", "line limit continued", { path: "lines3000.txt", offset: 2001 });
  add("read", "line limit inside user limit", { path: "lines3000.txt", offset: 100, limit: 2500 });
  add("read", "byte limit", { path: "wide.txt" });
  add("read", "byte limit with offset", { path: "wide.txt", offset: 1000 });
  add("read", "first line over byte limit", { path: "longline.txt" });
  add("read", "after long line", { path: "longline.txt", offset: 2 });
  add("read", "crlf", { path: "crlf.txt" });
  add("read", "mixed line endings", { path: "mixed-eol.txt" });
  add("read", "unicode", { path: "unicode.txt" });
  add("read", "bom", { path: "bom.txt" });
  add("read", "no trailing newline", { path: "no-newline.txt" });
  add("read", "empty file", { path: "empty.txt" });
  add("read", "empty file offset 2", { path: "empty.txt", offset: 2 });
  add("read", "blank lines", { path: "blank-lines.txt" });
  add("read", "invalid utf-8", { path: "latin1.txt" });
  add("read", "binary", { path: "binary.bin" });
  // Every image is decoded (for its size), which needs pihost's image ops:
  // the engine runs these cases, Node (builtin-tools-differential.mjs) skips them.
  const images = { engineOnly: true };
  add("read", "png", { path: "image.png" }, images);
  add("read", "gif", { path: "image.gif" }, images);
  add("read", "png for a text-only model", { path: "image.png" }, { ...images, ctx: { model: { id: "text-only", input: ["text"] } } });
  add("read", "png wider than 2000 pixels", { path: "wide.png" }, images);
  add("read", "noisy png resized to a jpeg", { path: "noise.png" }, images);
  add("read", "png within the model's resize limits", { path: "wide.png" }, {
    ...images,
    ctx: { model: { id: "small-images", input: ["text", "image"], inputLimits: { images: { resize: { maxWidth: 300, maxHeight: 300 } } } } },
  });
  add("read", "png with resizing off", { path: "wide.png" }, { ...images, options: { autoResizeImages: false } });
  add("read", "bmp converted to png", { path: "picture.bmp" }, images);
  add("read", "bmp converted with resizing off", { path: "picture.bmp" }, { ...images, options: { autoResizeImages: false } });
  add("read", "truncated png", { path: "truncated.png" }, images);
  add("read", "missing", { path: "missing.txt" });
  add("read", "directory", { path: "src" });
  add("read", "absolute path", (dir) => ({ path: join(dir, "src/a.ts") }));
  add("read", "at prefix", { path: "@src/b.ts" });
  add("read", "unicode space in path", { path: "with\u00a0space.txt" });
  add("read", "relative to ctx cwd", { path: "a.ts" }, { ctx: (dir) => ({ cwd: join(dir, "src") }) });
  add("read", "through symlink", { path: "link-to-src/a.ts" });
  add("read", "aborted before", { path: "notes.txt" }, { abort: "before" });
  add("read", "definition", { path: "notes.txt", limit: 1 }, { definition: true });

  // --- write --------------------------------------------------------------
  add("write", "new file with parent dirs", { path: "out/new/deep.txt", content: "hello\nworld\n" }, { file: "out/new/deep.txt" });
  add("write", "overwrite", { path: "notes-copy.txt", content: "replaced" }, { file: "notes-copy.txt" });
  add("write", "unicode content", { path: "out/unicode.txt", content: "日本 😀 \r\n crlf kept" }, { file: "out/unicode.txt" });
  add("write", "empty content", { path: "out/empty.txt", content: "" }, { file: "out/empty.txt" });
  add("write", "absolute path", (dir) => ({ path: join(dir, "out/abs.txt"), content: "abs" }), { file: "out/abs.txt" });
  add("write", "parent is a file", { path: "notes.txt/child.txt", content: "x" });
  add("write", "onto a directory", { path: "src", content: "x" });
  add("write", "aborted before", { path: "out/aborted.txt", content: "x" }, { abort: "before", file: "out/aborted.txt" });
  add("read", "file the write tool made", { path: "out/new/deep.txt" });

  // --- edit ---------------------------------------------------------------
  const edit = (name, path, edits, extra) => add("edit", name, { path, edits }, { file: path, ...extra });
  edit("single", "edit/basic.txt", [{ oldText: "beta", newText: "BETA" }]);
  edit("not found", "edit/basic.txt", [{ oldText: "epsilon", newText: "x" }]);
  edit("duplicate", "edit/dup.txt", [{ oldText: "same", newText: "x" }]);
  edit("empty oldText", "edit/basic.txt", [{ oldText: "", newText: "x" }]);
  edit("no change", "edit/basic.txt", [{ oldText: "gamma", newText: "gamma" }]);
  edit("multi not found", "edit/multi.txt", [{ oldText: "row 1\n", newText: "ROW 1\n" }, { oldText: "row 99", newText: "x" }]);
  edit("multi duplicate", "edit/dup.txt", [{ oldText: "other", newText: "x" }, { oldText: "same", newText: "x" }]);
  edit("multi empty", "edit/multi.txt", [{ oldText: "row 2", newText: "x" }, { oldText: "", newText: "x" }]);
  edit("multi no change", "edit/multi.txt", [{ oldText: "row 2\n", newText: "row 2\n" }, { oldText: "row 3\n", newText: "row 3\n" }]);
  edit("overlap", "edit/multi.txt", [{ oldText: "row 4\nrow 5", newText: "x" }, { oldText: "row 5\nrow 6", newText: "y" }]);
  edit("multiple", "edit/multi.txt", [
    { oldText: "row 12\n", newText: "row twelve\nrow twelve b\n" },
    { oldText: "row 2\n", newText: "" },
    { oldText: "row 20\n", newText: "row 20\nrow 21\n" },
  ]);
  edit("crlf preserved", "edit/crlf.txt", [{ oldText: "second\nthird", newText: "SECOND\nadded\nthird" }]);
  edit("bom preserved", "edit/bom.txt", [{ oldText: "bom second", newText: "BOM SECOND" }]);
  edit("fuzzy whitespace and quotes", "edit/fuzzy.txt", [{ oldText: 'function foo() {\n  return "quoted";', newText: 'function foo() {\n  return "changed";' }]);
  edit("no newline at end", "edit/no-newline.txt", [{ oldText: "end without newline", newText: "end changed" }]);
  edit("big file windows", "edit/big.txt", [
    { oldText: "big line 1500\n", newText: "BIG 1500\n" },
    { oldText: "big line 1600\n", newText: "BIG 1600\nextra\n" },
    { oldText: "big line 1620\n", newText: "" },
  ]);
  edit("first and last line", "edit/big.txt", [{ oldText: "big line 1\n", newText: "first\n" }, { oldText: "big line 3000\n", newText: "last\n" }]);
  edit("unicode", "edit/unicode.txt", [{ oldText: "café", newText: "CAFÉ ☕" }]);
  edit("repeated lines", "edit/repeat.txt", [{ oldText: "a\nb\nc\n", newText: "c\na\nb\n" }]);
  edit("lines like their neighbours", "edit/sandwich.txt", [{ oldText: "x\ny\nx\ny\n", newText: "x\ny\nx\nx\ny\nx\ny\n" }]);
  edit("classic mac line endings", "edit/cr.txt", [{ oldText: "two\nthree", newText: "2\n3\n4" }]);
  edit("fuzzy compatibility characters", "edit/nfkc.txt", [{ oldText: "file name\nother", newText: "renamed\nother" }]);
  edit("one fuzzy among exact", "edit/mixed.txt", [{ oldText: "change me", newText: "changed" }, { oldText: "'quoted' line", newText: "plain line" }]);
  edit("missing file", "edit/missing.txt", [{ oldText: "a", newText: "b" }]);
  add("edit", "no edits", { path: "edit/basic.txt", edits: [] });
  add("edit", "edits as JSON string unprepared", { path: "edit/basic.txt", edits: '[{"oldText":"alpha","newText":"ALPHA"}]' });
  add("edit", "edits as JSON string", { path: "edit/basic.txt", edits: '[{"oldText":"alpha","newText":"ALPHA"}]' }, { prepare: true, file: "edit/basic.txt" });
  add("edit", "single edit object", { path: "edit/basic.txt", edits: { oldText: "ALPHA", newText: "Alpha" } }, { prepare: true });
  add("edit", "legacy oldText/newText", { path: "edit/basic.txt", oldText: "delta", newText: "DELTA" }, { prepare: true, file: "edit/basic.txt" });
  add("edit", "aborted before", { path: "edit/basic.txt", edits: [{ oldText: "Alpha", newText: "x" }] }, { abort: "before", file: "edit/basic.txt" });

  // --- ls -----------------------------------------------------------------
  add("ls", "cwd", {});
  add("ls", "dot", { path: "." });
  add("ls", "subdir", { path: "src" });
  add("ls", "hidden and ignored", { path: "repo" });
  add("ls", "entry limit", { path: "repo/many" });
  add("ls", "small limit", { path: "src", limit: 2 });
  add("ls", "limit 0", { path: "src", limit: 0 });
  add("ls", "fractional limit", { path: "src", limit: 2.7 });
  add("ls", "byte limit", { path: "repo/longnames" });
  add("ls", "empty directory", { path: "empty-dir/inner" });
  add("ls", "missing", { path: "nope" });
  add("ls", "file", { path: "notes.txt" });
  add("ls", "symlinked directory", { path: "link-to-src" });
  add("ls", "aborted before", {}, { abort: "before" });

  // --- find (inside the git repository: fd 8.6 knows no --no-require-git) --
  add("find", "basename glob", { pattern: "*.ts", path: "repo" });
  add("find", "recursive glob", { pattern: "**/*.ts", path: "repo" });
  add("find", "relative path glob", { pattern: "src/*.ts", path: "repo" });
  add("find", "leading ./", { pattern: "./src/*.ts", path: "repo" });
  add("find", "smart case upper", { pattern: "*.TS", path: "repo" });
  add("find", "smart case lower", { pattern: "*.md", path: "repo" });
  add("find", "directories", { pattern: "lib*", path: "repo" });
  add("find", "hidden", { pattern: "*.json", path: "repo" });
  add("find", "trailing globstar", { pattern: "src/**", path: "repo" });
  add("find", "braces", { pattern: "*.{md,MD}", path: "repo" });
  add("find", "result limit", { pattern: "f00?.txt", path: "repo", limit: 9 });
  add("find", "exact limit", { pattern: "f00?.txt", path: "repo", limit: 10 });
  add("find", "many", { pattern: "*.txt", path: "repo/many" });
  add("find", "byte limit", { pattern: "*nnnn*", path: "repo/longnames" });
  add("find", "globstar directory", { pattern: "**/lib/*.ts", path: "repo" });
  add("find", "character class", { pattern: "f00[0-2].txt", path: "repo/many" });
  add("find", "everything in the repository", { pattern: "*", path: "repo", limit: 900 });
  add("find", "no match", { pattern: "*.rs", path: "repo" });
  add("find", "missing path", { pattern: "*", path: "repo/nope" });
  add("find", "absolute pattern", (dir) => ({ pattern: `${dir}/repo/lib/*.ts`, path: "repo" }));
  add("find", "cwd in repo", { pattern: "*.md" }, { cwd: "repo/docs" });
  add("find", "aborted before", { pattern: "*", path: "repo" }, { abort: "before" });
  add("find", "outside a git repository", { pattern: "*.ts", path: "src" }, { knownDivergence: "fd 8.6 has no --no-require-git, so pi's find fails outside git repositories here; pihost gives fd 9's results" });

  // --- grep ---------------------------------------------------------------
  add("grep", "across the tree", { pattern: "needle" });
  add("grep", "ignore case", { pattern: "needle", path: "src", ignoreCase: true });
  add("grep", "regex", { pattern: "a.b", path: "src" });
  add("grep", "literal", { pattern: "a.b", path: "src", literal: true });
  add("grep", "glob basename", { pattern: "needle", glob: "*.ts" });
  add("grep", "glob path", { pattern: "needle", glob: "src/**/*.ts", ignoreCase: true });
  add("grep", "glob leading ./", { pattern: "needle", glob: "./src/*.ts" });
  add("grep", "glob negated", { pattern: "needle", path: "src", glob: "!a.ts" });
  add("grep", "context", { pattern: "needle", path: "grep-ctx.txt", context: 2 });
  add("grep", "context in directory", { pattern: "needle", path: "src", context: 1 });
  add("grep", "match limit default", { pattern: "match", path: "grep-many.txt" });
  add("grep", "match limit small", { pattern: "needle", path: "grep-ctx.txt", limit: 2 });
  add("grep", "match limit with context", { pattern: "needle", path: "grep-ctx.txt", limit: 1, context: 3 });
  add("grep", "match limit exact", { pattern: "needle", path: "grep-ctx.txt", limit: 4 });
  add("grep", "limit 0", { pattern: "needle", path: "grep-ctx.txt", limit: 0 });
  add("grep", "fractional context", { pattern: "needle", path: "grep-ctx.txt", context: 1.6, limit: 1 });
  add("grep", "long line", { pattern: "needle", path: "grep-long.txt" });
  add("grep", "byte limit", { pattern: "wide", path: "grep-wide.txt", limit: 200 });
  add("grep", "no match", { pattern: "absent-pattern", path: "src" });
  add("grep", "missing path", { pattern: "x", path: "nope" });
  add("grep", "invalid regex", { pattern: "(", path: "src" });
  add("grep", "crlf", { pattern: "needle", path: "crlf.txt" });
  add("grep", "invalid utf-8", { pattern: "needle", path: "latin1.txt" });
  add("grep", "binary skipped", { pattern: "needle bin", path: "." });
  add("grep", "binary file given", { pattern: "needle", path: "binary.bin" });
  add("grep", "unicode", { pattern: "wörld|テキスト", path: "unicode.txt" });
  add("grep", "git repository", { pattern: "needle", path: "repo" });
  add("grep", "nested repository", { pattern: "needle", path: "repo/vendor" });
  add("grep", "hidden files", { pattern: "needle", path: ".hidden" });
  add("grep", "cwd in repo", { pattern: "needle", path: "src" }, { cwd: "repo" });
  add("grep", "aborted before", { pattern: "needle" }, { abort: "before" });

  // --- bash ---------------------------------------------------------------
  add("bash", "echo", { command: "echo hello" }, { updates: true });
  add("bash", "stderr", { command: "echo oops >&2" });
  add("bash", "no output", { command: "true" });
  add("bash", "exit code", { command: "echo partial; exit 3" });
  add("bash", "exit code no output", { command: "exit 1" });
  add("bash", "killed by signal", { command: "kill -9 $$" });
  add("bash", "no trailing newline", { command: "printf 'a\\nb'" });
  add("bash", "cwd", { command: "pwd" });
  add("bash", "ctx cwd and session", { command: "pwd; echo \"$PI_SESSION_ID $PI_SESSION_FILE $PI_PROVIDER $PI_MODEL $PI_REASONING_LEVEL\"" }, {
    ctx: (dir) => ({
      cwd: join(dir, "src"),
      sessionManager: { getSessionId: () => "session-1", getSessionFile: () => "/sessions/one.jsonl" },
      model: { provider: "prov", id: "model-1", input: ["text"] },
      thinkingLevel: "high",
    }),
  });
  add("bash", "session hidden", { command: "echo \"[${PI_SESSION_ID-unset}]\"" }, {
    options: { exposeSessionEnvironment: false },
    ctx: { sessionManager: { getSessionId: () => "session-1", getSessionFile: () => undefined } },
  });
  add("bash", "missing cwd", { command: "pwd" }, { cwd: "nope" });
  add("bash", "invalid utf-8", { command: "printf 'caf\\351\\n'" });
  add("bash", "line truncation", { command: "seq 1 3000" }, { updates: true, fullOutput: true });
  add("bash", "byte truncation", { command: "for i in $(seq 1 1200); do printf '%05d %s\\n' $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done" }, { fullOutput: true });
  add("bash", "long last line", { command: "head -c 60000 /dev/zero | tr '\\0' 'x'" }, { fullOutput: true });
  add("bash", "truncated with exit code", { command: "seq 1 2500; exit 4" });
  add("bash", "byte order mark", { command: "printf '\\357\\273\\277bom\\n'" });
  add("bash", "carriage return", { command: "printf 'a\\rb\\r\\n'" });
  add("bash", "stdout then stderr", { command: "echo out; sleep 0.2; echo err >&2; sleep 0.2; echo out2" });
  add("bash", "background process keeps the pipes", { command: "sleep 3 & echo done" });
  add("bash", "local operations", { command: "echo local" }, { options: (agent) => ({ operations: agent.createLocalBashOperations() }) });
  add("bash", "timeout", { command: "sleep 5", timeout: 0.5 });
  add("bash", "timeout with output", { command: "echo started; sleep 5", timeout: 0.5 });
  add("bash", "timeout 0", { command: "echo x", timeout: 0 });
  add("bash", "negative timeout", { command: "echo x", timeout: -1 });
  add("bash", "timeout too large", { command: "echo x", timeout: 3e6 });
  add("bash", "aborted before", { command: "echo x" }, { abort: "before" });
  add("bash", "aborted while running", { command: "echo running; sleep 5" }, { abort: 300 });
  add("bash", "command prefix", { command: "echo $PIHOST_PREFIX" }, { options: { commandPrefix: "export PIHOST_PREFIX=prefixed" } });
  add("bash", "spawn hook", { command: "echo hooked" }, {
    options: { spawnHook: (context) => ({ ...context, command: `${context.command} && echo $HOOK_VAR`, env: { ...context.env, HOOK_VAR: "from-hook" } }) },
  });
  add("bash", "custom operations", { command: "anything" }, {
    options: {
      operations: {
        exec: async (command, cwd, { onData }) => {
          onData(new TextEncoder().encode(`ran ${command}\n`));
          return { exitCode: 0 };
        },
      },
    },
  });
  add("bash", "custom operations timeout", { command: "anything" }, {
    options: { operations: { exec: async () => { throw new Error("timeout:7"); } } },
  });
  add("bash", "session variables removed", { command: "echo \"[${PI_SESSION_ID-unset}]\"" });
  add("bash", "definition", { command: "echo def" }, { definition: true });
  return cases;
}

const FACTORIES = {
  read: ["createReadTool", "createReadToolDefinition"],
  write: ["createWriteTool", "createWriteToolDefinition"],
  edit: ["createEditTool", "createEditToolDefinition"],
  ls: ["createLsTool", "createLsToolDefinition"],
  find: ["createFindTool", "createFindToolDefinition"],
  grep: ["createGrepTool", "createGrepToolDefinition"],
  bash: ["createBashTool", "createBashToolDefinition"],
};

// Renderers need pi's theme and key hints, which pihost's tools leave out.
const RENDER_KEYS = new Set(["renderCall", "renderResult"]);

/** What a factory's object declares: every field but execute and the renderers. */
function describeTool(tool) {
  const described = { keys: Object.keys(tool).filter((key) => !RENDER_KEYS.has(key)).sort() };
  for (const key of described.keys) {
    if (key === "execute" || key === "prepareArguments") described[key] = typeof tool[key];
    else described[key] = tool[key];
  }
  return described;
}

/** The metadata cases: each factory's object, and the tool sets. */
export function describeTools(agent, dir) {
  const out = {};
  for (const [tool, names] of Object.entries(FACTORIES)) {
    for (const name of names) if (typeof agent[name] === "function") out[name] = describeTool(agent[name](dir));
  }
  for (const name of ["createCodingTools", "createReadOnlyTools"]) {
    if (typeof agent[name] === "function") out[name] = agent[name](dir).map((tool) => tool.name);
  }
  return out;
}

/** generateDiffString, pi's display diff of two whole texts, for a few pairs. */
const DIFF_PAIRS = [
  ["a\nb\nc\n", "a\nB\nc\n"],
  ["", "new\n"],
  ["same\n", "same\n"],
  ["x\ny\nx\ny\nx\n", "y\nx\ny\n"],
  ["no newline", "no newline\n"],
  [Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n"), Array.from({ length: 30 }, (_, i) => (i % 9 === 4 ? `L${i}` : `l${i}`)).join("\n")],
  ["crlf\r\nline\r\n", "crlf\nline\r\n"],
];

export function describeHelpers(agent) {
  if (typeof agent.generateDiffString !== "function") return {};
  return { generateDiffString: DIFF_PAIRS.map(([before, after]) => agent.generateDiffString(before, after)) };
}

const LONG_TEXT = 1000;

/** Long strings as their length, fingerprint and ends, so the goldens stay small. */
function abbreviate(value) {
  if (typeof value === "string") {
    if (value.length <= LONG_TEXT) return value;
    return `<${value.length} chars, fnv1a ${fingerprint(value)}: ${JSON.stringify(value.slice(0, 120))} … ${JSON.stringify(value.slice(-120))}>`;
  }
  if (Array.isArray(value)) return value.map(abbreviate);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, abbreviate(item)]));
  return value;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Where the bash tool leaves full output (pi's createOutputFileStream names). */
const TEMP_OUTPUT = () => new RegExp(`${escapeRegExp(tmpdir())}/pi-bash-[0-9a-f]{16}\\.log`, "g");

/**
 * A result as comparable JSON: the fixture dir as <cwd>, temp files as
 * <tmp>/…, wall time as <seconds>, long strings abbreviated. grep lists
 * files in the order rg's threads find them, so its output lines are
 * grouped by file, in path order.
 */
export function normalize(value, dir, tool) {
  let text = serialize(value);
  text = text.replace(new RegExp(escapeRegExp(dir), "g"), "<cwd>");
  text = text.replace(TEMP_OUTPUT(), "<tmp>/pi-bash-<id>.log");
  const data = JSON.parse(text);
  if (data?.value?.structuredContent?.wall_time_seconds !== undefined) data.value.structuredContent.wall_time_seconds = "<seconds>";
  for (const part of [...(data?.value?.content ?? []), data?.value?.structuredContent]) {
    if (part?.type === "image" && typeof part.data === "string" && part.data.length > 200) part.data = describeImage(part.data);
  }
  if (tool === "grep" && typeof data?.value?.content?.[0]?.text === "string") {
    data.value.content[0].text = sortGrepOutput(data.value.content[0].text);
  }
  return abbreviate(data);
}

/**
 * A resized or converted image as its format and size in pixels, read from
 * its header: pi's encoder (Photon, as WebAssembly) and pihost's (the same
 * Rust library, another version) need not produce the same bytes.
 */
function describeImage(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return `<png ${view.getUint32(16)}x${view.getUint32(20)}>`;
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let at = 2; at + 9 < bytes.length; ) {
      const marker = bytes[at + 1];
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return `<jpeg ${view.getUint16(at + 7)}x${view.getUint16(at + 5)}>`;
      }
      at += 2 + view.getUint16(at + 2);
    }
  }
  return `<image of ${bytes.length} bytes, fnv1a ${fingerprint(base64)}>`;
}

function sortGrepOutput(text) {
  const noticeAt = text.indexOf("\n\n[");
  const body = noticeAt === -1 ? text : text.slice(0, noticeAt);
  const notice = noticeAt === -1 ? "" : text.slice(noticeAt);
  const fileOf = (line) => /^(.*?)(?::\d+: |-\d+- )/.exec(line)?.[1] ?? "";
  const lines = body.split("\n").map((line, index) => ({ line, index, file: fileOf(line) }));
  lines.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index));
  return lines.map((entry) => entry.line).join("\n") + notice;
}

/** bash leaves its full output in temp files for the model; a test run has no further use for them. */
async function removeTempFiles(out) {
  const paths = new Set(serialize(out).match(TEMP_OUTPUT()) ?? []);
  for (const path of paths) await fsPromises.rm(path, { force: true });
}

async function fileState(path) {
  try {
    const bytes = await readFile(path);
    return { content: new TextDecoder().decode(bytes) };
  } catch (error) {
    return { missing: error?.code ?? String(error) };
  }
}

/** Runs one case against `agent` (a pi-coding-agent namespace) in fixture `dir`; plain data back. */
export async function runCase(agent, dir, entry) {
  const tool = entry.tool;
  const [toolName, definitionName] = FACTORIES[tool];
  const factory = agent[entry.definition ? definitionName : toolName];
  if (typeof factory !== "function") return { missing: true };
  const cwd = entry.cwd ? join(dir, entry.cwd) : dir;
  const instance = factory(cwd, typeof entry.options === "function" ? entry.options(agent) : entry.options);
  let params = typeof entry.params === "function" ? entry.params(dir) : structuredClone(entry.params);
  const ctx = typeof entry.ctx === "function" ? entry.ctx(dir) : entry.ctx;
  const controller = new AbortController();
  if (entry.abort === "before") controller.abort();
  else if (typeof entry.abort === "number") setTimeout(() => controller.abort(), entry.abort);
  const updates = [];
  const onUpdate = entry.updates ? (update) => updates.push(structuredClone(update)) : undefined;
  const out = {};
  try {
    if (entry.prepare) {
      params = instance.prepareArguments(params);
      out.prepared = params;
    }
    const result = await instance.execute("call-1", params, controller.signal, onUpdate, ctx);
    out.value = result;
    if (entry.fullOutput && result.details?.fullOutputPath) out.fullOutputBytes = (await readFile(result.details.fullOutputPath)).length;
  } catch (error) {
    out.thrown = error?.message ?? String(error);
  }
  if (entry.updates) {
    out.updates = { first: updates[0], last: updates.length > 1 ? updates.at(-1) : undefined, some: updates.length > 0 };
  }
  if (entry.file) out.file = await fileState(join(dir, entry.file));
  await removeTempFiles(out);
  return normalize(out, dir, tool);
}

/** Builds a fresh fixture in `dir` and runs every case; results by name, plus the metadata. */
export async function runAll(agent, dir) {
  await buildFixture(dir);
  const results = { tools: JSON.parse(serialize(describeTools(agent, dir)).replaceAll(dir, "<cwd>")), helpers: JSON.parse(serialize(describeHelpers(agent))) };
  const cases = {};
  for (const entry of buildCases()) {
    if (Object.hasOwn(cases, entry.name)) throw new Error(`duplicate case name: ${entry.name}`);
    cases[entry.name] = await runCase(agent, dir, entry);
  }
  results.cases = cases;
  return results;
}

/**
 * Builds the fixture in `dir`, runs the cases against `agent` and compares
 * with `goldens` (the recorded file). Cases marked knownDivergence are
 * reported apart when they differ; cases marked engineOnly are skipped
 * `withoutEngine` (under Node, which has none of pihost's ops).
 */
export async function compareAll(agent, dir, goldens, { filter, withoutEngine = false } = {}) {
  await buildFixture(dir);
  const passed = [];
  const failures = [];
  const divergences = [];
  const skipped = [];
  const show = (value) => JSON.stringify(value);
  const check = (name, want, got, divergence) => {
    if (show(want) === show(got)) passed.push(name);
    else if (divergence) divergences.push(`${name}: ${divergence}`);
    else failures.push(`${name}\n    pi:     ${show(want)?.slice(0, 2000)}\n    pihost: ${show(got)?.slice(0, 2000)}`);
  };
  if (!filter) {
    const tools = JSON.parse(serialize(describeTools(agent, dir)).replaceAll(dir, "<cwd>"));
    for (const [name, want] of Object.entries(goldens.tools)) check(`metadata ${name}`, want, tools[name]);
    const helpers = JSON.parse(serialize(describeHelpers(agent)));
    for (const [name, want] of Object.entries(goldens.helpers)) check(name, want, helpers[name]);
  }
  const names = new Set();
  for (const entry of buildCases()) {
    names.add(entry.name);
    if (filter && !entry.name.includes(filter)) continue;
    if (entry.engineOnly && withoutEngine) {
      skipped.push(entry.name);
      continue;
    }
    const want = goldens.cases[entry.name];
    if (want === undefined) {
      failures.push(`${entry.name}\n    no golden (re-record reference-data/builtin-tools-goldens.json)`);
      continue;
    }
    check(entry.name, want, await runCase(agent, dir, entry), entry.knownDivergence);
  }
  for (const name of Object.keys(goldens.cases)) if (!names.has(name)) failures.push(`${name}\n    golden without a case`);
  return { passed, failures, divergences, skipped };
}
