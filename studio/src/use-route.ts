/** Hash routing: `#/chat/assistant?session=ses_1` → `{ page: 'chat', parts: ['assistant'], params }`. */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  page: string;
  parts: string[];
  params: URLSearchParams;
}

/** The route of a location hash. */
export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const [path, search = ''] = text.split('?');
  const [page = '', ...parts] = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { page: page || 'agents', parts, params: new URLSearchParams(search) };
}

/** The href of a page. */
export function href(page: string, parts: string[] = [], params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return `#/${[page, ...parts].map(encodeURIComponent).join('/')}${search ? `?${search}` : ''}`;
}

/** Goes to a page. */
export function navigate(to: string): void {
  location.hash = to.startsWith('#') ? to.slice(1) : to;
}

/** The current route, updated on hash changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
