// The cross-extension event bus (R6): emit is synchronous, handlers may be
// async, and a failing handler never reaches the emitter.
import { nodeModule } from "pihost:platform/bootstrap.js";

export function createEventBus() {
  const { EventEmitter } = nodeModule("events");
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit(channel, data) {
      emitter.emit(channel, data);
    },
    on(channel, handler) {
      const guarded = async (data) => {
        try {
          await handler(data);
        } catch (error) {
          console.error(`Event handler error (${channel}):`, error);
        }
      };
      emitter.on(channel, guarded);
      return () => emitter.off(channel, guarded);
    },
    clear() {
      emitter.removeAllListeners();
    },
  };
}
