/**
 * manifest-package/src/shared/label.ts — helper module, not an extension.
 *
 * It has no default export; it is only reached through relative imports from
 * the manifest entries. Checklist: D2 (no recursion into nested folders), L7.
 */
export function entryLabel(which: string, position: number): string {
  return `Manifest entry "${which}" (listed at position ${position} of 3)`;
}
