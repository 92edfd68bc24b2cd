import { DiscoveryService } from '@nestjs/core';

type Constructor<T> = new (...args: never[]) => T;

/**
 * A port whose implementations are providers of any module: each is marked with the port's
 * decorator and the owner finds them through Nest's DiscoveryService once the container is built.
 * No registration call, no registry filled at start: what implements the port is what the
 * application's modules provide. This is the one discovery mechanism of the application
 * (docs/ARCHITECTURE.md, "Ports other modules implement").
 */
export interface DiscoverablePort<T> {
  /** The class decorator of an implementation; the compiler checks that the class implements T. */
  readonly Implementation: () => (target: Constructor<T>) => void;
  /** Every provider marked as an implementation, in the order of the application's modules. */
  implementations(discovery: DiscoveryService): T[];
}

/**
 * Nest links a class to a single discoverable key, so every port shares this one mark and a class
 * lists the ports it implements beside it: one provider may implement several ports (the
 * invoices' side of the ledger both listens to entries and supplies the documents they booked).
 */
const IMPLEMENTS_A_PORT = DiscoveryService.createDecorator<true>();
const PORTS = Symbol('discoverable-port:ports');

export function discoverablePort<T>(): DiscoverablePort<T> {
  const port = Symbol('discoverable-port');
  const portsOf = (target: object): symbol[] => (Reflect.getOwnMetadata(PORTS, target) as symbol[] | undefined) ?? [];
  return {
    Implementation: () => (target) => {
      Reflect.defineMetadata(PORTS, [...portsOf(target), port], target);
      IMPLEMENTS_A_PORT(true)(target);
    },
    implementations: (discovery) =>
      discovery
        .getProviders({ metadataKey: IMPLEMENTS_A_PORT.KEY })
        .map((wrapper) => wrapper.instance as object | null | undefined)
        .filter((instance): instance is object => instance !== undefined && instance !== null && portsOf(instance.constructor).includes(port))
        .map((instance) => instance as T),
  };
}
