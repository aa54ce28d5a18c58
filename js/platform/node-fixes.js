// Where Deno's platform behaves differently from Node 22 in ways extensions
// can see, pihost makes it Node's: default abort reasons, error texts and
// codes, hash name aliases, child exit codes. Each fix is applied once, to
// the object extensions get (a global, or a `node:` module's exports, which
// pihost's facades and `require` both hand out), and only changes what Node
// does differently; tests/platform.rs checks each against Node.

const DOMExceptionOf = (core) => core.loadExtScript("ext:deno_web/01_dom_exception.js").DOMException;

function nodeError(ErrorClass, code, message, extra) {
  const error = new ErrorClass(message);
  Object.defineProperty(error, "code", { value: code, enumerable: true, writable: true, configurable: true });
  Object.assign(error, extra);
  return error;
}

let urlClass;

/** `URL` as Node's: an invalid input throws `TypeError [ERR_INVALID_URL]: Invalid URL`. */
function nodeUrl(core) {
  if (urlClass) return urlClass;
  const DenoURL = core.loadExtScript("ext:deno_web/00_url.js").URL;
  urlClass = new Proxy(DenoURL, {
    construct(target, args, newTarget) {
      try {
        return Reflect.construct(target, args, newTarget);
      } catch (error) {
        if (!(error instanceof TypeError) || !String(error.message).startsWith("Invalid URL")) throw error;
        const extra = { input: String(args[0]) };
        if (args.length > 1 && args[1] !== undefined) extra.base = String(args[1]);
        throw nodeError(TypeError, "ERR_INVALID_URL", "Invalid URL", extra);
      }
    },
  });
  return urlClass;
}

function patchOnce(target, name, wrap) {
  const original = target[name];
  if (typeof original !== "function" || original.__pihostNodeFix) return;
  const fixed = wrap(original);
  Object.defineProperty(fixed, "__pihostNodeFix", { value: true });
  Object.defineProperty(fixed, "name", { value: original.name, configurable: true });
  Object.defineProperty(target, name, {
    value: fixed,
    writable: true,
    configurable: true,
    enumerable: Object.getOwnPropertyDescriptor(target, name)?.enumerable ?? false,
  });
}

/** Fixes for the web globals, by global name; each returns the value to install. */
const WEB_FIXES = {
  URL: (_value, core) => nodeUrl(core),
  AbortController(value, core) {
    patchOnce(value.prototype, "abort", (abort) =>
      function (reason) {
        const DOMException = DOMExceptionOf(core);
        return abort.call(this, reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason);
      },
    );
    return value;
  },
  AbortSignal(value, core) {
    patchOnce(value, "abort", (abort) =>
      function (reason) {
        const DOMException = DOMExceptionOf(core);
        return abort.call(this, reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason);
      },
    );
    return value;
  },
  TextDecoder(value) {
    patchOnce(value.prototype, "decode", (decode) =>
      function (...args) {
        try {
          return decode.apply(this, args);
        } catch (error) {
          if (error instanceof TypeError && this.fatal && error.code === undefined) {
            throw nodeError(
              TypeError,
              "ERR_ENCODING_INVALID_ENCODED_DATA",
              `The encoded data was not valid for encoding ${this.encoding}`,
            );
          }
          throw error;
        }
      },
    );
    return value;
  },
  fetch(value) {
    // Node's fetch fails with `TypeError: fetch failed` and the reason in
    // `cause`, for every network error.
    return {
      fetch(...args) {
        return value.apply(this, args).catch((error) => {
          if (error instanceof TypeError && String(error.message).startsWith("Fetch failed: ")) {
            throw new TypeError("fetch failed", { cause: new Error(error.message.slice("Fetch failed: ".length)) });
          }
          throw error;
        });
      },
    }.fetch;
  },
};

/** A global as extensions get it. */
export function fixGlobal(name, value, core) {
  const fix = WEB_FIXES[name];
  return fix ? fix(value, core) : value;
}

// Node (OpenSSL) accepts these spellings of the digests deno_node knows.
const DIGEST_ALIASES = {
  "sha-1": "sha1",
  "sha-224": "sha224",
  "sha-256": "sha256",
  "sha-384": "sha384",
  "sha-512": "sha512",
  "sha-512/224": "sha512-224",
  "sha-512/256": "sha512-256",
  "rsa-md5": "md5",
  "rsa-sha1": "sha1",
  "rsa-sha224": "sha224",
  "rsa-sha256": "sha256",
  "rsa-sha384": "sha384",
  "rsa-sha512": "sha512",
};

