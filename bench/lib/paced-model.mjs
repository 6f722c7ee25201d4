// Models with realistic timing for the serving benchmarks, in the AI SDK's LanguageModelV3 shape
// (what `new Agent({ model })` takes). The model's own time dominates a real request; these show
// what the server adds on top of it.
//   instant          — answers "ok" at once (measures the server alone)
//   reply-200ms      — answers "ok" after 200 ms (a short non-streaming model call)
//   stream-50x20ms   — streams 50 tokens, one every 20 ms (a 1 s streamed answer)

const usage = (output) => ({
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A model answering `tokens` tokens: the first after `firstMs`, the others `tokenMs` apart (a
 * stream sends them as they come; a generate call answers once the last one is due).
 * @param {{ firstMs?: number, tokens?: number, tokenMs?: number }} timing
 */
export function pacedModel({ firstMs = 0, tokens = 1, tokenMs = 0 } = {}) {
  const pieces = tokens === 1 ? ['ok'] : Array.from({ length: tokens }, (_, i) => (i === 0 ? 'tok' : ' tok'));
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: `paced-${firstMs}-${tokens}x${tokenMs}`,
    supportedUrls: {},
    async doGenerate(options) {
      await wait(firstMs + (tokens - 1) * tokenMs, options.abortSignal);
      return {
        content: [{ type: 'text', text: pieces.join('') }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: usage(tokens),
        warnings: [],
      };
    },
    async doStream(options) {
      const signal = options.abortSignal;
      const stream = new ReadableStream({
        async start(controller) {
          try {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't0' });
            for (let i = 0; i < pieces.length; i++) {
              await wait(i === 0 ? firstMs : tokenMs, signal);
              controller.enqueue({ type: 'text-delta', id: 't0', delta: pieces[i] });
            }
            controller.enqueue({ type: 'text-end', id: 't0' });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usage(tokens) });
            controller.close();
          } catch (err) {
            controller.error(err);
          }
        },
      });
      return { stream };
    },
  };
}

/** The bench's model scenarios by name. */
export const MODEL_SCENARIOS = {
  instant: {},
  'reply-200ms': { firstMs: 200 },
  'stream-50x20ms': { firstMs: 20, tokens: 50, tokenMs: 20 },
};
