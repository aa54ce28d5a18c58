// The JavaScript that runs inside each script's QuickJS VM before the script
// and gives it its world: `tools`, `ALL_TOOLS`, `text()`, `image()`,
// `exit()`, `console`, `store()`/`load()` and the host's globals
// (`searchTools()`, `models.*`, …). Everything else a script can reach is the
// language itself: no timers, I/O or modules.
//
// The VM is its own wasm instance, so no realm boundary needs guarding. What
// does need guarding is the prelude's own reports to the host: it shares
// the built-ins with the script, and a script that patched, say,
// `Array.prototype.toJSON` could make it send garbage. So the built-ins are
// frozen first, before any script code exists.
//
// The source evaluates to a function
//   (hostBridge, toolsJson, globalsJson, storeJson) => { resolveCall, start, checkStalled }
// `hostBridge(kind, a, b, c)` is the only way out, with primitives only:
//   "call" / "global"  (id, name, argsJson | undefined)   a tool or global call
//   "output"           ("text" | "console", text) or ("image", base64, mimeType)
//   "done"             (true, valueJson | undefined, writesJson) or (false, errorJson)
// Tool and global arguments and results cross as JSON text.

/** The file name the prelude is evaluated as: frames from it are left out of script errors. */
export const PRELUDE_FILE = "codemode-prelude.js";

/** The most JSON one `store()` value may have, and all of them together (key lengths count). */
export const MAX_STORE_VALUE_CHARS = 256 * 1024;
export const MAX_STORE_TOTAL_CHARS = 1024 * 1024;

/**
 * Output one script may produce, as characters of text and base64 and as
 * items: the host holds all output until the script ends, so a printing loop
 * must fail before it exhausts the host's memory.
 */
export const MAX_OUTPUT_CHARS = 16 * 1024 * 1024;
export const MAX_OUTPUT_ITEMS = 100_000;

const IMAGE_ARGUMENT_HINT =
  'image expects a non-empty image URL string, an object with image_url, or an image block { type: "image", data, mimeType }';

