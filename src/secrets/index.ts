/** `corvid/secrets`: encrypted storage for tokens and credentials. */
export { SecretStore, type SecretStoreOptions } from './secret-store.js';
export { Secret } from './secret.js';
export { parseKey } from './secret-key.js';
export { isSealedText, type TextSealer } from './sealed-text.js';
export { SecretStoreError, type SecretStoreErrorKind } from '../errors/secret-store-error.js';
