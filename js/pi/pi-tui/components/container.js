// Components that hold other components.
import { padLine, stackLines } from "./layout.js";

/** Children rendered top to bottom. */
export class Container {
  constructor() {
    this.children = [];
  }

  addChild(component) {
    this.children.push(component);
  }

  removeChild(component) {
    const i = this.children.indexOf(component);
    if (i !== -1) this.children.splice(i, 1);
  }

  clear() {
    this.children = [];
  }

  invalidate() {
    for (const child of this.children) child.invalidate?.();
  }

  render(width) {
    return stackLines(this.children, width);
  }
}

/** Children inset by padding, every line filled to the width and given the background. */
export class Box {
  constructor(paddingX = 1, paddingY = 1, bgFn) {
    this.children = [];
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.bgFn = bgFn;
  }

  addChild(component) {
    this.children.push(component);
  }

  removeChild(component) {
    const i = this.children.indexOf(component);
    if (i !== -1) this.children.splice(i, 1);
  }

  clear() {
    this.children = [];
  }

  setBgFn(bgFn) {
    this.bgFn = bgFn;
  }

  setPaddingX(paddingX) {
    this.paddingX = paddingX;
  }

  invalidate() {
    for (const child of this.children) child.invalidate?.();
  }

  render(width) {
    if (this.children.length === 0) return [];
    const inner = stackLines(this.children, Math.max(1, width - this.paddingX * 2));
    if (inner.length === 0) return [];
    const fill = (line) => {
      const padded = padLine(line, width);
      return this.bgFn ? this.bgFn(padded) : padded;
    };
    const blank = Array.from({ length: this.paddingY }, () => fill(""));
    const indent = " ".repeat(this.paddingX);
    return [...blank, ...inner.map((line) => fill(indent + line)), ...blank];
  }
}
