/**
 * pi's native clipboard helper is a Node addon; pihost loads no native
 * addons, so the answer is pi's own when its helper cannot load: none.
 */
export function getNativeClipboard() {
  return undefined;
}
