// Runs the `weather` agent of corvid.yaml with tools defined here in code.
// Build Corvid first (`npm run build`), then run this file with a TypeScript runner.
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

const runtime = await loadRuntime({ configPath: new URL('corvid.yaml', import.meta.url).pathname, tools: [getWeather, convertTemperature] });
try {
  const { text } = await runtime.agent('weather').run('How warm is it in Lisbon, in Fahrenheit?');
  console.log(text);
} finally {
  await runtime.close();
}
