// Reports the shape of the contexts handlers and tools are given: their own
// keys in order, accessor or value for each with its flags, what a spread
// copies, that each context is an object of its own, and which model a
// context made before the host was bound reads afterwards.
export default function (pi: any) {
  const g = globalThis as any;
  const shape = (ctx: any) =>
    Object.getOwnPropertyNames(ctx).map((key) => {
      const d: any = Object.getOwnPropertyDescriptor(ctx, key);
      const kind = d.get ? "get" : typeof d.value;
      const flags = [d.set ? "set" : "", d.enumerable ? "e" : "", d.configurable ? "c" : "", d.writable ? "w" : ""];
      return `${key}:${kind}:${flags.filter(Boolean).join("")}`;
    });
  const toolContexts: any[] = [];
  const eventContexts: any[] = [];
  pi.registerTool({
    name: "probe",
    label: "Probe",
    description: "reports its ctx",
    parameters: { type: "object", properties: {} },
    async execute(_id: string, _params: any, _signal: any, _onUpdate: any, ctx: any) {
      toolContexts.push(ctx);
      return { content: [{ type: "text", text: "ok" }], details: { model: ctx.model?.id ?? null } };
    },
  });
  pi.on("tool_call", (_event: any, ctx: any) => {
    eventContexts.push(ctx);
    ctx.note = eventContexts.length;
  });
  g.report = () => ({
    eventShape: shape(eventContexts[0]),
    toolShape: shape(toolContexts[1]),
    spreadKeys: Object.keys({ ...eventContexts[0] }),
    toolSpreadKeys: Object.keys({ ...toolContexts[1] }),
    prototypeIsObject: Object.getPrototypeOf(eventContexts[0]) === Object.prototype,
    notes: eventContexts.map((ctx) => ctx.note),
    modelBeforeBind: toolContexts[0].model?.id ?? null,
    modelAfterBind: eventContexts[0].model?.id ?? null,
    toolModelAfterBind: toolContexts[1].model?.id ?? null,
    isIdleAfterBind: toolContexts[0].isIdle(),
  });
}
