import { withCcxt } from '../../ccxt/ccxt-module.ts';
import { defineBroker } from '../../core/define.ts';
import { coinbaseDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: coinbaseDescriptor,
  load: withCcxt(async () => (await import('./adapter.ts')).createCoinbaseBroker()),
});
