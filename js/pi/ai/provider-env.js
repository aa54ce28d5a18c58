// Where pi-ai looks up a provider setting (API keys, cache retention): the
// caller's own `env` overrides first, then the host's environment. An empty
// value counts as unset on both.
import { hostEnv } from "../host-env.js";

/** The value of `name`, or undefined when neither `env` nor the host environment has a non-empty one. */
export function providerEnvValue(name, env) {
  return env?.[name] || hostEnv()[name] || undefined;
}
