// The bus extensions talk to each other over: named channels, handlers that
// may be async and whose failures are logged instead of reaching the
// emitter. pi builds it on Node's EventEmitter; this keeps the parts of that
// an extension can see: handlers run in subscription order on a snapshot,
// "newListener"/"removeListener" channels hear subscriptions come and go,
// and "error" with nobody listening throws.

function unhandledError(data) {
  if (data instanceof Error) return data;
  const shown = typeof data === "string" ? `'${data}'` : String(data);
  const error = new Error(`Unhandled error. (${shown})`);
  error.code = "ERR_UNHANDLED_ERROR";
  error.context = data;
  return error;
}

export function createEventBus() {
  // A null-prototype object, like EventEmitter's, so channels keep its key order.
  let channels = Object.create(null);

  const dispatch = (channel, ...args) => {
    const handlers = channels[channel];
    if (!handlers) return false;
    for (const handler of [...handlers]) handler(...args);
    return true;
  };
  const remove = (channel, handler) => {
    const handlers = channels[channel];
    const index = handlers ? handlers.lastIndexOf(handler) : -1;
    if (index === -1) return;
    handlers.splice(index, 1);
    if (handlers.length === 0) delete channels[channel];
    if (channels.removeListener) dispatch("removeListener", channel, handler);
  };
  const removeChannel = (channel) => {
    const handlers = channels[channel];
    if (!handlers) return;
    for (let i = handlers.length - 1; i >= 0; i--) remove(channel, handlers[i]);
  };

  return {
    emit: (channel, data) => {
      if (!dispatch(channel, data) && channel === "error") throw unhandledError(data);
    },
    on: (channel, handler) => {
      const safeHandler = async (data) => {
        try {
          await handler(data);
        } catch (error) {
          console.error(`Event handler error (${channel}):`, error);
        }
      };
      if (channels.newListener) dispatch("newListener", channel, safeHandler);
      (channels[channel] ??= []).push(safeHandler);
      return () => remove(channel, safeHandler);
    },
    clear: () => {
      if (!channels.removeListener) {
        channels = Object.create(null);
        return;
      }
      for (const channel of Object.keys(channels)) if (channel !== "removeListener") removeChannel(channel);
      removeChannel("removeListener");
      channels = Object.create(null);
    },
  };
}
