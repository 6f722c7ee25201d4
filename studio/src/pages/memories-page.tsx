/** Memories: list and search what agents remembered, edit a memory's text, delete one. */
import { useState } from 'preact/hooks';

import { api, query, seg } from '../api-client.js';
import type { Memory } from '../api-types.js';
import { ErrorBox, LoadView, PageHeader, useLoad, When } from '../ui.js';

export function MemoriesPage() {
  const [q, setQ] = useState('');
  const [userId, setUserId] = useState('');
  const [filter, setFilter] = useState({ q: '', userId: '' });
  const [error, setError] = useState<Error>();
  const loaded = useLoad(() => api<{ memories: Memory[] }>(`/memories${query({ ...filter, limit: 100 })}`), [filter]);
  const act = (work: Promise<unknown>) => work.then(() => (setError(undefined), loaded.reload()), setError);
  return (
    <section>
      <PageHeader title="Memories" />
      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ q: q.trim(), userId: userId.trim() });
        }}
      >
        <label for="memory-q">Search</label>
        <input id="memory-q" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <label for="memory-user">User</label>
        <input id="memory-user" value={userId} onInput={(e) => setUserId(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
      <LoadView loaded={loaded} what="Memories">
        {({ memories }) =>
          memories.length === 0 ? (
            <p class="muted">No memories{filter.q ? ` match “${filter.q}”` : ''}.</p>
          ) : (
            <ul class="cards">
              {memories.map((m) => (
                <MemoryCard
                  key={m.id}
                  memory={m}
                  onSave={(text) => act(api(`/memories/${seg(m.id)}`, { method: 'PUT', body: { text } }))}
                  onDelete={() => confirm('Delete this memory?') && act(api(`/memories/${seg(m.id)}`, { method: 'DELETE' }))}
                />
              ))}
            </ul>
          )
        }
      </LoadView>
    </section>
  );
}

function MemoryCard({ memory, onSave, onDelete }: { memory: Memory; onSave: (text: string) => void; onDelete: () => void }) {
  const [text, setText] = useState<string>();
  const id = `memory-${memory.id}`;
  return (
    <li class="card">
      {text === undefined ? (
        <p>{memory.text}</p>
      ) : (
        <>
          <label for={id}>Memory text</label>
          <textarea id={id} rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </>
      )}
      <p class="muted small">
        {memory.userId ? `${memory.userId} · ` : ''}
        {memory.agent ? `${memory.agent} · ` : ''}
        {memory.category ? `${memory.category} · ` : ''}
        {memory.tags?.length ? `${memory.tags.join(', ')} · ` : ''}updated <When iso={memory.updatedAt} />
      </p>
      <div class="actions">
        {text === undefined ? (
          <button type="button" onClick={() => setText(memory.text)}>
            Edit
          </button>
        ) : (
          <>
            <button type="button" class="primary" onClick={() => (onSave(text), setText(undefined))}>
              Save
            </button>
            <button type="button" onClick={() => setText(undefined)}>
              Cancel
            </button>
          </>
        )}
        <button type="button" class="danger" onClick={onDelete}>
          Delete
        </button>
      </div>
    </li>
  );
}
