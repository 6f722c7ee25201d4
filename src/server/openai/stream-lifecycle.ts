import type { Context } from 'hono';

import type { ServerEnv } from '../app/server-env.js';
import type { SseSink } from '../chat/node-sse-stream.js';
import type { AnswerStream, OpenAIRouteOptions } from './openai-turn.js';

/**
 * Runs a streamed answer as the chat API's streams do: counted in `corvid_active_streams`,
 * keep-alive comments every 15 s, and a client that goes away stops the run or lets it finish
 * (`streams.on_disconnect`). `write` writes the answer in its API's format.
 */
export async function streamLifecycle(
  stream: SseSink,
  c: Context<ServerEnv>,
  options: OpenAIRouteOptions,
  agent: string,
  start: () => AnswerStream,
  write: (answer: AnswerStream) => Promise<void>,
): Promise<void> {
  const closed = options.metrics.streamOpened();
  const stop = options.onDisconnect() === 'stop';
  const log = c.get('log');
  const answer = start();
  // A client that left is told nothing more; the result is still awaited (the session gets it).
  answer.result.catch(() => undefined);
  stream.onAbort(() => {
    closed();
    log.info({ agent, onDisconnect: stop ? 'stop' : 'continue' }, 'stream client disconnected');
    if (stop) answer.abort('the client disconnected');
  });
  const heartbeat = setInterval(
    () => void stream.write(': keep-alive\n\n').catch(() => undefined),
    (options.heartbeatSeconds ?? 15) * 1000,
  );
  heartbeat.unref();
  try {
    await write(answer);
  } finally {
    clearInterval(heartbeat);
    closed();
  }
}
