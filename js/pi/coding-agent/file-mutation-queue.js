// Edits of one file (by real path) run one after another; other files' run
// in parallel. Keys are registered in call order through one chain, so two
// calls racing on the same path cannot both see an empty queue.
import { resolve } from "node:path";
import { realpath } from "node:fs/promises";

const mutationQueues = new Map();
let registrations = Promise.resolve();

async function queueKey(filePath) {
  const absolute = resolve(filePath);
  try {
    return await realpath(absolute);
  } catch (error) {
    if (error?.code === "ENOENT" || error?.code === "ENOTDIR") return absolute;
    throw error;
  }
}

export async function withFileMutationQueue(filePath, fn) {
  const registration = registrations.then(async () => {
    const key = await queueKey(filePath);
    const previous = mutationQueues.get(key) ?? Promise.resolve();
    let release;
    const turn = new Promise((resolveTurn) => {
      release = resolveTurn;
    });
    const chained = previous.then(() => turn);
    mutationQueues.set(key, chained);
    return { key, previous, chained, release };
  });
  registrations = registration.then(
    () => undefined,
    () => undefined,
  );
  const { key, previous, chained, release } = await registration;
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (mutationQueues.get(key) === chained) mutationQueues.delete(key);
  }
}
