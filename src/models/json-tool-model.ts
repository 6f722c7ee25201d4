import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { parseToolCallsFromText } from './json-tool-calls.js';

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
 * of the model's JSON replies (code fences and prose around them are tolerated).
 */
export function jsonToolModel(inner: LanguageModelV3): LanguageModelV3 {
  let seq = 0;
  const transform = (options: LanguageModelV3CallOptions): LanguageModelV3CallOptions => {
    const tools = (options.tools ?? []).filter((t): t is LanguageModelV3FunctionTool => t.type === 'function');
    const choice = options.toolChoice?.type;
    const { tools: _t, toolChoice: _c, ...rest } = options;
    const prompt = toTextPrompt(options.prompt);
    if (tools.length > 0 && choice !== 'none') {
      const usable = choice === 'tool' ? tools.filter((t) => t.name === (options.toolChoice as { toolName: string }).toolName) : tools;
      const block = jsonToolInstructions(usable, choice === 'required' || choice === 'tool');
      const first = prompt[0];
      if (first?.role === 'system') prompt[0] = { role: 'system', content: `${first.content}\n\n${block}` };
      else prompt.unshift({ role: 'system', content: block });
    }
    return { ...rest, prompt };
  };
  const toContent = (text: string): { content: LanguageModelV3Content[]; hasCalls: boolean } => {
    const parsed = parseToolCallsFromText(text);
    if (parsed.calls.length === 0) return { content: text ? [{ type: 'text', text }] : [], hasCalls: false };
    const content: LanguageModelV3Content[] = [];
    if (parsed.prose) content.push({ type: 'text', text: parsed.prose });
    for (const c of parsed.calls) content.push({ type: 'tool-call', toolCallId: `json_call_${++seq}`, toolName: c.toolName, input: c.input });
    return { content, hasCalls: true };
  };
  return {
    specificationVersion: 'v3',
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      const res = await inner.doGenerate(transform(options));
      let text = '';
      const other: LanguageModelV3Content[] = [];
      for (const part of res.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type !== 'tool-call') other.push(part);
      }
      const { content, hasCalls } = toContent(text);
      return {
        ...res,
        content: [...other, ...content],
        finishReason: hasCalls ? { unified: 'tool-calls', raw: res.finishReason.raw } : res.finishReason,
      };
    },
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      const res = await inner.doStream(transform(options));
      let text = '';
      let mode: 'undecided' | 'pass' | 'buffer' = 'undecided';
      const stream = res.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === 'text-start' || part.type === 'text-end') return;
            if (part.type === 'text-delta') {
              text += part.delta;
              if (mode === 'undecided') {
                const head = text.trimStart();
                if (head.length === 0) return;
                mode = head.startsWith('{') || head.startsWith('[') || head.startsWith('`') ? 'buffer' : 'pass';
                if (mode === 'pass') controller.enqueue({ type: 'text-delta', id: 'json-text', delta: text });
                return;
              }
              if (mode === 'pass') controller.enqueue(part.id === 'json-text' ? part : { ...part, id: 'json-text' });
              return;
            }
            if (part.type === 'finish') {
              const { content, hasCalls } = toContent(text);
              if (mode !== 'pass') {
                for (const c of content) if (c.type === 'text') controller.enqueue({ type: 'text-delta', id: 'json-text', delta: c.text });
              }
              if (text) controller.enqueue({ type: 'text-end', id: 'json-text' });
              for (const c of content) if (c.type === 'tool-call') controller.enqueue(c);
              controller.enqueue(hasCalls ? { ...part, finishReason: { unified: 'tool-calls', raw: part.finishReason.raw } } : part);
              return;
            }
            controller.enqueue(part);
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
