// Tools for examples/orchestrator/corvid.yaml: a search of Wikipedia's articles (its public API,
// no key needed). Exported with tool(), referenced in the config as search.search_wikipedia.
import { tool } from 'corvid';
import { z } from 'zod';

export const searchWikipedia = tool({
  name: 'search_wikipedia',
  description: 'Search English Wikipedia; returns the best matching articles with a snippet and their URL',
  input: z.object({ query: z.string().describe('What to search for'), limit: z.number().int().min(1).max(10).optional() }),
  execute: async ({ query, limit = 5 }, { signal }) => {
    const url = new URL('https://en.wikipedia.org/w/api.php');
    url.search = new URLSearchParams({
      action: 'query',
      list: 'search',
      srsearch: query,
      srlimit: String(limit),
      format: 'json',
      origin: '*',
    }).toString();
    const res = await fetch(url, { signal, headers: { 'user-agent': 'corvid-example/1.0' } });
    if (!res.ok) throw new Error(`Wikipedia answered HTTP ${res.status}`);
    const body = await res.json();
    return (body.query?.search ?? []).map((hit) => ({
      title: hit.title,
      snippet: hit.snippet.replace(/<[^>]+>/g, ''),
      url: `https://en.wikipedia.org/wiki/${encodeURIComponent(hit.title.replace(/ /g, '_'))}`,
    }));
  },
});
