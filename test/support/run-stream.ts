/**
 * Reading a background run's SSE stream (`GET /api/v1/runs/{id}/stream`) to its end, and posting JSON —
 * what the run tests over real HTTP share.
 */

/** One SSE event of a run's stream: its seq (the `id:` field), event name and parsed data. */
export interface RunStreamEvent {
  seq: number;
  event: string;
  data: any; // each test reads its own fields
}

/** The events of a run's stream read to its end (the server closes it after `done`). */
export async function readRunStream(url: string, headers: Record<string, string> = {}): Promise<RunStreamEvent[]> {
  const res = await fetch(url, { headers });
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) throw new Error(`${url} answered ${res.status} ${type}, not an event stream`);
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const field = (name: string) => new RegExp(`^${name}: ?(.*)$`, 'm').exec(block)?.[1];
      return { seq: Number(field('id')), event: field('event')!, data: JSON.parse(field('data')!) };
    });
}

/** POSTs `body` (an empty object when not given) as JSON. */
export const postJson = (url: string, body?: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
