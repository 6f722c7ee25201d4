import { loadPeer } from '../../errors/load-peer.js';

/** Runs an import of `@a2a-js/sdk` (`loadPeer` of that optional peer, for `what`). */
export async function importA2ASdk<T>(load: () => Promise<T>, what = 'A2A'): Promise<T> {
  return loadPeer({ packages: '@a2a-js/sdk', feature: what, load });
}
