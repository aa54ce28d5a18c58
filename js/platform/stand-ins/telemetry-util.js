// pihost's stand-in for deno_telemetry's span helpers (tracing is off);
// deno_fetch reads it from `internals.__telemetryUtil`.
(function () {
  const { internals } = __bootstrap;
  const noop = () => {};
  const exports = {
    updateSpanFromError: noop,
    updateSpanFromRequest: noop,
    updateSpanFromResponse: noop,
    updateSpanFromClientResponse: noop,
  };
  internals.__telemetryUtil = exports;
  return exports;
})();
