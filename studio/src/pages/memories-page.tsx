/** Memories: list and search what an agent remembered for a user, edit a memory's text, delete one. */
import { useEffect, useState } from 'preact/hooks';

import { api, query, seg } from '../api-client.js';
import type { AgentInfo, Memory } from '../api-types.js';
import { ErrorBox, LoadView, PageHeader, useLoad, When } from '../ui.js';

/** Whose memories: an agent (empty: the server's default agent) and, without auth, a user (empty: `default`). */
interface Scope {
  agent: string;
  userId: string;
}

/** `ownOnly`: the server has auth, so a caller reaches only the memories of the user it speaks for (no user field). */
export function MemoriesPage({ ownOnly = false }: { ownOnly?: boolean }) {
  const [q, setQ] = useState('');
  const [scope, setScope] = useState<Scope>({ agent: '', userId: '' });
  const [filter, setFilter] = useState({ q: '', agent: '', userId: '' });
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [error, setError] = useState<Error>();
  useEffect(() => {
    api<{ agents: AgentInfo[] }>('/agents').then(
      (r) => setAgents(r.agents),
      () => undefined,
    );
  }, []);
  const loaded = useLoad(() => api<{ memories: Memory[] }>(`/memories${query({ ...filter, limit: 100 })}`), [filter]);
  const act = (work: Promise<unknown>) => void work.then(() => (setError(undefined), loaded.reload()), setError);
  // PUT and DELETE name the memory's own agent and user (its id is a key, unique per user and agent).
  const at = (m: Memory) => `/memories/${seg(m.id)}${query({ agent: m.agent, userId: filter.userId })}`;
  return (
    <section>
      <PageHeader title="Memories" />
      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ q: q.trim(), agent: scope.agent, userId: scope.userId.trim() });
        }}
      >
        <label for="memory-q">Search</label>
        <input id="memory-q" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <label for="memory-agent">Agent</label>
        <select id="memory-agent" value={scope.agent} onChange={(e) => setScope((s) => ({ ...s, agent: e.currentTarget.value }))}>
          <option value="">default agent</option>
          {agents.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
        {ownOnly ? null : (
          <>
            <label for="memory-user">User</label>
            <input
              id="memory-user"
              value={scope.userId}
              placeholder="default"
              onInput={(e) => setScope((s) => ({ ...s, userId: e.currentTarget.value }))}
            />
          </>
        )}
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
                  key={`${m.agent}/${m.id}`}
                  memory={m}
                  onSave={(text) => act(api(at(m), { method: 'PUT', body: { text } }))}
                  onDelete={() => confirm(`Delete the memory “${m.id}”?`) && act(api(at(m), { method: 'DELETE' }))}
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
  const id = `memory-${memory.agent}-${memory.id}`;
  return (
    <li class="card memory">
      <h2 class="memory-key">
        <code>{memory.id}</code>
      </h2>
      {text === undefined ? (
        <p class="memory-text">{memory.text}</p>
      ) : (
        <>
          <label for={id}>Text of {memory.id}</label>
          <textarea id={id} rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </>
      )}
      <p class="muted small">
        {memory.agent}
        {memory.userId ? ` · ${memory.userId}` : ''}
        {memory.category ? ` · ${memory.category}` : ''}
        {memory.importance !== undefined ? ` · importance ${memory.importance}` : ''}
        {memory.score !== undefined ? ` · score ${memory.score.toFixed(3)}` : ''}
        {memory.tags?.length ? ` · ${memory.tags.join(', ')}` : ''} · updated <When iso={memory.updatedAt} />
      </p>
      <div class="actions">
        {text === undefined ? (
          <button type="button" onClick={() => setText(memory.text)} aria-label={`Edit ${memory.id}`}>
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
        <button type="button" class="danger" onClick={onDelete} aria-label={`Delete ${memory.id}`}>
          Delete
        </button>
      </div>
    </li>
  );
}
