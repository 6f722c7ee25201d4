import { z } from 'zod';

import type { ServerConfig } from './corvid-config.js';

const positiveInt = () => z.int().positive();
const httpUrl = () =>
  z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), { error: 'must be an absolute http(s) URL' });

/** Algorithms a JWT may be signed with (`none` is never accepted). */
export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** `server.auth.jwt`. */
export const jwtAuthSchema = z
  .strictObject({
    jwks_url: httpUrl().describe('URL of the JSON Web Key Set that signs the tokens, e.g. https://issuer.example/.well-known/jwks.json.'),
    issuer: z.string().min(1).optional().describe('Required `iss` claim.'),
    audience: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe('Required `aud` claim (one of these).'),
    algorithms: z
      .array(z.enum(JWT_ALGORITHMS, { error: `must be one of ${JWT_ALGORITHMS.join(', ')}` }))
      .min(1)
      .optional()
      .describe('Accepted signing algorithms. Default RS256 and ES256. `none` is never accepted.'),
    user_claim: z.string().min(1).optional().describe('Claim naming the user (rate limits, sessions). Default `sub`.'),
  })
  .describe('JWT bearer tokens verified against a JWKS (issuer, audience, expiry, algorithm allow-list).');

/** One entry of `server.auth.api_keys`. */
export const apiKeySchema = z
  .strictObject({
    name: z.string().min(1).describe('Who the key belongs to (logged and used for rate limits; the key itself never is).'),
    hash: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, { error: 'must be "sha256:<64 hex digits>"; make one with: corvid hash-key' })
      .describe(
        'sha256 of the key as `sha256:<hex>` (`corvid hash-key` prints it). The key is sent as `Authorization: Bearer <key>` or `x-api-key`.',
      ),
    scopes: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Scopes of the key: `read`, `tools:call`, `mcp:call` and `admin` decide what it may do with tools (listing, calling); none: everything.',
      ),
  })
  .describe('An API key, stored hashed.');

