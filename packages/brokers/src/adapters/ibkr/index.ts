import { defineBroker } from '../../core/define.ts';
import { createIbkrBroker } from './adapter.ts';
import { ibkrDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: ibkrDescriptor, create: () => createIbkrBroker() });
