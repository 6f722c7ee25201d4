import type { JWTPayload } from 'jose';

import type { JwtAuthConfig } from '../../config/corvid-config.js';

/** Default accepted algorithms. */
export const DEFAULT_JWT_ALGORITHMS = ['RS256', 'ES256'];

/** The outcome of a token check. */
export type JwtCheck = { ok: true; payload: JWTPayload; user: string | undefined } | { ok: false; reason: string };

/**
 * Verifies JWT bearer tokens against a remote JWKS: signature with a key of the set (by `kid`),
 * algorithm from the allow-list (`none` is never accepted), `exp`/`nbf`, issuer and audience.
 */
export class JwtVerifier {
  private jose: Promise<{ lib: typeof import('jose'); jwks: ReturnType<typeof import('jose').createRemoteJWKSet> }> | undefined;
  private readonly algorithms: string[];

  constructor(private readonly config: JwtAuthConfig) {
    this.algorithms = (config.algorithms ?? DEFAULT_JWT_ALGORITHMS).filter((a) => a.toLowerCase() !== 'none');
  }

  /** jose is loaded on the first token, so servers without JWT auth never load it. */
  private load() {
    return (this.jose ??= import('jose').then((lib) => ({
      lib,
      jwks: lib.createRemoteJWKSet(new URL(this.config.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 }),
    })));
  }

  async verify(token: string): Promise<JwtCheck> {
    const { lib, jwks } = await this.load();
    try {
      const { payload } = await lib.jwtVerify(token, jwks, {
        algorithms: this.algorithms,
        issuer: this.config.issuer,
        audience: this.config.audience,
        requiredClaims: ['exp'],
      });
      const claim = payload[this.config.userClaim ?? 'sub'];
      return { ok: true, payload, user: typeof claim === 'string' ? claim : undefined };
    } catch (err) {
      return { ok: false, reason: reasonOf(lib.errors, err) };
    }
  }
}

function reasonOf(joseErrors: typeof import('jose').errors, err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `the token's "${err.claim}" claim is not accepted`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm that is not allowed';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'no key of the JWKS matches the token';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature is invalid';
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid) return 'the signing keys could not be fetched';
  if (err instanceof joseErrors.JOSEError) return 'the token is not a valid JWT';
  return 'the token could not be verified';
}
