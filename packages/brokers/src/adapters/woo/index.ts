import { withCcxt } from '../../ccxt/ccxt-module.ts';
import { defineBroker } from '../../core/define.ts';
import { wooDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: wooDescriptor,
  load: withCcxt(async () => (await import('./adapter.ts')).createWooBroker()),
});
