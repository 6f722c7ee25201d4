import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';

/**
 * A model created at its first call: a cassette that replays every call never creates the
 * provider's model, so it needs no API key and never loads the provider package.
 */
export function lazyModel(create: () => Promise<LanguageModelV3>, provider: string, modelId: string): LanguageModelV3 {
  let model: Promise<LanguageModelV3> | undefined;
  const get = (): Promise<LanguageModelV3> => {
    model ??= create();
    // A failed creation (a missing API key) is reported at each call, not cached.
    model.catch(() => (model = undefined));
    return model;
  };
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    supportedUrls: {},
    doGenerate: async (options: LanguageModelV3CallOptions) => (await get()).doGenerate(options),
    doStream: async (options: LanguageModelV3CallOptions) => (await get()).doStream(options),
  };
}
