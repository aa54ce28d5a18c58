/**
 * index-folder/lib/format.ts — helper imported by index-folder/index.ts.
 *
 * Not an extension (nested folders are never scanned). Imports a JSON file
 * with a plain default import, no attribute. Checklist: D2, L7.
 */
import labels from "./labels.json";

export function formatList(items: readonly string[]): string {
  if (items.length === 0) return labels.empty;
  if (items.length === 1) return items[0];
  return `${items.slice(0, -1).join(labels.separator)}${labels.lastSeparator}${items[items.length - 1]}`;
}

export function unitLabel(count: number): string {
  return `${count} ${count === 1 ? labels.unit.one : labels.unit.many}`;
}
