import { createCommonJsModule as __pihostCreateModule, runCommonJs as __pihostRunCommonJs } from "pihost:runtime/module-globals.js"; const __pihostModule = __pihostCreateModule(import.meta.url); __pihostRunCommonJs(__pihostModule, function (exports, require, module, __filename, __dirname) { /*SOURCE*/
}); export default __pihostModule.exports;/*NAMED*/
