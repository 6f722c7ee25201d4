/** Sessions: list and search; one session's history with continue, rename, delete and export. */
import { useState } from 'preact/hooks';

import { api, query, seg } from '../api-client.js';
import type { SessionDetail, SessionSummary } from '../api-types.js';
import { downloadFrom } from '../download.js';
import { Ago, CopyId, firstWords, RecordLabel } from '../record-label.js';
import { SessionHistory } from '../session-history.js';
import { ErrorBox, LoadView, PageHeader, UsageText, useLoad, When } from '../ui.js';
import { href, navigate } from '../use-route.js';

export function SessionsPage({ id }: { id?: string }) {
  return id ? <SessionView id={id} /> : <SessionList />;
}

function SessionList() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const loaded = useLoad(() => api<{ sessions: SessionSummary[] }>(`/sessions${query({ q: search, limit: 100 })}`), [search]);
  return (
    <section>
      <PageHeader title="Sessions" />
      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(q.trim());
        }}
      >
        <label for="session-search">Search sessions</label>
        <input
          id="session-search"
          type="search"
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
          placeholder="text in messages or an id"
        />
        <button type="submit">Search</button>
      </form>
      <LoadView loaded={loaded} what="Sessions">
        {({ sessions }) =>
          sessions.length === 0 ? (
            <p class="muted">{search ? `No session matches “${search}”.` : 'No sessions yet.'}</p>
          ) : (
            <div class="table-wrap">
              <table class="stack-table">
                <thead>
                  <tr>
                    <th scope="col">Session</th>
                    <th scope="col">Agent</th>
                    <th scope="col">Messages</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {sessions.map((s) => (
                    <tr key={s.id}>
                      <td>
                        <RecordLabel
                          href={href('sessions', [s.id])}
                          label={s.title ?? firstWords(s.preview) ?? `Conversation with ${s.agent}`}
                          id={s.id}
                          what="session"
                        >
                          <Ago iso={s.createdAt} /> ·{' '}
                        </RecordLabel>
                      </td>
                      <td data-label="Agent">{s.activeAgent && s.activeAgent !== s.agent ? `${s.agent} → ${s.activeAgent}` : s.agent}</td>
                      <td data-label="Messages">{s.messageCount}</td>
                      <td data-label="Updated">
                        <Ago iso={s.updatedAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadView>
    </section>
  );
}

function SessionView({ id }: { id: string }) {
  const loaded = useLoad(() => api<SessionDetail>(`/sessions/${seg(id)}`), [id]);
  const [error, setError] = useState<Error>();
  const [title, setTitle] = useState<string>();
  const act = (work: () => Promise<unknown>) => void work().then(() => setError(undefined), setError);
  const rename = (event: Event) => {
    event.preventDefault();
    if (title === undefined) return;
    act(() => api(`/sessions/${seg(id)}`, { method: 'PATCH', body: { title } }).then(() => (setTitle(undefined), loaded.reload())));
  };
  const remove = () => {
    if (confirm(`Delete session ${id}? Its history is gone for good.`))
      act(() => api(`/sessions/${seg(id)}`, { method: 'DELETE' }).then(() => navigate(href('sessions'))));
  };
  return (
    <section>
      <LoadView loaded={loaded} what="Session">
        {(s) => (
          <>
            <PageHeader title={s.title ?? firstWords(s.preview, 80) ?? `Conversation with ${s.agent}`}>
              <a class="button primary" href={href('chat', [s.activeAgent ?? s.agent], { session: s.id })}>
                Continue
              </a>
              <button type="button" onClick={() => act(() => downloadFrom(`/sessions/${seg(id)}/export?format=markdown`, `${id}.md`))}>
                Export Markdown
              </button>
              <button type="button" onClick={() => act(() => downloadFrom(`/sessions/${seg(id)}/export?format=json`, `${id}.json`))}>
                Export JSON
              </button>
              <button type="button" class="danger" onClick={remove}>
                Delete
              </button>
            </PageHeader>
            {error ? <ErrorBox error={error} /> : null}
            <form class="inline-form" onSubmit={rename}>
              <label for="session-title">Title</label>
              <input id="session-title" value={title ?? s.title ?? ''} onInput={(e) => setTitle(e.currentTarget.value)} />
              <button type="submit" disabled={title === undefined}>
                Rename
              </button>
            </form>
            <p class="muted">
              {s.agent} · {s.messageCount} messages · updated <When iso={s.updatedAt} /> · <UsageText usage={s.usage} /> ·{' '}
              <CopyId id={s.id} what="session" />
            </p>
            <SessionHistory messages={s.messages} />
          </>
        )}
      </LoadView>
    </section>
  );
}
