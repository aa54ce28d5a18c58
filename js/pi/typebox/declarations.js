// TypeBox's declaration-like builders: Interface (an object extending other
// object types), Mapped (`{ [K in Keys as Name]: Property }`) and Module (a
// set of named declarations that may refer to each other, cyclic ones
// becoming Cyclic types).

import { Literal, Object as ObjectType } from "../typebox.js";
import { CyclicCandidates, InstantiateCyclic } from "./cyclic.js";
import { Deferred } from "./deferred.js";
import { EvaluateEnum, EvaluateIntersect, EvaluateTemplateLiteral } from "./evaluate.js";
import { PropertyKeys } from "./indexed.js";
import { CanInstantiate, State, instantiate } from "./instantiate.js";
import { actionResult, isKind, updateSchema } from "./schema-object.js";

// --- Interface --------------------------------------------------------------------------

export function InterfaceDeferred(heritage, properties, options = {}) {
  return Deferred("Interface", [heritage, properties], options);
}
export function InterfaceAction(heritage, properties, options) {
  if (!CanInstantiate(heritage)) return InterfaceDeferred(heritage, properties, options);
  return actionResult(EvaluateIntersect([...heritage, ObjectType(properties)]), options);
}
export function InterfaceInstantiate(context, state, heritage, properties, options) {
  const bases = heritage.map((type) => instantiate(context, state, type));
  const own = {};
  for (const key of PropertyKeys(properties)) own[key] = instantiate(context, state, properties[key]);
  return InterfaceAction(bases, own, options);
}
export function Interface(heritage, properties, options = {}) {
  return InterfaceAction(heritage, properties, options);
}

// --- Mapped --------------------------------------------------------------------------------

// The keys a mapped type iterates: each literal (numbers as their strings),
// enum member, template literal spelling and union member.
function mappedVariants(type) {
  if (isKind(type, "Enum")) return mappedVariants(EvaluateEnum(type.enum));
  if (isKind(type, "Literal")) return [Literal(typeof type.const === "number" ? `${type.const}` : type.const)];
  if (isKind(type, "TemplateLiteral")) return mappedVariants(EvaluateTemplateLiteral(type.pattern));
  if (isKind(type, "Union")) return type.anyOf.flatMap(mappedVariants);
  return [type];
}

function mappedProperty(context, state, identifier, variant, as, property) {
  const variantContext = { ...context, [identifier.name]: variant };
  const name = instantiate(variantContext, state, as);
  const key = isKind(name, "TemplateLiteral") ? EvaluateTemplateLiteral(name.pattern) : name;
  const value = instantiate(variantContext, state, property);
  const isKey = isKind(key, "Literal") && (typeof key.const === "number" || typeof key.const === "string");
  return isKey ? { [key.const]: value } : {};
}

function mappedOperation(context, state, identifier, type, as, property) {
  const objects = mappedVariants(type).map((variant) => ObjectType(mappedProperty(context, state, identifier, variant, as, property)));
  return EvaluateIntersect(objects);
}

export function MappedDeferred(identifier, type, as, property, options = {}) {
  return Deferred("Mapped", [identifier, type, as, property], options);
}
export function MappedAction(context, state, identifier, type, as, property, options) {
  if (!CanInstantiate([type])) return MappedDeferred(identifier, type, as, property, options);
  return actionResult(mappedOperation(context, state, identifier, type, as, property), options);
}
export function MappedInstantiate(context, state, identifier, type, as, property, options) {
  return MappedAction(context, state, identifier, instantiate(context, state, type), as, property, options);
}
export function Mapped(identifier, type, as, property, options = {}) {
  return MappedAction({}, State([], []), identifier, type, as, property, options);
}

// --- Module ---------------------------------------------------------------------------------

export function ModuleDeferred(declarations, options = {}) {
  return Deferred("Module", [declarations], options);
}
export function ModuleInstantiate(context, _state, declarations, options) {
  const cyclic = CyclicCandidates(declarations);
  const scope = { ...context, ...declarations };
  const module = {};
  for (const key of PropertyKeys(declarations)) {
    if (cyclic.includes(key)) module[key] = InstantiateCyclic(scope, key, declarations[key]);
  }
  for (const key of PropertyKeys(declarations)) {
    if (!cyclic.includes(key)) module[key] = instantiate(scope, State([], []), declarations[key]);
  }
  return updateSchema(module, {}, options);
}
export function Module(declarations, options = {}) {
  return ModuleInstantiate({}, State([], []), declarations, options);
}
