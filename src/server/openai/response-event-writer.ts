import type { RunResult } from '../../types/result.js';
import type { SseSink } from '../chat/node-sse-stream.js';
import {
  functionCallItems,
  itemId,
  messageItem,
  type OutputItem,
  reasoningItem,
  type ResponseHead,
  responseObject,
} from './response-objects.js';
import type { AnswerPiece } from './run-narrator.js';

/**
 * Writes a streamed response as the Responses API's typed events: `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added`, its deltas
 * (`response.reasoning_summary_text.delta` for progress, `response.output_text.delta` for the
 * answer, `response.function_call_arguments.*` for tool calls) and `response.output_item.done`,
 * and `response.completed` (or `response.failed`) with the whole response.
 */
export class ResponseEventWriter {
  private seq = 0;
  private readonly output: OutputItem[] = [];
  private open: { kind: AnswerPiece['kind']; id: string; index: number; text: string } | undefined;
  /** Whether answer text was streamed (agents whose text is not streamed give it at the end). */
  private texted = false;

  constructor(
    private readonly stream: SseSink,
    private readonly head: ResponseHead,
  ) {}

  private emit(type: string, fields: Record<string, unknown>): Promise<void> {
    return this.stream.writeSSE({ event: type, data: JSON.stringify({ type, sequence_number: this.seq++, ...fields }) });
  }

  async start(): Promise<void> {
    await this.emit('response.created', { response: responseObject(this.head, []) });
    await this.emit('response.in_progress', { response: responseObject(this.head, []) });
  }

  async piece(p: AnswerPiece): Promise<void> {
    if (this.open !== undefined && this.open.kind !== p.kind) await this.close();
    if (this.open === undefined) await this.openItem(p.kind);
    const o = this.open!;
    o.text += p.delta;
    if (p.kind === 'text') {
      this.texted = true;
      await this.emit('response.output_text.delta', {
        item_id: o.id,
        output_index: o.index,
        content_index: 0,
        delta: p.delta,
        logprobs: [],
      });
    } else {
      await this.emit('response.reasoning_summary_text.delta', { item_id: o.id, output_index: o.index, summary_index: 0, delta: p.delta });
    }
  }

  private async openItem(kind: AnswerPiece['kind']): Promise<void> {
    const index = this.output.length;
    const o = (this.open = { kind, id: itemId(kind === 'text' ? 'msg' : 'rs'), index, text: '' });
    if (kind === 'text') {
      await this.emit('response.output_item.added', { output_index: index, item: messageItem(o.id, '', 'in_progress') });
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      await this.emit('response.content_part.added', { item_id: o.id, output_index: index, content_index: 0, part });
    } else {
      await this.emit('response.output_item.added', { output_index: index, item: reasoningItem(o.id, '') });
      await this.emit('response.reasoning_summary_part.added', {
        item_id: o.id,
        output_index: index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    }
  }

  private async close(): Promise<void> {
    const o = this.open;
    if (o === undefined) return;
    this.open = undefined;
    const at = { item_id: o.id, output_index: o.index };
    let item: OutputItem;
    if (o.kind === 'text') {
      item = messageItem(o.id, o.text);
      await this.emit('response.output_text.done', { ...at, content_index: 0, text: o.text, logprobs: [] });
      const part = { type: 'output_text', text: o.text, annotations: [], logprobs: [] };
      await this.emit('response.content_part.done', { ...at, content_index: 0, part });
    } else {
      item = reasoningItem(o.id, o.text);
      await this.emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: o.text });
      await this.emit('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text: o.text } });
    }
    this.output.push(item);
    await this.emit('response.output_item.done', { output_index: o.index, item });
  }

  /** The answer's last items (text not streamed, tool calls) and `response.completed`. */
  async finish(result: RunResult): Promise<void> {
    if (!this.texted && result.text !== '') await this.piece({ kind: 'text', delta: result.text });
    await this.close();
    for (const item of functionCallItems(result)) {
      if (item.type !== 'function_call') continue;
      const index = this.output.length;
      await this.emit('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } });
      await this.emit('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      await this.emit('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        name: item.name,
        arguments: item.arguments,
      });
      this.output.push(item);
      await this.emit('response.output_item.done', { output_index: index, item });
    }
    const response = responseObject(this.head, this.output, result);
    await this.emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  }

  /** `response.failed` with the run's error. */
  async fail(err: unknown): Promise<void> {
    await this.close();
    const e = err as { code?: string; message?: string };
    const error = { code: e?.code ?? 'server_error', message: e?.message ?? String(err) };
    await this.emit('response.failed', { response: responseObject(this.head, this.output, undefined, error) });
  }
}
