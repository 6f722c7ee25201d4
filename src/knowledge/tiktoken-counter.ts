import type { TokenCounter } from './token-counter.js';

/** The BPE encodings of OpenAI models that the chunkers can count with. */
export type TiktokenEncodingName = 'cl100k_base' | 'o200k_base';

/**
 * The encoding of an OpenAI model: `o200k_base` for the GPT-4o / 4.1 / 4.5 / 5 and o-series
 * models, `cl100k_base` for the embedding models (`text-embedding-3-*`, `ada-002`) and older ones.
 */
export function openAiEncoding(model: string): TiktokenEncodingName {
  return /^(gpt-4o|gpt-4\.[15]|gpt-5|o[1-9]|chatgpt-4o)/.test(model) ? 'o200k_base' : 'cl100k_base';
}

const loaded = new Map<TiktokenEncodingName, Promise<TokenCounter | undefined>>();

/**
 * A token counter with the real tokenizer (`js-tiktoken`, an optional peer, imported on first use);
 * `undefined` when the package is not installed (callers fall back to `approximateTokenCounter`). Special
 * tokens such as `<|endoftext|>` in a document are counted as plain text.
 */
export function tiktokenCounter(encoding: TiktokenEncodingName): Promise<TokenCounter | undefined> {
  let counter = loaded.get(encoding);
  if (!counter) {
    counter = (async () => {
      try {
        const [{ Tiktoken }, ranks] = await Promise.all([
          import('js-tiktoken/lite'),
          encoding === 'o200k_base' ? import('js-tiktoken/ranks/o200k_base') : import('js-tiktoken/ranks/cl100k_base'),
        ]);
        // Building the tokenizer takes a few hundred ms: done at the first count (an ingest with nothing new never pays it).
        let tokenizer: InstanceType<typeof Tiktoken> | undefined;
        return { count: (text: string) => (tokenizer ??= new Tiktoken(ranks.default)).encode(text, [], []).length };
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
        throw err;
      }
    })();
    loaded.set(encoding, counter);
  }
  return counter;
}
