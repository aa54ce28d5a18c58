/**
 * typescript-features.ts — TypeScript syntax that must be lowered, not checked.
 *
 * Demonstrates: enums (numeric and string), a namespace with a value, a class
 * decorator, constructor parameter properties, an abstract class, `#private`
 * fields, `satisfies`, generics, non-null assertions, `import type`, a
 * type-only export and a deliberate type error that must not stop loading.
 * The computed values go into a command description.
 *
 * Checklist: L1 (types stripped; enums/namespaces/decorators lowered; never
 * type-checked).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

enum Level {
  Low = 1,
  Mid,
  High,
}

enum Tone {
  Calm = "calm",
  Urgent = "urgent",
}

namespace Units {
  export const factor = 3;
  export function scale(n: number): number {
    return n * factor;
  }
}

const tagged: string[] = [];
function tag<T extends new (...args: any[]) => object>(target: T): T {
  tagged.push(target.name);
  return target;
}

abstract class Shape {
  abstract area(): number;
  describe(): string {
    return `${this.constructor.name}:${this.area()}`;
  }
}

@tag
class Square extends Shape {
  #visits = 0;
  constructor(private readonly side: number) {
    super();
  }
  area(): number {
    this.#visits++;
    return this.side * this.side;
  }
  get visits(): number {
    return this.#visits;
  }
}

export type Summary = { level: Level; tone: Tone };

const config = { level: Level.Mid, tone: Tone.Urgent } satisfies Summary;

function firstOf<T>(items: readonly T[]): T {
  return items[0]!;
}

// A type error on purpose: a number assigned to a string. Loading must not check types.
// @ts-ignore -- kept so editors stay quiet; the transpiler must not care either way.
const notChecked: string = 42;

export default function typescriptFeatures(pi: ExtensionAPI) {
  const square = new Square(4);
  const parts = [
    `enum=${Level.High}/${Level[2]}/${Tone.Calm}`,
    `namespace=${Units.scale(2)}`,
    `decorated=${tagged.join(",") || "none"}`,
    `shape=${square.describe()}`,
    `private-visits=${square.visits}`,
    `satisfies=${config.level}:${config.tone}`,
    `generic=${firstOf(["x", "y"])}`,
    `unchecked=${typeof notChecked}`,
  ];
  pi.registerCommand("typescript-features", {
    description: parts.join(" "),
    handler: async () => {},
  });
}
