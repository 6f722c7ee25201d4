/**
 * Replay of a run: its stored events applied one by one to the event tree the chat shows, with play / pause,
 * step back and forward, and a scrubber over the events; the tree is the run as it stood after the chosen event.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';

import { api, query, seg } from './api-client.js';
import type { RunEvents } from './api-types.js';
import { buildTree, formatMs } from './event-tree.js';
import { EventTreeView } from './event-tree-view.js';
import { LoadView, useLoad } from './ui.js';

/** Milliseconds between events while playing. */
const TICK_MS = 250;

/** All of a run's stored events (paged through `nextAfter`). */
async function loadEvents(runId: string): Promise<RunEvents> {
  const first = await api<RunEvents>(`/runs/${seg(runId)}/events`);
  let next = first.nextAfter;
  while (next !== undefined) {
    const page = await api<RunEvents>(`/runs/${seg(runId)}/events${query({ after: next })}`);
    first.events.push(...page.events);
    next = page.nextAfter;
  }
  return first;
}

export function RunReplay({ runId }: { runId: string }) {
  const loaded = useLoad(() => loadEvents(runId), [runId]);
  return (
    <>
      <h2>Replay</h2>
      <LoadView loaded={loaded} what="Run events">
        {(run) => (run.events.length === 0 ? <p class="muted">No events stored for this run.</p> : <Player run={run} />)}
      </LoadView>
    </>
  );
}

function Player({ run }: { run: RunEvents }) {
  const count = run.events.length;
  const [position, setPosition] = useState(count);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    if (!playing) return;
    if (position >= count) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setPosition((p) => Math.min(count, p + 1)), TICK_MS);
    return () => clearTimeout(timer);
  }, [playing, position, count]);
  const tree = useMemo(() => buildTree(run.events.slice(0, position).map((e) => e.data)), [run, position]);
  const current = position > 0 ? run.events[position - 1] : undefined;
  const start = Date.parse(run.events[0]!.at);
  const play = () => {
    if (position >= count) setPosition(0);
    setPlaying(true);
  };
  const step = (delta: number) => (setPlaying(false), setPosition((p) => Math.max(0, Math.min(count, p + delta))));
  return (
    <div class="replay">
      <div class="replay-controls" role="group" aria-label="replay controls">
        <button type="button" onClick={() => step(-1)} disabled={position === 0} aria-label="Step back">
          ⏮ Back
        </button>
        {playing ? (
          <button type="button" class="primary" onClick={() => setPlaying(false)}>
            ⏸ Pause
          </button>
        ) : (
          <button type="button" class="primary" onClick={play}>
            ▶ Play
          </button>
        )}
        <button type="button" onClick={() => step(1)} disabled={position === count} aria-label="Step forward">
          Next ⏭
        </button>
        <label for="replay-scrubber" class="visually-hidden">
          Event
        </label>
        <input
          id="replay-scrubber"
          type="range"
          min={0}
          max={count}
          value={position}
          onInput={(e) => (setPlaying(false), setPosition(Number(e.currentTarget.value)))}
        />
        <span class="replay-position" role="status">
          event {position} of {count}
          {current ? ` · ${current.type} · +${formatMs(Math.max(0, Date.parse(current.at) - start))}` : ''}
        </span>
      </div>
      {run.source === 'checkpoints' ? (
        <p class="muted small">This run has no event log: its events are rebuilt from its checkpoints and messages.</p>
      ) : null}
      {position === 0 ? <p class="muted">Before the first event.</p> : <EventTreeView tree={tree} version={tree.version} />}
    </div>
  );
}
