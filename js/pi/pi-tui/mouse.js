// Mouse events on their way down the component tree. A component answers
// handleMouse(event) with what it did; the answer that bubbles up names the
// component hit and where it sits on the screen, so later events of the
// same gesture (drags, releases) can be sent straight to it.

/**
 * `event` given to `component`; undefined when it did nothing with it.
 * An answer carrying a `target` was forwarded to a child the component
 * hosts, which keeps keyboard focus with the host that routes keys to it.
 */
export function dispatchMouseEvent(component, event) {
  const result = component.handleMouse?.(event);
  if (!result) return undefined;
  if ("target" in result) {
    return result.focus && component.handleInput ? { ...result, focusTarget: component } : result;
  }
  if (!result.handled && !result.capture && !result.focus) return undefined;
  return {
    ...result,
    handled: true,
    ...(result.focus ? { focusTarget: component } : {}),
    target: {
      component,
      originX: event.screenX - event.x,
      originY: event.screenY - event.y,
      width: event.width,
      height: event.height,
    },
  };
}
