/** Knowledge: the bases with their sources and index stats, and a search playground (keyword / vector / hybrid). */
import { useState } from 'preact/hooks';

import { api, seg } from '../api-client.js';
import type { KnowledgeBase, KnowledgeHit } from '../api-types.js';
import { ErrorBox, LoadView, PageHeader, prettyJson, useLoad, When } from '../ui.js';

type Mode = 'keyword' | 'vector' | 'hybrid';

export function KnowledgePage() {
  const loaded = useLoad(() => api<{ bases: KnowledgeBase[] }>('/knowledge'), []);
  return (
    <section>
      <PageHeader title="Knowledge" />
      <LoadView loaded={loaded} what="Knowledge">
        {({ bases }) =>
          bases.length === 0 ? (
            <p class="muted">No knowledge base is configured.</p>
          ) : (
            <>
              {bases.map((base) => (
                <BaseView key={base.name} base={base} />
              ))}
            </>
          )
        }
      </LoadView>
    </section>
  );
}

function BaseView({ base }: { base: KnowledgeBase }) {
  const [q, setQ] = useState('');
  const [mode, setMode] = useState<Mode>(base.embedder ? 'hybrid' : 'keyword');
  const [result, setResult] = useState<{ hits: KnowledgeHit[]; timings?: unknown }>();
  const [error, setError] = useState<Error>();
  const search = (event: Event) => {
    event.preventDefault();
    if (!q.trim()) return;
    api<{ hits: KnowledgeHit[]; timings?: unknown }>(`/knowledge/${seg(base.name)}/search`, { body: { query: q, mode, topK: 8 } }).then(
      (r) => (setResult(r), setError(undefined)),
      setError,
    );
  };
  const id = `kb-${base.name}`;
  return (
    <article class="card">
      <h2>{base.name}</h2>
      <dl class="facts">
        {base.indexed === false ? (
          <>
            <dt>Index</dt>
            <dd>not built yet: run corvid ingest</dd>
          </>
        ) : null}
        <dt>Documents</dt>
        <dd>{base.stats.documents}</dd>
        <dt>Chunks</dt>
        <dd>{base.stats.chunks}</dd>
        <dt>Embedder</dt>
        <dd>{base.embedder ?? base.stats.model ?? 'none (keyword search)'}</dd>
        {base.stats.dimensions ? (
          <>
            <dt>Dimensions</dt>
            <dd>{base.stats.dimensions}</dd>
          </>
        ) : null}
        <dt>Updated</dt>
        <dd>{base.stats.updatedAt ? <When iso={base.stats.updatedAt} /> : '—'}</dd>
      </dl>
      <details>
        <summary>Sources ({base.sources.length})</summary>
        <pre class="json">{prettyJson(base.sources)}</pre>
      </details>
      <form class="search" role="search" onSubmit={search}>
        <label for={`${id}-q`}>Query</label>
        <input id={`${id}-q`} type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <fieldset class="modes">
          <legend>Mode</legend>
          {(['keyword', 'vector', 'hybrid'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name={`${id}-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} /> {m}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
      {result ? (
        <ol class="hits">
          {result.hits.length === 0 ? <li class="muted">No hits.</li> : null}
          {result.hits.map((hit, i) => (
            <li key={i}>
              <div class="muted small">
                {hit.score.toFixed(3)} · {hit.citation ?? hit.source}
              </div>
              <p>{hit.text}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {result?.timings ? <p class="muted small">timings: {prettyJson(result.timings)}</p> : null}
    </article>
  );
}
