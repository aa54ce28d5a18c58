// Mouse handling wrapped around a component that has none of its own (or
// whose own handling should come first), leaving its rendering alone.
import { dispatchMouseEvent } from "../mouse.js";

export class MouseRegion {
  constructor(child, onMouse) {
    this.child = child;
    this.onMouse = onMouse;
  }

  render(width) {
    return this.child.render(width);
  }

  /** The child's handling wins; `onMouse` hears what the child left alone. */
  handleMouse(event) {
    return dispatchMouseEvent(this.child, event) ?? this.onMouse(event);
  }

  invalidate() {
    this.child.invalidate();
  }
}
