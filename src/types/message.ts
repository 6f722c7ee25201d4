import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3ReasoningPart,
  LanguageModelV3TextPart,
  LanguageModelV3ToolCallPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';

/**
 * A conversation message. Corvid keeps history in the AI SDK provider-spec prompt format
 * (`LanguageModelV3Message`), so it is handed to providers without conversion:
 * `system` (string), `user` (text/file parts), `assistant` (text, reasoning, tool-call parts),
 * `tool` (tool-result parts, each paired with a tool call by `toolCallId`).
 */
export type Message = LanguageModelV3Message;
export type TextPart = LanguageModelV3TextPart;
export type FilePart = LanguageModelV3FilePart;
export type ReasoningPart = LanguageModelV3ReasoningPart;
export type ToolCallPart = LanguageModelV3ToolCallPart;
export type ToolResultPart = LanguageModelV3ToolResultPart;
export type ToolResultOutput = LanguageModelV3ToolResultOutput;

/** What a run accepts as input: a user text, or whole messages to append. */
export type RunInput = string | Message[];

/** Builds a user message from text. */
export function userMessage(text: string): Message {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** The concatenated text of a message's text parts. */
export function messageText(message: Message): string {
  if (message.role === 'system') return message.content;
  let out = '';
  for (const part of message.content) if (part.type === 'text') out += part.text;
  return out;
}
