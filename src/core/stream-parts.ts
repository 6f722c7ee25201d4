import type { LanguageModelV3StreamPart, SharedV3ProviderMetadata } from '@ai-sdk/provider';

import { fromProviderUsage } from '../types/usage.js';
import { addContent, addToolCall, type ModelStepOutput, type StepEmitter, withOptions } from './model-step.js';

type TextPart = { type: 'text'; text: string; providerOptions?: SharedV3ProviderMetadata };
type ReasoningPart = { type: 'reasoning'; text: string; providerOptions?: SharedV3ProviderMetadata };

/**
 * Builds a step output from the parts of one response stream, emitting text and reasoning deltas
 * as they arrive. Text and reasoning parts take their place in `content` when they start, so the
 * order the model produced them in is kept (a tool call can arrive before a part's end marker).
 */
export class StreamParts {
  readonly out: ModelStepOutput = {
    content: [],
    calls: [],
    text: '',
    reasoning: '',
    finishReason: 'other',
    usage: fromProviderUsage(undefined),
  };
  /** Something reached the caller (a delta, a tool call): from here on a failure is not retried. */
  visible = false;
  /** The `finish` part arrived. */
  finished = false;
  /** Parts received from the provider, `stream-start` aside (for error messages). */
  events = 0;
  private readonly texts = new Map<string, TextPart>();
  private readonly reasonings = new Map<string, ReasoningPart>();

  constructor(private readonly emitter: StepEmitter | undefined) {}

  /** Takes one part; returns the provider's error for an `error` part (the caller decides how to fail). */
  add(part: LanguageModelV3StreamPart): { error: unknown } | undefined {
    if (part.type !== 'stream-start') this.events++;
    switch (part.type) {
      case 'stream-start':
        if (part.warnings.length > 0) this.out.warnings = part.warnings;
        return undefined;
      case 'text-start':
        this.openText(part.id, part.providerMetadata);
        return undefined;
      case 'text-delta': {
        const t = this.texts.get(part.id) ?? this.openText(part.id, undefined);
        t.text += part.delta;
        if (part.providerMetadata) t.providerOptions = part.providerMetadata;
        this.out.text += part.delta;
        if (part.delta) this.delta('text_delta', part.delta);
        return undefined;
      }
      case 'text-end': {
        const t = this.texts.get(part.id);
        if (t && part.providerMetadata) t.providerOptions = part.providerMetadata;
        this.texts.delete(part.id);
        return undefined;
      }
      case 'reasoning-start':
        this.openReasoning(part.id, part.providerMetadata);
        return undefined;
      case 'reasoning-delta': {
        const r = this.reasonings.get(part.id) ?? this.openReasoning(part.id, undefined);
        r.text += part.delta;
        if (part.providerMetadata) r.providerOptions = { ...r.providerOptions, ...part.providerMetadata };
        this.out.reasoning += part.delta;
        if (part.delta) this.delta('reasoning_delta', part.delta);
        return undefined;
      }
      case 'reasoning-end': {
        const r = this.reasonings.get(part.id);
        if (r && part.providerMetadata) r.providerOptions = { ...r.providerOptions, ...part.providerMetadata };
        this.reasonings.delete(part.id);
        return undefined;
      }
      case 'tool-call':
        this.visible = true;
        addToolCall(this.out, part.toolCallId, part.toolName, part.input, part.providerExecuted, part.providerMetadata);
        return undefined;
      case 'tool-result':
        this.visible = true;
        addContent(this.out, part);
        return undefined;
      case 'finish':
        this.finished = true;
        this.out.finishReason = part.finishReason?.unified ?? 'other';
        this.out.usage = fromProviderUsage(part.usage);
        return undefined;
      case 'error':
        return { error: part.error };
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-input-end':
      case 'response-metadata':
      case 'raw':
      case 'file':
      case 'source':
      case 'tool-approval-request':
        return undefined;
      default: {
        const never: never = part;
        return never;
      }
    }
  }

  /** The output once the stream ended: parts whose end marker never came are kept where they started; empty texts are dropped. */
  result(): ModelStepOutput {
    const out = this.out;
    if (out.content.some((c) => c.type === 'text' && c.text.length === 0)) {
      out.content = out.content.filter((c) => c.type !== 'text' || c.text.length > 0);
    }
    return out;
  }

  private delta(type: 'text_delta' | 'reasoning_delta', delta: string): void {
    this.visible = true;
    const e = this.emitter;
    if (e) e.sink({ type, runId: e.runId, agent: e.agent, path: e.path, step: e.step, delta });
  }

  private openText(id: string, meta: SharedV3ProviderMetadata | undefined): TextPart {
    const t: TextPart = withOptions({ type: 'text', text: '' }, meta);
    this.texts.set(id, t);
    this.out.content.push(t);
    return t;
  }

  private openReasoning(id: string, meta: SharedV3ProviderMetadata | undefined): ReasoningPart {
    const r: ReasoningPart = withOptions({ type: 'reasoning', text: '' }, meta);
    this.reasonings.set(id, r);
    this.out.content.push(r);
    return r;
  }
}
