import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Default number of events kept per SSE stream. */
export const DEFAULT_MAX_EVENTS_PER_STREAM = 500;

/**
 * The recent events of one session's SSE streams, in memory, so a client that lost its
 * connection can reconnect with `Last-Event-ID` and get what it missed (MCP resumability).
 * Bounded: each stream keeps its last `maxEventsPerStream` events.
 */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, { id: string; message: JSONRPCMessage }[]>();
  private seq = 0;

  constructor(private readonly maxEventsPerStream = DEFAULT_MAX_EVENTS_PER_STREAM) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}|${++this.seq}`;
    let events = this.streams.get(streamId);
    if (!events) this.streams.set(streamId, (events = []));
    events.push({ id, message });
    if (events.length > this.maxEventsPerStream) events.splice(0, events.length - this.maxEventsPerStream);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const streamId = eventId.slice(0, eventId.lastIndexOf('|'));
    return this.streams.get(streamId)?.some((e) => e.id === eventId) ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) return '';
    const events = this.streams.get(streamId) ?? [];
    const from = events.findIndex((e) => e.id === lastEventId);
    for (const e of events.slice(from + 1)) await send(e.id, e.message);
    return streamId;
  }
}
