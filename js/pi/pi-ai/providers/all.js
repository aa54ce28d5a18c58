// @earendil-works/pi-ai/providers/all as extensions see it: the built-in
// catalog's typed readers. The provider objects (builtinProviders,
// builtinModels, radiusProvider) are not built.
export {
  getBuiltinModel,
  getBuiltinImageModel,
  getBuiltinClassifierModel,
  getBuiltinProviders,
  getBuiltinModelDataGeneratedAt,
  getBuiltinModels,
  getBuiltinImageModels,
  getBuiltinClassifierModels,
  getAllBuiltinModels,
} from "../../ai/catalog.js";
