import { defineBroker } from '../../core/define.ts';
import { createCtraderBroker } from './adapter.ts';
import { ctraderDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: ctraderDescriptor, create: () => createCtraderBroker() });
