/**
 * Keeps the page at its newest content (new turns, streamed words, notices, approvals) while the reader is at the
 * bottom; once they scroll up, it leaves the page where they put it until they scroll back down or send.
 *
 * Only the reader lets go of the bottom: a wheel or key moving up, or a scroll they make (touch, the scrollbar)
 * that ends away from the bottom. Scrolls the page makes itself — content growing, shrinking, being rebuilt — never
 * do, whatever order their events arrive in. Growth is followed after each render and whenever the page changes
 * size (a part that renders on its own).
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** How close to the bottom (px) still counts as "at the bottom". */
const SLACK = 64;

const atBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SLACK;
const toBottom = () => window.scrollTo({ top: document.documentElement.scrollHeight });

const UP_KEYS = new Set(['PageUp', 'ArrowUp', 'Home']);
const DOWN_KEYS = new Set(['PageDown', 'ArrowDown', 'End', ' ']);

/** Keys typed into a field move its caret, not the page. */
function editable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** Follows the bottom of the page; `pin()` follows again (e.g. when the user sends a message). */
export function useFollowBottom(): { pin(): void } {
  const pinned = useRef(true);
  useEffect(() => {
    /** The reader moves the page (from their first wheel, key, touch or scrollbar drag on). */
    let readerScrolls = false;
    const letGo = () => {
      readerScrolls = true;
      // Nothing to scroll yet: stay at the bottom.
      if (window.scrollY > 0) pinned.current = false;
    };
    const onWheel = (e: WheelEvent) => (e.deltaY < 0 ? letGo() : (readerScrolls = true));
    const onKey = (e: KeyboardEvent) => {
      if (editable(e.target)) return;
      if (UP_KEYS.has(e.key) || (e.key === ' ' && e.shiftKey)) letGo();
      else if (DOWN_KEYS.has(e.key)) readerScrolls = true;
    };
    const onTouch = () => (readerScrolls = true);
    // A press right of the page's content box is on the scrollbar.
    const onPointer = (e: PointerEvent) => e.clientX >= document.documentElement.clientWidth && (readerScrolls = true);
    const onScroll = () => {
      if (readerScrolls) pinned.current = atBottom();
    };
    const grown = new ResizeObserver(() => pinned.current && toBottom());
    grown.observe(document.body);
    addEventListener('wheel', onWheel, { passive: true });
    addEventListener('keydown', onKey);
    addEventListener('touchmove', onTouch, { passive: true });
    addEventListener('pointerdown', onPointer);
    addEventListener('scroll', onScroll, { passive: true });
    return () => {
      grown.disconnect();
      removeEventListener('wheel', onWheel);
      removeEventListener('keydown', onKey);
      removeEventListener('touchmove', onTouch);
      removeEventListener('pointerdown', onPointer);
      removeEventListener('scroll', onScroll);
    };
  }, []);
  // After every render: content only grows at the bottom, so a pinned reader is moved down with it.
  useLayoutEffect(() => {
    if (pinned.current) toBottom();
  });
  return {
    pin() {
      pinned.current = true;
      toBottom();
    },
  };
}
