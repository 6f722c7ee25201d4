/**
 * The models layer's public entry for the other layers: model ids resolved to AI SDK models, and
 * cassettes. Importing it installs `resolveModel` as the core's model resolver.
 */
import './install-model-resolver.js';

export * from './cassette/index.js';
export { isLanguageModel, resolveModel } from './resolve-model.js';
