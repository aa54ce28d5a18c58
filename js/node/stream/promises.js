// node:stream/promises: pipeline and finished returning promises.
import { promises } from "../stream.js";

export const { pipeline, finished } = promises;

export default promises;
