// Runs the notification worker with the app: started when it is ready, stopped (its round
// finished) when it closes. `app.notificationWorker` lets tests drive it.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { createNotificationWorker, type NotificationWorker, type WorkerOptions } from './worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notificationWorker: NotificationWorker;
  }
}

export function registerNotificationWorker(app: FastifyInstance, services: Services, options?: WorkerOptions): void {
  const worker = createNotificationWorker(services, options);
  app.decorate('notificationWorker', worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}
