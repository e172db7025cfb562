import { withCcxt } from '../../ccxt/ccxt-module.ts';
import { defineBroker } from '../../core/define.ts';
import { bitmexDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: bitmexDescriptor,
  load: withCcxt(async () => (await import('./adapter.ts')).createBitmexBroker()),
});
