// Stacks: children side by side (HStack) or one above the other (VStack),
// each given a share of the room like a flex box: a basis, then growing
// into spare room and shrinking out of missing room by weight, within
// their minimum and maximum sizes.
import { compositeTuiLine } from "../composite.js";
import { LAYOUT_NODE } from "../layout-node.js";
import { visibleWidth } from "../width.js";
import { Container } from "./container.js";

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** A whole, non-negative size; `fallback` for anything not finite. */
function wholeSize(value, fallback) {
  return value === undefined || !Number.isFinite(value) ? fallback : Math.max(0, Math.floor(value));
}

// A plain component has render(); anything else is { component, ...options }.
const isEntry = (child) => !("render" in child);

/** Children and how they share room; HStack and VStack differ in the axis. */
export class Stack extends Container {
  constructor(children = [], options = {}) {
    super();
    this.entries = [];
    this.gap = wholeSize(options.gap, 0);
    this.align = options.align ?? "stretch";
    for (const child of children) {
      if (isEntry(child)) this.addChild(child.component, child);
      else this.addChild(child);
    }
  }

  addChild(component, options = {}) {
    super.addChild(component);
    const entry = { component };
    if (options.basis !== undefined) entry.basis = options.basis;
    if (options.grow !== undefined) entry.grow = wholeSize(options.grow, 0);
    if (options.shrink !== undefined) entry.shrink = wholeSize(options.shrink, 1);
    if (options.minSize !== undefined) entry.minSize = wholeSize(options.minSize, 0);
    if (options.maxSize !== undefined) entry.maxSize = wholeSize(options.maxSize, UNBOUNDED);
    if (options.visible !== undefined) entry.visible = options.visible;
    this.entries.push(entry);
  }

  removeChild(component) {
    super.removeChild(component);
    const index = this.entries.findIndex((entry) => entry.component === component);
    if (index !== -1) this.entries.splice(index, 1);
  }

  clear() {
    super.clear();
    this.entries.length = 0;
  }

  [LAYOUT_NODE]() {
    return { type: this.layoutType, entries: this.entries, gap: this.gap, align: this.align };
  }
}

/** The entries shown on a viewport of this size. */
export function visibleStackEntries(entries, viewport) {
  return entries.filter((entry) => entry.visible?.(viewport) ?? true);
}

function clampToEntry(size, entry) {
  const min = Math.max(0, Math.floor(entry.minSize ?? 0));
  const max = Math.max(min, Math.floor(entry.maxSize ?? UNBOUNDED));
  return Math.max(min, Math.min(max, Math.max(0, Math.floor(size))));
}

/**
 * Hands `amount` cells to the entries that can grow (or takes it from those
 * that can shrink), in rounds, each entry's share by its weight; a
 * shrinking entry weighs in proportion to its size too, so big ones give
 * more. Stops when the amount is spent or nobody can move.
 */
function distribute(sizes, entries, amount, growing) {
  const weight = (index) =>
    growing ? (entries[index].grow ?? 0) : (entries[index].shrink ?? 1) * Math.max(1, sizes[index]);
  const room = (index) =>
    growing ? (entries[index].maxSize ?? UNBOUNDED) - sizes[index] : sizes[index] - (entries[index].minSize ?? 0);
  const canMove = (index) =>
    growing
      ? (entries[index].grow ?? 0) > 0 && sizes[index] < (entries[index].maxSize ?? UNBOUNDED)
      : (entries[index].shrink ?? 1) > 0 && sizes[index] > (entries[index].minSize ?? 0);
  let remaining = amount;
  while (remaining > 0) {
    const movers = entries.map((_, index) => index).filter(canMove);
    if (movers.length === 0) return;
    const totalWeight = movers.reduce((sum, index) => sum + weight(index), 0);
    let moved = 0;
    for (const index of movers) {
      if (remaining <= 0) break;
      const share = Math.max(1, Math.floor((remaining * weight(index)) / totalWeight));
      const step = Math.min(remaining, share, room(index));
      if (step <= 0) continue;
      sizes[index] += growing ? step : -step;
      remaining -= step;
      moved += step;
    }
    if (moved === 0) return;
  }
}

/**
 * Each entry's size along the stack's axis: its basis (or its natural size),
 * then, when `available` is given, grown or shrunk so that the sizes and
 * the gaps between them fill it.
 */
export function allocateStackSizes(entries, intrinsicSizes, available, gap) {
  const sizes = entries.map((entry, index) =>
    clampToEntry(entry.basis === undefined || entry.basis === "auto" ? (intrinsicSizes[index] ?? 0) : entry.basis, entry),
  );
  if (available === undefined) return sizes;
  const content = Math.max(0, Math.floor(available) - Math.max(0, entries.length - 1) * gap);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total < content) distribute(sizes, entries, content - total, true);
  else if (total > content) distribute(sizes, entries, total - content, false);
  return sizes;
}

// Rendered on its own, a stack has no screen height: only the width bounds it.
const unboundedViewport = (width) => ({ width, height: UNBOUNDED });

/** Children side by side, sharing the width. */
export class HStack extends Stack {
  constructor(children = [], options = {}) {
    super(children, options);
    this.layoutType = "hstack";
  }

  render(width) {
    const fullWidth = Math.max(1, width);
    const entries = visibleStackEntries(this.entries, unboundedViewport(fullWidth));
    if (entries.length === 0) return [];
    const naturalWidths = entries.map((entry) =>
      entry.component.render(fullWidth).reduce((widest, line) => Math.max(widest, visibleWidth(line)), 0),
    );
    const widths = allocateStackSizes(entries, naturalWidths, fullWidth, this.gap);
    const columns = entries.map((entry, index) => (widths[index] === 0 ? [] : entry.component.render(widths[index])));
    const height = columns.reduce((tallest, lines) => Math.max(tallest, lines.length), 0);
    const rows = Array.from({ length: height }, () => "");
    let x = 0;
    columns.forEach((lines, index) => {
      let top = 0;
      if (this.align === "center") top = Math.floor((height - lines.length) / 2);
      else if (this.align === "end") top = height - lines.length;
      lines.forEach((line, row) => {
        const target = row + top;
        if (target >= 0 && target < rows.length) rows[target] = compositeTuiLine(rows[target], line, x, widths[index], fullWidth);
      });
      x += widths[index] + this.gap;
    });
    return rows;
  }
}

/** Children one above the other, `gap` blank lines apart. */
export class VStack extends Stack {
  constructor(children = [], options = {}) {
    super(children, options);
    this.layoutType = "vstack";
  }

  render(width) {
    const viewport = unboundedViewport(Math.max(1, width));
    const entries = visibleStackEntries(this.entries, viewport);
    const blocks = entries.map((entry) => entry.component.render(viewport.width));
    const heights = allocateStackSizes(
      entries,
      blocks.map((lines) => lines.length),
      undefined,
      this.gap,
    );
    const lines = [];
    entries.forEach((_, index) => {
      if (index > 0) for (let gap = 0; gap < this.gap; gap++) lines.push("");
      const shown = blocks[index].slice(0, heights[index]);
      lines.push(...shown);
      for (let filled = shown.length; filled < heights[index]; filled++) lines.push("");
    });
    return lines;
  }
}
