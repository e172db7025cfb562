// State kept per running server (one Services each: tests run several in one process), made on
// first use and gone with its Services.
import type { Services } from './services.ts';

/** A getter of the `make()` value of each Services, made once per Services. */
export function perServices<T extends object>(make: () => T): (services: Services) => T {
  const all = new WeakMap<Services, T>();
  return (services) => {
    let value = all.get(services);
    if (!value) {
      value = make();
      all.set(services, value);
    }
    return value;
  };
}
