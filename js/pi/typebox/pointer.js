// Value.Pointer: RFC 6901 JSON Pointers ("/a/0/b", with ~1 for "/" and ~0 for
// "~") to read, test, set and delete places inside a value. Setting or
// deleting the root is refused, as are prototype-polluting keys.

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function isObjectValue(value) {
  return typeof value === "object" && value !== null;
}

/** The keys a pointer names, unescaped. */
export function Indices(pointer) {
  if (pointer.length === 0) return [];
  const indices = pointer.split("/").map((index) => index.replace(/~1/g, "/").replace(/~0/g, "~"));
  return indices.length > 0 && indices[0] === "" ? indices.slice(1) : indices;
}

// TypeBox tests with `in`, so inherited keys count, except the unsafe ones, which must be own.
function hasIndex(index, value) {
  if (!isObjectValue(value)) return false;
  return UNSAFE_KEYS.has(index) ? Object.prototype.hasOwnProperty.call(value, index) : index in value;
}

function getIndex(index, value) {
  return isObjectValue(value) && !UNSAFE_KEYS.has(index) ? value[index] : undefined;
}

function getIndices(indices, value) {
  return indices.reduce((current, index) => getIndex(index, current), value);
}

export function Has(value, pointer) {
  let current = value;
  return Indices(pointer).every((index) => {
    if (!hasIndex(index, current)) return false;
    current = current[index];
    return true;
  });
}

export function Get(value, pointer) {
  return getIndices(Indices(pointer), value);
}

// The container of the place a pointer names, and the key within it.
function parentOf(value, pointer) {
  const indices = Indices(pointer);
  if (indices.length === 0) throw Error("Cannot set root");
  if (indices.some((index) => UNSAFE_KEYS.has(index))) throw Error("Pointer contains unsafe property key");
  const parent = getIndices(indices.slice(0, -1), value);
  if (!isObjectValue(parent)) throw Error("Cannot set value");
  return [parent, indices[indices.length - 1]];
}

function SetValue(value, pointer, next) {
  const [parent, index] = parentOf(value, pointer);
  parent[index] = next;
  return value;
}
export { SetValue as Set };

/** Removes the place; an array element is spliced out, so later ones move up. */
export function Delete(value, pointer) {
  const [parent, index] = parentOf(value, pointer);
  if (Array.isArray(parent) && /^(0|[1-9]\d*)$/.test(index)) parent.splice(+index, 1);
  else delete parent[index];
  return value;
}
