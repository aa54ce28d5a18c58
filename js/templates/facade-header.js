// A virtual pi module: every name pi 1.6.0 exports, from pihost's
// implementation where it has one, else a value that says it is not built.
import { exportOrStub } from "pihost:runtime/not-implemented.js";
