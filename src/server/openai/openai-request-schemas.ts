import { z } from 'zod';

// Request bodies of the OpenAI-compatible routes. Fields of OpenAI's API that Corvid does not use
// (logprobs, seed, metadata, service_tier, …) are accepted and ignored, as clients send them freely.

const text = () => z.string({ error: 'must be a string' }).max(1_000_000, { error: 'is too long (1,000,000 characters at most)' });
const name = () =>
  z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/, { error: 'must be 1-128 letters, digits, "_", ".", ":" or "-"' });
const jsonSchema = () => z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' });

const chatContentPart = z.union(
  [
    z.object({ type: z.literal('text'), text: text() }),
    z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string({ error: 'must be a URL' }) }) }),
  ],
  { error: 'must be a text or image_url part' },
);
const chatContent = z.union([text(), z.array(chatContentPart)], { error: 'must be a string or an array of content parts' });

const chatToolCall = z.object({
  id: z.string({ error: 'is required' }).min(1).max(256),
  type: z.literal('function', { error: 'must be "function"' }).optional(),
  function: z.object({ name: z.string({ error: 'is required' }).min(1).max(256), arguments: z.string({ error: 'must be a JSON string' }) }),
});

/** One message of `messages`. */
export const chatMessageSchema = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer']), content: chatContent }),
    z.object({ role: z.literal('user'), content: chatContent, name: z.string().optional() }),
    z.object({ role: z.literal('assistant'), content: chatContent.nullish(), tool_calls: z.array(chatToolCall).optional() }),
    z.object({ role: z.literal('tool'), content: chatContent, tool_call_id: z.string({ error: 'is required' }).min(1).max(256) }),
  ],
  { error: 'role must be "system", "developer", "user", "assistant" or "tool"' },
);
export type ChatMessageInput = z.output<typeof chatMessageSchema>;

const toolChoiceMode = z.enum(['none', 'auto', 'required'], { error: 'must be "none", "auto", "required" or a function' });

/** `POST /v1/chat/completions`. */
export const chatCompletionRequestSchema = z.object({
  model: z.string({ error: 'is required: the name of an agent (GET /v1/models lists them)' }).min(1).max(200),
  messages: z
    .array(chatMessageSchema, { error: 'is required and must be an array of messages' })
    .min(1, { error: 'must not be empty' })
    .max(10_000),
  stream: z.boolean({ error: 'must be true or false' }).nullish(),
  stream_options: z.object({ include_usage: z.boolean({ error: 'must be true or false' }).optional() }).nullish(),
  tools: z
    .array(
      z.object({
        type: z.literal('function', { error: 'must be "function" (only function tools are supported)' }),
        function: z.object({ name: name(), description: z.string().max(10_000).optional(), parameters: jsonSchema().optional() }),
      }),
    )
    .max(128)
    .nullish(),
  tool_choice: z.union([toolChoiceMode, z.object({ type: z.literal('function'), function: z.object({ name: name() }) })]).nullish(),
  temperature: z.number({ error: 'must be a number' }).min(0).max(2).nullish(),
  top_p: z.number({ error: 'must be a number' }).min(0).max(1).nullish(),
  max_tokens: z.number({ error: 'must be a number' }).int().positive().nullish(),
  max_completion_tokens: z.number({ error: 'must be a number' }).int().positive().nullish(),
  n: z.literal(1, { error: 'must be 1 (one answer per request)' }).nullish(),
  user: z.string({ error: 'must be a string' }).min(1).max(256).nullish(),
});
export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;

const responseContentPart = z.union(
  [
    z.object({ type: z.enum(['input_text', 'output_text', 'text']), text: text() }),
    z.object({ type: z.literal('input_image'), image_url: z.string({ error: 'must be a URL' }) }),
    z.object({ type: z.literal('refusal'), refusal: z.string() }),
  ],
  { error: 'must be an input_text, output_text or input_image part' },
);

/** One item of `input`. */
export const responseItemSchema = z.union(
  [
    z.object({
      type: z.literal('message').optional(),
      role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'must be "user", "assistant", "system" or "developer"' }),
      content: z.union([text(), z.array(responseContentPart)], { error: 'must be a string or an array of content parts' }),
    }),
    z.object({
      type: z.literal('function_call'),
      call_id: z.string({ error: 'is required' }).min(1).max(256),
      name: z.string({ error: 'is required' }).min(1).max(256),
      arguments: z.string({ error: 'must be a JSON string' }),
    }),
    z.object({
      type: z.literal('function_call_output'),
      call_id: z.string({ error: 'is required' }).min(1).max(256),
      output: z.union([text(), z.array(responseContentPart)], { error: 'must be a string or an array of content parts' }),
    }),
    // Reasoning items a client sends back (they carry what this server sent as progress): skipped.
    z.object({ type: z.literal('reasoning') }),
  ],
  { error: 'must be a message, function_call, function_call_output or reasoning item' },
);
export type ResponseItemInput = z.output<typeof responseItemSchema>;

/** `POST /v1/responses`. */
export const responseRequestSchema = z.object({
  model: z.string({ error: 'is required: the name of an agent (GET /v1/models lists them)' }).min(1).max(200),
  input: z.union([text(), z.array(responseItemSchema).max(10_000)], { error: 'is required: a string or an array of items' }),
  instructions: text().nullish(),
  stream: z.boolean({ error: 'must be true or false' }).nullish(),
  tools: z
    .array(
      z.object({
        type: z.literal('function', { error: 'must be "function" (only function tools are supported)' }),
        name: name(),
        description: z.string().max(10_000).nullish(),
        parameters: jsonSchema().nullish(),
      }),
    )
    .max(128)
    .nullish(),
  tool_choice: z.union([toolChoiceMode, z.object({ type: z.literal('function'), name: name() })]).nullish(),
  temperature: z.number({ error: 'must be a number' }).min(0).max(2).nullish(),
  top_p: z.number({ error: 'must be a number' }).min(0).max(1).nullish(),
  max_output_tokens: z.number({ error: 'must be a number' }).int().positive().nullish(),
  previous_response_id: z.string({ error: 'must be a string' }).min(1).max(300).nullish(),
  conversation: z
    .union([z.string().min(1).max(256), z.object({ id: z.string().min(1).max(256) })], { error: 'must be an id or { id }' })
    .nullish(),
  store: z.boolean({ error: 'must be true or false' }).nullish(),
});
export type ResponseRequest = z.output<typeof responseRequestSchema>;
