// How TypeBox finds the self-referencing declarations of a module and turns
// each into a Cyclic type: a declaration is cyclic when following its
// references leads back to a name already on the path; its Cyclic type then
// carries just the declarations it depends on.

import { Cyclic, Object as ObjectType } from "../typebox.js";
import { EvaluateIntersect } from "./evaluate.js";
import { PropertyKeys, PropertyValues } from "./indexed.js";
import { State, instantiate } from "./instantiate.js";
import { RecordValue } from "./options.js";
import { isKind } from "./schema-object.js";

export function IsInterfaceDeferred(value) {
  return typeof value === "object" && value !== null && "action" in value && value.action === "Interface";
}

/** The types a type refers through, in the order TypeBox visits them. */
function innerTypes(type) {
  if (isKind(type, "Array")) return [type.items];
  if (isKind(type, "Constructor")) return [...type.parameters, type.instanceType];
  if (isKind(type, "Function")) return [...type.parameters, type.returnType];
  if (IsInterfaceDeferred(type)) return PropertyValues(type.parameters[1]);
  if (isKind(type, "Intersect")) return type.allOf;
  if (isKind(type, "Object")) return PropertyValues(type.properties);
  if (isKind(type, "Union")) return type.anyOf;
  if (isKind(type, "Tuple")) return type.items;
  if (isKind(type, "Record")) return [RecordValue(type)];
  return [];
}

/** Whether the type leads back, through the context's names, to a name on the stack. */
export function CyclicCheck(stack, context, type) {
  if (isKind(type, "Ref")) return stack.includes(type.$ref) ? true : CyclicCheck([...stack, type.$ref], context, context[type.$ref]);
  return innerTypes(type).some((inner) => CyclicCheck(stack, context, inner));
}

/** The names of the context's declarations that are cyclic. */
export function CyclicCandidates(context) {
  return PropertyKeys(context).filter((key) => CyclicCheck([key], context, context[key]));
}

/** The declaration names a declaration reaches, itself first. */
export function CyclicDependencies(context, key, type) {
  const collect = (inner, found) => {
    if (isKind(inner, "Ref")) {
      if (found.includes(inner.$ref)) return found;
      if (!(inner.$ref in context)) throw new Error("Unreachable");
      return collect(context[inner.$ref], [...found, inner.$ref]);
    }
    return innerTypes(inner).reduce((result, next) => collect(next, result), found);
  };
  return collect(type, [key]);
}

function cyclicInterface(context, heritage, properties) {
  const bases = heritage.map((type) => instantiate(context, State([], []), type));
  const own = {};
  for (const key of PropertyKeys(properties)) own[key] = instantiate({}, State([], []), properties[key]);
  return EvaluateIntersect([...bases, ObjectType(own)]);
}

/** The Cyclic type for one declaration, with the declarations it depends on as its $defs. */
export function InstantiateCyclic(context, ref, type) {
  const dependencies = CyclicDependencies(context, ref, type);
  const definitions = {};
  for (const key of PropertyKeys(context)) {
    if (!dependencies.includes(key)) continue;
    const declaration = context[key];
    definitions[key] = IsInterfaceDeferred(declaration) ? cyclicInterface(context, declaration.parameters[0], declaration.parameters[1]) : declaration;
  }
  return Cyclic(definitions, ref);
}
