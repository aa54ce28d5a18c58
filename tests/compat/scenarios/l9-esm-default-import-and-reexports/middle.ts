// Re-exports, some of names their modules lack.
export { gone, a as renamedA, default as noDefault } from "./no-default";
export * from "./with-default";
export { default as withDefault } from "./with-default";
export * as noDefaultNamespace from "./no-default";
