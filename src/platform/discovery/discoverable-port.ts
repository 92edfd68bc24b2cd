import { DiscoveryService } from '@nestjs/core';

type Constructor<T> = new (...args: never[]) => T;

/**
 * A port whose implementations are providers of any module: each is marked with the port's
 * decorator and the owner finds them through Nest's DiscoveryService once the container is built.
 * No registration call, no registry filled at start: what implements the port is what the
 * application's modules provide. (Nest links a class to one discoverable mark: one class per port.)
 */
export interface DiscoverablePort<T> {
  /** The class decorator of an implementation; the compiler checks that the class implements T. */
  readonly Implementation: () => (target: Constructor<T>) => void;
  /** Every provider marked as an implementation, in the order of the application's modules. */
  implementations(discovery: DiscoveryService): T[];
}

export function discoverablePort<T>(): DiscoverablePort<T> {
  const mark = DiscoveryService.createDecorator<true>();
  return {
    Implementation: () => (target) => mark(true)(target),
    implementations: (discovery) =>
      discovery
        .getProviders({ metadataKey: mark.KEY })
        .map((wrapper) => wrapper.instance as T | null | undefined)
        .filter((instance): instance is T => instance !== undefined && instance !== null),
  };
}
