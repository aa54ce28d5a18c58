import { moduleGlobals as __pihostModuleGlobals } from "pihost:runtime/module-globals.js";/*'pihost:runtime/module-globals.js'*/ const { /*NAMES*/ } = __pihostModuleGlobals(import.meta.url);
