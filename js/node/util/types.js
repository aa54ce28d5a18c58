// node:util/types: util.types as its own module.
import { types } from "../util.js";

export const {
  isAnyArrayBuffer, isArgumentsObject, isArrayBuffer, isArrayBufferView, isAsyncFunction, isBigInt64Array,
  isBigUint64Array, isBigIntObject, isBooleanObject, isBoxedPrimitive, isDataView, isDate, isExternal, isFloat32Array,
  isFloat64Array, isGeneratorFunction, isGeneratorObject, isInt8Array, isInt16Array, isInt32Array, isKeyObject,
  isCryptoKey, isMap, isMapIterator, isModuleNamespaceObject, isNativeError, isNumberObject, isPromise, isProxy,
  isRegExp, isSet, isSetIterator, isSharedArrayBuffer, isStringObject, isSymbolObject, isTypedArray,
  isUint8Array, isUint8ClampedArray, isUint16Array, isUint32Array, isWeakMap, isWeakSet,
} = types;
export default types;
