import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/** One scripted model response. */
export interface ScriptedTurn {
  /** Answer text. */
  text?: string;
  /** Reasoning text (sent before the answer). */
  reasoning?: string;
  /** Tool calls; `input` is sent as JSON (a string is sent as-is, to script malformed arguments). */
  toolCalls?: Array<{ toolName: string; input: unknown; toolCallId?: string }>;
  usage?: { inputTokens?: number; outputTokens?: number; reasoningTokens?: number; cachedInputTokens?: number };
  /** Thrown instead of answering (both doGenerate and doStream). */
  error?: Error;
  /** Streaming only: the stream errors after the text's first half has been sent. */
  streamError?: Error;
  /** Wait this long before answering (honours the abort signal). */
  delayMs?: number;
  /** Streaming only: text is sent in chunks of this many characters. Default: whole words. */
  chunkSize?: number;
}

/** A script: a list of turns used in order, or a function choosing the turn for each call. */
export type Script = ScriptedTurn[] | ((call: LanguageModelV3CallOptions, index: number) => ScriptedTurn | Promise<ScriptedTurn>);

/**
 * An in-process model for tests: answers from a script, records every call it gets.
 * @example
 * const model = new ScriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }, { text: '5' }]);
 * const agent = new Agent({ name: 'calc', model, tools: [add] });
 */
export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls = {};
  /** Every call received, in order (prompts are copied at call time). */
  readonly calls: LanguageModelV3CallOptions[] = [];
  private readonly script: Script;
  private index = 0;
  private readonly record: boolean;

  constructor(script: Script, options: { provider?: string; modelId?: string; record?: boolean } = {}) {
    this.script = script;
    this.provider = options.provider ?? 'scripted';
    this.modelId = options.modelId ?? 'scripted-model';
    this.record = options.record ?? true;
  }

  /** Starts the script from the beginning and forgets recorded calls. */
  reset(): void {
    this.index = 0;
    this.calls.length = 0;
  }

  private async next(options: LanguageModelV3CallOptions): Promise<ScriptedTurn> {
    if (this.record) this.calls.push({ ...options, prompt: options.prompt.slice() });
    const i = this.index++;
    let turn: ScriptedTurn | undefined;
    if (typeof this.script === 'function') turn = await this.script(options, i);
    else turn = this.script[i];
    if (!turn) throw new Error(`ScriptedModel: no response scripted for call ${i + 1}`);
    if (turn.delayMs) await delay(turn.delayMs, options.abortSignal);
    if (turn.error) throw turn.error;
    return turn;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const turn = await this.next(options);
    const content: LanguageModelV3Content[] = [];
    if (turn.reasoning) content.push({ type: 'reasoning', text: turn.reasoning });
    if (turn.text) content.push({ type: 'text', text: turn.text });
    let n = 0;
    if (turn.toolCalls)
      for (const c of turn.toolCalls) {
        content.push({
          type: 'tool-call',
          toolCallId: c.toolCallId ?? `call_${this.index}_${n++}`,
          toolName: c.toolName,
          input: inputText(c.input),
        });
      }
    return {
      content,
      finishReason: { unified: turn.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: usageOf(turn),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const turn = await this.next(options);
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (turn.reasoning) {
      parts.push({ type: 'reasoning-start', id: 'r0' });
      for (const d of chunks(turn.reasoning, turn.chunkSize)) parts.push({ type: 'reasoning-delta', id: 'r0', delta: d });
      parts.push({ type: 'reasoning-end', id: 'r0' });
    }
    let errorAt = -1;
    if (turn.text) {
      parts.push({ type: 'text-start', id: 't0' });
      const pieces = chunks(turn.text, turn.chunkSize);
      for (let i = 0; i < pieces.length; i++) {
        parts.push({ type: 'text-delta', id: 't0', delta: pieces[i] });
        if (turn.streamError && i === Math.floor((pieces.length - 1) / 2)) errorAt = parts.length;
      }
      parts.push({ type: 'text-end', id: 't0' });
    } else if (turn.streamError) errorAt = parts.length;
    let n = 0;
    if (turn.toolCalls)
      for (const c of turn.toolCalls) {
        const id = c.toolCallId ?? `call_${this.index}_${n++}`;
        const input = inputText(c.input);
        parts.push({ type: 'tool-input-start', id, toolName: c.toolName });
        parts.push({ type: 'tool-input-delta', id, delta: input });
        parts.push({ type: 'tool-input-end', id });
        parts.push({ type: 'tool-call', toolCallId: id, toolName: c.toolName, input });
      }
    parts.push({
      type: 'finish',
      finishReason: { unified: turn.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: usageOf(turn),
    });
    const streamError = turn.streamError;
    const end = errorAt >= 0 ? errorAt : parts.length;
    let i = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        if (errorAt >= 0) return;
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
      // With a scripted error, parts are pulled one by one so the error arrives after them.
      pull(controller) {
        if (i < end) controller.enqueue(parts[i++]);
        else if (errorAt >= 0) controller.error(streamError);
        else controller.close();
      },
    });
    return { stream };
  }
}

function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

function chunks(text: string, size: number | undefined): string[] {
  if (size && size > 0) {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
    return out;
  }
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

function usageOf(turn: ScriptedTurn): LanguageModelV3Usage {
  const u = turn.usage ?? {};
  const input = u.inputTokens ?? 10;
  const output = u.outputTokens ?? 5;
  return {
    inputTokens: { total: input, noCache: input - (u.cachedInputTokens ?? 0), cacheRead: u.cachedInputTokens ?? 0, cacheWrite: undefined },
    outputTokens: { total: output, text: output - (u.reasoningTokens ?? 0), reasoning: u.reasoningTokens ?? 0 },
  };
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason ?? new Error('aborted'));
      },
      { once: true },
    );
  });
}
