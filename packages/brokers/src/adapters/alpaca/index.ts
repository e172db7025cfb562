import { defineBroker } from '../../core/define.ts';
import { createAlpacaBroker } from './adapter.ts';
import { alpacaDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: alpacaDescriptor, create: () => createAlpacaBroker() });
