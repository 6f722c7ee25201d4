import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolCall,
} from '@ai-sdk/provider';

import { JsonToolCallScanner, type ParsedToolCall, parseToolCallsFromText } from './json-tool-calls.js';

/** Instructions added to the system prompt in JSON tool-call mode. */
export function jsonToolInstructions(tools: LanguageModelV3FunctionTool[], required: boolean): string {
  const list = tools
    .map((t) => `- ${t.name}: ${t.description ?? ''}\n  arguments (JSON Schema): ${JSON.stringify(t.inputSchema)}`)
    .join('\n');
  return [
    'You can call tools. To call a tool, reply with only a JSON object and nothing else:',
    '{"tool": "<tool name>", "arguments": { ... }}',
    'To call several tools at once: {"tool_calls": [{"tool": "...", "arguments": {...}}, ...]}',
    'Tool results come back in the next message. ' +
      (required ? 'You must call a tool now.' : 'When you can answer, reply in plain text without JSON.'),
    'Available tools:',
    list,
  ].join('\n');
}

/**
 * Wraps a model that has no native tool calling: tools are described in the system prompt,
 * earlier calls and results are written into the conversation as text, and calls are parsed out
 * of the model's JSON replies (code fences and prose around them are tolerated). Only JSON naming
 * an offered tool is a call; other JSON is answer text. While streaming, text before a call streams
 * at once and the call's JSON is never streamed as text.
 */
export function jsonToolModel(inner: LanguageModelV3): LanguageModelV3 {
  let seq = 0;
  /** The call options for the inner model, and the names of the tools offered in them. */
  const transform = (options: LanguageModelV3CallOptions): { call: LanguageModelV3CallOptions; tools: string[] } => {
    const tools = (options.tools ?? []).filter((t): t is LanguageModelV3FunctionTool => t.type === 'function');
    const choice = options.toolChoice?.type;
    const { tools: _t, toolChoice: _c, ...rest } = options;
    const prompt = toTextPrompt(options.prompt);
    if (tools.length === 0 || choice === 'none') return { call: { ...rest, prompt }, tools: [] };
    const usable = choice === 'tool' ? tools.filter((t) => t.name === (options.toolChoice as { toolName: string }).toolName) : tools;
    const block = jsonToolInstructions(usable, choice === 'required' || choice === 'tool');
    const first = prompt[0];
    if (first?.role === 'system') prompt[0] = { role: 'system', content: `${first.content}\n\n${block}` };
    else prompt.unshift({ role: 'system', content: block });
    return { call: { ...rest, prompt }, tools: usable.map((t) => t.name) };
  };
  const toolCall = (c: ParsedToolCall): LanguageModelV3ToolCall => ({
    type: 'tool-call',
    toolCallId: `json_call_${++seq}`,
    toolName: c.toolName,
    input: c.input,
  });
  return {
    specificationVersion: 'v3',
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      const { call, tools } = transform(options);
      const res = await inner.doGenerate(call);
      let text = '';
      const other: LanguageModelV3Content[] = [];
      for (const part of res.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type !== 'tool-call') other.push(part);
      }
      const parsed = parseToolCallsFromText(text, { tools });
      const content: LanguageModelV3Content[] = [...other];
      if (parsed.prose) content.push({ type: 'text', text: parsed.prose });
      for (const c of parsed.calls) content.push(toolCall(c));
      const hasCalls = parsed.calls.length > 0;
      return { ...res, content, finishReason: hasCalls ? { unified: 'tool-calls', raw: res.finishReason.raw } : res.finishReason };
    },
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      const { call, tools } = transform(options);
      const res = await inner.doStream(call);
      // Text streams as it is known to be answer text; call JSON is held back and becomes tool calls.
      const scanner = new JsonToolCallScanner({ tools });
      let open = false;
      const write = (controller: TransformStreamDefaultController<LanguageModelV3StreamPart>, delta: string) => {
        if (delta === '') return;
        if (!open) controller.enqueue({ type: 'text-start', id: 'json-text' });
        open = true;
        controller.enqueue({ type: 'text-delta', id: 'json-text', delta });
      };
      const stream = res.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === 'text-start' || part.type === 'text-end') return;
            if (part.type === 'text-delta') return write(controller, scanner.push(part.delta));
            if (part.type !== 'finish') return controller.enqueue(part);
            write(controller, scanner.finish());
            if (open) controller.enqueue({ type: 'text-end', id: 'json-text' });
            for (const c of scanner.calls) controller.enqueue(toolCall(c));
            const hasCalls = scanner.calls.length > 0;
            controller.enqueue(hasCalls ? { ...part, finishReason: { unified: 'tool-calls', raw: part.finishReason.raw } } : part);
          },
        }),
      );
      return { ...res, stream };
    },
  };
}

/** Rewrites tool calls and results as text so a model without tool support can follow the history. */
function toTextPrompt(prompt: LanguageModelV3Message[]): LanguageModelV3Message[] {
  const out: LanguageModelV3Message[] = [];
  for (const m of prompt) {
    if (m.role === 'assistant') {
      const content = m.content.map((p) =>
        p.type === 'tool-call' ? { type: 'text' as const, text: JSON.stringify({ tool: p.toolName, arguments: p.input }) } : p,
      );
      out.push({ ...m, content });
    } else if (m.role === 'tool') {
      const lines = m.content.map((p) => {
        if (p.type !== 'tool-result') return '';
        const o = p.output;
        const value = 'value' in o ? (typeof o.value === 'string' ? o.value : JSON.stringify(o.value)) : o.type;
        return o.type.startsWith('error') ? `Tool ${p.toolName} failed: ${value}` : `Result of tool ${p.toolName}: ${value}`;
      });
      out.push({ role: 'user', content: [{ type: 'text', text: lines.filter(Boolean).join('\n') }] });
    } else out.push(m);
  }
  return out;
}
