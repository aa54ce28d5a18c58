// Calling a generic type (`Foo<string>`) as TypeBox does: the target is
// resolved to a Generic, its parameters bound to the arguments (checked
// against their constraints, defaulted when missing), and its expression
// instantiated with them. A conditional or mapped expression over a bare
// parameter distributes over union arguments, as TypeScript's do; a call of
// the generic being expanded stays a Call (tail recursion).

import { Generic, Never, Ref } from "../typebox.js";
import { EvaluateEnum, EvaluateTemplateLiteral, EvaluateUnion } from "./evaluate.js";
import { Extends } from "./extends.js";
import { IsExtendsTrueLike } from "./extends-result.js";
import { CallConstruct, IsCall, IsGeneric, IsInfer } from "./instructions.js";
import { State, instantiate } from "./instantiate.js";
import { isKind } from "./schema-object.js";

// TypeBox's default limit on nested instantiations (its maxInstantiationCount setting).
const MAX_INSTANTIATIONS = 128;
let depth = 0;
let count = 0;

function resolveTarget(context, name, target) {
  if (IsGeneric(target)) return [name, Generic(target.parameters, target.expression)];
  if (isKind(target, "Ref")) return target.$ref in context ? resolveTarget(context, target.$ref, context[target.$ref]) : ["(not-resolvable)", Never()];
  return ["(not-generic)", Never()];
}

function bindArgument(context, state, name, constraint, argument) {
  const bound = instantiate(context, state, argument);
  if (!IsInfer(bound) && !IsCall(bound) && !IsExtendsTrueLike(Extends({}, bound, constraint))) {
    throw new Error(`Argument for parameter ${name} does not satisfy constraint`, { cause: { parameter: name, expect: constraint, actual: bound } });
  }
  return { ...context, [name]: bound };
}

// Each parameter's constraint and default are read in the context bound so
// far, so later parameters may refer to earlier ones.
function bindParameters(context, state, parameters, argumentTypes) {
  if (parameters.length === 0) return context;
  const [parameter, ...restParameters] = parameters;
  const constraint = instantiate(context, state, parameter.extends);
  const fallback = instantiate(context, state, parameter.equals);
  if (argumentTypes.length === 0) return bindParameters(bindArgument(context, state, parameter.name, constraint, fallback), state, restParameters, []);
  const [argument, ...restArguments] = argumentTypes;
  return bindParameters(bindArgument(context, state, parameter.name, constraint, argument), state, restParameters, restArguments);
}

function isDeferredAction(type, action) {
  return isKind(type, "Deferred") && type.action === action;
}

function distributedNames(expression, names = []) {
  if (isDeferredAction(expression, "Conditional")) {
    const [checked, , whenTrue, whenFalse] = expression.parameters;
    const withChecked = isKind(checked, "Ref") ? [...names, checked.$ref] : names;
    return distributedNames(whenTrue, distributedNames(whenFalse, withChecked));
  }
  if (isDeferredAction(expression, "Mapped")) {
    const keys = expression.parameters[1];
    return isDeferredAction(keys, "KeyOf") && isKind(keys.parameters[0], "Ref") ? [...names, keys.parameters[0].$ref] : names;
  }
  return names;
}

function unionMembers(type) {
  const canonical = isKind(type, "TemplateLiteral") ? EvaluateTemplateLiteral(type.pattern) : isKind(type, "Enum") ? EvaluateEnum(type.enum) : type;
  return isKind(canonical, "Union") ? [...canonical.anyOf] : [canonical];
}

function distributeArguments(parameters, argumentTypes, expression) {
  if (!isDeferredAction(expression, "Conditional") && !isDeferredAction(expression, "Mapped")) return [argumentTypes];
  const names = distributedNames(expression);
  const pairs = argumentTypes.slice(0, parameters.length).map((argument, index) => [names.includes(parameters[index].name), argument]);
  return pairs.reduce((lists, [distributes, argument]) => {
    const choices = distributes ? unionMembers(argument) : [argument];
    return choices.flatMap((choice) => lists.map((list) => [...list, choice]));
  }, [[]]);
}

function dispatch(context, state, target, parameters, expression, argumentTypes) {
  if (count >= MAX_INSTANTIATIONS) throw Error("Type instantiation is excessively deep and possibly infinite");
  count++;
  depth++;
  try {
    const bound = bindParameters(context, state, parameters, argumentTypes);
    const result = instantiate(bound, State([...state.callstack, target.$ref], state.visited), expression);
    return instantiate(bound, State([], []), result);
  } finally {
    depth--;
    if (depth === 0) count = 0;
  }
}

export function CallInstantiate(context, state, target, argumentTypes) {
  const instantiated = argumentTypes.map((argument) => instantiate(context, state, argument));
  const [name, generic] = resolveTarget(context, "(anonymous)", target);
  if (!IsGeneric(generic)) return CallConstruct(target, instantiated);
  const callstack = state.callstack;
  if (callstack.length > 0 && callstack[callstack.length - 1] === name) return CallConstruct(Ref(name), instantiated);
  const results = distributeArguments(generic.parameters, instantiated, generic.expression).map((list) =>
    dispatch(context, state, Ref(name), generic.parameters, generic.expression, list),
  );
  return results.length === 1 ? results[0] : EvaluateUnion(results);
}

export function Call(target, argumentTypes) {
  return CallInstantiate({}, State([], []), target, argumentTypes);
}
