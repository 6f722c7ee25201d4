import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long a connection whose body was refused stays open once its answer is sent, at most: long
 * enough for the client to read the answer before the connection is reset.
 */
const LINGER_MS = 1000;

const refused = new WeakSet<IncomingMessage>();

/**
 * Refuses the rest of a request body (over the size limit, or a declared length over it): reading
 * stops at once — the unread bytes stay in the kernel, whose full window then holds the client
 * back — and once the answer (`outgoing`, the 413) is sent, the connection is half-closed and
 * destroyed at most `LINGER_MS` later. The rest of the body is never read, kept or drained
 * (@hono/node-server would otherwise read up to 64 MiB of it after the answer).
 */
export function refuseBody(incoming: IncomingMessage, outgoing: ServerResponse | undefined): void {
  if (refused.has(incoming)) return;
  refused.add(incoming);
  incoming.pause();
  const socket = incoming.socket;
  if (!outgoing || !socket) return;
  const close = () => {
    // @hono/node-server resumes an unfinished request when its answer is finished (to drain it):
    // this listener runs after its own, in the same tick, before any data flows.
    incoming.pause();
    if (socket.destroyed) return;
    // For a `Connection: close` exchange Node has just called `destroySoon()`: destroyed as soon as
    // the answer is flushed, which with the client still sending is a reset that can reach the
    // client before it read the 413. The read side stays open for the linger instead.
    socket.removeListener('finish', socket.destroy);
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
  if (outgoing.writableFinished) close();
  else outgoing.once('finish', close);
}

/**
 * For a request whose route answered without reading (all of) its body: the rest is read and
 * dropped as it comes, and refused (`refuseBody`) once more than `limit` bytes came — so the body
 * limit holds on every route, whether it reads bodies or not. Bodies already complete (or ended,
 * or refused) are left alone.
 */
export function limitUnreadBody(incoming: IncomingMessage, outgoing: ServerResponse, limit: number): void {
  if (incoming.complete || incoming.readableEnded || refused.has(incoming)) return;
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      incoming.off('data', onData);
      refuseBody(incoming, outgoing);
    }
  };
  incoming.on('data', onData);
  incoming.once('end', () => incoming.off('data', onData));
  incoming.resume();
}
