import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';

import { TOOL_CALL_REPLAY, type ToolCallReplay } from '../../types/tool-call-replay.js';
import type { Cassette } from './cassette.js';
import type { CassetteEntry } from './cassette-file.js';
import {
  generateToStream,
  reviveGenerateResult,
  reviveStreamPart,
  type StoredStreamPart,
  storeGenerateResult,
  storeStreamPart,
  streamToGenerate,
} from './stored-parts.js';

/**
 * A model recording to or replaying from a cassette. A recording answers either kind of call: a
 * streamed one replayed to `doGenerate` is assembled whole, a whole one replayed to `doStream` is
 * sent as parts. Only complete answers are recorded (a failed call or a broken stream is not).
 */
export class CassetteModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider: string;
  readonly modelId: string;
  readonly [TOOL_CALL_REPLAY]: ToolCallReplay;

  constructor(
    private readonly cassette: Cassette,
    private readonly inner: LanguageModelV3,
    private readonly name: string,
  ) {
    this.provider = inner.provider;
    this.modelId = inner.modelId;
    this[TOOL_CALL_REPLAY] = cassette.tools;
  }

  get supportedUrls(): LanguageModelV3['supportedUrls'] {
    return this.inner.supportedUrls;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { lane, request, key } = this.cassette.requestOf(options, this.name);
    const hit = this.replayed(lane, key);
    if (hit !== undefined)
      return reviveGenerateResult(hit.response.kind === 'generate' ? hit.response.result : streamToGenerate(hit.response.chunks));
    if (this.cassette.mode === 'replay') throw this.cassette.miss(lane, request);
    const result = await this.inner.doGenerate(options);
    this.cassette.add(lane, request, key, { kind: 'generate', result: storeGenerateResult(result) });
    return result;
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { lane, request, key } = this.cassette.requestOf(options, this.name);
    const hit = this.replayed(lane, key);
    if (hit !== undefined)
      return { stream: partsStream(hit.response.kind === 'stream' ? hit.response.chunks : generateToStream(hit.response.result)) };
    if (this.cassette.mode === 'replay') throw this.cassette.miss(lane, request);
    const res = await this.inner.doStream(options);
    const chunks: StoredStreamPart[] = [];
    let complete = false;
    const recorder = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform: (part, controller) => {
        const stored = storeStreamPart(part);
        if (stored !== undefined) chunks.push(stored);
        if (part.type === 'finish') complete = true;
        controller.enqueue(part);
      },
      flush: () => {
        // A stream that reported an error or ended early is not an answer to replay.
        if (complete && !chunks.some((c) => c.type === 'error')) this.cassette.add(lane, request, key, { kind: 'stream', chunks });
      },
    });
    return { ...res, stream: res.stream.pipeThrough(recorder) };
  }

  private replayed(lane: string, key: string): CassetteEntry | undefined {
    return this.cassette.mode === 'record' ? undefined : this.cassette.take(lane, key);
  }
}

function partsStream(chunks: readonly StoredStreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const c of chunks) controller.enqueue(reviveStreamPart(c));
      controller.close();
    },
  });
}
