import { withCcxt } from '../../ccxt/ccxt-module.ts';
import { defineBroker } from '../../core/define.ts';
import { krakenDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: krakenDescriptor,
  load: withCcxt(async () => (await import('./adapter.ts')).createKrakenBroker()),
});
