/**
 * Keeps the page at its newest content (new turns, streamed words, notices, the approval bar) while the reader is
 * at the bottom; once they scroll up, it leaves the page where they put it until they scroll back down or send.
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** How close to the bottom (px) still counts as "at the bottom". */
const SLACK = 64;

const atBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SLACK;
const toBottom = () => window.scrollTo({ top: document.documentElement.scrollHeight });

/** Follows the bottom of the page after each render; `pin()` follows again (e.g. when the user sends a message). */
export function useFollowBottom(): { pin(): void } {
  const pinned = useRef(true);
  useEffect(() => {
    let lastY = window.scrollY;
    // Only a move up lets go of the bottom (content growing under a stale scroll event must not), and
    // any move up does, even a small first step of a wheel, unless the page merely got shorter (the
    // browser then keeps it exactly at the bottom).
    const onScroll = () => {
      const y = window.scrollY;
      if (y < lastY - 1) pinned.current = window.innerHeight + y >= document.documentElement.scrollHeight - 2;
      else if (atBottom()) pinned.current = true;
      lastY = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
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
