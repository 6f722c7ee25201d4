/** Small shared pieces of the pages: loading an API answer, error states, JSON, diffs, markdown, usage. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';

import { ApiError } from './api-client.js';
import type { Usage } from './event-tree.js';
import { renderMarkdown } from './markdown.js';
import { type DiffLine, diffOf, splitApprovalPrompt } from './tool-diff.js';

/** The state of one API load. */
export interface Loaded<T> {
  data?: T;
  error?: ApiError | Error;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` when `deps` change; `reload()` loads again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** An error of a page: "not available on this server" for routes the server lacks, else its message. */
export function ErrorBox({ error, what }: { error: Error; what?: string }) {
  if (error instanceof ApiError && error.notAvailable && error.code !== 'no_store')
    return (
      <div class="notice" role="status">
        <strong>Not available on this server.</strong> {what ? `${what}: ` : ''}this server does not offer this part of the API (an older
        version, or the feature is not configured).
      </div>
    );
  if (error instanceof ApiError && error.code === 'no_store')
    return (
      <div class="notice" role="status">
        <strong>Needs a store.</strong> {error.message} Add a <code>storage:</code> section to the config.
      </div>
    );
  return (
    <div class="error" role="alert">
      {error instanceof ApiError && error.code ? <code>{error.code}</code> : null} {error.message}
    </div>
  );
}

/** The loading / error / content of a load. */
export function LoadView<T>({ loaded, what, children }: { loaded: Loaded<T>; what?: string; children: (data: T) => ComponentChildren }) {
  if (loaded.error) return <ErrorBox error={loaded.error} what={what} />;
  if (loaded.data === undefined)
    return (
      <p class="muted" aria-busy="true">
        Loading…
      </p>
    );
  return <>{children(loaded.data)}</>;
}

/** JSON, pretty-printed (strings as they are). */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A value as pretty JSON in a block, or its diff coloured when it carries one. */
export function ValueView({ value, label }: { value: unknown; label?: string }) {
  const diff = useMemo(() => diffOf(value), [value]);
  if (diff) return <DiffView lines={diff} label={label} />;
  return (
    <pre class="json" aria-label={label}>
      {prettyJson(value)}
    </pre>
  );
}

/** Diff lines, coloured. */
export function DiffView({ lines, label }: { lines: DiffLine[]; label?: string }) {
  return (
    <pre class="diff" aria-label={label ?? 'diff'}>
      {lines.map((line, i) => (
        <span key={i} class={`diff-${line.kind}`}>
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** An approval's question, with the tool's preview of the call under it (a coloured diff, or the text as it is). */
export function ApprovalPrompt({ prompt, as: Heading }: { prompt: string; as?: 'h2' | 'strong' }) {
  const { title, diff, preview } = useMemo(() => splitApprovalPrompt(prompt), [prompt]);
  const H = Heading ?? 'strong';
  return (
    <>
      <H class="approval-title">{title}</H>
      {diff ? <DiffView lines={diff} label="preview of the change" /> : null}
      {preview !== undefined ? (
        <pre class="approval-preview" aria-label="preview">
          {preview}
        </pre>
      ) : null}
    </>
  );
}

/** Markdown text, rendered. */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Token usage in one line. */
export function UsageText({ usage }: { usage?: Usage }) {
  if (!usage) return null;
  const extra = [
    usage.reasoningTokens ? `${usage.reasoningTokens} reasoning` : '',
    usage.cachedInputTokens ? `${usage.cachedInputTokens} cached` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <span class="usage" title="tokens: input → output">
      {usage.inputTokens} → {usage.outputTokens} tokens{extra ? ` (${extra})` : ''}
    </span>
  );
}

/** A status as a coloured badge. */
export function Badge({ text, tone }: { text: string; tone?: string }) {
  return <span class={`badge badge-${tone ?? text}`}>{text}</span>;
}

/** A date as local text, with the ISO date as its title. */
export function When({ iso }: { iso?: string }) {
  if (!iso) return null;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={iso}>
      {Number.isNaN(date.getTime()) ? iso : date.toLocaleString()}
    </time>
  );
}

/** A page heading with optional actions. */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1>{title}</h1>
      {children ? <div class="actions">{children}</div> : null}
    </header>
  );
}
