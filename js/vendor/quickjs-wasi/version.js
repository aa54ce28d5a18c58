// Auto-synced with package.json version. Do not edit manually.
export const VERSION = "3.6.2";
//# sourceMappingURL=version.js.map