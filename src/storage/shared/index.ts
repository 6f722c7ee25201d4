/** Text search helpers the stores share, also used by knowledge's conversation search. */
export { messageSearchText } from './entry-text.js';
export { makeSnippet, queryTerms } from './text-search.js';
