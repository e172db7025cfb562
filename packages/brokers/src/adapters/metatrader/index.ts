import { defineBroker } from '../../core/define.ts';
import { createMetatraderBroker } from './adapter.ts';
import { metatraderDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: metatraderDescriptor, create: () => createMetatraderBroker() });
