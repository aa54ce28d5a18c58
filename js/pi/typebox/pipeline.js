// Value.Pipeline: TypeBox's way to chain value operations. Each step gets the
// context, the type and the previous step's result, as Decode's own steps do.

export function Pipeline(steps) {
  return (...args) => {
    if (args.length !== 2 && args.length !== 3) throw Error("Invalid Arguments");
    const [context, type, value] = args.length === 3 ? args : [{}, args[0], args[1]];
    return steps.reduce((result, step) => step(context, type, result), value);
  };
}
