// pihost's stand-in for deno_telemetry, which deno_node's http and http2 and
// deno_fetch ask for: OpenTelemetry tracing is off in pihost, so every span
// path is skipped. deno_fetch reads it from `internals.__telemetry`.
(function () {
  const { internals } = __bootstrap;
  const otelState = { TRACING_ENABLED: false, METRICS_ENABLED: false, PROPAGATORS: [] };
  const SPAN_KEY = Symbol("pihost.telemetry.span");
  const DID_NOT_ENTER = Symbol("pihost.telemetry.didNotEnter");
  const noSpan = {
    setAttribute() {},
    setAttributes() {},
    setStatus() {},
    updateName() {},
    recordException() {},
    end() {},
    isRecording: () => false,
  };
  const context = {
    getValue: () => undefined,
    setValue() {
      return context;
    },
    deleteValue() {
      return context;
    },
  };
  const ContextManager = { active: () => context, with: (_context, fn, thisArg, ...args) => fn.apply(thisArg, args) };
  const builtinTracer = () => ({ startSpan: () => noSpan });
  const telemetry = { tracerProvider: undefined, contextManager: ContextManager };
  const exports = {
    otelState,
    SPAN_KEY,
    DID_NOT_ENTER,
    ContextManager,
    builtinTracer,
    telemetry,
    enterSpan: () => DID_NOT_ENTER,
    exitSpan() {},
    get TRACING_ENABLED() {
      return otelState.TRACING_ENABLED;
    },
    PROPAGATORS: otelState.PROPAGATORS,
  };
  internals.__telemetry = exports;
  return exports;
})();
