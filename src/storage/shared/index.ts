/** Helpers the stores share with the other adapters: text search (knowledge's conversation search), secrets masked in locations (the queues). */
export { messageSearchText } from './entry-text.js';
export { maskSecrets, maskUrl } from './location.js';
export { makeSnippet, queryTerms } from './text-search.js';
