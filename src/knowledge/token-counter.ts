/** Counts tokens; the chunkers size chunks with it. A real tokenizer can be plugged in instead of the estimate. */
export interface TokenCounter {
  count(text: string): number;
}

/**
 * An estimate without a tokenizer: about four characters a token, counted word by word so a
 * short word is one token and a long one several (close to BPE tokenizers on English text and code).
 */
export const approximateTokenCounter: TokenCounter = {
  count(text: string): number {
    let tokens = 0;
    for (const word of text.match(/\S+/g) ?? []) tokens += Math.max(1, Math.round(word.length / 4));
    return tokens;
  },
};
