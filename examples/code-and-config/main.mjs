// Runs the `weather` agent of corvid.yaml with tools defined here in code:
//   node examples/code-and-config/main.mjs
// Corvid is ESM-only: this file is a module (.mjs); in TypeScript the code is the same.
import { fileURLToPath } from 'node:url';

import { tool } from 'corvid';
import { loadRuntime } from 'corvid/config';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city, temperature in Celsius',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21, sky: 'clear' }),
});

const convertTemperature = tool({
  name: 'convert_temperature',
  description: 'Convert Celsius to Fahrenheit',
  input: z.object({ celsius: z.number() }),
  execute: ({ celsius }) => celsius * 1.8 + 32,
});

const runtime = await loadRuntime({
  configPath: fileURLToPath(new URL('corvid.yaml', import.meta.url)),
  tools: [getWeather, convertTemperature],
});
try {
  const { text } = await runtime.agent('weather').run('How warm is it in Lisbon, in Fahrenheit?');
  console.log(text);
} finally {
  await runtime.close();
}
