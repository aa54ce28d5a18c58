// @earendil-works/pi-ai/providers/all as extensions see it: the built-in
// catalog's typed readers (ai/catalog.js) and pi's built-in provider
// objects, alone (builtinProviders, radiusProvider for a Radius gateway of
// one's own) or in a Models collection (builtinModels). The providers are
// complete; what pihost cannot do yet (OAuth logins and refreshes, the
// classifier apis, Bedrock without a module set) fails when used
// (ai/builtin-providers.js).
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
export { builtinModels, builtinProviders, radiusProvider } from "../../ai/builtin-providers.js";