/** `server:` — the HTTP server of `corvid serve`. */
export const serverSchema = z
  .strictObject({
    host: z.string().min(1).optional().describe('Interface to listen on. Default 127.0.0.1.'),
    port: z.int().min(0).max(65535).optional().describe('Port. Default 8080; 0 picks a free one.'),
    base_url: httpUrl().optional().describe('Public URL of the server (agent cards, links). Default http://<host>:<port>.'),
    cors: z
      .strictObject({
        origins: z.array(z.string().min(1)).min(1).describe('Allowed origins, e.g. https://app.example.com, or "*".'),
      })
      .optional()
      .describe('Cross-origin requests from browsers. Default: none allowed.'),
    auth: z
      .strictObject({
        jwt: jwtAuthSchema.optional(),
        api_keys: z.array(apiKeySchema).optional(),
        public_paths: z
          .array(z.string().regex(/^\//, { error: 'paths start with "/"' }))
          .optional()
          .describe(
            'Paths open without a token ("*" matches one path segment, a trailing "/**" everything below). Default: /health, /ready and the agent cards.',
          ),
      })
      .optional()
      .describe(
        'Authentication: JWT bearer tokens and/or API keys. Without it the server is open and binds to 127.0.0.1 unless --host says otherwise.',
      ),
    rate_limit: z
      .strictObject({
        requests_per_minute: positiveInt().optional().describe('Requests per minute per client.'),
        tokens_per_hour: positiveInt().optional().describe('Model tokens (input + output) per hour per client.'),
        by: z
          .enum(['user', 'key', 'ip'])
          .optional()
          .describe("What a client is: the token's user (default), the API key, or the IP address."),
        shared: z
          .boolean()
          .optional()
          .describe(
            'Count in the storage, shared by every server on the same database (the default when `storage` is configured); false: in memory, per server process.',
          ),
      })
      .optional()
      .describe('Per-client limits, answered with 429 and Retry-After.'),
    max_body_bytes: positiveInt().optional().describe('Largest request body, in bytes. Default 1048576 (1 MiB).'),
    tls: z
      .strictObject({
        cert: z.string().min(1).describe('PEM certificate file, relative to this config file.'),
        key: z.string().min(1).describe('PEM private key file, relative to this config file.'),
      })
      .optional()
      .describe('Serve HTTPS.'),
    telemetry: z
      .strictObject({
        otlp_endpoint: httpUrl()
          .optional()
          .describe('OTLP/HTTP endpoint for traces, e.g. http://127.0.0.1:4318 (also: $OTEL_EXPORTER_OTLP_ENDPOINT). Default: no export.'),
        service_name: z.string().min(1).optional().describe('service.name of the spans. Default corvid.'),
      })
      .optional()
      .describe('OpenTelemetry traces of runs, model calls and tool calls.'),
    logging: z
      .strictObject({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().describe('Log level. Default info.'),
      })
      .optional()
      .describe('Structured JSON logs (pino) on stdout.'),
    streams: z
      .strictObject({
        on_disconnect: z
          .enum(['continue', 'stop'])
          .optional()
          .describe(
            'When an SSE or WebSocket client goes away mid-run: `continue` the run (the session still gets the answer) or `stop` it. Default: `continue` with `storage:` (session runs are durable), `stop` without.',
          ),
      })
      .optional()
      .describe('Streaming responses.'),
    a2a: z
      .strictObject({
        push_allowed_hosts: z
          .array(z.string().min(1))
          .optional()
          .describe(
            'Hosts that A2A push notifications may be delivered to (`host` or `host:port`; `*` allows any). Default: loopback only; other webhooks are stored but never contacted.',
          ),
      })
      .optional()
      .describe('A2A serving options.'),
    studio: z
      .boolean()
      .optional()
      .describe('Serve the Studio, the web UI, at /studio (its files load without credentials; its API calls use them). Default true.'),
  })
  .describe('The HTTP server of `corvid serve`: chat API, A2A, health, metrics.');

/** Converts the schema-valid `server:` section into `ServerConfig` (camelCase; paths as written). */
export function normalizeServer(s: z.output<typeof serverSchema>): ServerConfig {
  const drop = <T extends object>(o: T): T => {
    for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
    return o;
  };
  const auth = s.auth;
  return drop<ServerConfig>({
    host: s.host,
    port: s.port,
    baseUrl: s.base_url,
    cors: s.cors && { origins: s.cors.origins },
    auth:
      auth &&
      drop({
        jwt:
          auth.jwt &&
          drop({
            jwksUrl: auth.jwt.jwks_url,
            issuer: auth.jwt.issuer,
            audience: auth.jwt.audience,
            algorithms: auth.jwt.algorithms,
            userClaim: auth.jwt.user_claim,
          }),
        apiKeys: auth.api_keys?.map((k) => drop({ name: k.name, hash: k.hash, scopes: k.scopes })),
        publicPaths: auth.public_paths,
      }),
    rateLimit:
      s.rate_limit &&
      drop({
        requestsPerMinute: s.rate_limit.requests_per_minute,
        tokensPerHour: s.rate_limit.tokens_per_hour,
        by: s.rate_limit.by,
        shared: s.rate_limit.shared,
      }),
    maxBodyBytes: s.max_body_bytes,
    tls: s.tls && { cert: s.tls.cert, key: s.tls.key },
    telemetry: s.telemetry && drop({ otlpEndpoint: s.telemetry.otlp_endpoint, serviceName: s.telemetry.service_name }),
    logging: s.logging && drop({ level: s.logging.level }),
    streams: s.streams && drop({ onDisconnect: s.streams.on_disconnect }),
    a2a: s.a2a && drop({ pushAllowedHosts: s.a2a.push_allowed_hosts }),
    studio: s.studio,
  });
}
