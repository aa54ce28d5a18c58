// An ES module of the extension's own, as a newer release of it might look:
// `removed` is gone, `Shape` is a type only.
export const present = "present";
export let counter = 0;
export function bump(): number {
  counter += 1;
  return counter;
}
export interface Shape {
  sides: number;
}
