// An error nobody catches reaches the extension's own process listeners:
// a throwing timer callback ('uncaughtException') and a rejection nobody
// handles ('unhandledRejection'), and the listeners come off again.
export async function run() {
  const seen = [];
  const onException = (error, origin) => seen.push(["uncaughtException", error.message, origin]);
  const onRejection = (reason) => seen.push(["unhandledRejection", reason.message]);
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  setTimeout(() => {
    throw new Error("from a timer");
  }, 1);
  Promise.reject(new Error("nobody awaits this"));
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off("uncaughtException", onException);
  process.off("unhandledRejection", onRejection);
  seen.sort();
  return {
    seen,
    listenersLeft: [process.listenerCount("uncaughtException"), process.listenerCount("unhandledRejection")],
  };
}
