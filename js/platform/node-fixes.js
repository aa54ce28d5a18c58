// Where Deno's platform behaves differently from Node 22 in ways extensions
// can see, pihost makes it Node's: default abort reasons, error texts and
// codes, hash name aliases, child exit codes. Each fix is applied once, to
// the object extensions get (a global, or a `node:` module's exports, which
// pihost's facades and `require` both hand out), and only changes what Node
// does differently; tests/platform.rs checks each against Node.

const DOMExceptionOf = (core) => core.loadExtScript("ext:deno_web/01_dom_exception.js").DOMException;

// Fixes are applied when a global or module is first touched, maybe after an
// extension replaced Object's or Function.prototype's methods; what applies
// them, and the aborts pihost itself makes (a tool past its time), use these.
const { assign, defineProperty, getOwnPropertyDescriptor } = Object;
const apply = Reflect.apply;

function nodeError(ErrorClass, code, message, extra) {
  const error = new ErrorClass(message);
  defineProperty(error, "code", { __proto__: null, value: code, enumerable: true, writable: true, configurable: true });
  assign(error, extra);
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
  defineProperty(fixed, "__pihostNodeFix", { __proto__: null, value: true });
  defineProperty(fixed, "name", { __proto__: null, value: original.name, configurable: true });
  defineProperty(target, name, {
    __proto__: null,
    value: fixed,
    writable: true,
    configurable: true,
    enumerable: getOwnPropertyDescriptor(target, name)?.enumerable ?? false,
  });
}

// A FormData body as Node's fetch (undici) sends it. deno_fetch writes the
// same parts but ends the body right after the closing boundary, without
// the CRLF Node puts there, so servers see other bytes and lengths. The
// parts follow the HTML standard's multipart/form-data encoding.
function nodeFormDataBody(core, form) {
  const { Blob } = core.loadExtScript("ext:deno_web/09_file.js");
  const boundary = `----formdata-undici-0${String(Math.floor(Math.random() * 1e11)).padStart(11, "0")}`;
  const escape = (text) => text.replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/"/g, "%22");
  const parts = [];
  for (const [name, value] of form) {
    if (typeof value === "string") {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"\r\n\r\n${value.replace(/\r?\n|\r/g, "\r\n")}\r\n`,
      );
    } else {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"` +
          (value.name ? `; filename="${escape(value.name)}"` : "") +
          `\r\nContent-Type: ${value.type || "application/octet-stream"}\r\n\r\n`,
        value,
        "\r\n",
      );
    }
  }
  parts.push(`--${boundary}--\r\n`);
  return new Blob(parts, { type: `multipart/form-data; boundary=${boundary}` });
}

function isFormData(core, value) {
  const { FormData } = core.loadExtScript("ext:deno_fetch/21_formdata.js");
  return value instanceof FormData;
}

/** `init` with a FormData body replaced by Node's encoding of it. */
function withNodeFormData(core, init) {
  if (init === null || typeof init !== "object" || !isFormData(core, init.body)) return init;
  return { ...init, body: nodeFormDataBody(core, init.body) };
}

