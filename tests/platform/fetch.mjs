// fetch against a local server the test starts (context.port): bodies read
// whole and streamed, headers both ways, redirects in every mode, HTTP
// errors that are not failures, a refused connection and aborts.
export async function run({ port }) {
  const base = `http://127.0.0.1:${port}`;
  const text = await fetch(`${base}/text`);
  const json = await (await fetch(`${base}/json`)).json();
  const streamed = await fetch(`${base}/stream`);
  const chunks = [];
  for await (const chunk of streamed.body) chunks.push(new TextDecoder().decode(chunk));
  const echo = await (await fetch(`${base}/echo`, { method: "POST", body: JSON.stringify({ hi: 1 }), headers: { "x-test": "yes" } })).json();
  const followed = await fetch(`${base}/redirect`);
  const manual = await fetch(`${base}/redirect`, { redirect: "manual" });
  const refusedRedirect = await fetch(`${base}/redirect`, { redirect: "error" }).catch((error) => [error.name, error.message]);
  const missing = await fetch(`${base}/missing`);
  const refused = await fetch("http://127.0.0.1:1/").catch((error) => [error.name, error.message, error.cause instanceof Error]);
  const early = new AbortController();
  early.abort();
  const abortedEarly = await fetch(`${base}/text`, { signal: early.signal }).catch((error) => [error.name, error.message]);
  const late = new AbortController();
  const slow = await fetch(`${base}/slow`, { signal: late.signal });
  const reader = slow.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  late.abort();
  const abortedLate = await reader.read().catch((error) => error.name);
  const timedOut = await fetch(`${base}/slow`, { signal: AbortSignal.timeout(50) })
    .then((response) => response.text())
    .catch((error) => error.name);
  return {
    text: [text.status, text.ok, text.statusText, text.headers.get("content-type"), await text.text(), text.bodyUsed],
    json,
    chunks: chunks.join(""),
    echo,
    followed: [followed.status, followed.redirected, followed.url.endsWith("/text"), await followed.text()],
    manual: [manual.status, manual.headers.get("location")],
    refusedRedirect,
    missing: [missing.status, missing.ok, await missing.text()],
    refused,
    abortedEarly,
    first,
    abortedLate,
    timedOut,
    dataUrl: await (await fetch("data:text/plain;base64,aGk=")).text(),
  };
}
