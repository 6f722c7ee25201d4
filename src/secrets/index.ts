/** `corvid/secrets`: encrypted storage for tokens and credentials. */
export { SecretStoreError, type SecretStoreErrorKind } from '../errors/secret-store-error.js';
export { isSealedText, type TextSealer } from './sealed-text.js';
export { Secret } from './secret.js';
export { parseKey } from './secret-key.js';
export { SecretStore, type SecretStoreOptions } from './secret-store.js';
