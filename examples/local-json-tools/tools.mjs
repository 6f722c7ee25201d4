// Tools for examples/local-json-tools/corvid.yaml: plain ES module exports made with tool() and zod.
import { tool } from 'corvid';
import { z } from 'zod';

export const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export const multiply = tool({
  name: 'multiply',
  description: 'Multiply two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});
