// node:readline/promises: the readline Interface with a promise-returning
// question(), and Readline for batched cursor control.
import { promises } from "../readline.js";

export const { Interface, Readline, createInterface } = promises;

export default promises;
