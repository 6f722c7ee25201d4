import type { Tracer } from '@opentelemetry/api';

import { loadPeer } from '../../errors/load-peer.js';

/** Traces exported over OTLP/HTTP. */
export interface Tracing {
  readonly tracer: Tracer;
  /** The traces URL spans go to. */
  readonly url: string;
  /** Sends the spans still buffered. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** `…/v1/traces` of an OTLP base endpoint (kept as is when it already names the path). */
export function tracesUrl(endpoint: string): string {
  return /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Loads the OpenTelemetry SDK (optional peers `@opentelemetry/sdk-trace-base` and
 * `@opentelemetry/exporter-trace-otlp-http`) and returns a tracer exporting to `endpoint`.
 * Called only when telemetry is configured, so servers without it never load the SDK.
 * @throws MissingPeerError naming the packages to install when they are missing.
 */
export async function startTracing(options: { endpoint: string; serviceName?: string }): Promise<Tracing> {
  const [sdk, otlp] = await loadPeer({
    packages: ['@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http'],
    feature: 'Tracing (server.telemetry.otlp_endpoint or OTEL_EXPORTER_OTLP_ENDPOINT)',
    load: () => Promise.all([import('@opentelemetry/sdk-trace-base'), import('@opentelemetry/exporter-trace-otlp-http')]),
  });
  const resources = (await import('@opentelemetry/resources').catch(() => undefined)) as
    typeof import('@opentelemetry/resources') | undefined;
  const url = tracesUrl(options.endpoint);
  const provider = new sdk.BasicTracerProvider({
    resource: resources?.resourceFromAttributes({ 'service.name': options.serviceName ?? 'corvid' }),
    spanProcessors: [new sdk.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 })],
  });
  return {
    tracer: provider.getTracer('corvid'),
    url,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
