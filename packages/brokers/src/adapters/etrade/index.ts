import { defineBroker } from '../../core/define.ts';
import { createEtradeBroker } from './adapter.ts';
import { etradeDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: etradeDescriptor, create: () => createEtradeBroker() });
