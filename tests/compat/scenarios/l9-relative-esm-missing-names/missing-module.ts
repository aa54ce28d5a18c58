// A module that cannot be found at all still fails the extension, with the
// specifier and the importing file in the message.
import { anything } from "./no-such-file";

export default function (_pi: any) {
  console.log(anything);
}
