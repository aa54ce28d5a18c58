// Refinements: extra checks written as functions, kept under a type's hidden
// `~refine` mark; a value matches only when every check returns true, and each
// failed one reports its own error message.

import { updateSchema } from "./schema-object.js";

export function RefineAdd(type, refinement) {
  const refinements = IsRefine(type) ? [...type["~refine"], refinement] : [refinement];
  return updateSchema(type, { "~refine": refinements }, {});
}

export function Refine(...args) {
  if (args.length !== 2 && args.length !== 3) throw Error("Invalid Arguments");
  const [type, check] = args;
  const error = args.length === 3 ? args[2] : () => "Refine Error";
  return RefineAdd(type, { check, error });
}

export function IsRefinement(value) {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    "check" in value &&
    "error" in value &&
    typeof value.check === "function" &&
    typeof value.error === "function"
  );
}

export function IsRefine(value) {
  return typeof value === "object" && value !== null && "~refine" in value && Array.isArray(value["~refine"]) && value["~refine"].every(IsRefinement);
}
