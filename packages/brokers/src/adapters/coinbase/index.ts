import { defineBroker } from '../../core/define.ts';
import { createCoinbaseBroker } from './adapter.ts';
import { coinbaseDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: coinbaseDescriptor, create: () => createCoinbaseBroker() });