export const PRELUDE_SOURCE = String.raw`(function (hostBridge, toolsJson, globalsJson, storeJson) {
	"use strict";

	// --- Freeze the built-ins ------------------------------------------------
	// Every object reachable from a global, plus intrinsics only instances lead
	// to, ends up frozen, and the globals themselves read-only. Plain freezing
	// would break ordinary code: assigning a property an instance inherits as
	// read-only throws (class E extends Error { constructor() { super(); this.name = "E"; } }).
	// So the commonly overridden properties, and all of Object.prototype's,
	// become accessors whose setter defines the property on the instance.
	(function freezeBuiltins() {
		const OVERRIDDEN_KEYS = new Set(["constructor", "name", "message", "toString", "toLocaleString", "valueOf", "toJSON"]);
		const reached = new Set([globalThis]);
		const pendingObjects = [];
		const reach = (value) => {
			const isObject = (typeof value === "object" && value !== null) || typeof value === "function";
			if (isObject && !reached.has(value)) {
				reached.add(value);
				pendingObjects.push(value);
			}
		};

		function makeOverridable(owner, key, value, enumerable) {
			// Accessors of an object literal have no prototype object of their own to freeze in turn.
			const pair = Object.getOwnPropertyDescriptor(
				{
					get slot() {
						return value;
					},
					set slot(replacement) {
						if (this === owner) {
							throw new TypeError("Cannot assign to read only property '" + String(key) + "' of a built-in");
						}
						if (typeof this !== "function" && (typeof this !== "object" || this === null)) return;
						Object.defineProperty(this, key, { value: replacement, writable: true, enumerable: true, configurable: true });
					},
				},
				"slot",
			);
			Object.defineProperty(owner, key, { get: pair.get, set: pair.set, enumerable, configurable: false });
			reach(pair.get);
			reach(pair.set);
		}

		for (const key of Reflect.ownKeys(globalThis)) {
			const slot = Object.getOwnPropertyDescriptor(globalThis, key);
			reach(slot.value);
			reach(slot.get);
			reach(slot.set);
			if ("value" in slot && slot.configurable) Object.defineProperty(globalThis, key, { writable: false, configurable: false });
		}
		const hidden = [
			() => Object.getPrototypeOf(function* () {}),
			() => Object.getPrototypeOf(async function () {}),
			() => Object.getPrototypeOf(async function* () {}),
			() => Object.getPrototypeOf(Int8Array),
			() => Object.getPrototypeOf([][Symbol.iterator]()),
			() => Object.getPrototypeOf(new Map()[Symbol.iterator]()),
			() => Object.getPrototypeOf(new Set()[Symbol.iterator]()),
			() => Object.getPrototypeOf(""[Symbol.iterator]()),
			() => Object.getPrototypeOf(/a/[Symbol.matchAll]("")),
		];
		if (typeof Iterator === "function") {
			if (typeof Iterator.prototype.map === "function") hidden.push(() => Object.getPrototypeOf([].values().map((x) => x)));
			if (typeof Iterator.from === "function") hidden.push(() => Object.getPrototypeOf(Iterator.from({ next() {} })));
		}
		for (const find of hidden) reach(find());

		while (pendingObjects.length > 0) {
			const object = pendingObjects.pop();
			reach(Object.getPrototypeOf(object));
			const slots = Object.getOwnPropertyDescriptors(object);
			for (const key of Reflect.ownKeys(slots)) {
				const slot = slots[key];
				if (!("value" in slot)) {
					reach(slot.get);
					reach(slot.set);
					continue;
				}
				reach(slot.value);
				const overridable = object === Object.prototype || OVERRIDDEN_KEYS.has(key);
				if (slot.writable && slot.configurable && overridable) makeOverridable(object, key, slot.value, slot.enumerable);
			}
			Object.freeze(object);
		}
	})();

	// Held from before the script runs (the built-ins are frozen anyway).
	const toJson = JSON.stringify;
	const fromJson = JSON.parse;
	const thenOf = Promise.prototype.then;
	const BaseError = Error;
	const BaseTypeError = TypeError;
	const BaseRangeError = RangeError;

	// --- Reporting to the host -------------------------------------------------
	let settled = false;
	// exit() throws this to unwind the script once success is reported.
	const EXIT_SIGNAL = Object.freeze({});

	function report(ok, payload, writes) {
		if (settled) return;
		settled = true;
		hostBridge("done", ok, payload, writes);
	}

	// Error text as a Node user would read it: "Name: message", then the
	// script's own frames (QuickJS stacks hold frames only; the prelude's are noise).
	function errorText(error) {
		const head = error.message ? error.name + ": " + error.message : String(error.name);
		const frames = [];
		if (typeof error.stack === "string") {
			// An engine that writes the head into the stack (V8's way, and pihost's
			// sandbox) has it once.
			const stack = error.stack.startsWith(head + "\n") ? error.stack.slice(head.length + 1) : error.stack;
			for (const line of stack.split("\n")) {
				if (line.trim() && !line.includes("${PRELUDE_FILE}")) frames.push(line);
			}
		}
		return [head].concat(frames).join("\n");
	}

	// One console argument as text.
	function consoleText(value) {
		if (typeof value === "string") return value;
		if (value instanceof BaseError) return errorText(value);
		// JSON would turn NaN and Infinity into null.
		if (typeof value === "number") return String(value);
		try {
			const json = toJson(value);
			return json === undefined ? String(value) : json;
		} catch {
			return String(value);
		}
	}

	// The host wants strings; a script can make an error's name or message anything.
	function thrownJson(thrown) {
		try {
			if (thrown instanceof BaseError) {
				return toJson({ name: String(thrown.name), message: String(thrown.message), stack: errorText(thrown) });
			}
			return toJson({ message: String(consoleText(thrown)) });
		} catch {
			return toJson({ message: "The script threw a value that cannot be described" });
		}
	}

	// --- Calls to the host -----------------------------------------------------
	const waiting = new Map();
	let lastCallId = 0;

	function hostFunction(kind, name, spreadArguments) {
		return (...args) =>
			new Promise((resolve, reject) => {
				let argsJson;
				try {
					const sent = spreadArguments ? args : args[0];
					argsJson = sent === undefined ? undefined : toJson(sent);
				} catch (error) {
					reject(error);
					return;
				}
				lastCallId += 1;
				waiting.set(lastCallId, { resolve, reject });
				hostBridge(kind, lastCallId, name, argsJson);
			});
	}

	// Reading a member that does not exist throws at once, naming the close
	// matches, instead of a later "is not a function". "in" checks still work.
	const squashed = (name) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
	function strictMembers(target, label, names, hint) {
		return new Proxy(target, {
			get(object, property, receiver) {
				const passThrough =
					typeof property !== "string" ||
					property in object ||
					property in Object.prototype ||
					property === "then" ||
					property === "toJSON";
				if (passThrough) return Reflect.get(object, property, receiver);
				const wanted = squashed(property);
				const same = names.filter((name) => squashed(name) === wanted);
				const similar =
					same.length > 0
						? same
						: names.filter((name) => {
								if (!wanted) return false;
								const other = squashed(name);
								return other.includes(wanted) || wanted.includes(other);
							});
				let message = label + "." + property + " does not exist.";
				if (similar.length > 0) {
					message += " Did you mean " + similar.slice(0, 5).map((name) => label + "." + name).join(", ") + "?";
				} else if (names.length <= 20) {
					message += " Available: " + names.join(", ") + ".";
				}
				if (hint) message += " " + hint;
				message += ' Check for a member with "' + property + '" in ' + label + ".";
				throw new BaseTypeError(message);
			},
		});
	}

	const toolTable = Object.create(null);
	const toolList = [];
	for (const tool of fromJson(toolsJson)) {
		const call = hostFunction("call", tool.name);
		// Two names that map to one identifier: the first tool keeps it.
		if (!(tool.jsName in toolTable)) {
			toolTable[tool.jsName] = call;
			toolList.push(Object.freeze({ name: tool.jsName, description: tool.description }));
		}
		if (!(tool.name in toolTable)) toolTable[tool.name] = call;
	}
	Object.freeze(toolTable);
	Object.freeze(toolList);
	const tools = strictMembers(
		toolTable,
		"tools",
		toolList.map((tool) => tool.name),
		"ALL_TOOLS lists every tool; searchTools(query) finds tools by topic.",
	);

	// "a.b" globals become members of a frozen "a".
	const groups = new Map();
	for (const global of fromJson(globalsJson)) {
		const call = hostFunction("global", global.name, global.spread);
		const dot = global.name.indexOf(".");
		if (dot === -1) {
			Object.defineProperty(globalThis, global.name, { value: call, enumerable: true });
			continue;
		}
		const group = global.name.slice(0, dot);
		if (!groups.has(group)) groups.set(group, Object.create(null));
		groups.get(group)[global.name.slice(dot + 1)] = call;
	}
	for (const [group, members] of groups) {
		Object.freeze(members);
		Object.defineProperty(globalThis, group, { value: strictMembers(members, group, Object.keys(members)), enumerable: true });
	}

	// --- store() and load() ------------------------------------------------------
	// A snapshot of key -> JSON text; sizes count the key and the JSON.
	const saved = new Map(Object.entries(fromJson(storeJson)));
	const written = new Map();
	let savedChars = 0;
	for (const [key, json] of saved) savedChars += key.length + json.length;
	const STORE_ADVICE =
		"store() is for small state such as IDs or summaries. Show images with image(), keep large data in variables, or write it to a file with a tool.";

	function requireKey(functionName, key) {
		if (typeof key !== "string") throw new TypeError(functionName + "() key must be a string");
	}

	function store(key, value) {
		requireKey("store", key);
		const before = saved.has(key) ? key.length + saved.get(key).length : 0;
		if (value === undefined) {
			saved.delete(key);
			savedChars -= before;
			written.set(key, undefined);
			return;
		}
		const quotedKey = toJson(key);
		let json;
		try {
			json = toJson(value);
		} catch (error) {
			throw new TypeError("store(" + quotedKey + ") value is not JSON-serializable: " + consoleText(error));
		}
		if (json === undefined) throw new TypeError("store(" + quotedKey + ") value is not JSON-serializable");
		if (json.length > ${MAX_STORE_VALUE_CHARS}) {
			throw new RangeError(
				"store(" + quotedKey + ") value has " + json.length + " characters of JSON, more than the limit of ${MAX_STORE_VALUE_CHARS}. " + STORE_ADVICE,
			);
		}
		const after = savedChars - before + key.length + json.length;
		if (after > ${MAX_STORE_TOTAL_CHARS}) {
			throw new RangeError(
				"store is full: stored values would exceed ${MAX_STORE_TOTAL_CHARS} characters of JSON. Delete keys with store(key, undefined). " + STORE_ADVICE,
			);
		}
		saved.set(key, json);
		savedChars = after;
		written.set(key, json);
	}

	function load(key) {
		requireKey("load", key);
		const json = saved.get(key);
		return json === undefined ? undefined : fromJson(json);
	}

	// [key, json] for a write, [key] for a deletion, in first-write order.
	function writesJson() {
		const entries = [];
		for (const [key, json] of written) entries.push(json === undefined ? [key] : [key, json]);
		return toJson(entries);
	}

	// --- Output ------------------------------------------------------------------
	let outputChars = 0;
	let outputItems = 0;

	// Past a limit the script fails for good: the failure is reported before
	// the error is thrown, so catching it does not bring output back.
	function emit(kind, data, mimeType) {
		if (settled) return;
		outputChars += data.length;
		outputItems += 1;
		if (outputChars > ${MAX_OUTPUT_CHARS} || outputItems > ${MAX_OUTPUT_ITEMS}) {
			const error = new BaseRangeError(
				"script output exceeded the limit of ${MAX_OUTPUT_CHARS} characters or ${MAX_OUTPUT_ITEMS} text(), image(), and console calls. " +
					"Print a summary instead, or write large data to a file with a tool.",
			);
			report(false, thrownJson(error));
			throw error;
		}
		hostBridge("output", kind, data, mimeType);
	}

	function text(value) {
		let rendered;
		try {
			const primitive = value === undefined || value === null || (typeof value !== "object" && typeof value !== "function");
			if (primitive) {
				rendered = String(value);
			} else {
				const json = toJson(value);
				rendered = json === undefined ? String(value) : json;
			}
		} catch (error) {
			throw new BaseTypeError(error instanceof BaseError ? error.message : String(error));
		}
		emit("text", rendered);
	}

	const IMAGE_HINT = ${JSON.stringify(IMAGE_ARGUMENT_HINT)};
	// Base64 of the leading bytes of the image types providers accept inline
	// (JPEG-LS is not one of them); byte 0 aligns, so each is a prefix.
	const IMAGE_TYPES = [
		["image/png", /^iVBORw0KGg/],
		["image/jpeg", /^[/]9j[/](?!9)/],
		["image/gif", /^R0lGOD[dl]h/],
		["image/webp", /^UklG.{8}RUJQ/],
	];

	function imageDataUrl(value) {
		if (typeof value === "string") return value;
		if (typeof value !== "object" || value === null || Array.isArray(value)) throw new BaseTypeError(IMAGE_HINT);
		if (value.image_url !== undefined) {
			if (typeof value.image_url !== "string") throw new BaseTypeError(IMAGE_HINT);
			return value.image_url;
		}
		if (typeof value.type !== "string") throw new BaseTypeError(IMAGE_HINT);
		if (value.type !== "image") throw new BaseTypeError('image only accepts image blocks, got "' + value.type + '"');
		if (typeof value.data !== "string" || value.data === "") throw new BaseTypeError("image expected image block data");
		return value.data.toLowerCase().startsWith("data:") ? value.data : "data:;base64," + value.data;
	}

	// A bad image makes providers reject the whole request, on every later
	// turn too once it is stored, so only well-formed base64 of a known type
	// passes; the type is detected, whatever the URL claims.
	function image(value) {
		const url = imageDataUrl(value);
		if (url === "") throw new BaseTypeError(IMAGE_HINT);
		const colon = url.indexOf(":");
		const scheme = colon === -1 ? "" : url.slice(0, colon).toLowerCase();
		if (scheme === "http" || scheme === "https") {
			throw new BaseTypeError("remote image URLs are not supported in tool outputs. Pass a base64 data URI instead");
		}
		const comma = url.indexOf(",");
		const parameters = comma === -1 ? [] : url.slice(colon + 1, comma).split(";").slice(1);
		const base64 = parameters.some((part) => part.toLowerCase() === "base64");
		if (scheme !== "data" || comma === -1 || !base64) {
			throw new BaseTypeError("invalid image output. Pass a base64 data URI instead");
		}
		const data = url.slice(comma + 1).replace(/\s+/g, "");
		if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) {
			throw new BaseTypeError("invalid image output. The image data is not valid base64 (truncated or corrupted?)");
		}
		const head = data.slice(0, 16);
		const known = IMAGE_TYPES.find((entry) => entry[1].test(head));
		if (!known) throw new BaseTypeError("invalid image output. The image data is not a PNG, JPEG, GIF, or WebP image");
		emit("image", data, known[0]);
	}

	function exit() {
		let writes;
		try {
			writes = writesJson();
		} catch (error) {
			report(false, thrownJson(error));
			throw EXIT_SIGNAL;
		}
		report(true, undefined, writes);
		throw EXIT_SIGNAL;
	}

	const scriptConsole = {};
	for (const level of ["log", "info", "warn", "error", "debug"]) {
		scriptConsole[level] = (...args) => {
			emit("console", args.map(consoleText).join(" "));
		};
	}
	Object.freeze(scriptConsole);

	const exposed = { store, load, tools, ALL_TOOLS: toolList, console: scriptConsole, text, image, exit };
	for (const name of Object.keys(exposed)) Object.defineProperty(globalThis, name, { value: exposed[name], enumerable: true });

	// --- What the host drives ----------------------------------------------------
	return {
		resolveCall(id, ok, payload) {
			const call = waiting.get(id);
			if (!call) return;
			waiting.delete(id);
			if (!ok) {
				call.reject(new BaseError(payload));
				return;
			}
			let value;
			try {
				value = payload === undefined ? undefined : fromJson(payload);
			} catch (error) {
				call.reject(error);
				return;
			}
			call.resolve(value);
		},
		start(scriptFunction) {
			let completion;
			try {
				completion = scriptFunction(tools, scriptConsole);
			} catch (error) {
				report(false, thrownJson(error));
				return;
			}
			thenOf.call(
				completion,
				(value) => {
					let json;
					try {
						json = value === undefined ? undefined : toJson(value);
					} catch (error) {
						report(false, thrownJson(error));
						return;
					}
					report(true, json, writesJson());
				},
				(error) => report(false, thrownJson(error)),
			);
		},
		// Without timers or I/O, a script that has not finished while no host
		// call is outstanding can never be resumed.
		checkStalled() {
			if (settled || waiting.size > 0) return false;
			report(
				false,
				toJson({
					name: "Error",
					message:
						"The script is waiting on a promise that can never settle: no tool call is pending, and timers do not exist here.",
				}),
			);
			return true;
		},
	};
})`;
