// A window onto one child taller than the room it gets. The full-screen
// layout tells it the content and viewport heights; it keeps the scroll
// position, can stick to the end as content grows, and draws a scrollbar
// that can show always, never, or for a moment after scrolling.
import { LAYOUT_NODE } from "../layout-node.js";
import { Container } from "./container.js";

const dimTrack = (text) => `\x1b[90m${text}\x1b[39m`;
const brightThumb = (text) => `\x1b[37m${text}\x1b[39m`;
const DEFAULT_SCROLLBAR_HIDE_DELAY_MS = 1000;

export class ScrollView extends Container {
  constructor(component, options = {}) {
    super();
    if (options.axis !== undefined && options.axis !== "vertical") {
      throw new Error(`Unsupported ScrollView axis: ${options.axis}`);
    }
    this.child = component;
    this.children.push(component);
    this.followEnd = (options.follow ?? "none") === "end";
    this.followingEnd = this.followEnd;
    // Set when the user scrolled to the end on purpose without re-enabling follow.
    this.followSuppressedAtEnd = false;
    this.primary = options.primary ?? false;
    this.overscroll = options.overscroll ?? "chain";
    this.currentScrollbar = options.scrollbar ?? "hidden";
    this.scrollbarTrackStyle = options.scrollbarTrackStyle ?? dimTrack;
    this.scrollbarThumbStyle = options.scrollbarThumbStyle ?? brightThumb;
    this.scrollbarHideDelayMs = Math.max(0, Math.floor(options.scrollbarHideDelayMs ?? DEFAULT_SCROLLBAR_HIDE_DELAY_MS));
    this.currentScrollTop = 0;
    this.contentHeight = 0;
    this.currentViewportHeight = 0;
    this.requestRenderCallback = undefined;
    this.transientScrollbarVisible = false;
    this.scrollbarActive = false;
    this.scrollbarHideTimer = undefined;
  }

  get scrollTop() {
    return this.currentScrollTop;
  }

  get isFollowingEnd() {
    return this.followingEnd;
  }

  get viewportHeight() {
    return this.currentViewportHeight;
  }

  get scrollbar() {
    return this.currentScrollbar;
  }

  get isScrollbarVisible() {
    if (this.scrollbar === "always") return this.currentViewportHeight > 0;
    return this.scrollbar === "auto" && this.overflows() && this.transientScrollbarVisible;
  }

  get isScrollbarActive() {
    return this.scrollbarActive;
  }

  overflows() {
    return this.contentHeight > this.currentViewportHeight;
  }

  maxScrollTop() {
    return Math.max(0, this.contentHeight - this.currentViewportHeight);
  }

  setScrollbar(scrollbar) {
    if (scrollbar === this.currentScrollbar) return;
    this.currentScrollbar = scrollbar;
    if (scrollbar !== "auto") this.hideTransientScrollbar();
    else if (this.scrollbarActive) this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  /** The width the child gets: an always-shown scrollbar takes the last column. */
  getContentWidth(width) {
    return this.scrollbar === "always" && width > 1 ? width - 1 : width;
  }

  /** Shows an "auto" scrollbar, hiding it again after the delay unless it is being dragged. */
  markScrollbarActivity() {
    if (this.scrollbar !== "auto" || !this.overflows()) return;
    this.transientScrollbarVisible = true;
    this.cancelScrollbarHide();
    if (this.scrollbarActive) return;
    this.scrollbarHideTimer = setTimeout(() => {
      this.scrollbarHideTimer = undefined;
      this.transientScrollbarVisible = false;
      this.requestRenderCallback?.();
    }, this.scrollbarHideDelayMs);
    // A scrollbar fading out is no reason to keep the process alive.
    this.scrollbarHideTimer.unref?.();
  }

  cancelScrollbarHide() {
    if (!this.scrollbarHideTimer) return;
    clearTimeout(this.scrollbarHideTimer);
    this.scrollbarHideTimer = undefined;
  }

  hideTransientScrollbar() {
    this.transientScrollbarVisible = false;
    this.cancelScrollbarHide();
  }

  setScrollbarActive(active) {
    if (active === this.scrollbarActive) return;
    this.scrollbarActive = active;
    this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  scrollTo(scrollTop, options = {}) {
    const requested = Number.isFinite(scrollTop) ? Math.trunc(scrollTop) : this.currentScrollTop;
    const end = this.maxScrollTop();
    const next = Math.max(0, Math.min(end, requested));
    const suppressed = options.disableFollow === true && next === end;
    const following = !suppressed && this.followEnd && next === end;
    if (next === this.currentScrollTop && following === this.followingEnd && suppressed === this.followSuppressedAtEnd) {
      return;
    }
    const moved = next !== this.currentScrollTop;
    this.currentScrollTop = next;
    this.followingEnd = following;
    this.followSuppressedAtEnd = suppressed;
    if (moved) this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  /** Scrolls by `lines` and returns the part that did not fit, for an outer view to take. */
  scrollBy(lines) {
    const requested = Number.isFinite(lines) ? Math.trunc(lines) : 0;
    if (requested === 0) return 0;
    const end = this.maxScrollTop();
    const start = this.followingEnd ? end : this.currentScrollTop;
    const next = Math.max(0, Math.min(end, start + requested));
    const moved = next - start;
    const wasFollowing = this.followingEnd;
    this.currentScrollTop = next;
    this.followingEnd = this.followEnd && next === end;
    this.followSuppressedAtEnd = false;
    if (moved !== 0) this.markScrollbarActivity();
    if (moved !== 0 || this.followingEnd !== wasFollowing) this.requestRenderCallback?.();
    return requested - moved;
  }

  scrollToStart() {
    const following = this.followEnd && !this.overflows();
    const changed = this.currentScrollTop !== 0 || this.followingEnd !== following;
    this.currentScrollTop = 0;
    this.followingEnd = following;
    this.followSuppressedAtEnd = false;
    if (!changed) return;
    this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  scrollToEnd() {
    const end = this.maxScrollTop();
    const changed = this.currentScrollTop !== end || this.followingEnd !== this.followEnd;
    this.currentScrollTop = end;
    this.followingEnd = this.followEnd;
    this.followSuppressedAtEnd = false;
    if (!changed) return;
    this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  /** Called by the layout every frame with the heights it measured. */
  updateLayout(contentHeight, viewportHeight, requestRender) {
    this.contentHeight = Math.max(0, Math.floor(contentHeight));
    this.currentViewportHeight = Math.max(0, Math.floor(viewportHeight));
    this.requestRenderCallback = requestRender;
    const end = this.maxScrollTop();
    this.currentScrollTop = this.followingEnd ? end : Math.max(0, Math.min(this.currentScrollTop, end));
    if (this.currentScrollTop < end) this.followSuppressedAtEnd = false;
    if (this.followEnd && this.currentScrollTop === end && !this.followSuppressedAtEnd) this.followingEnd = true;
    if (!this.overflows()) this.hideTransientScrollbar();
  }

  addChild() {
    throw new Error("ScrollView has exactly one child");
  }

  removeChild() {
    throw new Error("ScrollView child cannot be removed");
  }

  clear() {
    throw new Error("ScrollView child cannot be cleared");
  }

  /** The whole child; the layout cuts the visible window. A scrollbar column is left blank. */
  render(width) {
    const contentWidth = this.getContentWidth(width);
    const lines = this.child.render(contentWidth);
    return contentWidth === width ? lines : lines.map((line) => `${line} `);
  }

  [LAYOUT_NODE]() {
    return { type: "scroll", component: this.child, state: this };
  }
}
