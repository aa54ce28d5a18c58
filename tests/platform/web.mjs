// The web platform globals: EventTarget and events, AbortController and
// AbortSignal (timeout, any, reasons), URL and URLSearchParams, base64.
export async function run() {
  const target = new EventTarget();
  const seen = [];
  target.addEventListener("ping", (event) => seen.push(["first", event.type, event.detail ?? null]));
  target.addEventListener("ping", { handleEvent: () => seen.push(["object"]) }, { once: true });
  target.dispatchEvent(new CustomEvent("ping", { detail: 7 }));
  target.dispatchEvent(new Event("ping"));
  const cancelable = new Event("go", { cancelable: true });
  target.addEventListener("go", (event) => event.preventDefault());
  const notCanceled = target.dispatchEvent(cancelable);

  const controller = new AbortController();
  const reasons = [];
  controller.signal.addEventListener("abort", () => reasons.push(controller.signal.reason.name));
  controller.abort();
  const custom = new AbortController();
  custom.abort("why");
  const timeout = AbortSignal.timeout(10);
  // Node's timeout timer is unref'd: something else must keep the loop alive.
  await new Promise((resolve) => setTimeout(resolve, 60));
  const any = AbortSignal.any([new AbortController().signal, AbortSignal.abort("first")]);
  let thrown;
  try {
    AbortSignal.abort(new Error("stop")).throwIfAborted();
  } catch (error) {
    thrown = error.message;
  }

  const url = new URL("https://user:pw@example.com:8080/a/b/../c?x=1&y=two#frag");
  url.searchParams.append("z", "3 4");
  url.pathname = "/new path";
  const params = new URLSearchParams("a=1&b=2&a=3");
  params.sort();
  let invalid;
  try {
    new URL("not a url");
  } catch (error) {
    invalid = [error.name, error.code, error.message];
  }
  return {
    seen,
    notCanceled,
    defaultPrevented: cancelable.defaultPrevented,
    reasons,
    abortReason: [controller.signal.aborted, controller.signal.reason instanceof DOMException, controller.signal.reason.message],
    customReason: custom.signal.reason,
    timeoutReason: [timeout.reason.name, timeout.reason.message],
    any: [any.aborted, any.reason],
    thrown,
    url: [url.href, url.origin, url.host, url.port, url.search, url.hash, url.username],
    relative: new URL("../x?y#z", "http://h/a/b/c").href,
    file: new URL("file:///tmp/a%20b").pathname,
    params: [params.toString(), params.getAll("a"), params.get("missing"), [...params.keys()]],
    encoded: new URLSearchParams({ q: "a b&c=d/é" }).toString(),
    canParse: [URL.canParse("http://x"), URL.canParse("nope")],
    invalid,
    base64: [btoa("pi ✓".replace("✓", "")), atob("cGk=")],
    domException: [new DOMException("m", "NotFoundError").code, new DOMException("m", "AbortError").code],
  };
}
