import { createHash } from 'node:crypto';

import { A2A_VERSION_HEADER } from '@a2a-js/sdk';

/** How long clients may use an agent card before asking again (seconds). */
export const CARD_MAX_AGE_SECONDS = 300;

/** What `CardCache.respond` answers with. */
export interface CardAnswer {
  /** Identifies the card among those this cache has served (agent and protocol version). */
  key: string;
  /** The card as served (JSON). */
  card: unknown;
  /** Whether shared caches may keep it (a card anyone may read). */
  shared: boolean;
  /** The request's `If-None-Match` and `If-Modified-Since` headers. */
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

/**
 * HTTP caching of agent cards (A2A §8.6): every card answer carries `Cache-Control` with a
 * `max-age`, an `ETag` (a hash of the body), `Last-Modified` (when this server first served that
 * body; a config reload that changes the card moves it) and `Vary: A2A-Version`; a conditional
 * request whose `If-None-Match` matches the ETag (or, without one, whose `If-Modified-Since` is
 * not older than `Last-Modified`) gets `304 Not Modified` with no body.
 */
export class CardCache {
  /** Per card key: the ETag last served and since when. */
  private readonly served = new Map<string, { etag: string; since: Date }>();

  respond(answer: CardAnswer): Response {
    const body = JSON.stringify(answer.card);
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    let seen = this.served.get(answer.key);
    if (seen?.etag !== etag) {
      // HTTP dates have whole seconds: a later If-Modified-Since of the same second matches.
      seen = { etag, since: new Date(Math.floor(Date.now() / 1000) * 1000) };
      this.served.set(answer.key, seen);
    }
    const headers: Record<string, string> = {
      'cache-control': `${answer.shared ? 'public' : 'private'}, max-age=${CARD_MAX_AGE_SECONDS}`,
      etag,
      'last-modified': seen.since.toUTCString(),
      vary: A2A_VERSION_HEADER,
    };
    if (notModified(answer, etag, seen.since)) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers: { ...headers, 'content-type': 'application/json' } });
  }
}

/** Whether the request's validators match (RFC 9110 §13.1: If-None-Match first, weak comparison). */
function notModified(answer: CardAnswer, etag: string, since: Date): boolean {
  if (answer.ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return answer.ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
  }
  if (answer.ifModifiedSince === undefined) return false;
  const at = Date.parse(answer.ifModifiedSince);
  return !Number.isNaN(at) && since.getTime() <= at;
}
