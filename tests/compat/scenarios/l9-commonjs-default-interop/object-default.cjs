// Marked as compiled, but its default is no function.
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = { kind: "object default" };
exports.sibling = "sibling";
