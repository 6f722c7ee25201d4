/**
 * How runs and sessions are named on screen: a human label (their agent, the first words of their input or their
 * title, how long ago) first, and the id second — monospace, with a button that copies it.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

import { relativeTime } from './relative-time.js';

export { firstWords, relativeTime } from './relative-time.js';

/** A time as "5 min ago", the exact time as its title. */
export function Ago({ iso }: { iso?: string }) {
  if (!iso) return null;
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {relativeTime(iso)}
    </time>
  );
}

/** An id in monospace with a copy button. */
export function CopyId({ id, what }: { id: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard &&
    void navigator.clipboard.writeText(id).then(
      () => (setCopied(true), setTimeout(() => setCopied(false), 1500)),
      () => undefined,
    );
  return (
    <span class="record-id">
      <code>{id}</code>
      <button type="button" class="icon-button copy-button" onClick={copy} aria-label={`Copy ${what} id ${id}`} title="Copy the id">
        {copied ? 'copied' : 'copy'}
      </button>
    </span>
  );
}

/** A record's label: the link with its human name, and under it the id and what else is given. */
export function RecordLabel({
  href,
  label,
  id,
  what,
  children,
}: {
  href: string;
  label: string;
  id: string;
  what: string;
  children?: ComponentChildren;
}) {
  return (
    <div class="record-label">
      <a href={href} class="record-title">
        {label}
      </a>
      <div class="record-meta muted small">
        {children}
        <CopyId id={id} what={what} />
      </div>
    </div>
  );
}
