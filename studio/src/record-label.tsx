/**
 * How runs and sessions are named on screen: a human label (their agent, the first words of their input or their
 * title, how long ago) first, and the id second — monospace, with a button that copies it.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** "just now", "5 min ago", "3 h ago", "2 days ago", else the local date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const s = Math.round((now - at) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.round(s / 86_400)} day${Math.round(s / 86_400) === 1 ? '' : 's'} ago`;
  return new Date(at).toLocaleDateString();
}

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
    void navigator.clipboard?.writeText(id).then(
      () => (setCopied(true), setTimeout(() => setCopied(false), 1500)),
      () => undefined,
    );
  return (
    <span class="record-id">
      <code>{id}</code>
      <button type="button" class="icon-button" onClick={copy} aria-label={`Copy ${what} id ${id}`} title="Copy the id">
        {copied ? '✓' : '⧉'}
      </button>
    </span>
  );
}

/** The start of a text, on one line. */
export function firstWords(text: string | undefined, max = 60): string | undefined {
  const t = text?.replace(/\s+/g, ' ').trim();
  if (!t) return undefined;
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
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
