import { AgentCard, type AgentSkill, type SecurityScheme } from '@a2a-js/sdk';

/** A skill advertised on an agent card (config: `agents.<name>.a2a.skills`). */
export interface A2ASkill {
  id: string;
  name?: string;
  description?: string;
  tags?: string[];
  examples?: string[];
}

/** What an agent card is built from. */
export interface AgentCardInput {
  name: string;
  description?: string;
  /** Absolute base URL of the server, without a trailing slash. */
  baseUrl: string;
  version: string;
  skills?: readonly A2ASkill[];
  /** OpenAPI-style security schemes (`{ bearer: { type: 'http', scheme: 'bearer' } }`). */
  securitySchemes?: Record<string, unknown>;
  /** Security requirements: scheme name → scopes. */
  security?: Record<string, string[]>[];
  /** Advertise the v0.3 HTTP+JSON binding too (served when express is installed). */
  legacyRest?: boolean;
  /** The agent serves an extended card to authenticated callers (`capabilities.extendedAgentCard`). */
  extendedCard?: boolean;
}

/** The URLs an agent is reachable at. */
export function agentUrls(baseUrl: string, name: string): { card: string; jsonRpc: string; rest: string } {
  const root = `${baseUrl}/a2a/${encodeURIComponent(name)}`;
  return { card: `${baseUrl}/agents/${encodeURIComponent(name)}/.well-known/agent-card.json`, jsonRpc: root, rest: `${root}/rest` };
}

function skillsOf(input: AgentCardInput): A2ASkill[] {
  if (input.skills && input.skills.length > 0) return [...input.skills];
  return [{ id: input.name, name: input.name, description: input.description ?? `Talk to the ${input.name} agent.`, tags: ['corvid'] }];
}

/** The v1.0 agent card (the SDK's in-memory form). */
export function buildAgentCard(input: AgentCardInput): AgentCard {
  const urls = agentUrls(input.baseUrl, input.name);
  const skills: AgentSkill[] = skillsOf(input).map((s) => ({
    id: s.id,
    name: s.name ?? s.id,
    description: s.description ?? input.description ?? '',
    tags: s.tags ?? [],
    examples: s.examples ?? [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  }));
  return {
    name: input.name,
    description: input.description ?? `The ${input.name} agent.`,
    supportedInterfaces: [
      { url: urls.jsonRpc, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: urls.rest, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      { url: urls.jsonRpc, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
      ...(input.legacyRest ? [{ url: urls.rest, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '0.3' }] : []),
    ],
    provider: undefined,
    version: input.version,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: input.extendedCard === true },
    securitySchemes: Object.fromEntries(Object.entries(input.securitySchemes ?? {}).map(([k, v]) => [k, toV1Scheme(v)])),
    securityRequirements: (input.security ?? []).map((req) => ({
      schemes: Object.fromEntries(Object.entries(req).map(([k, scopes]) => [k, { list: scopes }])),
    })),
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills,
    signatures: [],
  } as AgentCard;
}

/** The v1.0 card as served (the protocol's JSON form). */
export function agentCardJson(card: AgentCard): unknown {
  return AgentCard.toJSON(card);
}

/**
 * The v0.3 card, for clients that ask without `A2A-Version` (or with 0.3): the JSON-RPC
 * endpoint as `url`, and the v1.0 interfaces under `supportedInterfaces` for newer clients.
 */
export function legacyAgentCardJson(input: AgentCardInput): Record<string, unknown> {
  const urls = agentUrls(input.baseUrl, input.name);
  const v1 = agentCardJson(buildAgentCard(input)) as Record<string, unknown>;
  const card: Record<string, unknown> = {
    protocolVersion: '0.3.0',
    name: input.name,
    description: input.description ?? `The ${input.name} agent.`,
    url: urls.jsonRpc,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: urls.jsonRpc, transport: 'JSONRPC' },
      ...(input.legacyRest ? [{ url: urls.rest, transport: 'HTTP+JSON' }] : []),
    ],
    version: input.version,
    capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: true },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: skillsOf(input).map((s) => ({
      id: s.id,
      name: s.name ?? s.id,
      description: s.description ?? input.description ?? '',
      tags: s.tags ?? [],
      ...(s.examples?.length ? { examples: s.examples } : {}),
    })),
    supportsAuthenticatedExtendedCard: input.extendedCard === true,
    supportedInterfaces: v1.supportedInterfaces,
  };
  if (input.securitySchemes && Object.keys(input.securitySchemes).length > 0) {
    card.securitySchemes = Object.fromEntries(Object.entries(input.securitySchemes).map(([k, v]) => [k, toOpenApiScheme(v)]));
  }
  if (input.security && input.security.length > 0) card.security = input.security;
  return card;
}

/** An OpenAPI-style scheme (`type: http | apiKey | oauth2 | openIdConnect | mutualTLS`) in v1.0 form. */
function toV1Scheme(value: unknown): SecurityScheme {
  const s = (value ?? {}) as Record<string, unknown>;
  const description = typeof s.description === 'string' ? s.description : '';
  switch (s.type) {
    case 'http':
      return {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description, scheme: String(s.scheme ?? 'bearer'), bearerFormat: String(s.bearerFormat ?? '') },
        },
      };
    case 'apiKey':
      return {
        scheme: { $case: 'apiKeySecurityScheme', value: { description, location: String(s.in ?? 'header'), name: String(s.name ?? '') } },
      };
    case 'openIdConnect':
      return {
        scheme: { $case: 'openIdConnectSecurityScheme', value: { description, openIdConnectUrl: String(s.openIdConnectUrl ?? '') } },
      };
    case 'mutualTLS':
      return { scheme: { $case: 'mtlsSecurityScheme', value: { description } } };
    default:
      // oauth2 and anything else: pass through what the SDK's JSON reader understands.
      return (AgentCard.fromJSON({ securitySchemes: { x: s } }).securitySchemes.x ?? { scheme: undefined }) as SecurityScheme;
  }
}

/** A scheme in v0.3 (OpenAPI) form: given that way (`type: …`), or converted from the v1.0 JSON form. */
function toOpenApiScheme(value: unknown): Record<string, unknown> {
  const s = (value ?? {}) as Record<string, Record<string, unknown> | undefined>;
  if (typeof (s as Record<string, unknown>).type === 'string') return s as Record<string, unknown>;
  const pick = (o: Record<string, unknown>, keys: string[]) =>
    Object.fromEntries(keys.filter((k) => o[k] !== undefined && o[k] !== '').map((k) => [k, o[k]]));
  if (s.httpAuthSecurityScheme) return { type: 'http', ...pick(s.httpAuthSecurityScheme, ['scheme', 'bearerFormat', 'description']) };
  if (s.apiKeySecurityScheme) {
    const a = s.apiKeySecurityScheme;
    return { type: 'apiKey', in: a.location ?? 'header', name: a.name, ...pick(a, ['description']) };
  }
  if (s.openIdConnectSecurityScheme)
    return { type: 'openIdConnect', ...pick(s.openIdConnectSecurityScheme, ['openIdConnectUrl', 'description']) };
  if (s.oauth2SecurityScheme) return { type: 'oauth2', ...pick(s.oauth2SecurityScheme, ['flows', 'description']) };
  if (s.mtlsSecurityScheme) return { type: 'mutualTLS', ...pick(s.mtlsSecurityScheme, ['description']) };
  return s as Record<string, unknown>;
}
