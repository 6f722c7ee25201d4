import { describe, expect, it } from 'vitest';

import { Router, RoutingError, ValidationError } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { answering, lastUserText, recorder, systemOf } from './helpers.js';

function team() {
  const billing = answering('billing', 'Billing answer.', { description: 'Invoices, payments and refunds' });
  const tech = answering('tech', 'Tech answer.', { description: 'Errors and crashes' });
  const vip = answering('vip', 'VIP answer.');
  const general = answering('general', 'General answer.');
  return { billing, tech, vip, general };
}

describe('Router', () => {
  it('routes by keywords (whole words), regular expressions, predicates and priority', async () => {
    const t = team();
    const router = new Router({
      name: 'desk',
      routes: [
        { agent: t.billing.agent, keywords: ['invoice', 'refund'] },
        { agent: t.tech.agent, patterns: [/\berr(or)?\b/i, 'crash(ed|es)?'] },
        { name: 'priority', agent: t.vip.agent, when: ({ input }) => input.includes('URGENT'), priority: 10 },
      ],
      defaultRoute: t.general.agent,
    });
    const route = async (text: string) => {
      const rec = recorder();
      const r = await router.run(text, { onEvent: rec.onEvent });
      return `${r.workflow?.route}/${rec.of('route')[0].matchedBy}:${r.text}`;
    };
    expect(await route('Where is my Invoice?')).toBe('billing/keyword:Billing answer.');
    expect(await route('The app crashed')).toBe('tech/pattern:Tech answer.');
    expect(await route('URGENT: refund now')).toBe('priority/predicate:VIP answer.');
    expect(await route('invoices-ish words do not count: invoiced')).toBe('general/default:General answer.');
    expect(lastUserText(t.billing.model.calls[0])).toBe('Where is my Invoice?');
    expect(router.routeNames).toEqual(['priority', 'billing', 'tech']);
  });

  it('without a match and without a default is a RoutingError', async () => {
    const t = team();
    const router = new Router({
      name: 'desk',
      routes: [
        { agent: t.billing.agent, keywords: ['invoice'] },
        { agent: t.tech.agent, patterns: ['error'] },
      ],
    });
    const rec = recorder();
    const err = await router.run('Tell me a joke', { onEvent: rec.onEvent }).catch((e) => e);
    expect(err).toBeInstanceOf(RoutingError);
    expect(err.message).toBe(
      'Router "desk" found no route for "Tell me a joke" and has no default route; routes: billing, tech. Add a default route (defaultRoute / default_route) or a classifier.',
    );
    expect(err.code).toBe('no_route');
    expect(rec.of('run_end')[0]).toMatchObject({ status: 'failed' });
  });

  it('asks a model-based classifier when no rule matches', async () => {
    const t = team();
    const classifierModel = new ScriptedModel([{ text: 'tech' }, { text: 'I think **billing**.' }, { text: 'none' }, { text: 'none' }]);
    const make = (defaultRoute?: string) =>
      new Router({
        name: 'desk',
        routes: [t.billing.agent, t.tech.agent],
        defaultRoute,
        classifier: { model: classifierModel, instructions: 'Be decisive.' },
      });
    const rec = recorder();
    const r = await make().run('My screen is blank', { onEvent: rec.onEvent });
    expect(r.text).toBe('Tech answer.');
    expect(rec.of('route')[0]).toMatchObject({ route: 'tech', matchedBy: 'classifier' });
    expect(systemOf(classifierModel.calls[0])).toMatch(
      /Be decisive\.\n\nRoutes:\n- billing: Invoices, payments and refunds\n- tech: Errors and crashes/,
    );
    expect(lastUserText(classifierModel.calls[0])).toBe('My screen is blank');
    expect(rec.of('run_start').map((e) => e.path.join(' > '))).toEqual(['desk', 'desk > desk:classifier', 'desk > tech']);
    expect(Object.keys(r.usageByAgent)).toEqual(['desk:classifier', 'tech']);
    // Loose answers are understood; "none" goes to the default, or fails without one.
    expect((await make().run('charge twice?')).text).toBe('Billing answer.');
    expect((await make('billing').run('hello')).workflow?.route).toBe('billing');
    await expect(make().run('hello')).rejects.toThrow(/found no route for "hello" \(the classifier chose none\)/);
  });

  it('validates routes up front', () => {
    const t = team();
    expect(() => new Router({ name: 'r', routes: [] })).toThrow(ValidationError);
    expect(() => new Router({ name: 'r', routes: [{ agent: t.tech.agent, patterns: ['('] }] })).toThrow(/invalid pattern "\("/);
    expect(() => new Router({ name: 'r', routes: [t.tech.agent], defaultRoute: 'nope' })).toThrow(
      /defaultRoute "nope" is not one of its routes/,
    );
  });
});