function digestName(algorithm) {
  return typeof algorithm === "string" ? (DIGEST_ALIASES[algorithm.toLowerCase()] ?? algorithm) : algorithm;
}

// Node names the system call behind `readdir` scandir, in codes and messages.
function asScandir(error) {
  if (error && error.syscall === "readdir") {
    error.syscall = "scandir";
    if (typeof error.message === "string") error.message = error.message.replace(", readdir", ", scandir");
  }
  return error;
}

// Node opens a directory and fails reading it; Deno fails opening it.
function asReadOfDirectory(error) {
  if (error && error.code === "EISDIR" && error.syscall === "open") {
    error.syscall = "read";
    if (typeof error.message === "string") error.message = error.message.replace(/, open.*$/, ", read");
  }
  return error;
}

function fixSyncErrors(exports, name, fix) {
  patchOnce(exports, name, (original) =>
    function (...args) {
      try {
        return original.apply(this, args);
      } catch (error) {
        throw fix(error);
      }
    },
  );
}

function fixCallbackErrors(exports, name, fix) {
  patchOnce(exports, name, (original) =>
    function (...args) {
      const callback = args.at(-1);
      if (typeof callback === "function") {
        args[args.length - 1] = (error, ...results) => callback(error && fix(error), ...results);
      }
      return original.apply(this, args);
    },
  );
}

function fixPromiseErrors(exports, name, fix) {
  patchOnce(exports, name, (original) =>
    function (...args) {
      return original.apply(this, args).catch((error) => {
        throw fix(error);
      });
    },
  );
}

/** Fixes for `node:` modules' exports, by module name. */
const MODULE_FIXES = {
  crypto(exports) {
    for (const name of ["createHash", "createHmac", "hash"]) {
      patchOnce(exports, name, (original) =>
        function (algorithm, ...rest) {
          try {
            return original.call(this, digestName(algorithm), ...rest);
          } catch (error) {
            // Node does not repeat the name it did not know.
            if (String(error?.message).startsWith("Digest method not supported")) {
              error.message = "Digest method not supported";
            }
            throw error;
          }
        },
      );
    }
  },
  fs(exports) {
    fixSyncErrors(exports, "readdirSync", asScandir);
    fixCallbackErrors(exports, "readdir", asScandir);
    fixSyncErrors(exports, "readFileSync", asReadOfDirectory);
    fixCallbackErrors(exports, "readFile", asReadOfDirectory);
    // `fs.promises` loads node:fs/promises on first use; fix it then.
    const promises = Object.getOwnPropertyDescriptor(exports, "promises");
    if (promises?.get && promises.configurable) {
      Object.defineProperty(exports, "promises", {
        ...promises,
        get() {
          const value = promises.get.call(this);
          fixNodeModule("fs/promises", value);
          return value;
        },
      });
    } else if (promises?.value) {
      fixNodeModule("fs/promises", promises.value);
    }
  },
  "fs/promises"(exports) {
    fixPromiseErrors(exports, "readdir", asScandir);
    fixPromiseErrors(exports, "readFile", asReadOfDirectory);
  },
  child_process(exports) {
    // A child that never started (ENOENT, EACCES) exits with the negated
    // errno in Node, which 'exit', 'close' and `exitCode` report.
    patchOnce(exports, "spawn", (spawn) =>
      function (...args) {
        const child = spawn.apply(this, args);
        const emit = child.emit;
        child.emit = function (event, ...details) {
          if (event === "error" && child.pid === undefined && typeof details[0]?.errno === "number") {
            child.exitCode ??= details[0].errno;
          }
          return emit.call(this, event, ...details);
        };
        return child;
      },
    );
  },
  url(exports, core) {
    exports.URL = nodeUrl(core);
  },
};

/** Applies the fixes of `node:<name>` to its exports object, once. */
export function fixNodeModule(name, exports, core) {
  const fix = MODULE_FIXES[name];
  if (fix && exports && !fixed.has(exports)) {
    fixed.add(exports);
    fix(exports, core);
  }
}

const fixed = new WeakSet();