/** Fixes for the web globals, by global name; each returns the value to install. */
const WEB_FIXES = {
  URL: (_value, core) => nodeUrl(core),
  AbortController(value, core) {
    patchOnce(value.prototype, "abort", (abort) =>
      function (reason) {
        const DOMException = DOMExceptionOf(core);
        return apply(abort, this, [reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason]);
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
  Request(value, core) {
    return new Proxy(value, {
      construct(target, [input, init, ...rest], newTarget) {
        return Reflect.construct(target, [input, withNodeFormData(core, init), ...rest], newTarget);
      },
    });
  },
  Response(value, core) {
    return new Proxy(value, {
      construct(target, [body, ...rest], newTarget) {
        return Reflect.construct(target, [isFormData(core, body) ? nodeFormDataBody(core, body) : body, ...rest], newTarget);
      },
    });
  },
  fetch(value, core) {
    // Node's fetch fails with `TypeError: fetch failed` and the reason in
    // `cause`, for every network error.
    return {
      // Node's fetch is `fetch(input, init = undefined)`: its length is 1.
      fetch(input, init = undefined) {
        return value.call(this, input, withNodeFormData(core, init)).catch((error) => {
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

// libuv's names and messages for error codes, as deno_node keeps them.
function uvErrors(core) {
  return core.loadExtScript("ext:deno_node/internal_binding/uv.ts");
}

/** An error as Node's `ErrnoException`: `<syscall> <CODE>`, with errno and syscall. */
function errnoError(core, code, syscall) {
  const error = new Error(`${syscall} ${code}`);
  error.errno = uvErrors(core).codeMap.get(code);
  error.code = code;
  error.syscall = syscall;
  return error;
}

// Deno reports some failures of calls on a descriptor as the OS's text
// ("Bad file descriptor (os error 9)") with only a code; Node's say
// `EBADF: bad file descriptor, write` with errno and syscall.
function asUvError(core, syscall) {
  return (error) => {
    if (!error || error.syscall !== undefined || typeof error.code !== "string") return error;
    const uv = uvErrors(core);
    const errno = uv.codeMap.get(error.code);
    const known = errno === undefined ? undefined : uv.errorMap.get(errno);
    if (!known) return error;
    error.message = `${error.code}: ${known[1]}, ${syscall}`;
    error.errno = errno;
    error.syscall = syscall;
    return error;
  };
}

// What Node says a cwd that cannot be a directory is: a file on the way is
// ENOTDIR, which libuv reports from the spawn itself (a missing cwd is
// ENOENT, which Deno already reports as Node's asynchronous 'error').
function cwdNotADirectory(core, cwd) {
  if (cwd === undefined || cwd === null) return false;
  const path = typeof cwd === "string" ? cwd : cwd instanceof URL ? decodeURIComponent(cwd.pathname) : String(cwd);
  try {
    return !core.loadExtScript("ext:deno_fs/30_fs.js").statSync(path).isDirectory;
  } catch (error) {
    return error?.code === "ENOTDIR";
  }
}

// Node's ERR_SOCKET_BAD_PORT names the type of what it got ("Received type
// number (70000)."); deno_node prints the bare value.
function specificType(value) {
  if (typeof value === "number") return `type number (${Object.is(value, -0) ? "-0" : String(value)})`;
  if (typeof value === "string") {
    const quoted = value.includes("'") ? JSON.stringify(value) : `'${value}'`;
    return `type string (${quoted.length > 28 ? `${quoted.slice(0, 25)}...` : quoted})`;
  }
  if (typeof value === "boolean") return `type boolean (${value})`;
  return undefined;
}

function portOf(args) {
  const [first] = args;
  if (first !== null && typeof first === "object" && !Array.isArray(first)) return [true, first.port];
  return [typeof first === "number" || typeof first === "string", first];
}

function fixBadPortMessage(target, name) {
  patchOnce(target, name, (original) =>
    function (...args) {
      try {
        return original.apply(this, args);
      } catch (error) {
        const [known, port] = portOf(args);
        const type = known ? specificType(port) : undefined;
        if (error?.code === "ERR_SOCKET_BAD_PORT" && type && typeof error.message === "string") {
          error.message = error.message.replace(/Received .*\.$/s, `Received ${type}.`);
        }
        throw error;
      }
    },
  );
}

// OpenSSL's failures as Node reports them: plain Errors whose message has
// the error's code, library and reason. deno_node throws them as TypeError
// or RangeError with a message of the reason alone.
const OPENSSL_REASONS = {
  "bad decrypt": ["1C800064", "ERR_OSSL_BAD_DECRYPT"],
  "wrong final block length": ["1C80006B", "ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH"],
  unsupported: ["1E08010C", "ERR_OSSL_UNSUPPORTED"],
};

function asOpenSslError(error) {
  if (!(error instanceof TypeError || error instanceof RangeError) || typeof error.library !== "string") return error;
  const reason = error.reason ?? String(error.message).replace(/^error:[0-9A-F]+:[^:]*::/, "");
  // An AEAD tag that does not match: Node's is a bare Error.
  if (error.code === "ERR_CRYPTO_DECIPHER") return new Error(error.message);
  const known = OPENSSL_REASONS[reason];
  if (!known) return error;
  const fixed = new Error(`error:${known[0]}:${error.library}::${reason}`);
  fixed.library = error.library;
  fixed.reason = reason;
  fixed.code = known[1];
  return fixed;
}

// Node's codes for a cipher's bad key or IV; deno_node throws them bare.
const CIPHER_ARGUMENT_CODES = {
  "Invalid key length": "ERR_CRYPTO_INVALID_KEYLEN",
  "Invalid initialization vector": "ERR_CRYPTO_INVALID_IV",
};

/** Fixes for `node:` modules' exports, by module name. */
/**
 * Loading a native addon (`process.dlopen`, `require` of a `.node` file):
 * a sandbox refuses it as Deno refuses FFI without `--allow-ffi`; allowed,
 * it still fails, as a failed load fails in Node (`ERR_DLOPEN_FAILED`):
 * pihost's engine cannot run Node's native addons.
 */
export function loadNativeAddon(core, filename) {
  try {
    core.ops.op_napi_open(String(filename));
  } catch (error) {
    if (error?.name === "NotCapable") throw error;
    throw nodeError(Error, "ERR_DLOPEN_FAILED", `${error?.message ?? error}: '${filename}'`);
  }
}

/**
 * deno_web's performance, its time origin set: Deno's runtime bootstrap sets
 * it, which pihost does not run, and without it `performance.timeOrigin` is
 * undefined (Node's is the epoch time the process started; deno_web's op
 * gives the runtime's start, whenever it is asked).
 */
export function performanceWithOrigin(core) {
  const script = core.loadExtScript("ext:deno_web/15_performance.js");
  if (script.performance.timeOrigin === undefined) {
    script.setTimeOrigin();
  }
  return script.performance;
}

const MODULE_FIXES = {
  perf_hooks(_exports, core) {
    performanceWithOrigin(core);
  },
  process(exports, core) {
    // deno_node's dlopen reaches a global Node does not have (reportError)
    // before it tries; Node's checks its arguments, then loads.
    exports.dlopen = function dlopen(module, filename) {
      if (typeof filename !== "string") {
        throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "filename" argument must be of type string. Received ${specificType(filename)}`);
      }
      loadNativeAddon(core, filename);
      return module;
    };
  },
  crypto(exports) {
    for (const name of ["createCipheriv", "createDecipheriv"]) {
      fixSyncErrors(exports, name, (error) => {
        const code = CIPHER_ARGUMENT_CODES[error?.message];
        if (code && error.code === undefined) error.code = code;
        return error;
      });
    }
    for (const name of ["createPrivateKey", "createPublicKey"]) fixSyncErrors(exports, name, asOpenSslError);
    for (const Class of [exports.Decipheriv, exports.Cipheriv]) {
      if (Class?.prototype) fixSyncErrors(Class.prototype, "final", asOpenSslError);
    }
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
  fs(exports, core) {
    fixSyncErrors(exports, "readdirSync", asScandir);
    fixCallbackErrors(exports, "readdir", asScandir);
    fixSyncErrors(exports, "readFileSync", asReadOfDirectory);
    fixCallbackErrors(exports, "readFile", asReadOfDirectory);
    fixCallbackErrors(exports, "read", asUvError(core, "read"));
    for (const name of ["read", "write"]) fixSyncErrors(exports, `${name}Sync`, asUvError(core, name));
    // `fs.write(fd, string, …, callback)` hands the callback the string it
    // wrote, as Node does; deno_node hands it the encoded buffer.
    const writeError = asUvError(core, "write");
    patchOnce(exports, "write", (write) =>
      function (fd, data, ...rest) {
        const callback = rest.at(-1);
        if (typeof callback === "function") {
          rest[rest.length - 1] = (error, written, buffer) =>
            callback(error && writeError(error), written, typeof data === "string" ? data : buffer);
        }
        return write.call(this, fd, data, ...rest);
      },
    );
    // `fs.promises` loads node:fs/promises on first use; fix it then.
    const promises = getOwnPropertyDescriptor(exports, "promises");
    if (promises?.get && promises.configurable) {
      defineProperty(exports, "promises", {
        __proto__: null,
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
  child_process(exports, core) {
    // spawn, exec, execFile and fork all start the child through
    // ChildProcess#spawn, which throws where libuv's spawn fails
    // synchronously in Node.
    if (exports.ChildProcess?.prototype) {
      patchOnce(exports.ChildProcess.prototype, "spawn", (spawn) =>
        function (options, ...rest) {
          if (cwdNotADirectory(core, options?.cwd)) throw errnoError(core, "ENOTDIR", "spawn");
          return spawn.call(this, options, ...rest);
        },
      );
    }
    // The synchronous forms report it as the result's error (spawnSync) or
    // throw it (execSync, execFileSync), naming the file they ran.
    const syncFailure = (file, args) => {
      const error = errnoError(core, "ENOTDIR", `spawnSync ${file}`);
      error.path = file;
      error.spawnargs = args;
      return error;
    };
    const optionsOf = (args) => args.find((arg) => arg !== null && typeof arg === "object" && !Array.isArray(arg));
    const failedResult = (error) => ({ error, status: null, signal: null, output: null, pid: 0, stdout: null, stderr: null });
    patchOnce(exports, "spawnSync", (spawnSync) =>
      function (file, ...args) {
        const options = optionsOf(args);
        if (cwdNotADirectory(core, options?.cwd)) {
          return failedResult(syncFailure(file, Array.isArray(args[0]) ? [...args[0]] : []));
        }
        droppedRefusal = undefined;
        const result = spawnSync.call(this, file, ...args);
        const refused = takeDroppedRefusal();
        return refused ? failedResult(refused) : result;
      },
    );
    patchOnce(exports, "execSync", (execSync) =>
      function (command, options, ...rest) {
        if (cwdNotADirectory(core, options?.cwd)) {
          const shell = typeof options.shell === "string" ? options.shell : "/bin/sh";
          const error = syncFailure(shell, ["-c", command]);
          throw assign(error, failedResult(error));
        }
        droppedRefusal = undefined;
        try {
          return execSync.call(this, command, options, ...rest);
        } catch (error) {
          throw takeDroppedRefusal() ?? error;
        }
      },
    );
    patchOnce(exports, "execFileSync", (execFileSync) =>
      function (file, ...args) {
        const options = optionsOf(args);
        if (cwdNotADirectory(core, options?.cwd)) {
          const error = syncFailure(file, Array.isArray(args[0]) ? [...args[0]] : []);
          throw assign(error, failedResult(error));
        }
        droppedRefusal = undefined;
        try {
          return execFileSync.call(this, file, ...args);
        } catch (error) {
          throw takeDroppedRefusal() ?? error;
        }
      },
    );
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
  net(exports) {
    fixBadPortMessage(exports, "connect");
    fixBadPortMessage(exports, "createConnection");
    if (exports.Socket?.prototype) fixBadPortMessage(exports.Socket.prototype, "connect");
    if (exports.Server?.prototype) {
      fixBadPortMessage(exports.Server.prototype, "listen");
      // A listen the sandbox refuses is the server's 'error', as a port in
      // use is; deno_node throws it from the tick that sets the handle up,
      // where nobody can catch it.
      patchOnce(exports.Server.prototype, "_listen2", (original) =>
        function (...args) {
          try {
            return original.apply(this, args);
          } catch (error) {
            if (error?.name !== "NotCapable") throw error;
            globalThis.process.nextTick(() => this.emit("error", error));
          }
        },
      );
    }
  },
  tls(exports) {
    // A server's socket is `authorized` only when the server asked for the
    // client's certificate (requestCert) and it checked out; deno_node
    // says true for every server socket.
    const prototype = exports.TLSSocket?.prototype;
    if (prototype && !getOwnPropertyDescriptor(prototype, "authorized")) {
      const authorized = Symbol("authorized");
      defineProperty(prototype, "authorized", {
        __proto__: null,
        configurable: true,
        enumerable: false,
        get() {
          return this[authorized] ?? false;
        },
        set(value) {
          this[authorized] = value && this._tlsOptions?.isServer && !this._requestCert ? false : value;
        },
      });
    }
  },
  async_hooks(exports) {
    // Node's AsyncResource checks its type and knows its trigger id.
    const Original = exports.AsyncResource;
    if (typeof Original !== "function" || "triggerAsyncId" in Original.prototype) return;
    const trigger = Symbol("triggerAsyncId");
    const executionAsyncId = exports.executionAsyncId;
    class AsyncResource extends Original {
      constructor(type, options) {
        if (typeof type !== "string") {
          throw nodeError(
            TypeError,
            "ERR_INVALID_ARG_TYPE",
            `The "type" argument must be of type string. Received ${type === null || type === undefined ? type : specificType(type) ?? typeof type}`,
          );
        }
        super(type, options);
        const given = typeof options === "number" ? options : options?.triggerAsyncId;
        this[trigger] = given ?? executionAsyncId();
      }
      triggerAsyncId() {
        return this[trigger];
      }
    }
    exports.AsyncResource = AsyncResource;
  },
  vm(exports) {
    // On the QuickJS backend a script that fails to compile inside
    // deno_node's op leaves no exception behind, and vm reads the op's empty
    // result (`TypeError: Cannot read properties of null`). The source has
    // a syntax error then, so parsing it again throws Node's SyntaxError
    // without running any of it.
    const compileFailed = (error) =>
      error instanceof TypeError && String(error.message).startsWith("Cannot read properties of null");
    const syntaxErrorOf = (code, error) => {
      if (!compileFailed(error)) return error;
      try {
        // Parsed, never run: eval compiles the whole source first and fails there.
        (0, eval)(`throw 0;\n${String(code)}`);
      } catch (syntaxError) {
        if (syntaxError instanceof SyntaxError) return syntaxError;
      }
      return error;
    };
    if (typeof exports.Script === "function" && !exports.Script.__pihostNodeFix) {
      exports.Script = new Proxy(exports.Script, {
        construct(target, args, newTarget) {
          try {
            return Reflect.construct(target, args, newTarget === exports.Script ? target : newTarget);
          } catch (error) {
            throw syntaxErrorOf(args[0], error);
          }
        },
        get(target, key, receiver) {
          return key === "__pihostNodeFix" ? true : Reflect.get(target, key, receiver);
        },
      });
    }
    for (const name of ["runInThisContext", "runInContext", "runInNewContext"]) {
      patchOnce(exports, name, (original) =>
        function (code, ...rest) {
          try {
            return original.call(this, code, ...rest);
          } catch (error) {
            throw syntaxErrorOf(code, error);
          }
        },
      );
    }
  },
  zlib(exports) {
    // A brotli decoder's failure in Node has the decoder's error as its code
    // (ERR__ERROR_FORMAT_PADDING_2) and "Decompression failed" as its
    // message; deno_node passes the code as the message and no code. Every
    // failure of a zlib stream ends in its destroy(error).
    const prototype = exports.BrotliDecompress?.prototype;
    if (!prototype || Object.hasOwn(prototype, "destroy")) return;
    const originalDestroy = prototype.destroy;
    defineProperty(prototype, "destroy", {
      __proto__: null,
      configurable: true,
      writable: true,
      value: function destroy(error, ...rest) {
        if (error instanceof Error && error.code === undefined && /^ERR_\w+$/.test(error.message)) {
          const name = error.message.slice(4);
          error.code = `ERR_${name.startsWith("_") ? name : `_${name}`}`;
          error.message = "Decompression failed";
        }
        return originalDestroy.call(this, error, ...rest);
      },
    });
  },
  url(exports, core) {
    exports.URL = nodeUrl(core);
  },
};

/** Applies the fixes of `node:<name>` to its exports object, once. */
// deno_node's spawnSync drops every error of the synchronous spawn but
// NotFound, a sandbox's refusal too (the caller then sees an empty result,
// or "Command failed"). The spawn underneath remembers a refusal here, so
// that spawnSync, execSync and execFileSync report it.
let droppedRefusal;

function takeDroppedRefusal() {
  const refused = droppedRefusal;
  droppedRefusal = undefined;
  return refused;
}

/** Fixes that must be in place before deno_node evaluates any module. */
export function fixBeforeNodeModules(core) {
  const processScript = core.loadExtScript("ext:deno_process/40_process.js");
  // In a sandbox that confines programs, a child starts through pihost's
  // launcher (src/confine.rs), which applies the grants in the kernel and
  // becomes the program: `confined` is null when it starts as it is.
  const confined = (command, argv0, args, cwd, env) =>
    core.ops.op_pihost_confine_command(
      String(command),
      String(argv0 ?? command),
      (args ?? []).map(String),
      cwd == null ? "" : String(cwd),
      String(env?.PATH ?? ""),
    );
  const spawnChild = processScript.nodeSpawnChild;
  processScript.nodeSpawnChild = function (command, options = {}, ...rest) {
    const launch = confined(command, options.argv0, options.args, options.cwd, options.env);
    if (!launch) return spawnChild.call(this, command, options, ...rest);
    const [launcher, args] = launch;
    return spawnChild.call(this, launcher, { ...options, args, argv0: undefined }, ...rest);
  };
  const spawnSyncChild = processScript.nodeSpawnSyncChild;
  processScript.nodeSpawnSyncChild = function (options, ...rest) {
    // Node gives a synchronous child exactly the environment it was given
    // (`options.env`, else `process.env`, which is the runtime's own); deno
    // would add the host process's variables to it, those a sandbox hides
    // from extensions too.
    let exact = options?.env ? { ...options, clearEnv: true } : options;
    const [command, ...args] = exact?.args ?? [];
    try {
      const launch = command === undefined ? null : confined(command, exact.argv0, args, exact.cwd, exact.env);
      if (launch) exact = { ...exact, args: [launch[0], ...launch[1]], argv0: undefined };
      return spawnSyncChild.call(this, exact, ...rest);
    } catch (error) {
      if (error?.name === "NotCapable") droppedRefusal = error;
      throw error;
    }
  };
}

export function fixNodeModule(name, exports, core) {
  const fix = MODULE_FIXES[name];
  if (fix && exports && !fixed.has(exports)) {
    fixed.add(exports);
    fix(exports, core);
  }
}

const fixed = new WeakSet();
