import { expect, it } from 'vitest';
import { isBrokerError } from './errors.ts';
import { createBrokerRegistry } from './registry.ts';
import { defineUnavailableBroker, isUnavailable, unavailableError } from './unavailable.ts';

const module = defineUnavailableBroker({
  name: 'nowhere',
  title: 'Nowhere Securities',
  scale: 1.1,
  help: 'Nowhere Securities has no order API. Connect another broker instead.',
});

it('describes a listed provider that cannot be connected', () => {
  const { descriptor } = module;
  expect(isUnavailable(descriptor)).toBe(true);
  expect(createBrokerRegistry([module]).providers()).toEqual([
    {
      name: 'nowhere',
      title: 'Nowhere Securities',
      status: 'unavailable',
      authentication: {
        type: 'credentials',
        credentials: [],
        help: 'Nowhere Securities has no order API. Connect another broker instead.',
      },
      reference: {},
      scale: 1.1,
    },
  ]);
});

it('refuses a connection with its help text, prefixed with its title', async () => {
  const error = await (await module.load())
    .connect({ baseUrl: '' }, { credentials: {} })
    .catch((caught: unknown) => caught);
  expect(isBrokerError(error) && error.kind).toBe('BrokerUnavailable');
  expect(error).toEqual(unavailableError(module.descriptor));
  expect((error as Error).message).toBe(
    'Nowhere Securities: cannot be connected. Nowhere Securities has no order API. Connect another broker instead.',
  );
});
