// The in-memory stores a Models collection uses unless given its own:
// credentials (one per provider id) and the model lists providers fetched.
// Applications that keep either across runs pass persistent stores with the
// same methods.
import { operationSignal, raceWithAbortSignal } from "./abort.js";

export class InMemoryCredentialStore {
  credentials = new Map();
  // The tail of each provider's queue of changes, while one is queued.
  chains = new Map();

  /** Runs `task` after every change queued before it for the same provider. */
  enqueue(providerId, task, options) {
    const signal = operationSignal(options?.signal);
    const previous = this.chains.get(providerId) ?? Promise.resolve();
    const queued = (async () => {
      await previous.catch(() => {});
      signal.throwIfAborted();
      return task();
    })();
    const tail = queued.catch(() => {});
    this.chains.set(providerId, tail);
    tail.then(() => {
      if (this.chains.get(providerId) === tail) this.chains.delete(providerId);
    });
    return raceWithAbortSignal(queued, signal);
  }

  async read(providerId, options) {
    options?.signal?.throwIfAborted();
    return this.credentials.get(providerId);
  }

  async list(options) {
    options?.signal?.throwIfAborted();
    return Array.from(this.credentials, ([providerId, credential]) => ({ providerId, type: credential.type }));
  }

  /** Stores what `change(current)` returns; undefined keeps the current credential. Resolves with the one kept. */
  modify(providerId, change, options) {
    return this.enqueue(
      providerId,
      async () => {
        const current = this.credentials.get(providerId);
        const next = await change(current);
        options?.signal?.throwIfAborted();
        if (next !== undefined) this.credentials.set(providerId, next);
        return next ?? current;
      },
      options,
    );
  }

  delete(providerId, options) {
    return this.enqueue(
      providerId,
      async () => {
        this.credentials.delete(providerId);
      },
      options,
    );
  }
}

/** Entries are copied in and out, so callers never share them with the store. */
export class InMemoryModelsStore {
  entries = new Map();

  async read(providerId, options) {
    options?.signal?.throwIfAborted();
    const entry = this.entries.get(providerId);
    return entry ? structuredClone(entry) : undefined;
  }

  async write(providerId, entry, options) {
    options?.signal?.throwIfAborted();
    this.entries.set(providerId, structuredClone(entry));
  }

  async delete(providerId, options) {
    options?.signal?.throwIfAborted();
    this.entries.delete(providerId);
  }
}
