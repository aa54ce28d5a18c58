// Runs while a.ts has not run yet: its names exist, not yet set.
import { Registry, fromA } from "./a";

export const fromAAtLoad = typeof fromA;
export const classAtLoad = typeof Registry;
