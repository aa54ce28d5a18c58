// How pi names itself to MCP servers and OAuth servers: the client name and
// the version of pi whose behaviour pihost reproduces.

export const APP_NAME = "pi";
export const PI_VERSION = "1.6.0";
