import { defineBroker } from '../../core/define.ts';
import { createQuestradeBroker } from './adapter.ts';
import { questradeDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: questradeDescriptor, create: () => createQuestradeBroker() });
