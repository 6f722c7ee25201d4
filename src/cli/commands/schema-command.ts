import { type CliContext, EXIT } from '../cli-context.js';

/** `corvid schema`: the JSON Schema of corvid.yaml on stdout. */
export async function schemaCommand(context: CliContext): Promise<number> {
  const { configJsonSchema } = await import('../../config/index.js');
  context.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  return EXIT.ok;
}
