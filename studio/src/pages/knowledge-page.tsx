/** Knowledge: the bases with their sources and index stats, and a search playground (keyword / vector / hybrid). */
import { useState } from 'preact/hooks';

import { api, seg } from '../api-client.js';
import type { ChunkLocation, KnowledgeBase, KnowledgeSearchResult } from '../api-types.js';
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

/** `lines 3–9 · Herons › Food · page 2` of a hit's location. */
function locationText(location: ChunkLocation | undefined): string {
  if (!location) return '';
  const parts: string[] = [];
  if (location.lines)
    parts.push(location.lines[0] === location.lines[1] ? `line ${location.lines[0]}` : `lines ${location.lines[0]}–${location.lines[1]}`);
  if (location.headings?.length) parts.push(location.headings.join(' › '));
  if (location.page !== undefined) parts.push(`page ${location.page}`);
  return parts.join(' · ');
}

function BaseView({ base }: { base: KnowledgeBase }) {
  const [q, setQ] = useState('');
  const [mode, setMode] = useState<Mode>(base.embedder ? 'hybrid' : 'keyword');
  const [result, setResult] = useState<KnowledgeSearchResult & { mode: Mode }>();
  const [error, setError] = useState<Error>();
  const search = (event: Event) => {
    event.preventDefault();
    if (!q.trim()) return;
    api<KnowledgeSearchResult>(`/knowledge/${seg(base.name)}/search`, { body: { query: q, mode, topK: 8 } }).then(
      (r) => (setResult({ ...r, mode }), setError(undefined)),
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
        <dd>{base.embedder ? `${base.embedder}${base.stats.model ? ` (${base.stats.model})` : ''}` : 'none: keyword search only'}</dd>
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
              <input
                type="radio"
                name={`${id}-mode`}
                value={m}
                checked={mode === m}
                disabled={m !== 'keyword' && !base.embedder}
                onChange={() => setMode(m)}
              />{' '}
              {m}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
      {result ? <Hits result={result} /> : null}
    </article>
  );
}

function Hits({ result }: { result: KnowledgeSearchResult & { mode: Mode } }) {
  return (
    <>
      <p class="muted small" role="status">
        {result.hits.length} {result.hits.length === 1 ? 'hit' : 'hits'} ({result.mode}) in {result.timings.totalMs} ms
      </p>
      <ol class="hits">
        {result.hits.map((hit, i) => (
          <li key={i}>
            <div class="muted small">
              <span class="hit-score">{hit.score.toFixed(3)}</span> · <cite>{hit.citation}</cite>
              {locationText(hit.location) ? ` · ${locationText(hit.location)}` : ''}
            </div>
            <p class="hit-text">{hit.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
